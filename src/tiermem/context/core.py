"""Core memory: named, capped blocks that are always in the prompt, persisted per scope with every edit.

The blocks' caps must fit the core budget K together with their framing (names, descriptions, tags), so an
edit within its block's cap never pushes the prompt over W - O. Edits are optimistic: each save names the
version it started from and fails with ConflictError if another writer got there first.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime

from tiermem.context.messages import MESSAGE_OVERHEAD
from tiermem.errors import ConflictError, InjectionRefusedError, NotFoundError, SecretRefusedError, ValidationError
from tiermem.store.context_base import BlockEdit, CoreBlock, StoreWithContext
from tiermem.tokens import TokenCounter
from tiermem.types import Scope, new_id, utcnow
from tiermem.write.gate import admit_block
from tiermem.write.scan import ScanPolicy

__all__ = ["MAX_DESCRIPTION_CHARS", "BlockEdit", "CoreBlock", "CoreMemory", "check_block_name"]

MAX_DESCRIPTION_CHARS = 1000
MAX_ACTOR_CHARS = 128
_NAME = re.compile(r"[a-z][a-z0-9_]{0,63}")
_HEADER = "Core memory (always in view; the blocks below are yours to keep up to date unless read-only):"


def check_block_name(name: str) -> None:
    """A ValidationError unless ``name`` can name a block (1-64 lowercase letters, digits or _, from a letter)."""
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise ValidationError(
            "block", "a block name is 1-64 lowercase letters, digits or _, starting with a letter", given=name
        )


def _check_actor(actor: str) -> None:
    if not isinstance(actor, str) or not actor or len(actor) > MAX_ACTOR_CHARS:
        raise ValidationError(
            "actor", f"must be a name of 1-{MAX_ACTOR_CHARS} characters", given=actor, limit=MAX_ACTOR_CHARS
        )


def _render_block(block: CoreBlock, value: str) -> str:
    flags = ' read_only="true"' if block.read_only else ""
    description = f"<description>{block.description}</description>\n" if block.description else ""
    return (
        f'<{block.name} limit_tokens="{block.limit}"{flags}>\n{description}<value>\n{value}\n</value>\n</{block.name}>'
    )


def render_blocks(blocks: list[CoreBlock], *, empty: bool = False) -> str:
    """The core section's text (``empty``: with every value blank, to measure the framing)."""
    if not blocks:
        return ""
    body = "\n".join(_render_block(b, "" if empty else b.value) for b in blocks)
    return f"{_HEADER}\n{body}"


