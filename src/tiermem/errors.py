"""The one error tree of tiermem.

    MemError
     ├── ValidationError          bad input: names the field, the limit and what was given
     │    ├── ScopeError          a scope that is empty, too long or has forbidden characters
     │    ├── SecretRefusedError  a field holding a credential: names the field and the kind, never the value
     │    └── InjectionRefusedError  text refused where it would reach every prompt (core memory): says why
     ├── NotFoundError            an id that does not exist in the caller's scope, or a database file that
     │                            does not exist where one is opened without being created
     ├── ConflictError            an optimistic-concurrency or state conflict
     │    ├── BusyError           another caller holds what this one needs for now; says when to retry
     │    └── TurnLostError       a running turn lost its session: what it stored stays, its reply is dropped
     ├── AccessError              a missing or wrong credential, or one that does not allow the operation
     ├── RateLimitError           a caller over its request rate; says when to retry
     ├── EmbeddingError           the embedder failed or is misconfigured
     │    ├── EmbeddingMismatchError  a vector of another model/dimension than the scope holds
 │    └── WriteBehindError    the write-behind worker failed; its records stay queued in the store
     ├── StoreError               the storage backend failed (driver errors are converted to this)
     │    ├── MigrationError      the schema could not be brought up to date
     │    └── StorageFullError    the disk (or the database's size limit) is full
     ├── LLMError                 a chat endpoint failed: transport, HTTP status, timeout or an unusable reply
     └── ConfigError              a setting or URL that cannot be used

Backends convert foreign exceptions at their boundary (``raise StoreError(...) from exc``); only the CLI
and the server map these to exit codes and HTTP statuses.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = [
    "AccessError",
    "BusyError",
    "ConfigError",
    "ConflictError",
    "EmbeddingError",
    "EmbeddingMismatchError",
    "InjectionRefusedError",
    "LLMError",
    "MemError",
    "MigrationError",
    "NotFoundError",
    "RateLimitError",
    "ScopeError",
    "SecretRefusedError",
    "StorageFullError",
    "StoreError",
    "TurnLostError",
    "ValidationError",
    "WriteBehindError",
]


class MemError(Exception):
    """Base of every error tiermem raises on purpose."""


class ValidationError(MemError, ValueError):
    """Input that breaks a rule; carries the field, the limit and the value given."""

    def __init__(self, field: str, problem: str, *, given: object = None, limit: object = None) -> None:
        # An error is logged and shown to callers: it never repeats a credential, whether the value alone holds one
        # or the value read under its field's name ("metadata.password" and "Tr0mbone!"), nor names a field by one.
        field, problem = shown_name(field), shown_name(problem)
        given = shown(given, field)
        self.field = field
        self.problem = problem
        self.given = given
        self.limit = limit
        parts = [f"{field}: {problem}"]
        if limit is not None:
            parts.append(f"limit {limit}")
        if given is not None:
            parts.append(f"given {_short(given)}")
        super().__init__("; ".join(parts))


class ScopeError(ValidationError):
    """A scope component that is not allowed."""


class SecretRefusedError(ValidationError):
    """A write refused because a field holds a credential; the message names the field and the kind, never the value."""

    def __init__(self, kinds: tuple[str, ...], *, count: int = 1, batch: int = 1, field: str = "content") -> None:
        self.kinds = kinds
        which = "" if batch == 1 else f" ({count} of the batch's {batch} items; nothing was stored)"
        super().__init__(
            field,
            f"holds {' and '.join(kinds)}{which}; credentials are refused and never stored: remove it and write again",
        )


class InjectionRefusedError(ValidationError):
    """Text refused because it reads like instructions to the model where it would reach every prompt."""

    def __init__(self, field: str, score: float, reasons: tuple[str, ...]) -> None:
        self.score = score
        self.reasons = reasons
        why = "; ".join(reasons[:3]) or "directive-shaped text"
        super().__init__(
            field,
            f"reads like instructions to the model (injection score {score:.2f}: {why}); it would be in every"
            " prompt, so it is refused",
        )


class NotFoundError(MemError, KeyError):
    """Nothing with that id exists in the caller's scope (or no database file where an existing one is opened)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "not found"


class ConflictError(MemError):
    """The stored state changed under the caller or forbids the operation."""


class BusyError(ConflictError):
    """Another caller holds what this one needs (a session's turn) for now: nothing was done; ``retry_after`` is in
    seconds."""

    def __init__(self, message: str, *, retry_after: float) -> None:
        self.retry_after = retry_after
        super().__init__(message)


class TurnLostError(ConflictError):
    """A running turn lost its session (its lease ran out while it stalled and another turn took over, or its
    user was erased): what it stored stays, as a dead process's would, and its reply is dropped."""


class AccessError(MemError):
    """No credential, a wrong one, or one whose tenant, user or role does not allow the operation."""

    def __init__(self, message: str, *, authenticated: bool = False) -> None:
        self.authenticated = authenticated  # True: the caller is known but not allowed (HTTP 403, not 401)
        super().__init__(message)


class RateLimitError(MemError):
    """The caller sent more requests than its rate allows; ``retry_after`` is in seconds."""

    def __init__(self, message: str, *, retry_after: float) -> None:
        self.retry_after = retry_after
        super().__init__(message)


class EmbeddingError(MemError):
    """The embedder could not produce vectors."""


class EmbeddingMismatchError(EmbeddingError):
    """A vector of another model or dimension than the scope already holds."""


class WriteBehindError(EmbeddingError):
    """The write-behind worker failed (raised by ``flush``); the records it could not embed stay queued."""


class StoreError(MemError):
    """The storage backend failed; ``public`` says why without naming the database (what a client may be told)."""

    def __init__(self, message: str, *, public: str | None = None) -> None:
        self.public = public
        super().__init__(message)


class MigrationError(StoreError):
    """The schema could not be migrated."""


class StorageFullError(StoreError):
    """The disk or the database's size limit is full: nothing was written; retry when space returns."""


class LLMError(MemError):
    """The chat endpoint failed or answered something unusable; names the URL, the status and a body excerpt."""

    def __init__(self, message: str, *, url: str | None = None, status: int | None = None, excerpt: str = "") -> None:
        self.url = url
        self.status = status
        self.excerpt = excerpt
        super().__init__(message)


class ConfigError(MemError):
    """A setting, URL or option that cannot be used."""


WITHHELD = "(withheld: it holds a credential)"
_withhold_tests: list[Callable[[str], bool]] = []


def withhold_given(test: Callable[[str], bool]) -> None:
    """Make errors withhold any given value ``test`` finds a credential in (the credential detector installs
    itself when imported: this module sits below it)."""
    _withhold_tests.append(test)


def _holds(text: str) -> bool:
    return any(test(text) for test in _withhold_tests)


def shown(value: object, label: str | None = None) -> object:
    """``value`` as an error may show it: withheld when it holds a credential, alone or read under ``label`` (the
    name of the field it was given for: a password says nothing alone)."""
    if value is None or isinstance(value, bool | int | float):
        return value
    text = value if isinstance(value, str) else repr(value)
    if _holds(text) or (label is not None and _holds(f"{label.rpartition('.')[2]}: {text}")):
        return WITHHELD
    return value


def shown_name(name: str) -> str:
    """A field's name or an error's wording as an error may show it: withheld when it holds a credential."""
    return "(a name withheld: it holds a credential)" if isinstance(name, str) and _holds(name) else name


def _short(value: object, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
