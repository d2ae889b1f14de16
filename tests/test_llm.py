"""Chat clients: the OpenAI-compatible client against a real local HTTP fake, the scripted client, complete_json."""

from __future__ import annotations

import base64
import json
import re
import struct
import time
import urllib.request
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

import fake_openai
from fake_openai import FakeOpenAI
from tiermem import llm
from tiermem.embed import OpenAIEmbedder
from tiermem.errors import ConfigError, MemError
from tiermem.llm import (
    ChatClient,
    ChatMessage,
    LLMError,
    OpenAIChatClient,
    ScriptedClient,
    ToolCall,
    complete_json,
)

fake = fake_openai.fixture("fake")

SEARCH_TOOL: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": "archival_memory_search",
        "description": "Search archival memory.",
        "parameters": {
            "type": "object",
            "properties": {"query": {"type": "string"}, "k": {"type": "integer"}},
            "required": ["query"],
        },
    },
}


@pytest.fixture
def sleeps(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """Records the retry backoff instead of waiting for it."""
    seen: list[float] = []
    monkeypatch.setattr(llm.openai, "_sleep", seen.append)
    return seen


def client(server: FakeOpenAI, **kwargs: Any) -> OpenAIChatClient:
    kwargs.setdefault("api_key", "sk-test-123")
    return OpenAIChatClient(server.base_url, "fake-model", **kwargs)


# -- value types ---------------------------------------------------------------------------------------------------


def test_chat_message_to_openai_is_the_exact_wire_shape() -> None:
    call = ToolCall("call_1", "archival_memory_search", '{"query": "cats"}')
    assert ChatMessage.user("hi").to_openai() == {"role": "user", "content": "hi"}
    assert ChatMessage.assistant(None, [call]).to_openai() == {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "call_1",
                "type": "function",
                "function": {"name": "archival_memory_search", "arguments": call.arguments},
            }
        ],
    }
    assert ChatMessage.tool("call_1", "[]").to_openai() == {"role": "tool", "content": "[]", "tool_call_id": "call_1"}
    assert ChatMessage("user", "x", name="ann").to_openai() == {"role": "user", "content": "x", "name": "ann"}


# -- OpenAIChatClient against the local fake -----------------------------------------------------------------------


def test_openai_client_sends_model_messages_and_tools_in_wire_shape_with_bearer_key(fake: FakeOpenAI) -> None:
    fake.reply("ok")
    call = ToolCall("call_7", "archival_memory_search", '{"query":"cats"}')
    messages = [
        ChatMessage.system("You remember things.").to_openai(),
        ChatMessage.user("What pets do I have?").to_openai(),
        ChatMessage.assistant(None, [call]).to_openai(),
        ChatMessage.tool("call_7", '[{"content": "has two cats"}]').to_openai(),
    ]
    client(fake, temperature=0, max_tokens=64).complete(messages, tools=[SEARCH_TOOL])

    (request,) = fake.requests
    assert request.path == "/v1/chat/completions"
    assert request.header("Authorization") == "Bearer sk-test-123"
    assert request.header("Content-Type") == "application/json"
    assert request.body == {
        "model": "fake-model",
        "messages": [
            {"role": "system", "content": "You remember things."},
            {"role": "user", "content": "What pets do I have?"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "call_7",
                        "type": "function",
                        "function": {"name": "archival_memory_search", "arguments": '{"query":"cats"}'},
                    }
                ],
            },
            {"role": "tool", "content": '[{"content": "has two cats"}]', "tool_call_id": "call_7"},
        ],
        "tools": [SEARCH_TOOL],
        "temperature": 0,
        "max_tokens": 64,
    }


def test_openai_client_omits_tools_and_sampling_when_not_given(fake: FakeOpenAI) -> None:
    fake.reply("ok")
    client(fake).complete([{"role": "user", "content": "hi"}])
    assert set(fake.requests[0].body) == {"model", "messages"}


def test_openai_client_parses_text_reply_finish_reason_and_usage(fake: FakeOpenAI) -> None:
    fake.reply("You have two cats.", usage=(42, 5))
    response = client(fake).complete([{"role": "user", "content": "pets?"}])
    assert response.message == ChatMessage("assistant", "You have two cats.")
    assert response.finish_reason == "stop"
    assert (response.usage_prompt_tokens, response.usage_completion_tokens) == (42, 5)