class CoreMemory:
    """The core blocks of one (tenant, user, agent), cached in memory and written through to the store."""

    def __init__(
        self,
        store: StoreWithContext,
        scope: Scope,
        *,
        counter: TokenCounter,
        budget: int,
        clock: Callable[[], datetime] = utcnow,
        scan: ScanPolicy | None = None,
    ) -> None:
        """``scan``: how the write gate judges block text (``write.scan.ScanPolicy.core``; scanned by default)."""
        if isinstance(budget, bool) or not isinstance(budget, int) or budget < 0:
            raise ValidationError("core", "the core budget must be an integer >= 0", given=budget, limit=">= 0")
        self._store = store
        self._scope = scope
        self._counter = counter
        self._budget = budget
        self._clock = clock
        self._scan = scan
        self._blocks: dict[str, CoreBlock] = {}
        self._cached: tuple[str, int] | None = None
        self.refresh()

    # -- reading -------------------------------------------------------------------------------------------

    @property
    def budget(self) -> int:
        """K: the most tokens the core section may cost, framing and message overhead included."""
        return self._budget

    @property
    def blocks(self) -> tuple[CoreBlock, ...]:
        """The blocks, by name."""
        return tuple(self._blocks[n] for n in sorted(self._blocks))

    def __contains__(self, name: object) -> bool:
        return name in self._blocks

    def get(self, name: str) -> CoreBlock:
        """The block called ``name``; NotFoundError lists the blocks there are."""
        block = self._blocks.get(name)
        if block is None:
            names = ", ".join(sorted(self._blocks)) or "none"
            raise NotFoundError(f"no core block '{name}' in {self._scope}; blocks: {names}")
        return block

    def render(self) -> str:
        """The core section as the prompt shows it ('' when there are no blocks)."""
        return self._render()[0]

    @property
    def tokens(self) -> int:
        """What the core section costs in the prompt (0 when there are no blocks)."""
        return self._render()[1]

    def history(self, name: str, *, limit: int = 100) -> list[BlockEdit]:
        """The most recent recorded edits of a block, newest first."""
        return self._store.core_block_edits(self._scope, name, limit=limit)

    def refresh(self) -> None:
        """Reload every block from the store (after a ConflictError, or to see another process's edits)."""
        self._blocks = {b.name: b for b in self._store.load_core_blocks(self._scope)}
        self._cached = None

    # -- editing -------------------------------------------------------------------------------------------

    def define(
        self,
        name: str,
        *,
        limit: int,
        description: str = "",
        read_only: bool = False,
        value: str = "",
        actor: str = "system",
    ) -> CoreBlock:
        """Create the block if it is missing; if it exists keep its value and apply the new cap and description."""
        check_block_name(name)
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise ValidationError(f"core.{name}.limit", "must be an integer >= 1 (tokens)", given=limit, limit=">= 1")
        if not isinstance(description, str) or len(description) > MAX_DESCRIPTION_CHARS:
            raise ValidationError(
                f"core.{name}.description",
                "must be a string of at most this many characters",
                given=len(description) if isinstance(description, str) else description,
                limit=MAX_DESCRIPTION_CHARS,
            )
        old = self._blocks.get(name)
        base = old or CoreBlock(name, limit, value)
        new = replace(base, limit=limit, description=description, read_only=read_only)
        if old is not None and (old.limit, old.description, old.read_only) == (limit, description, read_only):
            return old
        self._check_caps(new)
        self._check_fits(new, new.value)
        return self._save(old, new, "define" if old is None else "update", actor)

    def append(self, name: str, text: str, *, actor: str = "agent") -> CoreBlock:
        """Add ``text`` as a new line at the end of the block."""
        block = self._editable(name)
        if not isinstance(text, str) or not text.strip():
            raise ValidationError(f"core.{name}", "text to append must not be empty", given=text)
        value = f"{block.value}\n{text}" if block.value else text
        return self._edit(block, value, "append", actor)

    def replace(self, name: str, old: str, new: str, *, actor: str = "agent") -> CoreBlock:
        """Replace every occurrence of ``old`` by ``new`` (``new`` may be '' to delete); ``old`` must occur."""
        block = self._editable(name)
        if not isinstance(old, str) or not old:
            raise ValidationError(f"core.{name}", "text to replace must not be empty", given=old)
        if not isinstance(new, str):
            raise ValidationError(f"core.{name}", "replacement must be a string", given=type(new).__name__)
        if old not in block.value:
            raise ValidationError(f"core.{name}", f"text to replace does not occur in block '{name}'", given=old)
        return self._edit(block, block.value.replace(old, new), "replace", actor)

    def rewrite(self, name: str, value: str, *, actor: str, force: bool = False) -> CoreBlock:
        """Set the whole value; ``force`` also writes a read-only block (for developers and the summariser)."""
        block = self.get(name) if force else self._editable(name)
        if not isinstance(value, str):
            raise ValidationError(f"core.{name}", "value must be a string", given=type(value).__name__)
        return self._edit(block, value, "rewrite", actor)

    def cap_room(self, blocks: Sequence[CoreBlock]) -> int:
        """The tokens the caps of ``blocks`` may take together beside the other blocks held (framing counted)."""
        names = {b.name for b in blocks}
        framing = self._frame_cost(list({**self._blocks, **{b.name: b for b in blocks}}.values()))
        return self._budget - framing - sum(b.limit for n, b in self._blocks.items() if n not in names)

    def would_fit(self, name: str, value: str) -> bool:
        """Whether ``value`` fits the block's cap and the core budget (what a summariser asks before writing)."""
        block = self.get(name)
        if self._counter.count(value) > block.limit:
            return False
        return self._cost(replace(block, value=value)) <= self._budget

    def admits(self, name: str, text: str, *, actor: str = "summariser") -> bool:
        """Whether the core gate takes ``text`` as block ``name``'s value (what a summariser asks of each line);
        a refusal is audited as any refusal of the gate is."""
        try:
            admit_block(self._store, self._scope, name, [text], actor=actor, now=self._clock(), policy=self._scan)
        except (InjectionRefusedError, SecretRefusedError):
            return False
        return True

    # -- internals -----------------------------------------------------------------------------------------

    def _editable(self, name: str) -> CoreBlock:
        block = self.get(name)
        if block.read_only:
            raise ValidationError(f"core.{name}", f"block '{name}' is read-only", given=name)
        return block

    def _edit(self, block: CoreBlock, value: str, op: str, actor: str) -> CoreBlock:
        if value == block.value:
            return block
        self._check_fits(block, value)
        return self._save(block, replace(block, value=value), op, actor)

    def _check_caps(self, new: CoreBlock) -> None:
        blocks = {**self._blocks, new.name: new}
        framing = self._frame_cost(list(blocks.values()))
        others = sum(b.limit for n, b in blocks.items() if n != new.name)
        room = self._budget - framing - others
        if new.limit > room:
            raise ValidationError(
                f"core.{new.name}.limit",
                f"a cap of {new.limit} tokens does not fit the core budget {self._budget} (framing {framing}, "
                f"other blocks' caps {others}, room {max(room, 0)})",
                given=new.limit,
                limit=max(room, 0),
            )

    def _check_fits(self, block: CoreBlock, value: str) -> None:
        size = self._counter.count(value)
        if size > block.limit:
            raise ValidationError(
                f"core.{block.name}",
                f"block '{block.name}' would hold {size} tokens, over its cap of {block.limit}",
                given=size,
                limit=block.limit,
            )
        total = self._cost(replace(block, value=value))
        if total > self._budget:
            raise ValidationError(
                "core",
                f"core memory would cost {total} tokens, over the core budget {self._budget}",
                given=total,
                limit=self._budget,
            )

    def _save(self, old: CoreBlock | None, new: CoreBlock, op: str, actor: str) -> CoreBlock:
        _check_actor(actor)
        now = self._clock()
        changed = [
            text if old is None or text != before else ""
            for text, before in ((new.value, old and old.value), (new.description, old and old.description))
        ]
        admit_block(self._store, self._scope, new.name, changed, actor=actor, now=now, policy=self._scan)
        expected = 0 if old is None else old.version
        saved = replace(new, version=expected + 1, updated_at=now)
        edit = BlockEdit(
            new_id(), new.name, actor, now, op, None if old is None else old.value, saved.value, saved.version
        )
        try:
            self._store.save_core_block(self._scope, saved, expected_version=expected, edit=edit)
        except ConflictError:
            self.refresh()  # so that a retry starts from what is stored
            raise
        self._blocks[new.name] = saved
        self._cached = None
        return saved

    def _frame_cost(self, blocks: list[CoreBlock]) -> int:
        ordered = sorted(blocks, key=lambda b: b.name)
        return self._counter.count(render_blocks(ordered, empty=True)) + MESSAGE_OVERHEAD if ordered else 0

    def _cost(self, changed: CoreBlock) -> int:
        blocks = sorted({**self._blocks, changed.name: changed}.values(), key=lambda b: b.name)
        return self._counter.count(render_blocks(blocks)) + MESSAGE_OVERHEAD

    def _render(self) -> tuple[str, int]:
        if self._cached is None:
            text = render_blocks(list(self.blocks))
            self._cached = (text, self._counter.count(text) + MESSAGE_OVERHEAD if text else 0)
        return self._cached
