"""A phone after a CJK contact label, a card of an unlisted prefix after a card label, a passport after "n.º", a
birth date after a field naming the birth alone, a phone in a CSV column beside a dotted number and an IBAN in its
national grouping are masked; numbers without those labels stay."""

from __future__ import annotations

from stdnum import luhn

from tiermem.trust.pii import PiiMasker


def _masked(text: str, value: str) -> bool:
    return value not in PiiMasker().mask(text)


def test_a_phone_after_a_cjk_contact_label_and_a_fullwidth_colon_is_masked() -> None:
    assert _masked("連絡先\uff1a080-2291-4476\uff08兄\uff09", "080-2291-4476")
    assert _masked("연락처: 010-3381-9024", "010-3381-9024")


def _card(prefix: str) -> str:
    body = prefix + "7712049318" + "26"[: 15 - len(prefix) - 10]
    digits = body + luhn.calc_check_digit(body)
    return " ".join(digits[i : i + 4] for i in range(0, 16, 4))


def test_a_luhn_valid_card_of_an_unlisted_prefix_after_a_card_label_is_masked() -> None:
    card = _card("3502")
    assert _masked(f"カード番号\uff1a{card}", card)
    assert _masked(f"card number: {card}", card)


def test_a_luhn_valid_number_of_an_unlisted_prefix_without_a_card_label_stays() -> None:
    card = _card("3502")
    assert not _masked(f"shipment {card}", card)


def test_a_passport_after_n_dot_ordinal_is_masked() -> None:
    assert _masked("Pasaporte n.º XKB719204, renovado", "XKB719204")


def test_a_birth_date_after_a_field_naming_the_birth_alone_is_masked() -> None:
    assert _masked("nome: Inês, nascimento: 17/09/1984", "17/09/1984")
    assert _masked("Geb.-Datum: 05.11.1966", "05.11.1966")
    assert _masked("Cumpleaños: 3 de mayo de 1991", "3 de mayo de 1991")


def test_a_date_after_a_plain_date_label_stays() -> None:
    assert not _masked("Lieferdatum: 05.11.2026", "05.11.2026")


def test_a_phone_in_a_csv_column_beside_a_dotted_number_is_masked() -> None:
    text = "id,name,mobile,score\n7,Lena,+351 22 519 3047,88.5\n8,Tom,+351 96 204 7713,91.25"
    masked = PiiMasker().mask(text)
    assert "+351 22 519 3047" not in masked and "+351 96 204 7713" not in masked
    assert "88.5" in masked


def test_an_iban_in_its_national_grouping_is_masked() -> None:
    assert _masked("IBAN per il bonifico: IT60 X 05428 11101 000000123456 grazie", "05428 11101")


def test_an_iban_shaped_run_failing_its_check_stays() -> None:
    assert not _masked("lotto IT61 X 05428 11101 000000123456", "05428 11101")
