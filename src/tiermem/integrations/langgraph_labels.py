"""(internal) LangGraph's namespace checks, as the adapter lets them through: an error that repeats a credential
is withheld.

``BaseStore``'s methods check a namespace's labels before they reach ``batch`` and raise ``InvalidNamespaceError``
with every label in its message. The error keeps its type (callers catch it), and keeps its message unless the
message holds a credential (a token pasted as a label); then it is replaced, raised outside the handler so the
first error, and what it quotes, does not ride along as its context.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from langgraph.store.base import BaseStore, InvalidNamespaceError

from tiermem.errors import WITHHELD, shown

__all__ = ["JudgedLabels", "judged_labels"]

T = TypeVar("T")
_WITHHELD = (
    "Invalid namespace: LangGraph refuses one of its labels (empty, holding '.' or a NUL byte, or not a string);"
    " the labels are not repeated: one holds a credential"
)


def _holds_credential(exc: InvalidNamespaceError) -> bool:
    return shown(str(exc)) == WITHHELD


def judged_labels(call: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``call(*args, **kwargs)``, its ``InvalidNamespaceError`` withheld when the message holds a credential."""
    try:
        return call(*args, **kwargs)
    except InvalidNamespaceError as exc:
        if not _holds_credential(exc):
            raise
    raise InvalidNamespaceError(_WITHHELD)


async def _judged_labels_async(call: Callable[..., Awaitable[T]], *args: Any, **kwargs: Any) -> T:
    try:
        return await call(*args, **kwargs)
    except InvalidNamespaceError as exc:
        if not _holds_credential(exc):
            raise
    raise InvalidNamespaceError(_WITHHELD)


class JudgedLabels(BaseStore):
    """``BaseStore``'s namespace-taking methods, with their label errors judged."""

    def get(self, *args: Any, **kwargs: Any) -> Any:
        return judged_labels(super().get, *args, **kwargs)

    def search(self, *args: Any, **kwargs: Any) -> Any:
        return judged_labels(super().search, *args, **kwargs)

    def put(self, *args: Any, **kwargs: Any) -> None:
        judged_labels(super().put, *args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> None:
        judged_labels(super().delete, *args, **kwargs)

    def list_namespaces(self, *args: Any, **kwargs: Any) -> Any:
        return judged_labels(super().list_namespaces, *args, **kwargs)

    async def aget(self, *args: Any, **kwargs: Any) -> Any:
        return await _judged_labels_async(super().aget, *args, **kwargs)

    async def asearch(self, *args: Any, **kwargs: Any) -> Any:
        return await _judged_labels_async(super().asearch, *args, **kwargs)

    async def aput(self, *args: Any, **kwargs: Any) -> None:
        await _judged_labels_async(super().aput, *args, **kwargs)

    async def adelete(self, *args: Any, **kwargs: Any) -> None:
        await _judged_labels_async(super().adelete, *args, **kwargs)

    async def alist_namespaces(self, *args: Any, **kwargs: Any) -> Any:
        return await _judged_labels_async(super().alist_namespaces, *args, **kwargs)
