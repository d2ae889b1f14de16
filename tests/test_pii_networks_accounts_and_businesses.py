"""National card networks, bank accounts after their label, an Iranian national code, and a business's numbers."""

# ruff: noqa: RUF001  (the labels are written in the scripts they match)

from __future__ import annotations

import pytest

from tiermem.trust.pii import PiiKind, PiiMasker, find_pii
from tiermem.trust.pii_keys import LABEL_HINTS


def _found(text: str) -> list[tuple[str, PiiKind]]:
    return [(text[s.start : s.end], s.kind) for s in find_pii(text)]


@pytest.mark.parametrize(
    "number",
    [
        "2203 1234 5678 9016",  # Mir
        "9792 0123 4567 8906",  # Troy
        "8172 1234 5678 9010",  # RuPay
        "9704 1234 5678 9015",  # Napas
        "8600 1234 5678 9012",  # UzCard
        "9860 1112 2233 3440",  # Humo
    ],
)
def test_a_card_of_a_national_network_is_masked_by_its_prefix(number: str) -> None:
    assert _found(f"refund to {number} please") == [(number, PiiKind.CARD)]


def test_a_card_number_after_a_card_word_in_another_language_is_read_by_its_label() -> None:
    assert _found("kartım 1234 5678 9012 3452 ile ödendi") == [("1234 5678 9012 3452", PiiKind.CARD)]
    assert _found("ref 1234 5678 9012 3452 ile ödendi") == []


def test_a_national_network_prefix_failing_luhn_is_no_card() -> None:
    assert _found("refund to 2203 1234 5678 9017 please") == []


def test_a_digit_run_longer_than_any_card_is_read_whole_and_is_no_card() -> None:
    assert _found("Sendung 4111 1111 1111 1111 2233 44 liegt in der Filiale") == []


def test_a_card_followed_by_its_expiry_and_code_is_still_a_card() -> None:
    text = "card 4111 1111 1111 1111 0829 321"
    assert ("4111 1111 1111 1111", PiiKind.CARD) in _found(text)


def test_a_german_tax_id_after_its_label_and_ist_is_masked() -> None:
    assert _found("Meine Steuer-ID ist 38273301463, bitte eintragen.") == [("38273301463", PiiKind.NATIONAL_ID)]


def test_an_iranian_national_code_after_its_label_is_masked_when_its_check_digit_holds() -> None:
    assert _found("کد ملی: 4703829150") == [("4703829150", PiiKind.NATIONAL_ID)]
    assert _found("شماره ملی ۰۰۱۲۳۴۵۶۷۹ است") == [("۰۰۱۲۳۴۵۶۷۹", PiiKind.NATIONAL_ID)]
    assert _found("کد ملی: 4703829151") == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("입금 계좌번호 국민 123-45-678901 로 부탁해요", "123-45-678901"),
        ("Tolong kirim ke rekening Mandiri 9988776655 atas nama Sari", "9988776655"),
        ("Meine Kontonummer: 0532 013 000 bei der Sparkasse", "0532 013 000"),
        ("Send it to my bank account number 40-12-76 31926819", "40-12-76 31926819"),
        ("振込先口座 りそな 7654321", "7654321"),
    ],
)
def test_a_bank_account_number_after_a_bank_account_label_is_masked(text: str, value: str) -> None:
    masked = PiiMasker().mask(text)
    assert value not in masked
    assert "[ACCOUNT_1]" in masked


def test_a_utility_account_number_is_not_a_bank_account() -> None:
    assert _found("Electricity account: 558812047, water account no. 30041877") == []


@pytest.mark.parametrize(
    "text",
    [
        "Lieferant: Muster Technik GmbH, USt-IdNr. DE 312 448 901, Registergericht Bonn",
        "Faktura od firmy Zielony Ogród, NIP 734-218-55-09",
        "Leverantör Stål och Trä AB, organisationsnummer 559012-4471",
        "공급자 사업자등록번호 305-81-44672",
        "Company registration number 0742 1198 (England and Wales)",
    ],
)
def test_a_business_registration_or_vat_number_is_not_read_as_a_phone(text: str) -> None:
    assert PiiMasker().mask(text) == text


@pytest.mark.parametrize("text", ["Zamówienie nr 5512-3300-917 wysłane", "Заказ № 4410-771203 собран"])
def test_an_order_number_after_a_polish_or_russian_order_word_is_not_a_phone(text: str) -> None:
    assert PiiMasker().mask(text) == text


def test_an_amount_after_a_bank_account_label_is_not_an_account_number() -> None:
    assert _found("bank account balance 125000 as of today") == []
    assert _found("계좌 잔액 820000원") == []


def test_a_number_under_a_bank_account_column_is_masked() -> None:
    assert _found("name,bank account\nAnn,20417733") == [("20417733", PiiKind.ACCOUNT)]


def test_the_label_hints_for_bank_accounts_and_the_iranian_code_leave_plain_keys_unread() -> None:
    assert [key for key in ("city", "note", "name", "results", "ts") if LABEL_HINTS.search(key)] == []
    assert LABEL_HINTS.search("bank_account") and LABEL_HINTS.search("کد ملی")
