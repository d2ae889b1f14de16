"""The context window: the message queue of one conversation, paged out to recall oldest first.

Every appended message is written at once as an episodic record (tags ``recall`` and ``role:<role>``) through
the normal write path, so it is searchable, exported and erased with the user's other records. The window
keeps the messages that fit the message budget M = W - S - K - O - R and persists their record ids, so a
restarted agent sees the same context. Appending evicts the oldest messages until the window fits again; the
newest is never evicted, and a tool result leaves together with the call it answers (chat APIs refuse a
result whose call is missing). Each save is compare-and-set on the stored window's revision: another manager of
the same session (in this process or another) never has its messages overwritten unseen.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from tiermem.context.budget import ContextBudget
from tiermem.context.compile import CompiledPrompt, CountCache, compile_prompt, render_memories, system_tokens
from tiermem.context.conversation_search import search_conversation
from tiermem.context.core import CoreMemory
from tiermem.context.messages import Message, Role, message_from_record, message_tokens, record_fields
from tiermem.context.recall_writer import RecallWriter, StoreRecall
from tiermem.context.summary import Summariser
from tiermem.context.window_queue import Entry, MessageQueue, answered, entry_for, finished_calls
from tiermem.errors import ConfigError, ConflictError, ValidationError
from tiermem.lifecycle.erase import forget
from tiermem.store.context_base import StoreWithContext, WindowState
from tiermem.tokens import TokenCounter
from tiermem.trust.prompt_gate import admit_hits, summarisable
from tiermem.types import Hit, MemoryRecord, Scope, new_id, normalise_text, utcnow
from tiermem.write.path import MAX_CONTENT_CHARS, WriteStatus

__all__ = ["ContextManager", "Mark", "RecallWriter", "StoreRecall"]


@dataclass(frozen=True, slots=True)
class Mark:
    """The window as it was (``ContextManager.mark``), to go back to with ``undo``."""

    entries: tuple[Entry, ...]
    summary_through: str | None
    unsummarised: tuple[Message, ...]
    summary: str | None  # the summary block's text, if there is such a block
    written: int  # how many records the window had added by then


class ContextManager:
    """The working context of one scope: system prompt, core memory, the message window and its paging."""

    def __init__(
        self,
        store: StoreWithContext,
        recall: RecallWriter,
        scope: Scope,
        *,
        budget: ContextBudget,
        counter: TokenCounter,
        system_prompt: str = "",
        summariser: Summariser | None = None,
        summary_block: str = "summary",
        clock: Callable[[], datetime] = utcnow,
    ) -> None:
        if not isinstance(system_prompt, str):
            raise ValidationError("system_prompt", "must be a string", given=type(system_prompt).__name__)
        self._store = store
        self._recall = recall
        self._scope = scope
        self._budget = budget
        self._counter = counter
        self._system_prompt = system_prompt
        self._summariser = summariser
        self._summary_block = summary_block
        self._clock = clock
        self._lock = threading.RLock()
        self._memory_counts = CountCache(counter)
        self._system_cost = system_tokens(system_prompt, counter)
        if self._system_cost > budget.system:
            raise ValidationError(
                "system",
                f"the system prompt costs {self._system_cost} tokens (with message overhead and reply priming), "
                f"over the system budget {budget.system}",
                given=self._system_cost,
                limit=budget.system,
            )
        core_scope = Scope(scope.tenant, scope.user, scope.agent)
        self.core = CoreMemory(store, core_scope, counter=counter, budget=budget.core, clock=clock)
        if self.core.tokens > budget.core:
            raise ValidationError(
                "core",
                f"the stored core blocks cost {self.core.tokens} tokens, over the core budget {budget.core}",
                given=self.core.tokens,
                limit=budget.core,
            )
        self._queue = MessageQueue()
        self._summary_through: str | None = None
        self._unsummarised: list[Message] = []
        self._added: list[str] = []  # records this manager's appends added (``undo`` forgets the latest)
        # The stored window's revision this one was read or saved at (None: none is stored). Another manager's save
        # (in this process or another) or an erase moves it; ``refresh`` then reloads, and a save expecting the old
        # one is refused, so nobody overwrites a turn unseen.
        self._revision: str | None = None
        self._stored: tuple[tuple[str, ...], str | None] = ((), None)  # the ids and summary mark it holds
        self._load(self._store.load_context_window(self._scope))

    # -- state ---------------------------------------------------------------------------------------------

    @property
    def scope(self) -> Scope:
        """Whose conversation this is."""
        return self._scope

    @property
    def budget(self) -> ContextBudget:
        """The token budget of every prompt."""
        return self._budget

    @property
    def system_prompt(self) -> str:
        """The fixed system prompt (never evicted)."""
        return self._system_prompt

    @property
    def messages(self) -> tuple[Message, ...]:
        """The messages in the window, oldest first."""
        with self._lock:
            return tuple(e.message for e in self._queue.entries)

    @property
    def record_ids(self) -> tuple[str, ...]:
        """The recall record ids of the messages in the window, oldest first."""
        with self._lock:
            return tuple(self._queue.ids)

    @property
    def message_tokens(self) -> int:
        """What the window's messages cost; never more than the message budget."""
        return self._queue.total

    @property
    def summary_through(self) -> str | None:
        """The record id of the newest message folded into the summary block, if any."""
        return self._summary_through

    # -- the queue -----------------------------------------------------------------------------------------

    def append(self, message: Message) -> tuple[Message, ...]:
        """Persist ``message``, add it to the window and page out the oldest; returns what was evicted.

        ConflictError when another writer saved the window since this one read it: ``undo`` to a ``mark`` taken
        before (``Agent.step`` does), then ``refresh`` and append again."""
        if not isinstance(message, Message):
            raise ValidationError("message", "must be a Message", given=type(message).__name__)
        message.checked()  # a prompt needs its id, time and answerable tool calls
        with self._lock:
            if self._summariser is not None and self._summary_block not in self.core:
                raise ConfigError(
                    f"a summariser is set but there is no core block '{self._summary_block}'; define it first, "
                    f"e.g. manager.core.define('{self._summary_block}', limit=300)"
                )
            cost = message_tokens(message, self._counter)
            self._queue.check_fits(message, cost, self._budget.message_budget)
            text, _ = record_fields(message)
            if len(normalise_text(text)) > MAX_CONTENT_CHARS:  # one message, one record: the window rebuilds it
                raise ValidationError(
                    "content", "is too long", given=f"{len(text)} characters", limit=MAX_CONTENT_CHARS
                )
            # The conversation path: the previous message of the session is its search context, and its record
            # id comes from the message id (appending the same message twice stores it once).
            (written,) = self._recall.remember_messages(self._scope, [message])
            if written.record.id in self._queue.ids:  # the same message again (a retried turn): it is there already
                return ()
            if written.status is not WriteStatus.UNCHANGED:
                self._added.append(written.record.id)
            self._queue.push(self._entry(message, written.record, cost))
            evicted = self._queue.evict(self._budget.message_budget)
            self._persist(evicted)
            return tuple(e.message for e in evicted)

    def refresh(self) -> bool:
        """Reload the window if another writer saved or deleted it since this one read it, and the core blocks;
        True when the window was reloaded."""
        with self._lock:
            self.core.refresh()
            state = self._store.load_context_window(self._scope)
            if (None if state is None else state.revision) == self._revision:
                return False
            self._queue.replace([])
            self._summary_through = None
            self._unsummarised = []
            self._load(state)
            return True

    def mark(self) -> Mark:
        """Where the window is now; ``undo(mark)`` goes back there."""
        with self._lock:
            summary = self.core.get(self._summary_block).value if self._summary_block in self.core else None
            return Mark(
                tuple(self._queue.entries), self._summary_through, tuple(self._unsummarised), summary, len(self._added)
            )

    def undo(self, mark: Mark) -> None:
        """Go back to ``mark``: the messages appended since are forgotten (as ``Memory.forget`` does, audited),
        the window and its summary are as they were. What tools did meanwhile (notes, core edits) stays."""
        with self._lock:
            gone, self._added = self._added[mark.written :], self._added[: mark.written]
            now = self._clock()
            for record_id in gone:
                if self._store.get(self._scope, record_id) is not None:
                    forget(self._store, self._scope, record_id, now=now, actor="undo")
            self._queue.replace(mark.entries)
            self._summary_through = mark.summary_through
            self._unsummarised = list(mark.unsummarised)
            if mark.summary is not None and self.core.get(self._summary_block).value != mark.summary:
                self.core.rewrite(self._summary_block, mark.summary, actor="undo", force=True)
            try:
                self._save()
            except ConflictError:  # another writer saved the window since: its window stands, taken as it is
                self.refresh()

    def _entry(self, message: Message, record: MemoryRecord, cost: int) -> Entry:
        """The window's entry of ``message``, as the prompt gate shows it."""
        return entry_for(message, record, cost, self._counter)

    def _persist(self, evicted: list[Entry]) -> None:
        """Save the window, and fold evicted messages into the summary block in the same transaction."""
        summary: str | None = None
        summariser = self._summariser
        try:
            if summariser is not None and evicted:
                # A message forgotten while it sat in the window is not summarised.
                stored = self._store.get_many(self._scope, [e.record_id for e in evicted])
                # The summariser is a model too, and its text goes into every prompt as core memory without the
                # flags a message keeps in the window: it reads only what the prompt gate calls summarisable.
                self._unsummarised.extend(
                    e.message for e in evicted if e.record_id in stored and summarisable(stored[e.record_id])
                )
                summary = self._summary_text(summariser)
        finally:
            # Saved even when the summariser failed: the evictions happened; the next eviction retries the summary.
            with self._store.transaction():
                if summary is not None and summariser is not None:
                    self._save_summary(summary, summariser)
                    self._summary_through = evicted[-1].record_id
                    self._unsummarised.clear()
                self._save()

    def _save(self) -> None:
        """Save the window as the next revision of the one it was read at; ConflictError if another writer saved."""
        state = WindowState(self.record_ids, self._summary_through, self._clock(), new_id())
        try:
            self._store.save_context_window(self._scope, state, expected=self._revision)
        except ConflictError:
            stored = self._store.load_context_window(self._scope)
            # Renewed only (a message in it was forgotten: ``renew_windows_holding``), not saved by another turn:
            # the forgotten messages leave this window too, and it is saved over that revision.
            if stored is None or (stored.message_ids, stored.summary_through) != self._stored:
                raise
            self._revision = stored.revision
            self._drop_forgotten()
            state = replace(state, message_ids=self.record_ids)
            self._store.save_context_window(self._scope, state, expected=self._revision)
        self._revision = state.revision
        self._stored = (state.message_ids, state.summary_through)

    def _drop_forgotten(self) -> None:
        """Take out the messages whose records are gone, and a tool result whose call went with them."""
        present = self._store.get_many(self._scope, list(self._queue.ids))
        self._queue.replace(answered([e for e in self._queue.entries if e.record_id in present]))

    def _save_summary(self, summary: str, summariser: Summariser) -> None:
        try:
            if summary != self.core.get(self._summary_block).value:
                self.core.rewrite(self._summary_block, summary, actor="summariser", force=True)
        except ConflictError:
            # The block changed since it was read (a forget takes out the lines that quote a forgotten message,
            # docs/lifecycle.md); the core has reloaded it, so summarise onto what is stored now, once.
            summary = self._summary_text(summariser)
            if summary != self.core.get(self._summary_block).value:
                self.core.rewrite(self._summary_block, summary, actor="summariser", force=True)

    def _summary_text(self, summariser: Summariser) -> str:
        """The summariser's text as the summary block can hold it: a summary never makes a turn fail."""
        name = self._summary_block
        block = self.core.get(name)
        text = summariser.summarise(block.value, self._unsummarised, limit=block.limit, counter=self._counter)
        # A line the core gate refuses (a user's standing rule, a model's own directive) is left out, not the turn.
        lines = [line for line in text.splitlines() if not line.strip() or self.core.admits(name, line)]
        # A summariser may overshoot (an LLM especially), and lines the gate takes one by one may read as an
        # order together: the oldest lines give way first.
        while lines and not self.core.would_fit(name, "\n".join(lines)):
            lines.pop(0)
        while lines and not self.core.admits(name, "\n".join(lines)):
            lines.pop(0)
        return "\n".join(lines)

    def _load(self, state: WindowState | None) -> None:
        self._revision = None if state is None else state.revision
        if state is None:
            self._stored = ((), None)
            return
        self._stored = (state.message_ids, state.summary_through)
        self._summary_through = state.summary_through
        records = self._store.get_many(self._scope, list(state.message_ids))
        # A message forgotten or erased since left the context with its record.
        messages = [(message_from_record(r), r) for r in (records.get(i) for i in state.message_ids) if r is not None]
        entries = [self._entry(m, r, message_tokens(m, self._counter)) for m, r in messages]
        self._queue.replace(answered(finished_calls(entries)))
        # The budget may have shrunk since the window was saved. Not saved here: a save would move the revision
        # under a turn another process is running on the window; the next append saves what is left.
        self._queue.evict(self._budget.message_budget)

    # -- prompt and search ---------------------------------------------------------------------------------

    def compile(self, retrieved: Sequence[Hit] = ()) -> CompiledPrompt:
        """The prompt for the next call: system, core, ``retrieved`` as quoted data (what the prompt gate admits),
        then the messages."""
        memories = render_memories(admit_hits(retrieved), self._budget.retrieval_reserve, self._memory_counts)
        with self._lock:
            return compile_prompt(
                budget=self._budget,
                system_prompt=self._system_prompt,
                system_cost=self._system_cost,
                core_text=self.core.render(),
                core_cost=self.core.tokens,
                memories=memories,
                messages=list(self._queue.api),
                messages_cost=self._queue.total,
                with_tool_calls=self._queue.with_calls > 0,
            )

    def conversation_search(
        self,
        query: str = "",
        *,
        start: datetime | None = None,
        end: datetime | None = None,
        roles: Iterable[Role | str] | None = None,
        k: int = 10,
        all_sessions: bool = True,
    ) -> list[Hit]:
        """Past messages (in or out of the window) by relevance to ``query``, or the newest k in time order."""
        return search_conversation(
            self._store,
            self._recall,
            self._scope,
            query,
            clock=self._clock,
            start=start,
            end=end,
            roles=roles,
            k=k,
            all_sessions=all_sessions,
        )
