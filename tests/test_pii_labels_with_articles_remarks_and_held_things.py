"""A label with its article or a remark before its value; Nigerian and South African ids; held things' numbers."""

from __future__ import annotations

import pytest

from tiermem.trust.pii import PiiMasker, find_pii


def _found(text: str) -> list[tuple[str, str]]:
    return [(text[s.start : s.end], s.kind.value) for s in find_pii(text)]


def test_a_checking_or_savings_account_number_is_a_bank_account() -> None:
    assert _found("Pay into the checking account number 7305518826 please") == [("7305518826", "ACCOUNT")]
    assert _found("savings acct # 66120498 at the credit union") == [("66120498", "ACCOUNT")]
    assert _found("savings account balance 125000") == []


def test_a_romanian_label_with_its_article_names_the_personal_code() -> None:
    assert _found("Am trimis CNP-ul fiului la scoala: 1920315123457") == [("1920315123457", "ID")]
    assert _found("codul numeric personal 1920315123457") == [("1920315123457", "ID")]


def test_a_remark_in_brackets_then_words_and_a_colon_stand_between_a_label_and_its_value() -> None:
    text = "ІПН (РНОКПП) працівника для звіту: 3345601289"
    assert "3345601289" not in PiiMasker().mask(text)
    assert _found("CNP (mama) pentru dosar: 1920315123457") == [("1920315123457", "ID")]


def test_a_hindi_pan_card_label_names_the_pan() -> None:
    assert _found("पैन कार्ड: ACDPL7315K") == [("ACDPL7315K", "ID")]


def test_a_nigerian_nin_and_bvn_are_read_after_their_capitals() -> None:
    assert _found("Abeg confirm NIN wa 40218836571 today") == [("40218836571", "ID")]
    assert _found("BVN: 22190377465") == [("22190377465", "ID")]
    assert _found("nin 40218836571") == []  # the label is written in capitals


@pytest.mark.parametrize("label", ["Inombolo yomazisi:", "ID-nommer:", "SA ID number", "identity number:"])
def test_a_south_african_id_after_its_label_is_masked(label: str) -> None:
    assert _found(f"{label} 9103155123089") == [("9103155123089", "ID")]


def test_a_thirteen_digit_reference_after_an_id_word_fails_the_south_african_check() -> None:
    assert _found("ID number: 9103155123088") == []


@pytest.mark.parametrize(
    "text",
    [
        "Polisnummer inboedelverzekering: 31-7782045-02",
        "Organisationsnummer för Snickeriet Ek AB: 559012-3381",
        "Org.nr. til sameiet: 977 310 452",
        "〒060-0806 札幌市北区",
        "Numer licznika wody: 0032871054",
        "Varaosan numero 7731-0452-18",
        "Zählernummer der Wohnung: 0049 1177 2031",
    ],
)
def test_a_policy_business_meter_part_or_postal_number_is_left_as_written(text: str) -> None:
    assert _found(text) == []


def test_a_phone_word_between_a_business_label_and_the_colon_still_names_a_phone() -> None:
    assert _found("Organisationsnummer och telefon: 070-123 45 67") == [("070-123 45 67", "PHONE")]


def test_a_meter_readers_phone_after_his_name_is_still_a_phone() -> None:
    assert _found("Meter reader Tom Hale: 07700 900456") == [("07700 900456", "PHONE")]


@pytest.mark.parametrize(
    "text",
    ["In case of emergency: +44 7700 900123", "in case of a flood, call 07700 900123"],
)
def test_a_phone_after_in_case_of_is_masked(text: str) -> None:
    assert "7700 900123" not in PiiMasker().mask(text)


def test_a_case_number_after_case_of_a_thing_stays() -> None:
    assert PiiMasker().mask("Case of the boiler: 4471 2231 9981") == "Case of the boiler: 4471 2231 9981"
