"""(internal) ``tiermem serve`` (the REST service) and ``tiermem keys create|list|revoke`` (its API keys).

Both need the ``server`` extra only when they run: FastAPI and uvicorn are imported inside the commands.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING

import click

from tiermem.cli.database import db_option, db_url
from tiermem.cli.options import F, embedder_option
from tiermem.cli.render import say
from tiermem.errors import ConfigError, NotFoundError
from tiermem.store.options import CONNECT_TIMEOUT_ENV, MAX_POOL_SIZE, POOL_SIZE_ENV, POOL_WAIT_ENV, PoolOptions

if TYPE_CHECKING:
    from tiermem.store import Store
    from tiermem.store.access_base import AccessStore

__all__ = ["keys_group", "serve_command"]

_POOL = PoolOptions()


def _pool_option(
    flag: str, kind: click.IntRange | click.FloatRange, default: float, env: str, what: str
) -> Callable[[F], F]:
    """A PostgreSQL pool option: ``PoolOptions``' default, settable by ``env``, which its help names."""
    return click.option(
        flag, type=kind, default=default, show_default=True, envvar=env, help=f"PostgreSQL: {what} [env: ${env}]."
    )


@click.command("serve")
@db_option
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on (loopback by default).")
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True, help="Port to listen on.")
@embedder_option("Embedding model, loaded once at start and kept warm.")
@click.option("--max-body", type=click.IntRange(1024), default=1 << 20, show_default=True, help="Largest body, bytes.")
@click.option("--max-batch", type=click.IntRange(1, 10_000), default=256, show_default=True, help="Items per batch.")
@click.option("--rate", type=click.FloatRange(0), default=50.0, show_default=True, help="Requests/s per credential.")
@click.option(
    "--burst", type=click.IntRange(1), default=100, show_default=True, help="Requests at once per credential."
)
@click.option(
    "--sync",
    type=click.Choice(["full", "normal"]),
    default="full",
    show_default=True,
    help="SQLite synchronous: full syncs every commit to disk before the reply; normal may lose the last"
    " commits on power loss (never on a crash of the process).",
)
@click.option(
    "--write-behind",
    is_flag=True,
    help="Reply to a write once it is stored and full-text indexed; one worker embeds writes in batches (see"
    " docs/lifecycle.md). Recall finds them by their words meanwhile; nothing is lost on a crash.",
)
@click.option("--llm-url", default=None, help="Chat: an OpenAI-compatible base URL (e.g. http://localhost:11434/v1).")
@click.option("--llm-model", default=None, help="Chat: the model name at --llm-url.")
@click.option(
    "--pii-mask",
    type=click.Choice(["always", "remote", "never"]),
    default="remote",
    show_default=True,
    envvar="TIERMEM_PII_MASK",
    help="Chat: mask personal data in prompts to the model (remote: when --llm-url is not this machine).",
)
@click.option(
    "--harm-judge",
    is_flag=True,
    help="Also ask the chat model (--llm-url) whether each untrusted note is harmful to follow; one it judges"
    " harmful is quarantined (docs/security.md). A model call per note from a tool, a web page or an import.",
)
@_pool_option(
    "--pool-size", click.IntRange(1, MAX_POOL_SIZE), _POOL.size, POOL_SIZE_ENV, "connections at most per process"
)
@_pool_option(
    "--pool-wait",
    click.FloatRange(0, 600, min_open=True),
    _POOL.wait,
    POOL_WAIT_ENV,
    "seconds a request waits for a free connection, then 503",
)
@_pool_option(
    "--connect-timeout",
    click.IntRange(2, 600),
    _POOL.connect_timeout,
    CONNECT_TIMEOUT_ENV,
    "whole seconds to reach the server",
)
@click.option(
    "--allow-rls-bypass",
    is_flag=True,
    help="PostgreSQL: serve even as a role row-level security does not bind (a superuser, BYPASSRLS, the tables'"
    " owner), with a warning; by default that is refused.",
)
def serve_command(
    db: str | None,
    host: str,
    port: int,
    embedder: str,
    max_body: int,
    max_batch: int,
    rate: float,
    burst: int,
    sync: str,
    write_behind: bool,
    llm_url: str | None,
    llm_model: str | None,
    pool_size: int,
    pool_wait: float,
    connect_timeout: int,
    allow_rls_bypass: bool,
    pii_mask: str,
    harm_judge: bool,
) -> None:
    """Serve the REST API (under /v1) until interrupted; one JSON line per request on standard error.

    Credentials: API keys from `tiermem keys create`, or JWTs when $TIERMEM_JWT_ISSUER, $TIERMEM_JWT_AUDIENCE and
    $TIERMEM_JWT_JWKS_FILE (or $TIERMEM_JWT_JWKS_URL) are set; see docs/service.md. MCP (streamable HTTP) is at
    /mcp with the same credentials. Chat (POST /v1/sessions/ID/messages) needs --llm-url and --llm-model; the
    model's key comes from $TIERMEM_LLM_API_KEY or $OPENAI_API_KEY. The database must exist (`tiermem init`
    makes one); the "serving" line comes once connections are accepted, and a failure to start is one line.
    """
    try:
        from tiermem.server.serve import serve
    except ModuleNotFoundError as exc:
        hint = "pip install 'tiermem[server]'"
        raise ConfigError(f"tiermem serve needs the server extra ({exc.name} is missing): {hint}") from None
    from tiermem.server.settings import Limits, RateLimit, ServerSettings
    from tiermem.store import display_url

    settings = ServerSettings(
        db_url=db_url(db),
        embedder=embedder,
        host=host,
        port=port,
        limits=Limits(max_body_bytes=max_body, max_batch=max_batch),
        rate=RateLimit(per_second=rate, burst=burst),
        jwt=ServerSettings.jwt_from_env(),
        synchronous=sync.upper(),
        write_behind=write_behind,
        llm_url=llm_url,
        llm_model=llm_model,
        llm_api_key=ServerSettings.llm_key_from_env(),
        pool=PoolOptions(size=pool_size, wait=pool_wait, connect_timeout=connect_timeout),
        allow_rls_bypass=allow_rls_bypass,
        pii_mask=pii_mask,
        harm_judge=harm_judge,
    )

    def announce() -> None:
        shown = display_url(settings.db_url)
        click.echo(f"tiermem serving {shown} on http://{host}:{port} (Ctrl-C stops)", err=True)

    try:
        serve(settings, announce=announce)
    except NotFoundError as exc:  # the database: never made by serving it (a mistyped --db is not a new store)
        raise NotFoundError(f"{exc}; `tiermem init --db ...` creates one") from None