def test_openai_client_parses_tool_calls_keeping_the_raw_argument_string(fake: FakeOpenAI) -> None:
    raw_args = '{ "query": "cats",  "k": 3 }'  # odd spacing must survive: arguments are passed through verbatim
    ids = fake.reply_tool_calls([("archival_memory_search", raw_args), ("conversation_search", {"query": "vet"})])
    response = client(fake).complete([{"role": "user", "content": "pets?"}], tools=[SEARCH_TOOL])
    assert response.finish_reason == "tool_calls"
    assert response.message.content is None
    assert response.message.tool_calls == (
        ToolCall(ids[0], "archival_memory_search", raw_args),
        ToolCall(ids[1], "conversation_search", '{"query": "vet"}'),
    )
    assert response.usage_prompt_tokens is not None and response.usage_completion_tokens is not None


def test_a_tool_loop_round_trips_through_the_wire_format(fake: FakeOpenAI) -> None:
    (call_id,) = fake.reply_tool_calls([("archival_memory_search", '{"query": "cats"}')])
    fake.reply("You have two cats.")
    chat = client(fake)
    messages = [{"role": "user", "content": "pets?"}]
    first = chat.complete(messages, tools=[SEARCH_TOOL])
    messages.append(first.message.to_openai())
    messages.append(ChatMessage.tool(call_id, "has two cats").to_openai())
    # The fake rejects (400) a tool result that does not answer an announced call, as the real API does.
    second = chat.complete(messages, tools=[SEARCH_TOOL])
    assert second.message.content == "You have two cats."
    assert fake.chat_requests[1].body["messages"][1]["tool_calls"][0]["id"] == call_id


def test_the_fake_rejects_a_tool_result_that_answers_no_call_as_the_api_does(fake: FakeOpenAI) -> None:
    fake.reply("unused")
    messages = [{"role": "user", "content": "hi"}, ChatMessage.tool("call_x", "orphan").to_openai()]
    with pytest.raises(LLMError, match=r"HTTP 400.*must be a response to a preceding message") as info:
        client(fake).complete(messages)
    assert info.value.status == 400 and fake.pending == 1


def test_a_retry_with_retry_after_zero_really_happens_over_the_wire(fake: FakeOpenAI) -> None:
    fake.fail(429, "rate limited", headers={"Retry-After": "0"})
    fake.reply("done")
    assert client(fake).complete([{"role": "user", "content": "hi"}]).message.content == "done"
    assert len(fake.chat_requests) == 2


def test_openai_client_retries_once_on_503_then_succeeds(fake: FakeOpenAI, sleeps: list[float]) -> None:
    fake.fail(503, "overloaded", headers={"Retry-After": "1.5"})
    fake.reply("fine now")
    response = client(fake).complete([{"role": "user", "content": "hi"}])
    assert response.message.content == "fine now"
    assert len(fake.requests) == 2
    assert sleeps == [1.5]  # Retry-After honoured


def test_retry_after_is_capped_at_five_seconds_and_defaults_to_a_short_backoff(
    fake: FakeOpenAI, sleeps: list[float]
) -> None:
    fake.fail(429, "slow down", headers={"Retry-After": "120"})
    fake.reply("a")
    fake.fail(502, "bad gateway")
    fake.reply("b")
    chat = client(fake)
    assert chat.complete([{"role": "user", "content": "1"}]).message.content == "a"
    assert chat.complete([{"role": "user", "content": "2"}]).message.content == "b"
    assert sleeps == [5.0, 0.5]


def test_openai_client_gives_llm_error_naming_status_and_url_on_400_without_retrying(
    fake: FakeOpenAI, sleeps: list[float]
) -> None:
    fake.fail(400, "context_length_exceeded: too many tokens")
    with pytest.raises(LLMError) as info:
        client(fake).complete([{"role": "user", "content": "hi"}])
    error = info.value
    assert isinstance(error, MemError)
    assert error.status == 400 and error.url == f"{fake.base_url}/chat/completions"
    assert "HTTP 400" in str(error) and error.url in str(error) and "context_length_exceeded" in str(error)
    assert len(fake.requests) == 1 and sleeps == []


