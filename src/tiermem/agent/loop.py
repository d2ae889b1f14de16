"""The agent loop: compile the prompt, call the model, run the tools it asks for, splice the results, repeat.

One ``step`` is one user turn. The user's message joins the context window (paging the oldest messages out
to recall); then, up to ``max_steps`` times, the compiled prompt goes to the model. A reply with tool calls
is added to the window, each call is run (memory tools through ``MemoryTools``, others through the
``FunctionTool``s given) and its result is added as a ``tool`` message; a reply without tool calls ends the
turn. Tool results are cut to fit the message budget, because the window refuses a message that cannot fit.

Two guards sit at the edges of a step. Outbound, the model client masks every prompt's personal data (the
outbound gate of ``tiermem.llm``: on by default when the model's URL is not on this machine) and unmasks the
reply. Inbound, a call of a
``side_effect`` tool whose arguments repeat untrusted memory recalled in the turn is held for approval instead
of run (the rule is in ``tiermem.agent.approval``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, cast

from tiermem.agent.approval import HeldCall, HeldCalls, HoldStatus, trace_call
from tiermem.agent.results import ToolResult
from tiermem.agent.tool_schemas import MAX_SEARCH_K, TOOL_NAMES
from tiermem.agent.tools import MemoryTools
from tiermem.context.budget import ContextBudget
from tiermem.context.compile import PromptTokens
from tiermem.context.lease import TURN_LEASE, TurnLease, check_lease
from tiermem.context.messages import Message, ToolCall, message_tokens
from tiermem.context.summary import Summariser
from tiermem.context.trace import trace_metadata
from tiermem.context.window import ContextManager
from tiermem.errors import ConfigError, MemError, TurnLostError, ValidationError
from tiermem.llm import ChatClient, ChatMessage
from tiermem.memory import Memory
from tiermem.store.context_base import StoreWithContext
from tiermem.tokens import TokenCounter, counter_for_model
from tiermem.types import Hit, Scope, new_id

__all__ = ["HELD_MARKER", "STEP_LIMIT_MARKER", "Agent", "AgentTurn", "FunctionTool", "ToolRun"]

STEP_LIMIT_MARKER = "[stopped: step limit reached]"
HELD_MARKER = "held for approval:"
MAX_STEPS = 50
_CONTEXT_METHODS = (
    "load_core_blocks",
    "save_core_block",
    "core_block_edits",
    "load_context_window",
    "save_context_window",
    "delete_context",
    "acquire_turn_lease",
    "renew_turn_lease",
    "release_turn_lease",
)
_MARKER_TOKENS = 24  # room kept for the "[result cut ...]" line appended to a cut result


@dataclass(frozen=True, slots=True)
class FunctionTool:
    """A tool other than memory (a web fetch, a booking API): its function-calling schema and its handler."""

    definition: Mapping[str, Any]
    run: Callable[[str], str]  # the arguments' JSON text -> the result text
    side_effect: bool = False  # it acts on the world (books, pays, sends): held when untrusted memory drives it

    @property
    def name(self) -> str:
        """The function name in the schema."""
        name = self.definition.get("function", {}).get("name")
        if not isinstance(name, str) or not name:
            raise ValidationError("tools", "a tool definition needs function.name", given=dict(self.definition))
        return name


@dataclass(frozen=True, slots=True)
class ToolRun:
    """One tool call the model made and the result it got back (as spliced into the context)."""

    call_id: str
    name: str
    arguments: str
    result: str

    @property
    def ok(self) -> bool:
        """False when the tool answered with an error line."""
        return not self.result.startswith("error:")


@dataclass(frozen=True, slots=True)
class AgentTurn:
    """What one user turn did: the reply, the tool calls, each prompt's token counts and what was paged out."""

    reply: str
    tool_runs: tuple[ToolRun, ...]
    prompt_tokens: tuple[PromptTokens, ...]  # one per model call, in order
    evicted: tuple[Message, ...]  # paged out to recall during this turn, oldest first
    stopped_at_limit: bool
    held: tuple[HeldCall, ...] = ()  # side-effecting calls not run, waiting for approval

    @property
    def steps(self) -> int:
        """How many times the model was called."""
        return len(self.prompt_tokens)


