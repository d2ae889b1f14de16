"""(internal) The ContextStore written once over a backend's connection: reads, saves, deletion, text rewrites.

A racing save is held off by the backend's write transaction and row lock (BEGIN IMMEDIATE on SQLite, FOR UPDATE
on PostgreSQL); a backend gives its dialect, row lock, connections, stored times and stored message ids.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from datetime import UTC, datetime
from typing import Any, ClassVar

from tiermem.errors import ConflictError, ValidationError
from tiermem.store.context_base import (
    ANY_REVISION,
    MAX_EDITS,
    BlockEdit,
    CoreBlock,
    WindowState,
    block_key,
    check_revision,
    check_stored,
    check_version,
    window_key,
)
from tiermem.store.idempotency_base import Executes
from tiermem.store.sql_where import Dialect, scope_where
from tiermem.types import Scope, new_id

__all__ = ["ContextRowsMixin"]


class ContextRowsMixin:
    """The ContextStore's methods but ``renew_windows_holding``, over a backend's hooks."""

    DIALECT: ClassVar[Dialect]
    LOCK_ROW: ClassVar[str]  # appended to a read of rows about to be rewritten: a concurrent edit waits for it

    def context_reads(self, tenant: str) -> AbstractContextManager[Executes]:
        """A connection reading as ``tenant``."""
        raise NotImplementedError

    def context_writes(self, tenant: str) -> AbstractContextManager[Executes]:
        """A write transaction as ``tenant``, giving its connection."""
        raise NotImplementedError

    def read_time(self, stored: Any) -> datetime:
        """A moment as the tables hold it, as an aware datetime."""
        raise NotImplementedError

    def read_ids(self, stored: Any) -> Sequence[str]:
        """A window's message ids as the table holds them, as a list."""
        raise NotImplementedError

    def written_ids(self, ids: Sequence[str]) -> Any:
        """``ids`` as the table holds a window's message ids."""
        raise NotImplementedError

    def texts_scrubbed(self) -> AbstractContextManager[None]:
        """While inside, a rewritten text's old bytes are overwritten where the backend does that on writing."""
        return nullcontext()

    def load_core_blocks(self, scope: Scope) -> list[CoreBlock]:
        m = self.DIALECT.mark
        with self.context_reads(scope.tenant) as conn:
            rows = conn.execute(
                "SELECT name, limit_tokens, value, description, read_only, version, updated_at FROM core_blocks"
                f" WHERE tenant = {m} AND user_key = {m} AND agent = {m} ORDER BY name",
                list(block_key(scope)),
            ).fetchall()
        return [
            CoreBlock(name, limit, value, description, bool(read_only), version, self.read_time(updated))
            for name, limit, value, description, read_only, version, updated in rows
        ]

    def save_core_block(self, scope: Scope, block: CoreBlock, *, expected_version: int, edit: BlockEdit) -> None:
        check_version(block, expected_version)
        m, moment = self.DIALECT.mark, self.DIALECT.moment
        key = block_key(scope)
        with self.context_writes(scope.tenant) as conn:
            # LOCK_ROW: a concurrent writer of the same block waits here, then sees the version it wrote.
            row = conn.execute(
                f"SELECT version FROM core_blocks WHERE tenant = {m} AND user_key = {m} AND agent = {m} AND name = {m}"
                + self.LOCK_ROW,
                [*key, block.name],
            ).fetchone()
            check_stored(scope, block, 0 if row is None else int(row[0]), expected_version)
            written = conn.execute(
                "INSERT INTO core_blocks (tenant, user_key, agent, name, value, limit_tokens, description, read_only,"
                f" version, updated_at) VALUES ({m}, {m}, {m}, {m}, {m}, {m}, {m}, {m}, {m}, {m})"
                " ON CONFLICT (tenant, user_key, agent, name) DO UPDATE SET value = excluded.value,"
                " limit_tokens = excluded.limit_tokens, description = excluded.description,"
                " read_only = excluded.read_only, version = excluded.version, updated_at = excluded.updated_at"
                f" WHERE core_blocks.version = {m}",
                [*key, block.name, block.value, block.limit, block.description, int(block.read_only), block.version,
                 moment(block.updated_at or edit.at), expected_version],
            ).rowcount  # fmt: skip
            # A row lock holds off no save of a block that did not exist yet: a concurrent first save won.
            if not written:
                raise ConflictError(
                    f"core block '{block.name}' of {scope}: the edit expected version {expected_version} but another"
                    " writer saved it first; reload the block and retry"
                )
            conn.execute(
                "INSERT INTO core_block_edits (id, tenant, user_key, agent, name, actor, at, op, before, after,"
                f" version) VALUES ({m}, {m}, {m}, {m}, {m}, {m}, {m}, {m}, {m}, {m}, {m})",
                [edit.id, *key, block.name, edit.actor, moment(edit.at), edit.op, edit.before, edit.after,
                 block.version],
            )  # fmt: skip

    def core_block_edits(self, scope: Scope, name: str, *, limit: int = 100) -> list[BlockEdit]:
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_EDITS:
            raise ValidationError("limit", f"must be an integer from 1 to {MAX_EDITS}", given=limit, limit=MAX_EDITS)
        m = self.DIALECT.mark
        with self.context_reads(scope.tenant) as conn:
            rows = conn.execute(
                "SELECT id, name, actor, at, op, before, after, version FROM core_block_edits WHERE tenant = "
                f"{m} AND user_key = {m} AND agent = {m} AND name = {m} ORDER BY version DESC, at DESC LIMIT {m}",
                [*block_key(scope), name, limit],
            ).fetchall()
        return [
            BlockEdit(i, n, actor, self.read_time(at), op, before, after, v)
            for i, n, actor, at, op, before, after, v in rows
        ]

    def load_context_window(self, scope: Scope) -> WindowState | None:
        m = self.DIALECT.mark
        with self.context_reads(scope.tenant) as conn:
            row = conn.execute(
                "SELECT message_ids, summary_through, updated_at, revision FROM context_windows"
                f" WHERE tenant = {m} AND user_key = {m} AND agent = {m} AND session = {m}",
                list(window_key(scope)),
            ).fetchone()
        if row is None:
            return None
        ids, through, updated, revision = row
        return WindowState(tuple(self.read_ids(ids)), through, self.read_time(updated), revision)

    def save_context_window(self, scope: Scope, state: WindowState, *, expected: str | None = ANY_REVISION) -> None:
        m = self.DIALECT.mark
        key = list(window_key(scope))
        checked = expected != ANY_REVISION
        with self.context_writes(scope.tenant) as conn:
            if checked:
                # LOCK_ROW: a concurrent save of the same window waits here, then sees the revision it wrote.
                row = conn.execute(
                    "SELECT revision FROM context_windows"
                    f" WHERE tenant = {m} AND user_key = {m} AND agent = {m} AND session = {m}" + self.LOCK_ROW,
                    key,
                ).fetchone()
                check_revision(scope, None if row is None else row[0], expected)
            # Expecting no window (None), no stored revision matches the guard: none is ever saved as ANY_REVISION.
            guard = [ANY_REVISION if expected is None else expected] if checked else []
            written = conn.execute(
                "INSERT INTO context_windows (tenant, user_key, agent, session, message_ids, summary_through,"
                f" updated_at, revision) VALUES ({m}, {m}, {m}, {m}, {m}, {m}, {m}, {m})"
                " ON CONFLICT (tenant, user_key, agent, session) DO UPDATE SET message_ids = excluded.message_ids,"
                " summary_through = excluded.summary_through, updated_at = excluded.updated_at,"
                " revision = excluded.revision" + (f" WHERE context_windows.revision = {m}" if guard else ""),
                [*key, self.written_ids(state.message_ids), state.summary_through,
                 self.DIALECT.moment(state.updated_at or datetime.now(UTC)), state.revision or new_id(), *guard],
            ).rowcount  # fmt: skip
            if not written:  # saved meanwhile by a concurrent first save: no row was there to lock above
                check_revision(scope, "", expected)

    def rewrite_core_texts(self, scope: Scope, rewrite: Callable[[str], str], *, actor: str, at: datetime) -> int:
        m, stored_at = self.DIALECT.mark, self.DIALECT.moment(at)
        key = [scope.tenant, scope.user or ""]
        changed = 0
        with self.texts_scrubbed(), self.context_writes(scope.tenant) as conn:
            # LOCK_ROW: an edit saved meanwhile is waited for and rewritten too, never overwritten by a rewrite of
            # the value before it (``save_core_block`` locks the same row).
            blocks = conn.execute(
                f"SELECT agent, name, value, version FROM core_blocks WHERE tenant = {m} AND user_key = {m}"
                + self.LOCK_ROW,
                key,
            ).fetchall()
            for agent, name, value, version in blocks:
                new = rewrite(value)
                if new == value:
                    continue
                changed += 1
                conn.execute(
                    f"UPDATE core_blocks SET value = {m}, version = {m}, updated_at = {m}"
                    f" WHERE tenant = {m} AND user_key = {m} AND agent = {m} AND name = {m}",
                    [new, version + 1, stored_at, *key, agent, name],
                )
                conn.execute(
                    "INSERT INTO core_block_edits (id, tenant, user_key, agent, name, actor, at, op, before, after,"
                    f" version) VALUES ({m}, {m}, {m}, {m}, {m}, {m}, {m}, 'redact', NULL, {m}, {m})",
                    [new_id(), *key, agent, name, actor, stored_at, new, version + 1],
                )
            edits = conn.execute(
                f"SELECT id, before, after FROM core_block_edits WHERE tenant = {m} AND user_key = {m}", key
            ).fetchall()
            for edit_id, before, after in edits:
                texts = [None if t is None else rewrite(t) for t in (before, after)]
                if texts != [before, after]:
                    conn.execute(
                        f"UPDATE core_block_edits SET before = {m}, after = {m} WHERE tenant = {m} AND id = {m}",
                        [*texts, scope.tenant, edit_id],
                    )
        return changed

    def delete_context(self, scope: Scope) -> int:
        m = self.DIALECT.mark
        windows, wparams = scope_where(scope, m, with_session=True)
        removed = 0
        with self.context_writes(scope.tenant) as conn:
            removed += int(conn.execute(f"DELETE FROM context_windows WHERE {windows}", wparams).rowcount)
            if scope.session is None:  # core memory is shared by the agent's sessions
                where, params = scope_where(scope, m, with_session=False)
                for table in ("core_blocks", "core_block_edits"):
                    removed += int(conn.execute(f"DELETE FROM {table} WHERE {where}", params).rowcount)
        return removed
