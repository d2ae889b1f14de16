"""The outbound gate reads values as a model reads them: JSON by its string values, copy-paste characters as plain
ones, a card in a sentence about paying whatever word stands before it, an address after a product's name."""

from __future__ import annotations

import json
from typing import Any

import pytest

import fake_openai
from fake_openai import FakeOpenAI
from tiermem.agent.loop import Agent, FunctionTool
from tiermem.context.budget import ContextBudget
from tiermem.embed import HashingEmbedder
from tiermem.llm import ChatMessage, ChatResponse, MaskedClient, OpenAIChatClient, ScriptedClient, ToolCall
from tiermem.llm.outbound import masked_call
from tiermem.memory import Memory
from tiermem.store import open_store
from tiermem.tokens import TiktokenCounter
from tiermem.trust.pii import PiiCounter, PiiKind, PiiMasker, find_pii
from tiermem.types import Scope

fake = fake_openai.fixture("fake")

# One value per line, as a model writes a note: in JSON text each line break is the two characters "\n".
LINES = {
    "IBAN": "GB82 WEST 1234 5698 7654 32",
    "IP": "192.0.2.44",
    "NINO": "CE 10 37 59 A",
    "IPv6": "2001:db8::42",
    "EMAIL": "kim.lo@example.net",
}


def _note_arguments() -> str:
    return json.dumps({"content": "Details:\n" + "\n".join(LINES.values())})


def _send_recording(sent: list[list[dict[str, Any]]], reply: ChatMessage) -> Any:
    def send(messages: Any, tools: Any) -> ChatResponse:
        sent.append(list(messages))
        return ChatResponse(reply, "stop", None, None)

    return send


def _assistant_with_arguments(arguments: str) -> dict[str, Any]:
    call = {"id": "c1", "type": "function", "function": {"name": "save_note", "arguments": arguments}}
    return {"role": "assistant", "content": None, "tool_calls": [call]}


# -- JSON read by its values -------------------------------------------------------------------------------------


def test_masking_reads_tool_call_arguments_as_json() -> None:
    sent: list[list[dict[str, Any]]] = []
    messages = [{"role": "user", "content": "note it"}, _assistant_with_arguments(_note_arguments())]
    masked_call(_send_recording(sent, ChatMessage.assistant("ok")), messages, None, None)

    arguments = sent[0][1]["tool_calls"][0]["function"]["arguments"]
    for value in LINES.values():
        assert value not in arguments
    content = json.loads(arguments)["content"]  # still valid JSON, one placeholder per line
    assert content.split("\n") == ["Details:", "[IBAN_1]", "[IP_1]", "[NINO_1]", "[IP_2]", "[EMAIL_1]"]


def test_unmasking_gives_back_valid_json_with_the_values_the_placeholders_stand_for() -> None:
    sent: list[list[dict[str, Any]]] = []
    messages = [{"role": "user", "content": "note it"}, _assistant_with_arguments(_note_arguments())]
    reply = ChatMessage.assistant(
        '{"to": "[EMAIL_1]"}', [ToolCall("c2", "send", '{"to": "[EMAIL_1]", "account": "[IBAN_1]"}')]
    )
    response = masked_call(_send_recording(sent, reply), messages, None, None)

    assert json.loads(response.message.tool_calls[0].arguments) == {"to": LINES["EMAIL"], "account": LINES["IBAN"]}
    assert json.loads(response.message.content or "") == {"to": LINES["EMAIL"]}


def test_a_json_key_and_a_number_that_is_a_card_are_masked_and_the_text_stays_json() -> None:
    masker = PiiMasker()
    masked = masker.mask('{"kim.lo@example.net": {"card": 4111111111111111, "qty": 3}}')
    assert json.loads(masked) == {"[EMAIL_1]": {"card": "[CARD_1]", "qty": 3}}
    assert json.loads(masker.unmask(masked)) == {"kim.lo@example.net": {"card": "4111111111111111", "qty": 3}}


