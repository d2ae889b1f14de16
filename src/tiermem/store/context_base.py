"""The ContextStore protocol: persistence of core memory blocks, their edit history and context windows.

Core blocks belong to (tenant, user, agent): a new session of the same agent sees the same blocks. A context
window (the ordered record ids of the messages in the prompt) belongs to the full scope, session included.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

from tiermem.errors import ConflictError, ValidationError
from tiermem.store.base import Store
from tiermem.types import Scope

__all__ = [
    "ANY_REVISION",
    "MAX_EDITS",
    "BlockEdit",
    "ContextStore",
    "CoreBlock",
    "StoreWithContext",
    "WindowState",
    "block_key",
    "check_revision",
    "check_stored",
    "check_version",
    "window_key",
]

MAX_EDITS = 1000  # the most edits of one block ``core_block_edits`` returns
ANY_REVISION = "*"  # ``save_context_window`` without a revision to check (no save writes this one)


@dataclass(frozen=True, slots=True)
class CoreBlock:
    """A named core-memory block: its text, token cap, description, read-only flag and version."""

    name: str
    limit: int
    value: str = ""
    description: str = ""
    read_only: bool = False
    version: int = 0  # 0 = never saved; each saved change adds one
    updated_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class BlockEdit:
    """One recorded change of a block: who, when, what operation, the text before and after."""

    id: str
    name: str
    actor: str
    at: datetime
    op: str
    before: str | None
    after: str | None
    version: int


@dataclass(frozen=True, slots=True)
class WindowState:
    """The persisted context window: message record ids oldest first, the last one summarised, and its revision."""

    message_ids: tuple[str, ...] = ()
    summary_through: str | None = None
    updated_at: datetime | None = None
    # A fresh id per save ('' for a window saved before windows had one): it changed = someone else saved.
    revision: str = ""


class ContextStore(Protocol):
    """Storage of core blocks (per tenant, user, agent) and context windows (per full scope)."""

    def load_core_blocks(self, scope: Scope) -> list[CoreBlock]:
        """The blocks of the scope's (tenant, user, agent), by name."""
        ...

    def save_core_block(self, scope: Scope, block: CoreBlock, *, expected_version: int, edit: BlockEdit) -> None:
        """Store ``block`` and its edit atomically; ConflictError unless the stored version is ``expected_version``.

        ``expected_version`` 0 means the block must not exist yet; ``block.version`` must be one more.
        """
        ...

    def core_block_edits(self, scope: Scope, name: str, *, limit: int = 100) -> list[BlockEdit]:
        """The most recent edits of one block, newest first."""
        ...

    def load_context_window(self, scope: Scope) -> WindowState | None:
        """The scope's saved window, or None if none was saved."""
        ...

    def save_context_window(self, scope: Scope, state: WindowState, *, expected: str | None = ANY_REVISION) -> None:
        """Replace the scope's saved window with ``state`` (its revision included), atomically.

        ConflictError unless the stored revision is ``expected`` (None: no window is saved), so a writer that
        read an older window never overwrites a newer one; ``ANY_REVISION`` replaces whatever is stored.
        """
        ...

    def renew_windows_holding(self, scope: Scope, record_ids: Sequence[str]) -> int:
        """Give each window of the scope's (tenant, user) that holds one of ``record_ids`` a new revision, so that
        an agent holding a copy reloads it (records deleted); how many; joins the caller's transaction."""
        ...

    def rewrite_core_texts(self, scope: Scope, rewrite: Callable[[str], str], *, actor: str, at: datetime) -> int:
        """Pass every core block of the scope's (tenant, user), each agent's, and its edits' texts through ``rewrite``.

        For taking a forgotten message's words out of what was taken from it. A block whose value changes is
        saved as its next version with an edit (op ``redact``, no text before), so that a writer holding the old
        version meets a ConflictError instead of saving the words back; the texts of earlier edits change in
        place. Nothing of the old text stays recoverable where the backend can. Returns how many blocks changed;
        joins the caller's transaction.
        """
        ...

    def delete_context(self, scope: Scope) -> int:
        """Delete the blocks, edits and windows of the scope (agent/session None = all); returns rows removed."""
        ...

    def acquire_turn_lease(self, scope: Scope, holder: str, *, duration: timedelta) -> bool:
        """Take the session's turn lease for ``holder`` for ``duration``, atomically across processes: True when no
        lease was held, ``holder`` held it, or the one held has ended (its process died); False otherwise. Times
        are the database's clock, so clients whose clocks disagree agree on who holds the lease."""
        ...

    def renew_turn_lease(self, scope: Scope, holder: str, *, duration: timedelta) -> bool:
        """End ``holder``'s lease ``duration`` from now; False when ``holder`` no longer holds it (it expired and
        another turn took it, or an erase removed it)."""
        ...

    def release_turn_lease(self, scope: Scope, holder: str) -> None:
        """End ``holder``'s lease of the session; a lease another holder took meanwhile stays."""
        ...


class StoreWithContext(Store, ContextStore, Protocol):
    """A record store that also keeps the working context (what the context runtime needs)."""


def block_key(scope: Scope) -> tuple[str, str, str]:
    """The key columns of the scope's core blocks: tenant, user_key and agent (no user or agent stored as '')."""
    return (scope.tenant, scope.user or "", scope.agent or "")


def window_key(scope: Scope) -> tuple[str, str, str, str]:
    """The key columns of the scope's context window: ``block_key`` and the session ('' for none)."""
    return (*block_key(scope), scope.session or "")


def check_version(block: CoreBlock, expected_version: int) -> None:
    """Refuse a version that is not a positive integer one past ``expected_version`` (guards save_core_block)."""
    version = block.version
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise ValidationError(f"core.{block.name}.version", "must be an integer >= 1", given=version, limit=">= 1")
    if version != expected_version + 1:
        raise ValidationError(
            f"core.{block.name}.version",
            f"must be one more than the expected version {expected_version}",
            given=version,
            limit=expected_version + 1,
        )


def check_revision(scope: Scope, stored: str | None, expected: str | None) -> None:
    """ConflictError unless the window revision stored is the one the save expected (or it expected any)."""
    if expected != ANY_REVISION and stored != expected:
        raise ConflictError(
            f"the context window of session '{scope.session or ''}' ({scope}) was changed by another turn since it"
            " was read; reload it and retry"
        )


def check_stored(scope: Scope, block: CoreBlock, stored: int, expected_version: int) -> None:
    """ConflictError unless the version stored is the one the edit of ``block`` expected."""
    if stored != expected_version:
        raise ConflictError(
            f"core block '{block.name}' of {scope}: the edit expected version {expected_version} but "
            f"version {stored} is stored (changed by another writer); reload the block and retry"
        )
