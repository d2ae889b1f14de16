"""The agent loop: compile, call the model, run memory tools, splice results, repeat, stop at the step limit."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

import fake_openai
from fake_openai import FakeOpenAI
from tiermem.agent.loop import STEP_LIMIT_MARKER, Agent, FunctionTool
from tiermem.agent.tools import TOOL_NAMES
from tiermem.context.budget import ContextBudget
from tiermem.context.compile import CompiledPrompt, PromptTokens
from tiermem.context.trace import Shown, recalled_of, trace_metadata
from tiermem.embed import HashingEmbedder
from tiermem.errors import ConfigError, ValidationError
from tiermem.llm import ChatMessage, OpenAIChatClient, ScriptedClient, ToolCall
from tiermem.memory import Memory
from tiermem.store import open_store
from tiermem.tokens import TiktokenCounter
from tiermem.types import Hit, Scope

fake = fake_openai.fixture("fake")

SCOPE = Scope("acme", "maya", "atlas", "s1")
BUDGET = ContextBudget(window=2000, system=150, core=300, output_reserve=400, retrieval_reserve=250)
COUNTER = TiktokenCounter("o200k_base")
SYSTEM = "You are Atlas, a travel assistant with memory tools."


@pytest.fixture
def mem() -> Iterator[Memory]:
    memory = Memory(open_store(":memory:"), HashingEmbedder())
    yield memory
    memory.close()


def agent_for(mem: Memory, llm: Any, **kwargs: Any) -> Agent:
    agent = Agent(mem, SCOPE, llm, kwargs.pop("budget", BUDGET), system_prompt=SYSTEM, counter=COUNTER, **kwargs)
    agent.context.core.define("human", limit=100, description="Facts about the user.")
    return agent


def calls(*items: tuple[str, dict[str, Any]], prefix: str = "c") -> ChatMessage:
    return ChatMessage.assistant(
        None, [ToolCall(f"{prefix}{i}", name, json.dumps(args)) for i, (name, args) in enumerate(items)]
    )


def tool_messages(messages: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m for m in messages if m["role"] == "tool"]


def test_a_full_turn_runs_the_tools_and_splices_their_results_before_the_answer(mem: Memory) -> None:
    llm = ScriptedClient(
        [
            calls(
                ("core_memory_append", {"block": "human", "text": "Name: Maya"}),
                ("archival_memory_insert", {"content": "Maya's dog is called Pepper."}),
            ),
            ChatMessage.assistant("Nice to meet you, Maya. I'll remember Pepper."),
        ]
    )
    agent = agent_for(mem, llm)
    turn = agent.step("Hi, I'm Maya and my dog is called Pepper.")

    assert turn.reply == "Nice to meet you, Maya. I'll remember Pepper."
    assert turn.steps == 2 and not turn.stopped_at_limit
    assert [(r.name, r.ok) for r in turn.tool_runs] == [("core_memory_append", True), ("archival_memory_insert", True)]
    assert all(t.total <= BUDGET.prompt_limit for t in turn.prompt_tokens)
    assert turn.evicted == ()

    first, second = llm.calls
    assert [m["role"] for m in first] == ["system", "system", "user"]  # system prompt, core memory, the message
    assert llm.tools[0] == agent.definitions() and [t["function"]["name"] for t in llm.tools[0]] == list(TOOL_NAMES)
    # The second call sees the assistant's calls, then one tool result answering each call id, in order.
    assert second[-3]["tool_calls"][0]["id"] == "c0"
    assert [(m["tool_call_id"], m["name"]) for m in tool_messages(second)] == [
        ("c0", "core_memory_append"),
        ("c1", "archival_memory_insert"),
    ]
    assert tool_messages(second)[0]["content"].startswith("ok: appended to core block 'human'")
    assert "Name: Maya" in second[1]["content"]  # the core edit is in the very next prompt
    assert [m.role.value for m in agent.context.messages] == ["user", "assistant", "tool", "tool", "assistant"]


def test_the_same_loop_runs_against_an_openai_compatible_server(mem: Memory, fake: FakeOpenAI) -> None:
    ids = fake.reply_tool_calls(
        [
            ("archival_memory_insert", {"content": "Maya's dog Pepper stays with Luis in Oakland."}),
            ("archival_memory_search", {"query": "who looks after the dog", "k": 2}),
        ]
    )
    fake.reply("Pepper stays with Luis in Oakland.")
    client = OpenAIChatClient(fake.base_url, "gpt-4o-mini", api_key="sk-test")
    agent = agent_for(mem, client)
    turn = agent.step("Remember: Pepper stays with Luis. Then tell me who looks after her.")

    assert turn.reply == "Pepper stays with Luis in Oakland." and turn.steps == 2
    assert [r.call_id for r in turn.tool_runs] == ids
    first, second = (r.body for r in fake.chat_requests)
    assert first["model"] == "gpt-4o-mini" and first["tools"] == agent.definitions()
    # The fake checks, as the API does, that every tool message answers an announced call.
    results = tool_messages(second["messages"])
    assert [m["tool_call_id"] for m in results] == ids
    assert "Pepper stays with Luis in Oakland" in results[1]["content"]
    assert results[1]["content"].startswith("1 archival memory for")


def test_the_loop_stops_at_the_step_limit_with_a_clear_marker(mem: Memory) -> None:
    looping = [calls(("archival_memory_search", {"query": f"attempt {i}"}), prefix=f"s{i}-") for i in range(5)]
    llm = ScriptedClient(looping)
    turn = agent_for(mem, llm, max_steps=3).step("Find something.")
    assert turn.stopped_at_limit and turn.reply.startswith(STEP_LIMIT_MARKER)
    assert "3 times" in turn.reply
    assert turn.steps == 3 and len(turn.tool_runs) == 3 and llm.remaining == 2


def test_a_malformed_call_gets_an_error_the_model_can_correct_in_the_next_step(mem: Memory) -> None:
    llm = ScriptedClient(
        [
            calls(("archival_memory_search", {"query": "dog", "k": 500})),
            calls(("archival_memory_search", {"query": "dog", "k": 5}), prefix="retry"),
            ChatMessage.assistant("Nothing stored yet."),
        ]
    )
    turn = agent_for(mem, llm).step("What's my dog's name?")
    bad, good = turn.tool_runs
    assert not bad.ok and "argument 'k' must be from 1 to 20; given 500" in bad.result
    assert good.ok and turn.reply == "Nothing stored yet."
    assert "given 500" in tool_messages(llm.calls[1])[0]["content"]


def test_an_unknown_tool_is_answered_with_the_list_of_tools(mem: Memory) -> None:
    llm = ScriptedClient([calls(("book_flight", {"class": "first"})), ChatMessage.assistant("I can't book.")])
    turn = agent_for(mem, llm).step("Book me a flight.")
    (run,) = turn.tool_runs
    assert run.result.startswith("error: unknown tool 'book_flight'") and "archival_memory_search" in run.result


def test_other_tools_run_beside_the_memory_tools_and_big_results_are_cut_to_fit(mem: Memory) -> None:
    page = "A very long web page. " * 2000
    schema = {"type": "function", "function": {"name": "web_fetch", "parameters": {"type": "object"}}}
    web = FunctionTool(schema, lambda arguments: page)
    llm = ScriptedClient([calls(("web_fetch", {"url": "https://x.example"})), ChatMessage.assistant("Read it.")])
    agent = agent_for(mem, llm, tools=[web])
    turn = agent.step("Read this page.")
    (run,) = turn.tool_runs
    assert "[result cut to fit the context window:" in run.result and len(run.result) < len(page)
    assert agent.definitions()[-1] == schema
    assert agent.context.message_tokens <= BUDGET.message_budget
    assert all(t.total <= BUDGET.prompt_limit for t in turn.prompt_tokens)


def test_old_messages_are_paged_out_across_turns_and_prompts_stay_within_the_limit(mem: Memory) -> None:
    turns = 14
    llm = ScriptedClient([ChatMessage.assistant(f"Reply {i}: noted, with a few more words.") for i in range(turns)])
    agent = agent_for(mem, llm)
    evicted = []
    for i in range(turns):
        turn = agent.step(f"Turn {i}: here is a fairly long message about my travel plans, " + "blah " * 40)
        evicted += turn.evicted
        assert turn.prompt_tokens[0].total <= BUDGET.prompt_limit
    assert evicted and evicted[0].content.startswith("Turn 0:")
    assert agent.context.messages[-1].content.startswith(f"Reply {turns - 1}")
    hits = agent.context.conversation_search("Turn 0 travel plans", k=3)
    assert any(h.record.content.startswith("Turn 0:") for h in hits)


def test_retrieve_k_puts_archival_hits_in_the_prompt_as_quoted_data(mem: Memory) -> None:
    llm = ScriptedClient([ChatMessage.assistant("Pepper.")])
    agent = agent_for(mem, llm, retrieve_k=2)
    agent.memory_tools.dispatch("archival_memory_insert", json.dumps({"content": "Maya's dog is called Pepper."}))
    turn = agent.step("What is my dog called?")
    retrieved = [m["content"] for m in llm.calls[0] if m["content"] and m["content"].startswith("Retrieved memories")]
    assert retrieved and '"Maya\'s dog is called Pepper."' in retrieved[0] and "source=agent" in retrieved[0]
    assert turn.prompt_tokens[0].retrieved > 0


def test_each_reply_records_what_recall_put_in_its_prompt(mem: Memory) -> None:
    llm = ScriptedClient([calls(("archival_memory_search", {"query": "dog"})), ChatMessage.assistant("Pepper.")])
    agent = agent_for(mem, llm, retrieve_k=3)
    pepper = mem.remember(SCOPE, "Maya's dog is called Pepper.", source="agent").record
    web = mem.remember(SCOPE, "Dogs called Pepper like long walks.", source="web:example.org").record
    agent.step("What is my dog called?")
    replies = [r for r in mem.list(SCOPE, limit=20).records if r.metadata.get("role") == "assistant"]
    assert len(replies) == 2  # the call for a tool and the answer: each was a reply to a prompt
    for reply in replies:
        traced = {r.record_id: r for r in recalled_of(reply.metadata) or ()}
        assert {pepper.id, web.id} <= set(traced)
        assert "untrusted" in traced[web.id].flags and "untrusted" not in traced[pepper.id].flags
        assert traced[pepper.id].shown is Shown.WHOLE
    user = next(r for r in mem.list(SCOPE, limit=20).records if r.metadata.get("role") == "user")
    assert recalled_of(user.metadata) is None  # the user's words are not a reply to a prompt


def test_a_memory_cut_or_left_out_for_want_of_room_is_traced_so(mem: Memory) -> None:
    hits = [Hit(mem.remember(SCOPE, f"note number {i} about walks").record, 1.0 - i / 10, ()) for i in range(3)]
    ids = tuple(h.record.id for h in hits)
    prompt = CompiledPrompt([], PromptTokens(0, 0, 0, 0, 0), ids[:2], ids[1:2], ids[2:])
    traced = recalled_of(trace_metadata(hits, prompt)) or ()
    expected = [Shown.WHOLE, Shown.CUT, Shown.LEFT_OUT]
    assert [(r.record_id, r.shown) for r in traced] == list(zip(ids, expected, strict=True))
    assert recalled_of(trace_metadata([], prompt)) == ()  # the prompt held no memory: traced as such
    assert recalled_of({"recalled": "not json"}) is None and recalled_of({}) is None


def test_tool_calls_without_an_id_get_one_so_the_result_can_answer_them(mem: Memory) -> None:
    nameless = ChatMessage.assistant(None, [ToolCall("", "archival_memory_search", '{"query": "x"}')])
    llm = ScriptedClient([nameless, ChatMessage.assistant("ok")])
    turn = agent_for(mem, llm).step("search")
    (run,) = turn.tool_runs
    assert run.call_id.startswith("call_")
    assert tool_messages(llm.calls[1])[0]["tool_call_id"] == run.call_id == llm.calls[1][-2]["tool_calls"][0]["id"]


class _RecordsOnlyStore:
    """A store with the record API but no context tables (as a future backend might be at first)."""

    def __init__(self, inner: object) -> None:
        self._inner = inner

    def __getattr__(self, name: str) -> object:
        if name in {"load_context_window", "save_context_window", "load_blocks", "save_block"}:
            raise AttributeError(name)
        return getattr(self._inner, name)


def test_a_store_without_the_context_tables_is_refused_with_a_hint() -> None:
    with Memory.open(":memory:", embedder=HashingEmbedder()) as full:
        plain = Memory(_RecordsOnlyStore(full.store), full.embedder)  # type: ignore[arg-type]
        with pytest.raises(ConfigError, match="open_store"):
            Agent(plain, SCOPE, ScriptedClient([]), BUDGET, system_prompt=SYSTEM, counter=COUNTER)


@pytest.mark.parametrize(("kwargs", "field"), [({"max_steps": 0}, "max_steps"), ({"retrieve_k": 21}, "retrieve_k")])
def test_bad_settings_are_refused(mem: Memory, kwargs: dict[str, Any], field: str) -> None:
    with pytest.raises(ValidationError, match=field):
        Agent(mem, SCOPE, ScriptedClient([]), BUDGET, system_prompt=SYSTEM, counter=COUNTER, **kwargs)


def test_a_tool_may_not_shadow_a_memory_tool(mem: Memory) -> None:
    shadow = FunctionTool({"type": "function", "function": {"name": "forget"}}, lambda arguments: "")
    with pytest.raises(ValidationError, match="forget"):
        Agent(mem, SCOPE, ScriptedClient([]), BUDGET, system_prompt=SYSTEM, counter=COUNTER, tools=[shadow])
