"""The outbound PII guardrail: every kind masked and unmasked exactly, ordinary numbers untouched, and the agent
masks what it sends to a remote model and unmasks what comes back."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fake_openai
from fake_openai import FakeOpenAI
from tiermem.agent.loop import Agent, FunctionTool
from tiermem.context.budget import ContextBudget
from tiermem.embed import HashingEmbedder
from tiermem.llm import ChatMessage, MaskedClient, OpenAIChatClient, ScriptedClient, ToolCall, is_loopback_url
from tiermem.memory import Memory
from tiermem.store import open_store
from tiermem.tokens import TiktokenCounter
from tiermem.trust.pii import PROCESS_PII_COUNTS, PiiCounter, PiiKind, PiiMasker, find_pii
from tiermem.types import Scope

fake = fake_openai.fixture("fake")

# One example per kind and format; each must be masked whole, as the kind given, and come back exactly.
EXAMPLES: list[tuple[PiiKind, str]] = [
    (PiiKind.EMAIL, "ann.lee+work@example.co.uk"),
    (PiiKind.EMAIL, "ops@mail.example.org"),
    (PiiKind.PHONE, "+44 20 7946 0958"),
    (PiiKind.PHONE, "+1 (415) 555-0132"),
    (PiiKind.PHONE, "+49-30-901820"),
    (PiiKind.PHONE, "+33 1 23 45 67 89"),
    (PiiKind.PHONE, "0033 1 23 45 67 89"),
    (PiiKind.PHONE, "(415) 555-0132"),
    (PiiKind.PHONE, "415-555-0132"),
    (PiiKind.CARD, "4111 1111 1111 1111"),
    (PiiKind.CARD, "5555-5555-5555-4444"),
    (PiiKind.CARD, "378282246310005"),
    (PiiKind.CARD, "3782 822463 10005"),
    (PiiKind.IBAN, "GB82 WEST 1234 5698 7654 32"),
    (PiiKind.IBAN, "DE89370400440532013000"),
    (PiiKind.SSN, "123-45-6789"),
    (PiiKind.NINO, "AB 12 34 56 C"),
    (PiiKind.NINO, "JG103759A"),
    (PiiKind.IP, "192.168.1.20"),
    (PiiKind.IP, "2001:db8::8a2e:370:7334"),
    (PiiKind.IP, "fe80::1"),
    (PiiKind.SECRET, "sk-proj-abcdefghijklmnopqrstuvwx"),
    (PiiKind.SECRET, "ghp_abcdefghijklmnopqrstuvwxyz0123456789"),
    (PiiKind.SECRET, "AKIAIOSFODNN7EXAMPLE"),
    (PiiKind.SECRET, "xoxb-123456789012-abcdefghijkl"),
    (PiiKind.SECRET, "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"),
    (PiiKind.PHONE, "020 7946 0321"),
    (PiiKind.PHONE, "06 12 34 56 78"),
    (PiiKind.IBAN, "de89 3704 0044 0532 0130 00"),
    (PiiKind.NATIONAL_ID, "12345678Z"),
    (PiiKind.NATIONAL_ID, "RSSMRA85T10A562S"),
    (PiiKind.NATIONAL_ID, "111.444.777-35"),
]

ORDINARY = [
    "The invoice total is $1,234.56, paid on 2026-05-01 at 10:30:45.",
    "Order #A-10293 and order 20260501-4471 ship in 3-5 days; ticket 4471923 is closed.",
    "Upgrade from v2.10.3 to version 1.2.3.4; pi is 3.14159 and the budget 1,000,000 EUR.",
    "Meet on 12/05/2026 or 2026/05/12, room 101, floor -2, temperature -3.5 C, score 98.6%.",
    "Account 00123456789 is an internal reference; parcel 1Z999AA10123456784 is on its way.",
    "Call at 9:30 or 14:00, tables 1-20, years 1999-2024, ISBN 978-3-16-148410-0.",
    "Ratio 16:9, a::b in C++, 192.168.1 is not an address, 1.2.3 is a version.",
]


@pytest.mark.parametrize(("kind", "value"), EXAMPLES, ids=[v for _, v in EXAMPLES])
def test_every_kind_is_masked_whole_and_unmasked_exactly(kind: PiiKind, value: str) -> None:
    masker = PiiMasker()
    text = f"Please note {value} for later."
    masked = masker.mask(text)
    assert masked == f"Please note [{kind.value}_1] for later."
    assert masker.unmask(masked) == text
    assert masker.counter.snapshot()[kind.name.lower()] == 1


def test_key_values_after_a_label_are_masked_and_the_label_kept() -> None:
    masker = PiiMasker()
    text = 'api_key="hunter2hunter2" and Authorization: Bearer abcdefghijklmnop123'
    assert masker.mask(text) == 'api_key="[KEY_1]" and Authorization: Bearer [KEY_2]'


@pytest.mark.parametrize("text", ORDINARY)
def test_dates_amounts_versions_and_order_numbers_are_left_alone(text: str) -> None:
    assert find_pii(text) == []
    assert PiiMasker().mask(text) == text


def test_a_card_number_with_a_wrong_check_digit_or_an_iban_with_a_wrong_checksum_stays() -> None:
    assert find_pii("4111 1111 1111 1112 and GB83 WEST 1234 5698 7654 32") == []


def test_the_same_value_gets_the_same_placeholder_across_messages() -> None:
    masker = PiiMasker()
    first = masker.mask("Write to ann@example.com or bob@example.com.")
    second = masker.mask("Did ann@example.com answer?")
    assert first == "Write to [EMAIL_1] or [EMAIL_2]."
    assert second == "Did [EMAIL_1] answer?"
    assert masker.unmask("I wrote to [EMAIL_2] and [EMAIL_1].") == "I wrote to bob@example.com and ann@example.com."
    assert masker.mapping == {"[EMAIL_1]": "ann@example.com", "[EMAIL_2]": "bob@example.com"}


def test_placeholder_text_the_user_wrote_is_never_issued_so_it_comes_back_as_written() -> None:
    masker = PiiMasker()
    text = "The template says [EMAIL_1]; mine is ann@example.com."
    masked = masker.mask(text)
    assert masked == "The template says [EMAIL_1]; mine is [EMAIL_2]."
    assert masker.unmask(masked) == text


def test_an_issued_placeholder_written_later_by_the_user_comes_back_as_written() -> None:
    masker = PiiMasker()
    assert masker.mask("I am ann@example.com") == "I am [EMAIL_1]"
    text = "The form shows [EMAIL_1] where my address goes."
    masked = masker.mask(text)
    assert masked == "The form shows [TEXT_1] where my address goes."
    assert masker.unmask(masked) == text
    assert masker.unmask("[EMAIL_1] and [TEXT_1]") == "ann@example.com and [EMAIL_1]"


def test_unmasking_json_arguments_escapes_the_value() -> None:
    masker = PiiMasker()
    assert masker.mask("password: abc\\def123") == "password: [KEY_1]"
    assert json.loads(masker.unmask('{"p": "[KEY_1]"}', json_string=True)) == {"p": "abc\\def123"}


def test_masked_counts_reach_the_process_counter() -> None:
    before = PROCESS_PII_COUNTS.snapshot()["email"]
    PiiMasker(PiiCounter()).mask("a@example.com b@example.com")
    assert PROCESS_PII_COUNTS.snapshot()["email"] == before + 2


_PIECES = st.sampled_from([v for _, v in EXAMPLES] + [" ", ", ", "\n", "2026-05-01", "$12.50", "v1.2.3", "[EMAIL_1]"])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(_PIECES, st.text(max_size=20)), max_size=12))
def test_mask_then_unmask_is_the_identity(pieces: list[str]) -> None:
    masker = PiiMasker()
    text = "".join(pieces)
    assert masker.unmask(masker.mask(text)) == text


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(_PIECES, max_size=6), min_size=1, max_size=4))
def test_mask_then_unmask_is_the_identity_across_a_conversation(messages: list[list[str]]) -> None:
    masker = PiiMasker()
    for pieces in messages:
        text = "".join(pieces)
        assert masker.unmask(masker.mask(text)) == text


def test_lowercase_iban_is_masked() -> None:
    assert PiiMasker().mask("iban: gb82 west 1234 5698 7654 32 please") == "iban: [IBAN_1] please"
    assert PiiMasker().mask("es9121000418450200051332.") == "[IBAN_1]."


def test_an_iban_followed_by_a_word_is_masked_without_the_word() -> None:
    assert PiiMasker().mask("GB82 WEST 1234 5698 7654 32 for rent") == "[IBAN_1] for rent"


@pytest.mark.parametrize(
    ("text", "masked"),
    [
        ("SSN 536-90-4312 on file", "SSN [SSN_1] on file"),
        ("ssn 457 22 1093", "ssn [SSN_1]"),
        ("Social security number: 601234567", "Social security number: [SSN_1]"),
        ("ticket 601234567", "ticket 601234567"),  # nine digits without the label are not an SSN
    ],
)
def test_an_ssn_is_masked_dashed_spaced_or_unspaced_after_its_label(text: str, masked: str) -> None:
    assert PiiMasker().mask(text) == masked


def test_a_number_the_ssa_never_issues_is_not_an_ssn() -> None:
    assert PiiKind.SSN not in {span.kind for span in find_pii("SSN 666-12-3456 and 900-12-3456")}


@pytest.mark.parametrize(
    "text",
    [
        "Firmware 10.2.3.4 fixes the Wi-Fi drop.",
        "Upgrade to v1.2.3.4 before Friday.",
        "build 2.0.12.87 is on the beta channel",
        "release 4.3.2.1-rc1",
    ],
)
def test_four_part_firmware_version_is_not_an_ip(text: str) -> None:
    assert find_pii(text) == []


def test_an_address_is_still_masked_when_a_version_is_elsewhere_in_the_text() -> None:
    assert PiiMasker().mask("version 10.2.3.4 runs on 10.2.3.5:8080") == "version 10.2.3.4 runs on [IP_1]"


@pytest.mark.parametrize("text", ["EAN 4006381333931 on the box", "UPC-A 036000291452", "scan 9780201379624"])
def test_a_product_barcode_is_not_a_card_or_a_phone(text: str) -> None:
    assert find_pii(text) == []


@pytest.mark.parametrize(
    "number",
    [
        "(415) 555-0132",  # US
        "0161 496 0753",  # GB
        "+44 7700 900123",  # GB, the range set aside for fiction: still a number in international form
        "030 12345678",  # DE
        "0171 2345678",  # DE mobile
        "01 42 68 53 00",  # FR
        "098765 43210",  # IN
        "(21) 99876-5432",  # BR
        "090-1234-5678",  # JP
        "0412 345 678",  # AU
        "91 123 45 67",  # ES
        "02 1234 5678",  # IT
        "81 1234 5678",  # MX
        "020 123 4567",  # NL
        "+52 55 1234 5678",  # MX, international
        "0049 89 1234567",  # DE from abroad
    ],
)
def test_phone_numbers_of_many_regions_are_masked_in_national_and_international_form(number: str) -> None:
    assert PiiMasker().mask(f"reach me on {number} after six") == "reach me on [PHONE_1] after six"


@pytest.mark.parametrize(
    "text",
    [
        "Order 4500012345 shipped.",
        "case number 0123456789",
        "invoice 302-1234567-7654321",
        "Population 8 336 817 in 2020",
        "The lease runs from 01.04.2026 to 31.03.2027.",
        "It costs 1 299,00 € or $1,349.99.",
        "Standup at 09:15, retro at 16:30:00.",
        "20260501 snapshot",
    ],
)
def test_order_numbers_dates_counts_and_prices_are_not_phone_numbers(text: str) -> None:
    assert find_pii(text) == []


def test_a_birth_date_is_masked_only_after_its_label() -> None:
    assert PiiMasker().mask("DOB: 14/03/1985") == "DOB: [DOB_1]"
    assert PiiMasker().mask("She was born on 2 July 1990 in Leeds.") == "She was born on [DOB_1] in Leeds."
    assert find_pii("The meeting is on 14/03/2026; I was born in 1985.") == []


def test_a_passport_number_is_masked_only_after_its_label() -> None:
    assert PiiMasker().mask("passport no. L898902C3, expires 2031") == "passport no. [PASSPORT_1], expires 2031"
    assert find_pii("Gate L898902C3 and my passport photo") == []


def test_labelled_national_identifiers_are_checked_by_their_check_digit() -> None:
    assert PiiMasker().mask("PAN ABCPE1234F") == "PAN [ID_1]"
    assert PiiMasker().mask("NHS number 943 476 5919") == "NHS number [ID_1]"
    assert PiiKind.NATIONAL_ID not in {s.kind for s in find_pii("NHS number 943 476 5918")}  # wrong check digit


def test_a_lowercase_ni_number_is_masked_after_its_label() -> None:
    assert PiiMasker().mask("my ni number is ce 45 67 89 d") == "my ni number is [NINO_1]"


@pytest.mark.parametrize(
    ("url", "loopback"),
    [
        ("http://127.0.0.1:8080/v1", True),
        ("http://localhost:11434/v1", True),
        ("http://[::1]:8000/v1", True),
        ("https://api.example.com/v1", False),
        ("http://10.0.0.5:8000/v1", False),
    ],
)
def test_loopback_urls_are_told_apart_from_remote_ones(url: str, loopback: bool) -> None:
    assert is_loopback_url(url) is loopback


# -- in the agent loop ----------------------------------------------------------------------------------------

SCOPE = Scope("acme", "maya", "atlas", "s1")
BUDGET = ContextBudget(window=2000, system=150, core=300, output_reserve=400, retrieval_reserve=250)


@pytest.fixture
def mem() -> Iterator[Memory]:
    memory = Memory(open_store(":memory:"), HashingEmbedder())
    yield memory
    memory.close()


def _agent(mem: Memory, llm: Any, **kwargs: Any) -> Agent:
    return Agent(mem, SCOPE, llm, BUDGET, system_prompt="You help.", counter=TiktokenCounter("o200k_base"), **kwargs)


def test_the_agent_masks_prompts_to_a_remote_model_and_unmasks_its_reply_and_tool_arguments(mem: Memory) -> None:
    sent: list[str] = []
    mailer = FunctionTool(
        {"type": "function", "function": {"name": "send_mail", "parameters": {"type": "object"}}},
        lambda args: sent.append(json.loads(args)["to"]) or "sent",
    )
    llm = ScriptedClient(
        [
            ChatMessage.assistant(None, [ToolCall("c1", "send_mail", '{"to": "[EMAIL_1]"}')]),
            ChatMessage.assistant("Sent to [EMAIL_1]; card [CARD_1] is on file."),
        ]
    )
    agent = _agent(mem, MaskedClient(llm), tools=[mailer])  # the outbound gate around a client of one's own

    turn = agent.step("Mail ann@example.com that card 4111 1111 1111 1111 is mine.")

    assert turn.reply == "Sent to ann@example.com; card 4111 1111 1111 1111 is on file."
    assert sent == ["ann@example.com"]  # the tool got the real value
    for call in llm.calls:  # the model never saw one
        raw = json.dumps(call)
        assert "ann@example.com" not in raw and "4111" not in raw
    assert "[EMAIL_1]" in llm.calls[0][-1]["content"]
    # The context keeps the real text: masking happens only at the edge.
    assert "ann@example.com" in agent.context.messages[0].content


def test_the_guard_is_off_for_a_loopback_model_unless_asked(mem: Memory, fake: FakeOpenAI) -> None:
    assert not OpenAIChatClient(fake.base_url, "m", api_key="k").masks_pii
    assert OpenAIChatClient("https://models.example.com/v1", "m", api_key="k").masks_pii  # remote: on by default
    assert not OpenAIChatClient("https://models.example.com/v1", "m", api_key="k", pii_mask="never").masks_pii
    fake.reply("Noted, [EMAIL_1].")
    agent = _agent(mem, OpenAIChatClient(fake.base_url, "m", api_key="k", pii_mask="always"))
    turn = agent.step("I am ann@example.com")
    assert turn.reply == "Noted, ann@example.com."
    assert "ann@example.com" not in fake.chat_requests[0].raw.decode()


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("write to o'neill@example.com about the rota", "o'neill@example.com"),
        ("SSN (typed without dashes): 536721840", "536721840"),
        ("Zahlung an «CH93 0076 2011 6238 5295 7» bitte", "CH93 0076 2011 6238 5295 7"),
    ],
)
def test_an_apostrophe_in_an_address_a_remark_after_a_label_and_a_short_last_iban_group_are_masked(
    text: str, value: str
) -> None:
    assert value in [text[s.start : s.end] for s in find_pii(text)]


@pytest.mark.parametrize(
    "text",
    [
        "DHL 3318 4402 7716 lands on Friday",
        "read pp. 2210-2264 before the seminar",
        "final score 6-3 4-6 7-5 6-1",
        "Office 16.0.17928.20114 is installed",
    ],
)
def test_parcel_numbers_page_ranges_scores_and_versions_are_not_phone_numbers(text: str) -> None:
    assert find_pii(text) == []


def test_an_ssn_is_masked_after_its_label_and_a_remark_in_brackets_of_up_to_24_characters() -> None:
    short = "social security (see the old letter) 401234567"
    assert PiiMasker().mask(short) == "social security (see the old letter) [SSN_1]"
    longest = "Social security number (as on the 2019 card): 342251234"
    assert PiiMasker().mask(longest) == "Social security number (as on the 2019 card): [SSN_1]"


@pytest.mark.parametrize(
    "address", ["renée.dupré@café-crème.fr", "ольга@почта.рф", "zoë@exämple.xn--p1ai", "müller@straße.de"]
)
def test_an_email_address_with_accented_greek_or_cyrillic_letters_is_masked_whole(address: str) -> None:
    assert PiiMasker().mask(f"write to {address} today") == "write to [EMAIL_1] today"


def test_an_email_address_next_to_chinese_text_does_not_take_the_words_around_it() -> None:
    assert PiiMasker().mask("邮箱: ann@example.com 谢谢") == "邮箱: [EMAIL_1] 谢谢"


@pytest.mark.parametrize(
    ("text", "masked"),
    [
        ("Driver=x;Server=db;Uid=app;Pwd=Orchid42!blue;", "Driver=x;Server=db;Uid=app;Pwd=[KEY_1];"),
        ("pwd: Orchid42!blue", "pwd: [KEY_1]"),
        ("Authorization: Basic a2ltOk9yY2hpZDQyIWJsdWU=", "Authorization: Basic [KEY_1]"),
        ('-H "authorization: basic a2ltOk9yY2hpZDQy"', '-H "authorization: basic [KEY_1]"'),
    ],
)
def test_a_pwd_value_and_http_basic_credentials_are_masked(text: str, masked: str) -> None:
    assert PiiMasker().mask(text) == masked


@pytest.mark.parametrize(
    "text", ["PWD=/home/kim/projects/site", "pwd: ~/work/reports", "authorization: basic training for new staff"]
)
def test_a_working_directory_and_a_lower_case_word_after_basic_are_no_credentials(text: str) -> None:
    assert PiiMasker().mask(text) == text
