"""(internal) Who writes, when that is known apart from a note's source: the author the audit log names.

A note's source says where its text came from (``user``, ``web:<url>``); the service knows more, the credential
that sent it. It sets that credential's id for each request (``AuthPath.admit``), and the write path's audit
entries name it instead of the source string a client chose. A context variable carries it, so it follows the
request into the threads it hands work to and never leaks into another request.
"""

from __future__ import annotations

from contextvars import ContextVar

from tiermem.types import Source

__all__ = ["act_as", "actor_for"]

_ACTOR: ContextVar[str | None] = ContextVar("tiermem_audit_actor", default=None)


def act_as(actor: str | None) -> None:
    """Audit the write path's entries in this context as ``actor`` (None: as each note's source)."""
    _ACTOR.set(actor)


def actor_for(source: Source) -> str:
    """The audit actor of a write of a note from ``source``."""
    return _ACTOR.get() or str(source)