@click.group("keys")
def keys_group() -> None:
    """API keys of the service: create (the secret is shown once), list, revoke."""


@keys_group.command("create")
@db_option
@click.option("--tenant", required=True, help="The tenant the key acts for.")
@click.option("--user", default=None, help="The user it acts for (none: the tenant's shared memory).")
@click.option("--role", type=click.Choice(["user", "admin"]), default="user", show_default=True)
@click.option("--label", default="", help="A note to recognise the key by (shown in listings).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def create_key_command(db: str | None, tenant: str, user: str | None, role: str, label: str, as_json: bool) -> None:
    """Create a key and print its secret: it is shown only now (the database keeps a hash)."""
    from tiermem.server.keys import create_key

    store, access = _open(db)
    try:
        made = create_key(access, tenant, user, role, label)
    finally:
        store.close()
    if as_json:
        click.echo(json.dumps({**_key_json(made.key), "secret": made.secret}, indent=2))
        return
    click.echo(made.secret)
    click.echo(
        f"key {made.key.id} for tenant {tenant}, user {user or '(none)'}, role {role}: store the secret now", err=True
    )


@keys_group.command("list")
@db_option
@click.option("--tenant", default=None, help="Only this tenant's keys.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def list_keys_command(db: str | None, tenant: str | None, as_json: bool) -> None:
    """List keys (never their secrets), oldest first."""
    store, access = _open(db)
    try:
        keys = access.list_keys(tenant)
    finally:
        store.close()
    if as_json:
        click.echo(json.dumps([_key_json(k) for k in keys], indent=2))
        return
    for k in keys:
        state = "revoked " + k.revoked_at.isoformat(timespec="seconds") if k.revoked_at else "active"
        who = f"{k.tenant}/{k.user or '-'}"
        say(f"{k.id}  {who:<30} {k.role.value:<5}  {k.created_at:%Y-%m-%d %H:%M}  {state}  {k.label}")


@keys_group.command("revoke")
@db_option
@click.argument("key_id")
def revoke_key_command(db: str | None, key_id: str) -> None:
    """Revoke a key: every request with it gets 401 within a second (a server trusts a verified key that long)."""
    from tiermem.errors import NotFoundError
    from tiermem.types import utcnow

    store, access = _open(db)
    try:
        if not access.revoke_key(key_id, at=utcnow()):
            raise NotFoundError(f"no API key {key_id}")
    finally:
        store.close()
    click.echo(f"revoked {key_id}")


def _open(db: str | None) -> tuple[Store, AccessStore]:
    """The existing store ``--db`` names, as an AccessStore too; a missing one says how to make it."""
    from tiermem.server.keys import open_access

    try:
        return open_access(db_url(db))
    except NotFoundError as exc:
        raise NotFoundError(f"{exc}; `tiermem init --db ...` creates one") from None


def _key_json(key: object) -> dict[str, object]:
    from tiermem.store.access_base import ApiKey

    assert isinstance(key, ApiKey)
    return {
        "id": key.id,
        "tenant": key.tenant,
        "user": key.user,
        "role": key.role.value,
        "label": key.label,
        "created_at": key.created_at.isoformat(),
        "revoked_at": None if key.revoked_at is None else key.revoked_at.isoformat(),
    }
