"""The outbound gate reads JSON as a model does: a value after its key, a string holding JSON as JSON, JSON after a
prefix or several in one text; at least what the plain-text reading masks, with the text kept valid JSON."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tiermem.agent.loop import Agent, FunctionTool
from tiermem.context.budget import ContextBudget
from tiermem.embed import HashingEmbedder
from tiermem.llm import ChatMessage, MaskedClient, ScriptedClient, ToolCall
from tiermem.memory import Memory
from tiermem.store import open_store
from tiermem.tokens import TiktokenCounter
from tiermem.trust.pii import PiiCounter, PiiMasker, find_pii
from tiermem.trust.pii_json import MAX_DEPTH
from tiermem.types import Scope

DOB, PASSPORT, IBAN, IP = "07/11/1979", "K48210735", "GB82 WEST 1234 5698 7654 32", "198.51.100.23"
PASSWORD, API_KEY, EMAIL = "Tulip9&garden-31", "v7Np3XqL8rT2wK5m", "kim.lo@example.net"


# -- a value is read after its key -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("arguments", "value"),
    [
        ({"date_of_birth": DOB}, DOB),
        ({"dateOfBirth": DOB}, DOB),
        ({"passport_number": PASSPORT}, PASSPORT),
        ({"traveller": {"name": "Kim", "passport": PASSPORT}}, PASSPORT),
        ({"passport": [PASSPORT]}, PASSPORT),  # an array's elements take the array's key
        ({"username": "kim", "password": PASSWORD}, PASSWORD),
        ({"api_key": API_KEY}, API_KEY),
        ({"auth": {"token": API_KEY}}, API_KEY),
    ],
)
def test_a_json_value_is_read_with_its_key_as_its_label(arguments: dict[str, Any], value: str) -> None:
    masker = PiiMasker()
    text = json.dumps(arguments)
    masked = masker.mask(text)
    assert value not in masked
    json.loads(masked)
    assert masker.unmask(masked, json_string=True) == text


def test_a_number_under_its_key_is_masked_as_a_string() -> None:
    masker = PiiMasker()
    masked = masker.mask('{"passport": 482107351, "qty": 2}')
    assert json.loads(masked) == {"passport": "[PASSPORT_1]", "qty": 2}


# JSON texts the plain-text reading finds values in: the JSON reading must mask every one of them too.
PLAIN_FINDS = [
    {"username": "kim", "password": PASSWORD},
    {"api_key": API_KEY, "region": "eu-west-1"},
    {"auth": {"token": API_KEY}},
    {"note": f"DOB: {DOB}, passport no. {PASSPORT}"},
    {"contact": {"email": EMAIL, "phone": "+44 20 7946 0958"}},
    {"payment": {"card": "4111 1111 1111 1111", "iban": IBAN}},
    {"hosts": [IP, "2001:db8::8a2e:370:7334"], "port": 8443},
    {EMAIL: {"ssn": "123-45-6789", "nino": "AB 12 34 56 C"}},
    {"client_ip": IP, "order_id": "4111111111111111"},
    {"body": json.dumps({"to": EMAIL, "account": IBAN})},
    [{"secret": API_KEY}, {"bearer": f"Bearer {API_KEY}xyz"}],
    {"note": "Write to kim.lo@example.net or call 020 7946 0321, NHS number 943 476 5919."},
]


@pytest.mark.parametrize("data", PLAIN_FINDS, ids=[f"case{n}" for n, _ in enumerate(PLAIN_FINDS)])
def test_the_json_reading_masks_at_least_what_the_plain_reading_of_the_same_text_masks(data: Any) -> None:
    text = json.dumps(data)
    plain = {text[s.start : s.end] for s in find_pii(text)}
    assert plain  # each example is one the plain reading finds something in
    masked = PiiMasker().mask(text)
    json.loads(masked)
    for value in plain:
        assert value not in masked


# -- a string holding JSON is read as JSON -----------------------------------------------------------------------


def _http_body_arguments() -> str:
    body = json.dumps({"note": f"Refund account:\n{IBAN}\nIP:\n{IP}", "date_of_birth": DOB, "who": "Zoë"})
    return json.dumps({"url": "https://crm.example/notes", "body": body})


def test_a_string_holding_json_is_masked_as_json_and_unmasked_to_the_exact_text() -> None:
    masker = PiiMasker()
    text = _http_body_arguments()
    masked = masker.mask(text)

    for value in (IBAN, IP, DOB):
        assert value not in masked
    body = json.loads(json.loads(masked)["body"])  # both encodings still valid JSON
    assert body == {"note": "Refund account:\n[IBAN_1]\nIP:\n[IP_1]", "date_of_birth": "[DOB_1]", "who": "Zoë"}
    assert masker.unmask(masked, json_string=True) == text


def test_a_placeholder_in_a_json_string_inside_json_is_unmasked_escaped_for_both_encodings() -> None:
    masker = PiiMasker()
    assert masker.mask("password: abc\\def123 and " + EMAIL) == "password: [KEY_1] and [EMAIL_1]"
    reply = json.dumps({"body": json.dumps({"p": "[KEY_1]", "to": "[EMAIL_1]"})})
    unmasked = masker.unmask(reply, json_string=True)
    assert json.loads(json.loads(unmasked)["body"]) == {"p": "abc\\def123", "to": EMAIL}


@pytest.mark.parametrize("wrappers", range(MAX_DEPTH + 3))
def test_json_in_strings_is_read_down_to_the_bound_and_deeper_stays_valid_json(wrappers: int) -> None:
    text = json.dumps({"note": f"IBAN:\n{IBAN}"})
    for _ in range(wrappers):
        text = json.dumps({"body": text})
    masker = PiiMasker()
    masked = masker.mask(text)
    if wrappers < MAX_DEPTH:  # the note's string sits inside wrappers + 1 encodings
        assert IBAN not in masked
    value: Any = json.loads(masked)
    for _ in range(wrappers):
        value = json.loads(value["body"])
    assert masker.unmask(masked) == text


def test_escapes_outside_a_masked_value_are_kept_as_written() -> None:
    masked = PiiMasker().mask('{"a": "\\ud83d \\u00e9 kim.lo@example.net"}')
    assert masked == '{"a": "\\ud83d \\u00e9 [EMAIL_1]"}'
    masked.encode("utf-8")  # a lone surrogate stays an escape, so the prompt can be sent


def test_a_value_deep_in_a_large_json_tool_result_is_still_masked() -> None:
    # most strings of a large result are skipped without a reading: the few that hold a value must still be read
    records: list[dict[str, Any]] = [
        {"id": n, "name": f"user{n}", "city": "Lyon", "note": "packed 2 boxes", "tags": ["x", "y"]} for n in range(400)
    ]
    records[317]["note"] = "quiet week. " * 2500 + "Call back on 020 7946 0321 after six."  # 30 KB, value at the end
    records[318]["date_of_birth"] = DOB  # found only after its key
    records[319]["contact"] = {"mail": EMAIL, "ip": IP}
    text = json.dumps({"status": 200, "body": json.dumps({"results": records})})  # an HTTP tool's body
    masker = PiiMasker()
    masked = masker.mask(text)
    for value in ("020 7946 0321", DOB, EMAIL, IP):
        assert value not in masked
    results = json.loads(json.loads(masked)["body"])["results"]
    assert results[317]["note"].endswith("Call back on [PHONE_1] after six.")
    assert results[316] == records[316]
    assert masker.unmask(masked) == text


# -- JSON inside a text ------------------------------------------------------------------------------------------


def test_json_after_a_prefix_and_several_json_values_in_a_text_are_each_masked_as_json() -> None:
    masker = PiiMasker()
    note, dob, ip = (
        json.dumps({"note": "Refund:\n" + IBAN}),
        json.dumps([{"date_of_birth": DOB}]),
        json.dumps({"ip": "\n" + IP}),
    )
    text = f"Result: {note} then {dob}; card 4111 1111 1111 1111 [1] and {ip}"
    masked = masker.mask(text)
    assert masked == (
        'Result: {"note": "Refund:\\n[IBAN_1]"} then [{"date_of_birth": "[DOB_1]"}]; card [CARD_1] [1] and '
        '{"ip": "\\n[IP_1]"}'
    )
    assert masker.unmask(masked) == text


def test_values_masked_inside_json_are_counted() -> None:
    counter = PiiCounter()
    PiiMasker(counter).mask(_http_body_arguments())
    PiiMasker(counter).mask(json.dumps({"passport_number": PASSPORT, "password": PASSWORD}))
    counts = counter.snapshot()
    assert (counts["iban"], counts["ip"], counts["birth_date"], counts["passport"], counts["secret"]) == (1, 1, 1, 1, 1)


_VALUES = st.sampled_from([DOB, PASSPORT, IBAN, IP, PASSWORD, API_KEY, EMAIL, "4111 1111 1111 1111", "v1.2.3", "ok"])
_KEYS = st.sampled_from(["date_of_birth", "passport", "password", "api_key", "note", "body", "items", "dateOfBirth"])
_TEXT = st.lists(st.one_of(_VALUES, st.sampled_from(["\n", " ", '"', "\\", "é", "\u2028"])), max_size=5).map("".join)
_JSON = st.recursive(
    st.one_of(_TEXT, st.integers(-999, 999)),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(_KEYS, inner, max_size=3)),
    max_leaves=8,
)


@settings(max_examples=150, deadline=None)
@given(_JSON, st.booleans(), st.booleans(), st.sampled_from(["", "Result: "]))
def test_mask_then_unmask_gives_back_json_text_exactly(data: Any, nest: bool, ascii_: bool, prefix: str) -> None:
    text = json.dumps(data, ensure_ascii=ascii_)
    if nest:
        text = json.dumps({"body": text, "note": "see body"}, ensure_ascii=ascii_)
    if isinstance(data, (dict, list)) or nest:  # what is looked for as JSON after a prefix: objects and arrays
        text = prefix + text
    else:
        prefix = ""
    masker = PiiMasker()
    masked = masker.mask(text)
    json.loads(masked[len(prefix) :])
    assert masker.unmask(masked) == text


# -- the door: an agent's host tools with named fields and JSON bodies -------------------------------------------


def test_the_agent_never_sends_labelled_or_nested_json_arguments_back_to_the_model() -> None:
    received: list[tuple[str, str]] = []

    def tool(name: str) -> FunctionTool:
        spec = {"type": "function", "function": {"name": name, "parameters": {"type": "object"}}}
        return FunctionTool(spec, lambda args: received.append((name, args)) or "ok")

    form = json.dumps({"date_of_birth": "[DOB_1]", "passport_number": "[PASSPORT_1]"})
    body = json.dumps({"url": "https://crm.example/notes", "body": json.dumps({"note": "Refund:\n[IBAN_1]\n[IP_1]"})})
    inner = ScriptedClient(
        [
            ChatMessage.assistant(None, [ToolCall("c1", "fill_form", form), ToolCall("c2", "http_post", body)]),
            ChatMessage.assistant("Done."),
        ]
    )
    memory = Memory(open_store(":memory:"), HashingEmbedder())
    try:
        agent = Agent(
            memory,
            Scope("acme", "kim", "atlas", "s1"),
            MaskedClient(inner),
            ContextBudget(window=4000, system=150, core=300, output_reserve=400, retrieval_reserve=250),
            system_prompt="You help.",
            counter=TiktokenCounter("o200k_base"),
            tools=[tool("fill_form"), tool("http_post")],
        )
        agent.step(f"Date of birth: {DOB}. Passport number: {PASSPORT}. Refund account {IBAN}, my IP {IP}.")
    finally:
        memory.close()

    args = dict(received)
    assert json.loads(args["fill_form"]) == {"date_of_birth": DOB, "passport_number": PASSPORT}
    assert json.loads(json.loads(args["http_post"])["body"]) == {"note": f"Refund:\n{IBAN}\n{IP}"}
    assert len(inner.calls) == 2
    for call in inner.calls:
        sent = json.dumps(call, ensure_ascii=False)
        for value in (DOB, PASSPORT, IBAN, IP):
            assert value not in sent


@pytest.mark.parametrize(
    ("arguments", "value"),
    [
        ({"fecha_nacimiento": DOB}, DOB),
        ({"dataNascita": DOB}, DOB),
        ({"date_naissance": DOB}, DOB),
        ({"pwd": PASSWORD}, PASSWORD),
        ({"Authorization": "Basic a2ltOlR1bGlwOSZnYXJkZW4tMzE="}, "a2ltOlR1bGlwOSZnYXJkZW4tMzE="),
    ],
)
def test_a_birth_date_key_without_its_preposition_a_pwd_key_and_basic_credentials_are_read_as_labels(
    arguments: dict[str, Any], value: str
) -> None:
    masker = PiiMasker()
    text = json.dumps(arguments)
    masked = masker.mask(text)
    assert value not in masked
    assert masker.unmask(masked, json_string=True) == text


@pytest.mark.parametrize(
    ("arguments", "value"),
    [
        ({"dob": {"value": DOB}}, DOB),
        ({"passport": {"number": PASSPORT, "country": "NZ"}}, PASSPORT),
        ({"travellers": [{"passport": {"id": PASSPORT}}]}, PASSPORT),
        ({"birth": {"date": DOB}}, DOB),
    ],
)
def test_a_value_in_an_object_is_read_after_the_key_the_object_is_stored_under(
    arguments: dict[str, Any], value: str
) -> None:
    masker = PiiMasker()
    text = json.dumps(arguments)
    masked = masker.mask(text)
    assert value not in masked
    assert masker.unmask(masked, json_string=True) == text


@pytest.mark.parametrize(
    "arguments",
    [
        {"version": "10.4.0.7", "host": IP},
        {"firmware": "2.1.9.14", "host": IP},
        {"build_number": "7.0.12.88", "host": IP},
        {"body": json.dumps({"fw_version": "3.3.0.1", "host": IP})},
    ],
)
def test_a_dotted_quad_under_a_version_key_is_a_version_and_an_address_beside_it_is_masked(
    arguments: dict[str, Any],
) -> None:
    text = json.dumps(arguments)
    masked = PiiMasker().mask(text)
    assert IP not in masked
    assert masked == text.replace(IP, "[IP_1]")


def test_other_values_under_a_version_key_are_still_masked() -> None:
    assert PiiMasker().mask(json.dumps({"version": EMAIL})) == '{"version": "[EMAIL_1]"}'