def test_openai_client_gives_llm_error_after_one_retry_on_persistent_500(fake: FakeOpenAI, sleeps: list[float]) -> None:
    fake.fail(500, "boom one")
    fake.fail(500, "boom two")
    fake.reply("never reached")
    with pytest.raises(LLMError, match=r"HTTP 500 after 1 retry: .*boom two") as info:
        client(fake).complete([{"role": "user", "content": "hi"}])
    assert info.value.status == 500 and f"{fake.base_url}/chat/completions" in str(info.value)
    assert len(fake.requests) == 2 and fake.pending == 1


def test_openai_client_times_out_with_llm_error_against_a_server_that_delays(fake: FakeOpenAI) -> None:
    fake.reply("too late", delay=5)
    started = time.monotonic()
    with pytest.raises(LLMError, match=r"timed out after 0\.3 s") as info:
        client(fake, timeout=0.3).complete([{"role": "user", "content": "hi"}])
    assert time.monotonic() - started < 2
    assert info.value.url == f"{fake.base_url}/chat/completions"


def test_connection_refused_is_an_llm_error_naming_the_url() -> None:
    with FakeOpenAI() as server:
        url = server.base_url
    with pytest.raises(LLMError, match=re.escape(f"POST {url}/chat/completions failed")):
        OpenAIChatClient(url, "m", api_key="k").complete([{"role": "user", "content": "hi"}])


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (b"<html>bad gateway</html>", "not JSON: <html>bad gateway</html>"),
        (b'{"choices": []}', r"without a usable choices\[0\].message"),
        (b'{"choices": [{"message": {"content": 7}}]}', "not a string"),
    ],
)
def test_a_200_reply_of_the_wrong_shape_is_an_llm_error_with_an_excerpt(
    fake: FakeOpenAI, body: bytes, expected: str
) -> None:
    fake.reply_raw(body)
    with pytest.raises(LLMError, match=expected):
        client(fake).complete([{"role": "user", "content": "hi"}])


def test_the_api_key_never_appears_in_errors_or_repr(fake: FakeOpenAI) -> None:
    fake.reply_raw(b'{"error": "bad key sk-test-123"}', status=401)
    chat = client(fake)
    with pytest.raises(LLMError) as info:
        chat.complete([{"role": "user", "content": "hi"}])
    assert "sk-test-123" not in str(info.value) and "***" in str(info.value)
    assert "sk-test-123" not in repr(chat)


def test_the_api_key_defaults_from_the_environment(fake: FakeOpenAI, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-env")
    fake.reply("ok")
    fake.reply("ok")
    OpenAIChatClient(fake.base_url, "m").complete([{"role": "user", "content": "hi"}])
    monkeypatch.delenv("OPENAI_API_KEY")
    OpenAIChatClient(fake.base_url, "m").complete([{"role": "user", "content": "hi"}])
    assert [r.header("Authorization") for r in fake.requests] == ["Bearer sk-env", None]


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"base_url": "ftp://x"}, "base_url"),
        ({"model": " "}, "model"),
        ({"timeout": 0}, "timeout"),
        ({"temperature": 3}, "temperature"),
        ({"max_tokens": 0}, "max_tokens"),
    ],
)
def test_openai_client_refuses_bad_configuration(kwargs: dict[str, Any], field: str) -> None:
    args: dict[str, Any] = {"base_url": "http://127.0.0.1:9/v1", "model": "m", **kwargs}
    with pytest.raises(ConfigError, match=field):
        OpenAIChatClient(**args)


# -- ScriptedClient ------------------------------------------------------------------------------------------------