def test_text_that_is_not_valid_json_is_masked_as_text() -> None:
    masker = PiiMasker()
    text = '{"note": "write to kim.lo@example.net" (unfinished'
    assert masker.mask(text) == '{"note": "write to [EMAIL_1]" (unfinished'
    assert masker.unmask(masker.mask(text)) == text


def test_the_agent_never_sends_values_it_unmasked_into_tool_arguments_back_to_the_model() -> None:
    notes: list[str] = []
    save = FunctionTool(
        {"type": "function", "function": {"name": "save_note", "parameters": {"type": "object"}}},
        lambda args: notes.append(json.loads(args)["content"]) or "saved",
    )
    inner = ScriptedClient(
        [
            ChatMessage.assistant(None, [ToolCall("c1", "save_note", json.dumps({"content": "IBAN:\n[IBAN_1]"}))]),
            ChatMessage.assistant("Saved."),
        ]
    )
    memory = Memory(open_store(":memory:"), HashingEmbedder())
    try:
        agent = Agent(
            memory,
            Scope("acme", "kim", "atlas", "s1"),
            MaskedClient(inner),
            ContextBudget(window=2000, system=150, core=300, output_reserve=400, retrieval_reserve=250),
            system_prompt="You help.",
            counter=TiktokenCounter("o200k_base"),
            tools=[save],
        )
        agent.step(f"Save my refund account {LINES['IBAN']}.")
    finally:
        memory.close()

    assert notes == [f"IBAN:\n{LINES['IBAN']}"]  # the tool got the real value
    assert len(inner.calls) == 2
    for call in inner.calls:
        assert LINES["IBAN"] not in json.dumps(call, ensure_ascii=False)


def test_the_openai_client_masks_earlier_tool_arguments_on_the_next_request(fake: FakeOpenAI) -> None:
    fake.reply_tool_calls([("save_note", {"content": "Line:\n[IP_1]\n[EMAIL_1]"})])
    fake.reply("Saved.")
    save = FunctionTool(
        {"type": "function", "function": {"name": "save_note", "parameters": {"type": "object"}}}, lambda _: "saved"
    )
    memory = Memory(open_store(":memory:"), HashingEmbedder())
    try:
        agent = Agent(
            memory,
            Scope("acme", "kim", "atlas", "s1"),
            OpenAIChatClient(fake.base_url, "m", api_key="k", pii_mask="always"),
            ContextBudget(window=2000, system=150, core=300, output_reserve=400, retrieval_reserve=250),
            system_prompt="You help.",
            counter=TiktokenCounter("o200k_base"),
            tools=[save],
        )
        agent.step(f"My IP is {LINES['IP']} and my mail {LINES['EMAIL']}.")
    finally:
        memory.close()

    assert len(fake.chat_requests) == 2
    for request in fake.chat_requests:
        raw = json.dumps(request.body, ensure_ascii=False)
        assert LINES["IP"] not in raw and LINES["EMAIL"] not in raw


# -- copy-paste forms --------------------------------------------------------------------------------------------

COPY_PASTE: list[tuple[PiiKind, str]] = [
    (PiiKind.CARD, "5500\u00a00000\u00a00000\u00a00004"),  # no-break spaces
    (PiiKind.PHONE, "+44\u00a07700\u00a0900123"),
    (PiiKind.PHONE, "06\u202f12\u202f34\u202f56\u202f78"),  # narrow no-break spaces
    (PiiKind.IBAN, "DE89\u20093704\u20090044\u20090532\u20090130\u200900"),  # thin spaces
    (PiiKind.SSN, "123\u201145\u20116789"),  # non-breaking hyphens
    (PiiKind.CARD, "4111\u20131111\u20131111\u20131111"),  # en dashes
    (PiiKind.PHONE, "415\u2012555\u20120132"),  # figure dashes
    (PiiKind.CARD, " ".join(["\uff14\uff11\uff11\uff11"] + ["\uff11" * 4] * 3)),  # full-width digits
    (PiiKind.EMAIL, "kim\uff0elo\uff20example\uff0enet"),  # full-width letters and signs
    (PiiKind.EMAIL, "kim.lo\u200b@example.net"),  # a zero-width space inside
    (PiiKind.CARD, "4111 1\u00ad111 11\u200b11 11\u206011"),  # zero-width space, word joiner, soft hyphen
    (PiiKind.IP, "192\u200c.0.2.44"),  # a zero-width non-joiner
]


