"""A LangGraph graph remembers a user across two threads through the tiermem store (scripted model, no LLM)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import pytest

pytest.importorskip("langgraph")

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, SystemMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.runtime import Runtime

from tiermem import Memory, Scope
from tiermem.embed import HashingEmbedder
from tiermem.integrations.langgraph import TiermemStore


@dataclass
class UserContext:
    user_id: str


@dataclass
class ScriptedModel:
    """Answers from its system prompt only: what it knows of the user is what the store gave the node."""

    prompts: list[list[AnyMessage]] = field(default_factory=list)

    def invoke(self, messages: Sequence[AnyMessage]) -> AIMessage:
        self.prompts.append(list(messages))
        system = str(messages[0].content)
        question = str(messages[-1].content).lower()
        if "which city" in question:
            found = re.search(r"lives in (\w+)", system)
            return AIMessage(f"You live in {found.group(1)}." if found else "I don't know where you live.")
        return AIMessage("Noted.")


def build_graph(store: TiermemStore, model: ScriptedModel):  # type: ignore[no-untyped-def]
    def call_model(state: MessagesState, runtime: Runtime[UserContext]) -> dict[str, list[AnyMessage]]:
        assert runtime.store is not None
        namespace = ("profiles", runtime.context.user_id)
        last = str(state["messages"][-1].content)
        memories = runtime.store.search(namespace, query=last, limit=3)
        known = "\n".join(str(m.value["fact"]) for m in memories)
        said = re.match(r"remember that (.+)", last, re.IGNORECASE)
        if said:
            runtime.store.put(namespace, f"fact-{len(memories)}", {"fact": said.group(1)})
        system = SystemMessage(f"You are a helpful assistant. What you know about the user:\n{known}")
        return {"messages": [model.invoke([system, *state["messages"]])]}

    builder = StateGraph(MessagesState, context_schema=UserContext)
    builder.add_node("call_model", call_model)
    builder.add_edge(START, "call_model")
    return builder.compile(checkpointer=InMemorySaver(), store=store)


def test_a_graph_remembers_a_user_across_two_threads_through_the_store() -> None:
    with Memory.open(":memory:", embedder=HashingEmbedder()) as memory:
        store = TiermemStore(memory)
        model = ScriptedModel()
        graph = build_graph(store, model)
        ann = UserContext("ann")

        def ask(thread: str, text: str, who: UserContext) -> str:
            config = {"configurable": {"thread_id": thread}}
            out = graph.invoke({"messages": [HumanMessage(text)]}, config, context=who)  # type: ignore[arg-type]
            return str(out["messages"][-1].content)

        assert ask("first", "Remember that she lives in Lisbon", ann) == "Noted."
        # A new thread has none of the first thread's messages: only the store carries the fact over.
        assert ask("second", "Which city do I live in?", ann) == "You live in Lisbon."
        assert len(model.prompts[-1]) == 2  # system + this thread's one question
        # Another user asking the same in a third thread gets nothing of Ann's.
        assert ask("third", "Which city do I live in?", UserContext("bob")) == "I don't know where you live."
        [record] = memory.list(Scope("profiles", "ann")).records
        assert record.content == "she lives in Lisbon"
