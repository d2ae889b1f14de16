"""Values masked by their label and their shape where the writer mistyped or left out the check digit, phones after
a label in their country's script, and things' numbers (an article, a shipment, a UPS parcel) that stay."""

# ruff: noqa: RUF001  (the labels are written in the scripts they match)

from __future__ import annotations

from tiermem.trust.pii import PiiKind, PiiMasker, find_pii


def _masked(text: str, value: str) -> bool:
    return value not in PiiMasker().mask(text)


def test_an_iban_after_its_label_is_masked_with_a_mistyped_checksum() -> None:
    assert _masked("Rent goes to IBAN DE12 3704 0044 0532 0130 00 monthly", "3704 0044")
    assert _masked("TRR: SI57191000000123438, thanks", "SI57191000000123438")
    assert _masked("arveldusarve EE39 2200 2210 2014 5685 palun", "EE39 2200 2210 2014 5685")
    assert _masked("لطفا به شماره شبا IR120170000000123456789012 بفرستید", "IR120170000000123456789012")


def test_an_iban_shaped_run_with_a_wrong_checksum_and_no_label_stays() -> None:
    assert find_pii("batch DE12 3704 0044 0532 0130 00 arrived") == []


def test_a_turkish_id_after_the_republics_label_is_masked_by_its_shape() -> None:
    assert _masked("T.C. kimlik numarası: 12345678902, adres Ankara", "12345678902")
    assert not _masked("kimlik 12345678901 kartı", "12345678901")  # a weak label still wants the check digit


def test_a_thai_id_in_its_printed_groups_is_masked_after_its_label() -> None:
    assert _masked("เลขบัตรประชาชน 3 2101 00456 78 9 ครับ", "3 2101 00456 78 9")
    assert not _masked("เลขบัตรประชาชน 3210100456789 ครับ", "3210100456789")


def test_a_codice_fiscale_after_its_label_is_masked_with_a_mistyped_check_letter() -> None:
    assert _masked("Codice fiscale: RSSMRA85T10A562T grazie", "RSSMRA85T10A562T")
    assert not _masked("lotto RSSMRA85T10A562T grazie", "RSSMRA85T10A562T")


def test_an_israeli_id_after_the_dotted_label_is_masked() -> None:
    assert _masked("ת.ז. 123456782 בבקשה", "123456782")


def test_a_snils_cccd_fin_and_rnokpp_are_masked_after_their_labels() -> None:
    assert _masked("СНИЛС: 123-456-789 64, спасибо", "123-456-789 64")
    wrong = "СНИЛС: 123-456-789 65, спасибо"
    assert all(s.kind is not PiiKind.NATIONAL_ID for s in find_pii(wrong))  # its check wrong: no SNILS
    assert _masked("căn cước công dân: 079203004512, cảm ơn", "079203004512")
    assert _masked("FİN kodu 7XQ4M2P, sağ olun", "7XQ4M2P")
    assert _masked("РНОКПП 2876543210, дякую", "2876543210")
    assert not _masked("РНОКПП 9999912345, дякую", "9999912345")  # a birth date yet to come


def test_a_sri_lankan_nic_after_its_sinhala_or_tamil_label_is_masked() -> None:
    assert _masked("ජාතික හැඳුනුම්පත් අංකය 198523401234 ස්තූතියි", "198523401234")
    assert _masked("தேசிய அடையாள அட்டை எண் 197812345678 நன்றி", "197812345678")


def test_passports_after_an_uzbek_label_or_with_their_country_code_are_masked() -> None:
    assert _masked("pasport seriyasi AC7654321 rahmat", "AC7654321")
    assert _masked("passport no 987654321USA for the booking", "987654321USA")


def test_a_phone_after_a_label_in_its_countrys_script_is_masked() -> None:
    assert _masked("कृपया फोन 9812345678 गर्नुहोस्", "9812345678")
    assert _masked("ဖုန်း 09 987 654 321 ပါ", "09 987 654 321")


def test_article_shipment_and_parcel_numbers_are_not_phones() -> None:
    for text in (
        "šifra artikla 552-0193, cena 1.200 din",
        "Objednávka č. 2023-556612 odoslaná",
        "parcel 1Z 4F8 21X 03 5551 2346 left the depot",
        "spedizione GLS 0331 5512 7788 in arrivo",
        "kargo takip 6612 3090 4471 teslim",
    ):
        assert PiiMasker().mask(text) == text, text