@pytest.mark.parametrize(("kind", "value"), COPY_PASTE, ids=[ascii(v) for _, v in COPY_PASTE])
def test_values_written_with_unicode_spaces_dashes_full_width_or_hidden_characters_are_masked_whole(
    kind: PiiKind, value: str
) -> None:
    text = f"Here it is: {value} thanks"
    spans = find_pii(text)
    assert [(text[s.start : s.end], s.kind) for s in spans] == [(value, kind)]
    masker = PiiMasker()
    masked = masker.mask(text)
    assert masked == f"Here it is: [{kind.value}_1] thanks"
    assert masker.unmask(masked) == text


@pytest.mark.parametrize(
    "value", ["5500 0000-0000 0004", "4111-1111 1111-1111", "3782 822463-10005", "5500  0000  0000  0004"]
)
def test_a_card_number_with_mixed_separators_is_masked_whole(value: str) -> None:
    text = f"The card on file is {value}, thanks"
    assert [(text[s.start : s.end], s.kind) for s in find_pii(text)] == [(value, PiiKind.CARD)]


@pytest.mark.parametrize("value", ["AKIA Q4RT 7LMX 2NVB 3KCZ", "ASIA-W3HD-3KQP-Z6TY-5RMB"])
def test_an_aws_access_key_id_written_in_groups_is_masked_whole(value: str) -> None:
    text = f"the deploy key is {value} for now"
    assert [(text[s.start : s.end], s.kind) for s in find_pii(text)] == [(value, PiiKind.SECRET)]


@pytest.mark.parametrize(
    "text",
    ["ASIA WEST HUB TEAM LEADS meet on Monday", '{"team": "AKIA FARM SHOP OPEN DAYS"}', "ASIA DESK 2019 PLAN DONE"],
)
def test_capitals_after_a_key_id_prefix_are_not_masked_as_a_key(text: str) -> None:
    assert PiiMasker().mask(text) == text


@pytest.mark.parametrize(
    "text",
    ["Units 4929 3000-4929 3503 were inspected", '{"serials": "5321 0500-5321 0502"}', "BIN range 4929 3000-4929 3503"],
)
def test_a_number_range_with_mixed_separators_is_not_masked_as_a_card(text: str) -> None:
    assert PiiMasker().mask(text) == text


@pytest.mark.parametrize(
    ("text", "masked"),
    [
        ('{"part_numbers": "4532-7716 2048-3003"}', '{"part_numbers": "4532-7716 2048-3003"}'),
        ("Parts 4532-7716 2048-3003 are in stock", "Parts 4532-7716 2048-3003 are in stock"),
        ('{"card_number": "4532-7716 2048-3003"}', '{"card_number": "[CARD_1]"}'),
        ("Paid with 4532-7716 2048-3003 today", "Paid with [CARD_1] today"),
    ],
)
def test_two_dashed_numbers_side_by_side_are_a_card_only_where_a_card_is_spoken_of(text: str, masked: str) -> None:
    assert PiiMasker().mask(text) == masked


@pytest.mark.parametrize("value", ["5105 1051-0510 5001", "4532 7716 2048-3003", "4532-7716-2048 3003"])
def test_a_card_with_one_odd_gap_or_halves_no_range_has_is_masked_without_a_card_word(value: str) -> None:
    text = f"copied from the form: {value} end"
    assert [(text[s.start : s.end], s.kind) for s in find_pii(text)] == [(value, PiiKind.CARD)]