def _held_result(held: HeldCall) -> str:
    sources = ", ".join(sorted({f"{t.source} ({t.reason}, id={t.record_id})" for t in held.reasons}))
    shared = ", ".join(sorted({repr(t.evidence) for t in held.reasons}))
    return (
        f"{HELD_MARKER} {held.name} was not run because its arguments repeat text from untrusted memory "
        f"recalled this turn ({shared} from {sources}); held call id={held.id}. Tell the user it awaits their "
        "approval; do not call it again."
    )


def _context_store(memory: Memory) -> StoreWithContext:
    store = memory.store
    missing = [m for m in _CONTEXT_METHODS if not callable(getattr(store, m, None))]
    if missing:
        raise ConfigError(
            f"the agent needs a store that also keeps the working context ({', '.join(missing)} missing on "
            f"{type(store).__name__}); open it with tiermem.store.open_store, whose stores keep it"
        )
    return cast(StoreWithContext, store)


class Agent:
    """An LLM agent over tiermem: a bounded context window, core memory, and the memory tools."""

    def __init__(
        self,
        memory: Memory,
        scope: Scope,
        llm: ChatClient,
        budget: ContextBudget,
        *,
        system_prompt: str,
        counter: TokenCounter | None = None,
        max_steps: int = 6,
        retrieve_k: int = 0,
        tools: Sequence[FunctionTool] = (),
        summariser: Summariser | None = None,
        retrieve: Callable[[str], Sequence[Hit]] | None = None,
        before_turn: Callable[[ContextManager], None] | None = None,
        lease: timedelta = TURN_LEASE,
    ) -> None:
        """Prompts leave through ``llm``, which masks personal data where it is the outbound gate (``tiermem.llm``).

        ``before_turn`` runs at the start of each turn, once the turn holds its session and has read the stored
        window and core blocks (a host defines the core blocks it needs: an erase may have removed them).
        ``lease``: how long a turn holds its session between renewals (``tiermem.context.lease``)."""
        if isinstance(max_steps, bool) or not isinstance(max_steps, int) or not 1 <= max_steps <= MAX_STEPS:
            raise ValidationError("max_steps", f"must be an integer from 1 to {MAX_STEPS}", given=max_steps)
        if isinstance(retrieve_k, bool) or not isinstance(retrieve_k, int) or not 0 <= retrieve_k <= MAX_SEARCH_K:
            raise ValidationError("retrieve_k", f"must be an integer from 0 to {MAX_SEARCH_K}", given=retrieve_k)
        check_lease(lease)
        model = getattr(llm, "model", None)
        self.counter = counter or counter_for_model(model if isinstance(model, str) else "gpt-4o")
        self.llm = llm
        self.max_steps = max_steps
        self.retrieve_k = retrieve_k
        self.retrieve = retrieve  # more hits for the prompt (a host's recall of earlier sessions), after archival
        self.before_turn = before_turn
        self.lease = lease
        self._store = _context_store(memory)
        self.context = ContextManager(
            self._store,
            memory,
            scope,
            budget=budget,
            counter=self.counter,
            system_prompt=system_prompt,
            summariser=summariser,
        )
        self.memory_tools = MemoryTools(memory, scope, self.context)
        self._extra: dict[str, FunctionTool] = {}
        for tool in tools:
            if tool.name in TOOL_NAMES or tool.name in self._extra:
                raise ValidationError("tools", "tool names must be unique and not a memory tool's", given=tool.name)
            self._extra[tool.name] = tool
        self.held = HeldCalls()

    def definitions(self) -> list[dict[str, Any]]:
        """Every tool schema offered to the model: the memory tools, then the others."""
        return self.memory_tools.definitions() + [dict(t.definition) for t in self._extra.values()]

    def step(self, user_text: str, *, now: datetime | None = None, message_id: str | None = None) -> AgentTurn:
        """Run one user turn to the model's final reply, or to the step limit; ``now`` dates its messages.

        A turn runs alone in its session: it first takes the session's turn lease (``tiermem.context.lease``), and
        a turn of the session already running (another Agent, here or in another process) refuses this one with a
        BusyError before anything is written. Holding it, the turn brings the window up to what is stored
        (another Agent may have taken a turn, an erase may have emptied it): its one read of the stored window.
        A turn that fails (the model call, most often) is undone: the window is as if it had not been sent
        (``ContextManager.undo``), so a retry is a turn of its own. One whose lease was lost (an erase of its user,
        or a stall past the lease while another turn took over) writes nothing more and raises TurnLostError: its
        user message stays as stored, since the other turn may have shown it. ``message_id`` names the user's
        message: the same id again (a retry after a crash) is not stored twice.
        """
        lease = TurnLease(self._store, self.context.scope, duration=self.lease)
        with lease.held():
            self.context.refresh()
            if self.before_turn is not None:
                self.before_turn(self.context)
            mark = self.context.mark()
            try:
                return self._step(user_text, now, message_id, lease)
            except TurnLostError:
                raise  # the session is another turn's now: what this one stored stays, as a dead process's would
            except BaseException as exc:
                # A write refused because another turn saved the window (a conflict) means the session was lost
                # between two renewals: that turn may have built on what this one stored, so no undo either.
                lease.check_held(exc)
                self.context.undo(mark)
                raise

    def _step(self, user_text: str, now: datetime | None, message_id: str | None, lease: TurnLease) -> AgentTurn:
        at: dict[str, Any] = {"created_at": now} if now is not None else {}
        said = Message.user(user_text, **at) if message_id is None else Message.user(user_text, id=message_id, **at)
        evicted = list(self.context.append(said))
        self.memory_tools.recalled.clear()  # what this turn recalls: side-effecting calls are traced against it
        retrieved: list[Hit] = []
        if self.retrieve_k and user_text.strip():
            retrieved = self.memory_tools.search_archival(user_text, self.retrieve_k)
        if self.retrieve is not None:
            seen = {h.record.id for h in retrieved}
            retrieved += [h for h in self.retrieve(user_text) if h.record.id not in seen]
        runs: list[ToolRun] = []
        held: list[HeldCall] = []
        tokens: list[PromptTokens] = []
        for _ in range(self.max_steps):
            prompt = self.context.compile(retrieved)
            tokens.append(prompt.tokens)
            lease.renew()  # a model call may be long: the session stays this turn's through it
            reply = self._complete(prompt.messages)
            lease.renew()  # and after it: a turn that lost the session meanwhile (erased, taken over) writes no more
            text = reply.content or ""
            shown = trace_metadata(retrieved, prompt)  # each reply records what recall put in its prompt
            if not reply.tool_calls:
                if text.strip():
                    evicted += self.context.append(Message.assistant(text, metadata=shown, **at))
                return AgentTurn(text, tuple(runs), tuple(tokens), tuple(evicted), False, tuple(held))
            # Some compatible servers send calls without ids; the result must still name the call it answers.
            calls = tuple(ToolCall(c.id or f"call_{new_id()}", c.name, c.arguments) for c in reply.tool_calls)
            asking = Message.assistant(text, calls, metadata=shown, **at)
            evicted += self.context.append(asking)
            used = message_tokens(asking, self.counter)
            for i, call in enumerate(calls):
                hold = self._hold(call, user_text)
                if hold is not None:
                    held.append(hold)
                lease.renew()  # a tool may write memory: only while the session is this turn's
                result = self._run(call) if hold is None else ToolResult(_held_result(hold))
                # Leave an even share of what is left for the results still to come in this step.
                room = (self.context.budget.message_budget - used) // (len(calls) - i)
                content = result.text if result.text.strip() else "(empty result)"  # a chat message may not be blank
                # A held call's notice is the runtime's own words, not the tool's: system, not tool:<name>.
                author = {} if hold is None else {"author": "system"}
                message = Message.tool(
                    content, tool_call_id=call.id, name=call.name, quoting=result.quoting, **at, **author
                )
                message = self._fit(message, room)
                used += message_tokens(message, self.counter)
                lease.renew()  # and a tool may take long: its result is written only if the session is still held
                evicted += self.context.append(message)
                runs.append(ToolRun(call.id, call.name, call.arguments, message.content))
        marker = (
            f"{STEP_LIMIT_MARKER} the model was called {self.max_steps} times and still asked for tools; "
            "the tool results so far are in the context"
        )
        return AgentTurn(marker, tuple(runs), tuple(tokens), tuple(evicted), True, tuple(held))

    def approve(self, held_id: str) -> ToolRun:
        """Run a held call now that a person approved it; its result (not added to the context: tell the model)."""
        held = self.held.get(held_id)
        if held.status is not HoldStatus.HELD:
            self.held.resolve(held_id, HoldStatus.APPROVED)  # raises ConflictError naming its state
        result = self._run(ToolCall(held.call_id, held.name, held.arguments)).text
        self.held.resolve(held_id, HoldStatus.APPROVED, result)
        return ToolRun(held.call_id, held.name, held.arguments, result)

    def reject(self, held_id: str) -> HeldCall:
        """Drop a held call without running it."""
        return self.held.resolve(held_id, HoldStatus.REJECTED)

    def _complete(self, messages: Sequence[dict[str, Any]]) -> ChatMessage:
        """The model's reply (the client's outbound gate masked what it sent and unmasked what came back)."""
        return self.llm.complete(messages, tools=self.definitions()).message

    def _hold(self, call: ToolCall, user_text: str) -> HeldCall | None:
        """Hold ``call`` when it is side-effecting and its arguments repeat untrusted memory of this turn."""
        tool = self._extra.get(call.name)
        if tool is None or not tool.side_effect:
            return None
        recalled = [*self.memory_tools.recalled, *self.memory_tools.quarantined_like(call.arguments)]
        reasons = trace_call(call.arguments, recalled, user_text=user_text)
        return self.held.hold(call.id, call.name, call.arguments, reasons) if reasons else None

    def _run(self, call: ToolCall) -> ToolResult:
        extra = self._extra.get(call.name)
        if extra is not None:
            try:
                return ToolResult(extra.run(call.arguments))
            except MemError as exc:  # a tool's own validation: the model can correct the call
                return ToolResult(f"error: {call.name}: {exc}")
        if call.name not in TOOL_NAMES:
            names = ", ".join([*TOOL_NAMES, *self._extra])
            return ToolResult(f"error: unknown tool '{call.name}'; the tools are: {names}")
        return self.memory_tools.run(call.name, call.arguments)

    def _fit(self, message: Message, room: int) -> Message:
        """``message`` with its text cut (and marked) so the whole message costs at most ``room`` tokens."""
        cost = message_tokens(message, self.counter)
        if cost <= room:
            return message
        text = message.content
        frame = cost - self.counter.count(text)
        keep = len(text) * max(0, room - frame - _MARKER_TOKENS) // max(1, self.counter.count(text))
        while True:
            cut = text[:keep].rstrip()
            note = (
                f"\n[result cut to fit the context window: {len(text) - len(cut)} of {len(text)} characters left out]"
            )
            candidate = Message.tool(
                cut + note,
                tool_call_id=message.tool_call_id or "",
                name=message.name or "",
                created_at=message.created_at,
                author=message.author,
                quoting=message.quoting,
            )
            if keep == 0 or message_tokens(candidate, self.counter) <= room:
                return candidate
            keep = keep * 4 // 5
