"""Personal values after their labels in more languages and scripts, and the things' numbers that stay as written."""

# ruff: noqa: RUF001  (the examples are written in the scripts they test)

from __future__ import annotations

import pytest

from tiermem.trust.pii import PiiMasker, find_pii


def _found(text: str) -> list[tuple[str, str]]:
    return [(s.kind.value, text[s.start : s.end]) for s in find_pii(text)]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("访客登记 身份证号码：110108198506127315，已核对", "110108198506127315"),
        ("Fødselsnummer til søkeren: 15037612356", "15037612356"),
        ("CNP chiriaș: 1850612041235", "1850612041235"),
        ("מספר תעודת זהות של המבוטח: 123456717", "123456717"),
        ("届出のマイナンバー：5283 6104 9173", "5283 6104 9173"),
        ("ΑΜΚΑ δικαιούχου: 15068501236", "15068501236"),
        ("ΑΦΜ 094817360 στο έντυπο", "094817360"),
        ("Formulir: NIK 3204051507850000, alamat di Bandung", "3204051507850000"),
        ("rodné číslo žadatele: 850615/1236", "850615/1236"),
        ("CPR-nummer 150685-1230 på blanketten", "150685-1230"),
        ("신청인 주민등록번호: 850615-1234562", "850615-1234562"),
        ("เลขประจำตัวประชาชน 3109900123453 ของผู้สมัคร", "3109900123453"),
        ("आधार संख्या: 3827 1946 5010", "3827 1946 5010"),
        ("Personnummer: 850615-1235", "850615-1235"),
    ],
)
def test_a_national_id_after_its_label_in_its_own_language_is_masked(text: str, value: str) -> None:
    assert ("ID", value) in _found(text)
    assert value not in PiiMasker().mask(text)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("身份证号：110108198506127316", "110108198506127316"),  # the check character is wrong
        ("Fødselsnummer: 15037612357", "15037612357"),
        ("CNP: 1850612041236", "1850612041236"),
        ("ΑΜΚΑ: 15068501237", "15068501237"),
        ("Personnummer: 850615-1236", "850615-1236"),
        ("rodné číslo: 850615/1237", "850615/1237"),
        ("주민등록번호: 850615-1234568", "850615-1234568"),
    ],
)
def test_an_id_holding_a_birth_date_after_its_label_is_masked_though_its_check_digit_is_wrong(
    text: str, value: str
) -> None:
    assert ("ID", value) in _found(text)


@pytest.mark.parametrize(
    "text",
    [
        "身份证号：110108198513427316",  # no 13th month
        "Fødselsnummer: 15137612357",
        "CNP: 1851312041236",
        "ΑΜΚΑ: 45068501237",
        "NHS number 943 476 5918",  # no date: the check digit decides
    ],
)
def test_a_number_after_an_id_label_with_a_wrong_check_digit_and_no_valid_birth_date_is_no_id(text: str) -> None:
    assert not [kind for kind, _ in _found(text) if kind == "ID"]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("यात्री का पासपोर्ट नंबर: K7305512", "K7305512"),
        ("رقم جواز السفر: B51846207", "B51846207"),
        ("หมายเลขหนังสือเดินทาง BK5521907", "BK5521907"),
        ("Αριθμός διαβατηρίου: AK3317209", "AK3317209"),
        ("Номер паспорта: 752284915", "752284915"),
        ("여권번호 M48213375", "M48213375"),
        ("Útlevélszám: BE8830127", "BE8830127"),
        ("Pașaport: 055193842", "055193842"),
        ("Nomor paspor: C2284719", "C2284719"),
        ("Số hộ chiếu: N2219834", "N2219834"),
        ("Číslo cestovního pasu: 41882093", "41882093"),
        ("Passnummer: FN2208813", "FN2208813"),
        ("מספר דרכון: 31882044", "31882044"),
    ],
)
def test_a_passport_after_its_label_in_more_languages_is_masked(text: str, value: str) -> None:
    assert ("PASSPORT", value) in _found(text)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Datum narození: 3. 11. 1979", "3. 11. 1979"),
        ("생년월일: 1988년 3월 9일", "1988년 3월 9일"),
        ("Születési dátum: 1975. 06. 14.", "1975. 06. 14."),
        ("Data nașterii: 22.09.1984", "22.09.1984"),
        ("Ημερομηνία γέννησης: 11/07/1992", "11/07/1992"),
        ("Дата народження: 05.03.1987", "05.03.1987"),
        ("Tanggal lahir: 17-08-1990", "17-08-1990"),
        ("Ngày sinh: 25/12/1983", "25/12/1983"),
        ("Fødselsdato: 14.02.1979", "14.02.1979"),
        ("תאריך לידה: 08/04/1991", "08/04/1991"),
        ("تاريخ الميلاد: 1986-10-02", "1986-10-02"),
        ("जन्म तिथि: 12/06/1994", "12/06/1994"),
    ],
)
def test_a_birth_date_after_its_label_in_more_languages_and_date_forms_is_masked(text: str, value: str) -> None:
    assert ("DOB", value) in _found(text)


def test_a_date_in_those_forms_without_a_birth_label_stays() -> None:
    assert _found("Termín schůzky: 3. 11. 2025") == []
    assert _found("회의 날짜: 2025년 3월 9일") == []


def test_a_second_phone_after_a_place_label_in_a_list_of_numbers_is_masked() -> None:
    text = "連絡先の携帯：080-4417-2290、自宅：045-321-7780"
    assert [kind for kind, _ in _found(text)] == ["PHONE", "PHONE"]


def test_an_email_after_a_hebrew_prefix_and_hyphen_is_masked_whole() -> None:
    text = "שלחתי ל-noa.bar@example.org את הטופס"
    assert _found(text) == [("EMAIL", "noa.bar@example.org")]
    assert _found("write to team-lead@example.org") == [("EMAIL", "team-lead@example.org")]


def test_a_four_part_version_after_a_version_word_and_a_quoted_name_is_no_address() -> None:
    assert _found("Обновили конфигурацию «Склад» 2.1.40.17 вчера") == []
    assert _found("версия 4.2.17.203 установлена") == []
    assert _found("сервер 81.2.69.160 недоступен") == [("IP", "81.2.69.160")]


@pytest.mark.parametrize(
    "text",
    [
        "주문번호 20251104-0007731 출고 완료",
        "검체번호 31-0922-0518 접수",
        "رقم الطلب 5521-8830-19 تم الشحن",
        "Codice articolo 0047-215-336 a magazzino",
        "Graag betalen met betalingskenmerk 4481 2290 57 voor eind mei.",
        "Номер заказа: 0451-882-913",
    ],
)
def test_an_order_article_payment_or_specimen_number_after_its_label_stays(text: str) -> None:
    assert PiiMasker().mask(text) == text
