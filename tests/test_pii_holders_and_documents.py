"""Values with words naming their holder between label and colon, phones and IBANs in less usual forms, and the
numbers of documents, versions and map references that stay as written."""

from __future__ import annotations

import json

import pytest

from tiermem.trust.pii import PiiMasker

# -- a label, words naming whose value it is or what it is for, a colon, the value -------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("BSN van mijn broer voor de huurcommissie: 121547280", "121547280"),
        ("Steuer-ID meiner Tochter: 51684934072", "51684934072"),
        ("PESEL brata do przychodni: 92051837407", "92051837407"),
        ("NIF do senhorio para o contrato: 274633191", "274633191"),
        ("CURP de la paciente: GOMR020514MDFRRSA2", "GOMR020514MDFRRSA2"),
    ],
)
def test_a_national_id_after_its_label_and_the_words_naming_its_holder_is_masked(text: str, value: str) -> None:
    masked = PiiMasker().mask(text)
    assert value not in masked
    assert "[ID_1]" in masked


@pytest.mark.parametrize(
    "text",
    [
        "Passport of my uncle: K40917263 (renewal in spring)",
        "Reisepass von Jonas: C7RT45M91",
        "Passeport de la cliente : 18AV53261",
    ],
)
def test_a_passport_after_its_label_and_the_words_naming_its_holder_is_masked(text: str) -> None:
    assert "[PASSPORT_1]" in PiiMasker().mask(text)


def test_words_after_a_label_that_is_also_a_common_word_do_not_make_it_a_label() -> None:
    text = "Envío sin coste para socios: 719074833"  # "sin" is Spanish for "without" here, not a SIN
    assert PiiMasker().mask(text) == text


def test_words_between_a_label_and_a_number_that_fails_its_check_leave_it() -> None:
    text = "BSN van de afdeling voor de post: 121547281"  # one digit off: no BSN
    assert PiiMasker().mask(text) == text


@pytest.mark.parametrize(
    "text",
    ["Doğum tarihi: 04.11.1988", "Födelsedatum: 1988-11-04", "Дата рождения: 04.11.1988", "syntymäaika 4.11.1988"],
)
def test_a_birth_date_after_a_turkish_swedish_russian_or_finnish_label_is_masked(text: str) -> None:
    assert "[DOB_1]" in PiiMasker().mask(text)


# -- phones and IBANs -----------------------------------------------------------------------------------------------


def test_a_japanese_landline_inside_japanese_prose_is_masked() -> None:
    masked = PiiMasker().mask("事務所の番号は06-6123-4567までお願いします。")
    assert "06-6123-4567" not in masked
    assert "[PHONE_1]" in masked


def test_a_phone_in_the_registry_form_of_country_code_and_dot_is_masked() -> None:
    text = json.dumps({"admin_contact": {"voice": "+44.2079460123", "fax": "+1.4155550172"}})
    masked = json.loads(PiiMasker().mask(text))["admin_contact"]
    assert masked == {"voice": "[PHONE_1]", "fax": "[PHONE_2]"}


def test_an_iban_with_two_spaces_in_a_gap_is_masked() -> None:
    assert PiiMasker().mask("Kontonummer: DE44  50010517 5407324931 bitte") == "Kontonummer: [IBAN_1] bitte"


# -- near misses: documents, versions, grid references -----------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Die Kamera läuft seit gestern mit der versión 2.3.0.9 der Software.",  # a version in Spanish
        "Encomenda nº 00751266 saiu para entrega.",  # an order number with a leading 00
        "Nota fiscal 000.377.120 anexada ao pedido.",  # a fiscal note's number with a leading 000
        "Fattura n. 117/2024 pagata con bonifico.",  # an invoice numbered within its year
        "Diarienummer KS 2024-000913 gäller bygget.",  # a case number after a register's code
        "Camp at grid reference SD 34120 77810 tonight.",  # a British grid reference
        "Protocollo 2023-0045 registrato ieri.",  # a year and a serial
    ],
)
def test_a_document_number_a_version_or_a_grid_reference_is_left_as_written(text: str) -> None:
    assert PiiMasker().mask(text) == text
