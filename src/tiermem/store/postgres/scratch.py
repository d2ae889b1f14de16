"""(internal) Throwaway schemas: a store in a schema of its own, dropped afterwards (evaluations, benchmarks)."""

from __future__ import annotations

import secrets
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import psycopg
from psycopg import sql

from tiermem.store.postgres.connect import driver_error, parse_url

__all__ = ["drop_schema", "scratch_url"]


def scratch_url(url: str, prefix: str = "scratch") -> str:
    """``url`` with a new schema of its own (``?schema=<prefix>_<random>``), replacing any schema it named."""
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k != "schema"]
    query.append(("schema", f"{prefix}_{secrets.token_hex(6)}"))
    return urlunsplit((parts.scheme, parts.netloc, parts.path, urlencode(query), ""))


def drop_schema(url: str) -> None:
    """Drop the schema ``url`` names, with every table in it (never ``public``)."""
    target = parse_url(url)
    if target.schema == "public":
        raise ValueError("refusing to drop the public schema")
    try:
        with psycopg.connect(target.conninfo, autocommit=True, connect_timeout=10) as conn:
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(target.schema)))
    except psycopg.Error as exc:
        raise driver_error("drop a schema of", target.display, exc) from exc
