"""(internal) Search of a conversation's past messages, in or out of the window, as ``ContextManager`` offers it."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime

from tiermem.context.messages import RECALL_TAG, Role
from tiermem.context.recall_writer import RecallWriter
from tiermem.errors import ValidationError
from tiermem.recall.search import MAX_K
from tiermem.store.context_base import StoreWithContext
from tiermem.trust.prompt_gate import admit_hits
from tiermem.types import Filter, Hit, Scope

__all__ = ["search_conversation"]


def search_conversation(
    store: StoreWithContext,
    recall: RecallWriter,
    scope: Scope,
    query: str,
    *,
    clock: Callable[[], datetime],
    start: datetime | None,
    end: datetime | None,
    roles: Iterable[Role | str] | None,
    k: int,
    all_sessions: bool,
) -> list[Hit]:
    """Past messages of ``scope`` by relevance to ``query``, or the newest k in time order; as the gate admits them."""
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= MAX_K:
        raise ValidationError("k", f"must be an integer from 1 to {MAX_K}", given=k, limit=MAX_K)
    if not isinstance(query, str):
        raise ValidationError("query", "must be a string", given=type(query).__name__)
    wanted = _roles(roles)
    tags = frozenset(f"role:{r.value}" for r in wanted) if roles is not None else frozenset({RECALL_TAG})
    filter_ = Filter(tags=tags, time_from=start, time_to=end)
    # Recall belongs to the agent: by default a new session can search what was said in earlier ones.
    searched = Scope(scope.tenant, scope.user, scope.agent) if all_sessions else scope
    if query.strip():
        hits = recall.recall(searched, query, k=k, filter=filter_)
    else:
        page = store.list_records(searched, filter_, now=clock(), limit=k, cursor=None)
        hits = [Hit(record, 1.0, ()) for record in reversed(page.records)]
    allowed = {r.value for r in wanted}
    found = [h for h in hits if RECALL_TAG in h.record.tags and h.record.metadata.get("role") in allowed]
    return admit_hits(found)  # what it finds is shown to a model (the tools, a host's recall)


def _roles(roles: Iterable[Role | str] | None) -> frozenset[Role]:
    if roles is None:
        return frozenset(Role)
    out: set[Role] = set()
    for role in roles:
        try:
            out.add(Role(role))
        except ValueError:
            raise ValidationError(
                "roles", f"each must be one of {', '.join(r.value for r in Role)}", given=role
            ) from None
    if not out:
        raise ValidationError("roles", "must name at least one role (or be None for all)", given=[])
    return frozenset(out)