def test_scripted_client_replays_in_order_and_records_each_prompt() -> None:
    call = ToolCall("c1", "archival_memory_search", '{"query": "cats"}')

    def answer_from_tool(messages: Sequence[dict[str, Any]]) -> ChatMessage:
        return ChatMessage.assistant(f"Found: {messages[-1]['content']}")

    scripted = ScriptedClient([ChatMessage.assistant(None, [call]), answer_from_tool])
    assert isinstance(scripted, ChatClient)
    messages: list[dict[str, Any]] = [{"role": "user", "content": "pets?"}]
    first = scripted.complete(messages, tools=[SEARCH_TOOL])
    assert first.message.tool_calls == (call,) and first.finish_reason == "tool_calls"
    messages += [first.message.to_openai(), ChatMessage.tool("c1", "has two cats").to_openai()]
    second = scripted.complete(messages)
    assert second.message.content == "Found: has two cats" and second.finish_reason == "stop"
    messages.append({"role": "user", "content": "later"})  # mutating afterwards must not rewrite the record
    assert [len(c) for c in scripted.calls] == [1, 3]
    assert scripted.tools == [[SEARCH_TOOL], None]
    assert scripted.remaining == 0


def test_scripted_client_errors_clearly_when_the_script_runs_out() -> None:
    scripted = ScriptedClient([ChatMessage.assistant("only one")])
    scripted.complete([{"role": "user", "content": "a"}])
    with pytest.raises(ConfigError, match=r"ran out of replies: 1 scripted, call 2 .*'b'"):
        scripted.complete([{"role": "user", "content": "b"}])
    assert len(scripted.calls) == 2  # the prompt that found the script empty is still recorded


# -- complete_json -------------------------------------------------------------------------------------------------


def test_complete_json_returns_the_object_and_asks_for_the_keys() -> None:
    scripted = ScriptedClient([ChatMessage.assistant('```json\n{"subject": "user", "fact": "has two cats"}\n```')])
    messages = [{"role": "system", "content": "Extract facts."}, {"role": "user", "content": "I have two cats"}]
    assert complete_json(scripted, messages, ["subject", "fact"]) == {"subject": "user", "fact": "has two cats"}
    prompt = scripted.calls[0]
    assert len(prompt) == 2 and prompt[0]["content"].startswith("Extract facts.")
    assert "subject, fact" in prompt[0]["content"] and "JSON" in prompt[0]["content"]
    assert messages[0]["content"] == "Extract facts."  # the caller's list is not modified


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("Sure! The user has cats.", "not a JSON object: 'Sure! The user has cats.'"),
        ('["a", "b"]', "not an object"),
        ('{"subject": "user"}', "lacks the keys fact"),
    ],
)
def test_complete_json_rejects_replies_that_do_not_fit_with_the_raw_excerpt(reply: str, expected: str) -> None:
    scripted = ScriptedClient([ChatMessage.assistant(reply)])
    with pytest.raises(LLMError, match=expected) as info:
        complete_json(scripted, [{"role": "user", "content": "x"}], ["subject", "fact"])
    assert info.value.excerpt == reply


def test_complete_json_works_over_http_and_adds_a_system_message_when_there_is_none(fake: FakeOpenAI) -> None:
    fake.reply('{"summary": "talked about cats"}')
    result = complete_json(client(fake), [{"role": "user", "content": "summarise"}], ["summary"])
    assert result == {"summary": "talked about cats"}
    sent = fake.requests[0].body["messages"]
    assert [m["role"] for m in sent] == ["system", "user"]


# -- the fake's embeddings endpoint --------------------------------------------------------------------------------


def test_fake_embeddings_serve_tiermems_openai_embedder_and_base64(fake: FakeOpenAI) -> None:
    embedder = OpenAIEmbedder(fake.base_url, "fake-embed", dim=8, api_key="sk-e")
    vectors = embedder.embed_batch(["alpha", "beta", "alpha"])
    assert vectors.shape == (3, 8) and np.allclose(vectors[0], vectors[2]) and not np.allclose(vectors[0], vectors[1])
    assert fake.requests[0].header("Authorization") == "Bearer sk-e"

    body = json.dumps({"model": "m", "input": "alpha", "encoding_format": "base64"}).encode()
    request = urllib.request.Request(f"{fake.base_url}/embeddings", data=body, method="POST")
    request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=5) as response:
        packed = json.loads(response.read())["data"][0]["embedding"]
    decoded = np.array(struct.unpack("<8f", base64.b64decode(packed)), dtype=np.float32)
    assert np.allclose(decoded / np.linalg.norm(decoded), vectors[0], atol=1e-6)
