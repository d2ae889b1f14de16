"""An OpenAI Agents SDK agent stores and finds a memory through tiermem's tools, against the local fake API."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any, cast

import pytest

pytest.importorskip("agents")

from agents import Agent, OpenAIChatCompletionsModel, RunConfig, Runner
from openai import AsyncOpenAI

import fake_openai
from fake_openai import FakeOpenAI
from tiermem import Memory, Scope
from tiermem.embed import HashingEmbedder
from tiermem.errors import ValidationError
from tiermem.integrations.openai_agents import (
    DEFAULT_TOOLS,
    core_memory_instructions,
    function_tools,
    memory_tools,
)

fake = fake_openai.fixture("fake")
SCOPE = Scope("shop", "ann", "helper")


@pytest.fixture
def memory() -> Iterator[Memory]:
    with Memory.open(":memory:", embedder=HashingEmbedder()) as mem:
        yield mem


def _agent(memory: Memory, fake: FakeOpenAI) -> Agent[Any]:
    tools = memory_tools(memory, SCOPE)
    client = AsyncOpenAI(base_url=fake.base_url, api_key="test-key", max_retries=0)
    return Agent(
        name="helper",
        instructions=core_memory_instructions(tools, "You help Ann."),
        model=OpenAIChatCompletionsModel(model="gpt-4o", openai_client=client),
        tools=list(function_tools(tools)),
    )


def _tool_results(fake: FakeOpenAI) -> list[str]:
    return [
        str(m["content"])
        for r in fake.chat_requests
        for m in r.body["messages"]
        if m["role"] == "tool" and isinstance(m.get("content"), str)
    ]


def test_an_sdk_agent_stores_a_note_and_finds_it_in_a_later_run(memory: Memory, fake: FakeOpenAI) -> None:
    agent = _agent(memory, fake)
    config = RunConfig(tracing_disabled=True)
    fake.reply_tool_calls([("archival_memory_insert", {"content": "Ann is allergic to peanuts"})])
    fake.reply("Noted.")
    first = Runner.run_sync(agent, "Please remember that I am allergic to peanuts.", run_config=config)
    assert first.final_output == "Noted."
    [stored] = memory.list(Scope("shop", "ann", "helper")).records
    assert stored.content == "Ann is allergic to peanuts" and str(stored.source) == "agent"

    # A new run has no messages of the first: the note comes back only through the search tool.
    fake.reply_tool_calls([("archival_memory_search", {"query": "allergies"})])
    fake.reply("You are allergic to peanuts.")
    second = Runner.run_sync(agent, "What am I allergic to?", run_config=config)
    assert second.final_output == "You are allergic to peanuts."
    results = _tool_results(fake)
    assert results[0].startswith("ok: stored archival note")
    assert '"Ann is allergic to peanuts"' in results[-1]
    offered = {t["function"]["name"] for t in fake.chat_requests[0].body["tools"]}
    assert offered == set(DEFAULT_TOOLS)


def test_a_bad_argument_comes_back_to_the_model_as_an_error_line(memory: Memory, fake: FakeOpenAI) -> None:
    agent = _agent(memory, fake)
    fake.reply_tool_calls([("archival_memory_search", {"query": "x", "k": 500})])
    fake.reply("Sorry.")
    result = Runner.run_sync(agent, "Find something.", run_config=RunConfig(tracing_disabled=True))
    assert result.final_output == "Sorry."
    [line] = _tool_results(fake)
    assert line.startswith("error: archival_memory_search: argument 'k' must be from 1 to 20")


def test_core_blocks_are_in_the_instructions_of_each_turn(memory: Memory, fake: FakeOpenAI) -> None:
    tools = memory_tools(memory, SCOPE)
    tools.context.core.define("human", description="What you know about the user.", limit=200)
    agent = _agent(memory, fake)
    fake.reply_tool_calls([("core_memory_append", {"block": "human", "text": "Name: Ann"})])
    fake.reply("Hello Ann.")
    fake.reply("Still Ann.")
    config = RunConfig(tracing_disabled=True)
    Runner.run_sync(agent, "I'm Ann.", run_config=config)
    Runner.run_sync(agent, "Who am I?", run_config=config)
    system = fake.chat_requests[-1].body["messages"][0]
    assert system["role"] == "system" and "Name: Ann" in system["content"]


def test_tool_names_outside_the_memory_tools_are_refused(memory: Memory) -> None:
    with pytest.raises(ValidationError, match="names"):
        function_tools(memory_tools(memory, SCOPE), ["web_search"])


def test_every_memory_tool_keeps_its_schema(memory: Memory) -> None:
    tools = memory_tools(memory, SCOPE)
    sdk = function_tools(tools, [d["function"]["name"] for d in tools.definitions()])
    assert [json.dumps(t.params_json_schema, sort_keys=True) for t in sdk] == [
        json.dumps(d["function"]["parameters"], sort_keys=True) for d in tools.definitions()
    ]


def test_broken_arguments_holding_a_credential_are_refused_not_repeated(memory: Memory) -> None:
    [insert] = function_tools(memory_tools(memory, SCOPE), ["archival_memory_insert"])
    token = "ghp_" + "Wq4Ez8Rt2Yu6Io0Pa3Sd7Fg1Hj5Kl9Zx2Cv4Bn8M"  # the shape of a GitHub token, made up

    def call(raw: str) -> str:
        return str(asyncio.run(insert.on_invoke_tool(cast(Any, None), raw)))

    cut_short, not_an_object = call('{"content": "password: Lantern#Orbit42"'), call(json.dumps([token]))
    assert "holds a password" in cut_short and "Lantern" not in cut_short
    assert "holds a GitHub token" in not_an_object and token not in not_an_object
    assert 'given "{\\"content\\": \\"hi\\""' in call('{"content": "hi"')  # without a credential: shown as before
    assert [e.op for e in memory.audit(SCOPE)] == ["refuse", "refuse"]
