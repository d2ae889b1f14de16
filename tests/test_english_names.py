"""Names in a question: the words it capitalises inside a sentence, which relevance reads as a stranger."""

from __future__ import annotations

from tiermem.english.names import name_phrases, names


def test_names_are_words_capitalised_inside_a_sentence() -> None:
    assert names("What did Priya say about the contract?") == {"priya"}
    assert names("Which films have Ann and Bo watched together?") == {"ann", "bo"}


def test_a_sentence_start_a_month_a_day_and_a_single_letter_are_not_names() -> None:
    assert names("Pickles is the cat's name. Who feeds him?") == frozenset()
    assert names("What did we plan for Friday, 3 March?") == frozenset()
    assert names("Which parts of the U.S. did Tom visit?") == {"tom"}


def test_a_question_in_another_language_has_no_names() -> None:
    assert names("Wo wohnt meine Schwester mit ihrem Hund?") == frozenset()  # German capitalises every noun


def test_name_phrases_keep_a_run_of_capitalised_words_together_and_skip_sentence_starts() -> None:
    text = "Ann met Bob Smith in New York on Monday. Then she flew to Paris, and Bob stayed."
    assert name_phrases(text) == ("bob smith", "new york", "paris", "bob")
    assert name_phrases("Die Brille liegt auf dem Schreibtisch.") == ()
