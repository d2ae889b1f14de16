"""(internal) The two roles of a PostgreSQL store: the owner that migrates, and the runtime role the service uses.

The owner of the schema's tables runs the migrations and is the only role the row-level security policies do not
bind (migration 0009). The runtime role gets, by ``grant_runtime``, exactly what the service needs: to use the
schema, to read and write the rows of the tables (the policies still choose which), to read the migration
record, to run the store's functions (among them the cross-tenant ones, which return ids and counts, never
text) and, where the server has the privilege (PostgreSQL 17+), ``MAINTAIN``, so ``compact`` can VACUUM. It can
create nothing, alter nothing, and read one tenant at a time.
"""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg import sql

__all__ = ["bypass_reason", "grant_runtime"]

_MAINTAIN_FROM = 170000  # server_version_num of the first PostgreSQL with the MAINTAIN privilege


def bypass_reason(conn: psycopg.Connection[Any], schema: str) -> str | None:
    """Why row-level security does not bind this connection's role in ``schema`` (None: it does).

    A superuser and a BYPASSRLS role pass every policy; the tables' owner (or a member of the owning role) is
    not bound by them and may turn them off."""
    row = conn.execute(
        "SELECT r.rolsuper, r.rolbypassrls, c.relowner IS NOT NULL AND pg_has_role(current_user, c.relowner, 'MEMBER')"
        " FROM pg_roles r LEFT JOIN pg_class c ON c.oid = to_regclass(format('%%I.records', %s::text))"
        " WHERE r.rolname = current_user",
        [schema],
    ).fetchone()
    if row is None:
        return None
    superuser, bypass, owner = row
    if superuser:
        return "is a superuser"
    if bypass:
        return "has BYPASSRLS"
    if owner:
        return "owns the tables"
    return None


def grant_runtime(conn: psycopg.Connection[Any], schema: str, role: str) -> None:
    """Give ``role`` what the service needs in ``schema`` and no more (run as the schema's owner; idempotent)."""
    s, r = sql.Identifier(schema), sql.Identifier(role)
    statements = [
        "GRANT USAGE ON SCHEMA {s} TO {r}",
        "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA {s} TO {r}",
        "REVOKE INSERT, UPDATE, DELETE ON {s}.schema_migrations FROM {r}",
        "GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA {s} TO {r}",
        # Tables and functions of later migrations (made by this owner) come with the same grants.
        "ALTER DEFAULT PRIVILEGES IN SCHEMA {s} GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO {r}",
        "ALTER DEFAULT PRIVILEGES IN SCHEMA {s} GRANT EXECUTE ON FUNCTIONS TO {r}",
    ]
    version = conn.execute("SELECT current_setting('server_version_num')::int").fetchone()
    if version is not None and int(version[0]) >= _MAINTAIN_FROM:
        statements += [
            "GRANT MAINTAIN ON ALL TABLES IN SCHEMA {s} TO {r}",
            "ALTER DEFAULT PRIVILEGES IN SCHEMA {s} GRANT MAINTAIN ON TABLES TO {r}",
        ]
    with conn.transaction():
        for statement in statements:
            conn.execute(sql.SQL(statement).format(s=s, r=r))
