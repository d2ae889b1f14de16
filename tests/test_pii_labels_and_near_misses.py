"""Labels written as forms write them, labels given by a sibling JSON field, and values shaped like personal data
that are not: versions under version or product keys, part numbers shaped like an SSN, git remotes."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tiermem.trust.pii import PiiMasker, find_pii

PASSPORT, DOB, SSN, IP = "K5530918", "1971-11-19", "536-22-8741", "81.2.69.160"


def _kinds(text: str) -> list[str]:
    return [s.kind.value for s in find_pii(text)]


# -- labels as forms write them -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "label",
    [
        "passport#:",
        "Passport#",
        "passport-no:",
        "passport_no=",
        "Reisepass-Nr.:",
        "Passport (issued abroad):",
        "Passport no. (renewed):",
        "PASSPORT NR:",
    ],
)
def test_a_passport_number_after_a_label_with_joined_signs_or_a_remark_in_brackets_is_masked(label: str) -> None:
    masked = PiiMasker().mask(f"{label} {PASSPORT}")
    assert masked == f"{label} [PASSPORT_1]"


@pytest.mark.parametrize(
    "label",
    [
        "d.o.b.",
        "D.O.B.:",
        "DOB(pt):",
        "DOB (guardian):",
        "Date of Birth (patient):",
        "Birthdate (as on card):",
        "date-of-birth:",
        "date_of_birth=",
    ],
)
def test_a_birth_date_after_dotted_initials_a_joined_label_or_a_remark_in_brackets_is_masked(label: str) -> None:
    assert PiiMasker().mask(f"{label} {DOB}") == f"{label} [DOB_1]"


@pytest.mark.parametrize(
    "text",
    [
        "passport photo booth K5530918",  # the label's word is another's
        "born (we think) in 1971",  # a year alone
        "DOB (see the scan)",  # no date
        "Passport (see attached): pending",
    ],
)
def test_a_remark_after_a_label_does_not_make_other_words_a_value(text: str) -> None:
    assert find_pii(text) == []


# -- a label given by a sibling field ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "value"),
    [
        ({"label": "Date of birth", "value": DOB}, DOB),
        ({"value": DOB, "label": "DOB"}, DOB),  # the label after its value
        ({"field": "SSN", "value": "536228741"}, "536228741"),
        ({"name": "passport", "value": PASSPORT}, PASSPORT),
        ({"fieldName": "passport_number", "fieldValue": PASSPORT}, PASSPORT),
        ([{"key": "dob", "val": DOB}, {"key": "city", "val": "Ghent"}], DOB),
        ({"form": [{"title": "Birth date", "text": "19/11/1971"}]}, "19/11/1971"),
        ({"type": "passport", "number": PASSPORT, "country": "NZ"}, PASSPORT),
        ({"k": "SSN", "v": 536228741}, "536228741"),
    ],
)
def test_a_value_is_read_after_the_label_its_sibling_field_names(data: Any, value: str) -> None:
    masker = PiiMasker()
    text = json.dumps(data)
    masked = masker.mask(text)
    assert value not in masked
    json.loads(masked)
    assert value in masker.unmask(masked, json_string=True)


@pytest.mark.parametrize(
    ("text", "masked"),
    [
        (f"{{'label': 'Date of birth', 'value': '{DOB}'}}", "{'label': 'Date of birth', 'value': '[DOB_1]'}"),
        (f"{{'value': '{PASSPORT}', 'name': 'passport'}}", "{'value': '[PASSPORT_1]', 'name': 'passport'}"),
        (
            f'[{{"field": "DOB", "value": "{DOB}"}}, {{"field": "Ci',
            '[{"field": "DOB", "value": "[DOB_1]"}, {"field": "Ci',
        ),
        (f"{{'label': 'Birthday'}}, {{'value': '{DOB}'}}", f"{{'label': 'Birthday'}}, {{'value': '{DOB}'}}"),
    ],
)
def test_a_value_in_a_dict_repr_or_cut_off_json_is_read_after_its_sibling_label_in_the_same_braces(
    text: str, masked: str
) -> None:
    assert PiiMasker().mask(text) == masked


@pytest.mark.parametrize(
    "data",
    [
        {"name": "Birthday", "date": "2024-05-06"},  # an event named so: its date is no value of the name
        {"label": "Passport office", "value": "Open 9 to 5"},
        {"name": "order", "value": "536228741"},
        {"title": "DOB check", "value": "2024-05-06"},
    ],
)
def test_a_sibling_name_that_labels_no_personal_value_leaves_the_value(data: Any) -> None:
    text = json.dumps(data)
    assert PiiMasker().mask(text) == text


# -- versions are not addresses ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "data",
    [
        {"versions": ["10.2.3.4", "10.2.3.5"]},
        {"versions": {"stable": "10.2.3.4", "beta": "10.2.3.5"}},
        {"releases": [{"name": "4.2.0.1"}]},
        {"kernel": "5.15.0.91"},
        {"bios": "2.10.1.3"},
        {"driver": "31.0.15.3"},
        {"os_build": "6.1.0.12"},
        {"release": "4.2.0.1"},
        {"server_version": "10.0.2.1"},
        {"version_history": ["1.2.3.4", "1.2.3.5"]},
        {"name": "firmware", "value": "1.0.3.7"},
        {"builds": "6.1.0.12, 6.1.0.13"},
    ],
)
def test_a_dotted_quad_under_a_version_or_product_key_or_among_versions_is_a_version(data: Any) -> None:
    text = json.dumps(data)
    assert PiiMasker().mask(text) == text


@pytest.mark.parametrize(
    "data",
    [
        {"ip": IP},
        {"host": IP},
        {"addr": IP},
        {"client": IP},
        {"server": IP},
        {"build_host": IP},
        {"kernel_ip": IP},
        {"versions": {"mirror_host": IP}},
        {"release": {"notes": f"the mirror at {IP} is down"}},
        {"name": "gateway", "value": IP},
        {"firmware": f"{IP}:8080"},
    ],
)
def test_a_dotted_quad_under_an_address_key_or_in_a_sentence_is_still_masked(data: Any) -> None:
    masked = PiiMasker().mask(json.dumps(data))
    assert IP not in masked
    assert "[IP_1]" in masked


# -- part numbers are not SSNs -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        f"SKU {SSN}",
        f"sku: {SSN}",
        f"part no. {SSN}",
        f"Part #{SSN}",
        "Part number 536 22 8741",
        f"catalogue no. {SSN}",
        f"item {SSN} is back in stock",
        json.dumps({"sku": SSN}),
        json.dumps({"part_number": SSN}),
        json.dumps({"partNo": SSN}),
        json.dumps({"item": {"sku": SSN, "qty": 2}}),
        json.dumps({"name": "SKU", "value": SSN}),
        json.dumps({"sku": "219-09-9999"}),  # no SSN the SSA issues, and shaped like a phone number
    ],
)
def test_a_part_number_shaped_like_an_ssn_after_a_product_word_or_under_its_key_stays(text: str) -> None:
    assert PiiMasker().mask(text) == text


def test_a_phone_number_with_its_country_code_under_a_part_key_is_still_masked() -> None:
    assert PiiMasker().mask(json.dumps({"ref": "+44 20 7946 0958"})) == '{"ref": "[PHONE_1]"}'


@pytest.mark.parametrize(
    "text",
    [
        f"SSN {SSN}",
        f"SSN# {SSN}",
        f"Member ID: {SSN}",
        f"my number is {SSN}",
        f"SKU 4471, SSN {SSN}",
        json.dumps({"ssn": SSN}),
        json.dumps({"id": SSN}),
        json.dumps({"sku": "A-100", "note": f"customer SSN {SSN}"}),
        json.dumps({"field": "SSN", "value": SSN}),
    ],
)
def test_an_ssn_after_its_label_an_id_word_or_nothing_is_still_masked(text: str) -> None:
    masked = PiiMasker().mask(text)
    assert SSN not in masked
    assert "[SSN_1]" in masked


# -- git remotes are not e-mail addresses --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "git@github.com:acme/widgets.git",
        "git remote add origin git@github.com:acme/widgets.git",
        "clone git@bitbucket.org:team/tools and build",
        "ssh://git@gitlab.example.org/acme/widgets.git",
        "ssh://git@gitlab.example.org:2222/acme/widgets.git",
        "git+ssh://git@github.com/acme/widgets.git",
        "rsync -a build/ deploy@web1.example.com:/srv/app/",
        json.dumps({"remote": "git@github.com:acme/widgets.git"}),
    ],
)
def test_a_git_remote_or_a_login_in_a_url_is_no_email_address(text: str) -> None:
    assert PiiMasker().mask(text) == text


@pytest.mark.parametrize(
    ("text", "masked"),
    [
        ("mail git@company.com", "mail [EMAIL_1]"),
        ("write to git@company.com.", "write to [EMAIL_1]."),
        ("Contact: git@github.com", "Contact: [EMAIL_1]"),
        ("ask ann@example.org: she knows", "ask [EMAIL_1]: she knows"),
        ("mailto:ann@example.org", "mailto:[EMAIL_1]"),
        ("https://example.org/?to=ann@example.org", "https://example.org/?to=[EMAIL_1]"),
    ],
)
def test_an_email_address_in_prose_or_a_query_is_masked_whatever_its_local_part(text: str, masked: str) -> None:
    assert PiiMasker().mask(text) == masked