def test_a_card_shaped_number_with_mixed_separators_and_a_wrong_check_digit_stays() -> None:
    assert find_pii("The card on file is 4111 1111-1111 1112, thanks") == []


def test_copy_paste_forms_are_counted_when_masked() -> None:
    counter = PiiCounter()
    PiiMasker(counter).mask("Card 5500\u00a00000\u00a00000\u00a00004, mail kim.lo\u200b@example.net.")
    counts = counter.snapshot()
    assert counts["card"] == 1 and counts["email"] == 1


@pytest.mark.parametrize(
    "text",
    [
        "version\u00a010.2.3.4 is out",
        "order\u00a04111111111111111 ships today",
        "it cost \u20ac1\u202f234\u202f567",
        "on 2026\u201112\u201107 at 10:30",
        "EAN\u00a04006381333931 on the box",
    ],
)
def test_versions_orders_prices_dates_and_barcodes_with_copy_paste_characters_stay(text: str) -> None:
    assert find_pii(text) == []


# -- the words before a value ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Pay with card #4111 1111 1111 1111 please.",
        "My card id 4111 1111 1111 1111 expires soon.",
        "Keep this card and, in case 4111 1111 1111 1111 is declined, use cash.",
        "Payment record: 4111 1111 1111 1111",
        "Card for the booking: 4111 1111 1111 1111",
        "Please record 4111111111111111 as my card.",
    ],
)
def test_a_card_number_is_masked_after_a_document_word_when_the_sentence_speaks_of_a_card(text: str) -> None:
    assert [s.kind for s in find_pii(text)] == [PiiKind.CARD]


@pytest.mark.parametrize(
    "text",
    [
        "Booking 4111111111111111 is confirmed.",
        "See case 4111111111111111 in the tracker. The card arrived.",
        "Order #4111 1111 1111 1111 ships Monday.",
    ],
)
def test_a_card_length_number_after_a_document_word_stays_when_the_sentence_is_not_about_a_card(text: str) -> None:
    assert find_pii(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "The client connected from 192.0.2.44 yesterday",
        "the agent of mine logs in from 192.0.2.44",
        "my Android phone has 192.0.2.44",
        "my os box sits at 192.0.2.44",
        "reach me at the package depot on 192.0.2.44",
        "client 192.0.2.44 was blocked",
    ],
)
def test_an_address_after_a_product_word_is_masked(text: str) -> None:
    assert [s.kind for s in find_pii(text)] == [PiiKind.IP]


@pytest.mark.parametrize(
    "text",
    [
        "version 4.18.0.22 is out",
        "firmware is now 10.2.3.4",
        "the build no. 2.0.12.87 failed",
        "upgraded to 4.3.2.1 last night",
        "we updated the office printer to 3.1.4.2",
        "kernel 5.4.0.42 boots",
        "release: 4.3.2.1",
    ],
)
def test_a_quad_right_after_a_version_word_or_a_product_name_is_a_version(text: str) -> None:
    assert find_pii(text) == []


@pytest.mark.parametrize(
    ("text", "masked"),
    [
        ("mail kim\ufe6bexample.org", "mail [EMAIL_1]"),  # small commercial at
        ("mail kim\uff20example.org", "mail [EMAIL_1]"),  # full-width at
        ("server 198\u300251\u3002100\u300223 is down", "server [IP_1] is down"),  # ideographic full stop
        ("server 198\uff6151\uff61100\uff6123 is down", "server [IP_1] is down"),  # half-width ideographic stop
    ],
)
def test_an_at_sign_in_small_or_full_width_and_ideographic_full_stops_in_an_address_are_read_plain(
    text: str, masked: str
) -> None:
    masker = PiiMasker()
    assert masker.mask(text) == masked
    assert masker.unmask(masked) == text


def test_a_sentence_ending_in_an_ideographic_full_stop_keeps_its_numbers() -> None:
    text = "会议在3月5日。共有120人参加。"
    assert PiiMasker().mask(text) == text
