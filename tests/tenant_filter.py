"""Which statements name their tenant: PostgreSQL's own parser (pglast) reads each statement a store sends.

A statement passes when every tenant table it reads or changes is pinned to one tenant at its level of the query:
``alias.tenant = <parameter or constant>`` among the conditions ANDed in its WHERE or JOIN ... ON, or
``alias.tenant = other.tenant`` with ``other`` pinned (at that level or an enclosing one). An INSERT must give the
tenant column. That is what lets a distributed PostgreSQL route it to one tenant's shard, and what a forgotten
scope filter would break. The store-wide reads are calls of the schema's functions (migration 0009): counted
apart, never a table read. DDL on a tenant table is refused outright (a temporary staging table is not one).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import pglast
from pglast import ast

__all__ = ["Classified", "StatementLog", "classify"]

_PLACEHOLDER = re.compile(r"%(?:\([^)]*\))?[sbt]|%%")


@dataclass(frozen=True, slots=True)
class Classified:
    """One statement's verdict: ``tenant`` (every tenant table pinned), ``store-wide`` (a call of the schema's
    functions), ``other`` (no tenant table: catalog, settings, locks, staging), or ``bad`` with the reason."""

    kind: str
    reason: str = ""


def _sql_text(query: Any, conn: Any, params: object) -> str:
    if hasattr(query, "as_string"):
        text = str(query.as_string(conn))
    else:
        text = query.decode() if isinstance(query, bytes) else str(query)
    if params is None:
        return text
    counter = iter(range(1, 100_000))
    return _PLACEHOLDER.sub(lambda m: "%" if m.group(0) == "%%" else f"${next(counter)}", text)


def _conjuncts(node: Any) -> Iterator[Any]:
    if isinstance(node, ast.BoolExpr) and node.boolop == pglast.enums.BoolExprType.AND_EXPR:
        for arg in node.args:
            yield from _conjuncts(arg)
    elif node is not None:
        yield node


def _strip(node: Any) -> Any:
    while isinstance(node, ast.TypeCast):
        node = node.arg
    return node


def _tenant_ref(node: Any) -> tuple[str | None] | None:
    """(alias or None,) when ``node`` is a reference to a ``tenant`` column."""
    node = _strip(node)
    if not isinstance(node, ast.ColumnRef):
        return None
    names = [f.sval for f in node.fields if isinstance(f, ast.String)]
    if not names or names[-1] != "tenant":
        return None
    return (names[-2] if len(names) >= 2 else None,)


def _is_value(node: Any) -> bool:
    return isinstance(_strip(node), ast.ParamRef | ast.A_Const)


@dataclass
class _Level:
    """The tenant tables of one query level by alias, and what is known pinned."""

    tables: dict[str, str] = field(default_factory=dict)  # alias -> table
    pinned: set[str] = field(default_factory=set)
    links: list[tuple[str, str]] = field(default_factory=list)
    quals: list[Any] = field(default_factory=list)  # JOIN ... ON conditions, ANDed with the WHERE


class _Checker:
    def __init__(self, tenant_tables: frozenset[str]) -> None:
        self.tenant_tables = tenant_tables
        self.problems: list[str] = []
        self.touched = False

    def _sources(self, node: Any, level: _Level, subqueries: list[Any]) -> None:
        if node is None:
            return
        if isinstance(node, ast.RangeVar):
            if node.relname in self.tenant_tables and node.relpersistence != "t":
                alias = node.alias.aliasname if node.alias else node.relname
                level.tables[alias] = node.relname
                self.touched = True
        elif isinstance(node, ast.JoinExpr):
            self._sources(node.larg, level, subqueries)
            self._sources(node.rarg, level, subqueries)
            if node.quals is not None:
                level.quals.append(node.quals)
        elif isinstance(node, ast.RangeSubselect):
            subqueries.append(node.subquery)
        elif isinstance(node, ast.RangeFunction):
            subqueries.extend(node.functions or ())

    def _pin(self, level: _Level, where: Any, outer: set[str]) -> None:
        quals = [where, *level.quals]
        for qual in quals:
            for cond in _conjuncts(qual):
                if not (isinstance(cond, ast.A_Expr) and cond.kind == pglast.enums.A_Expr_Kind.AEXPR_OP):
                    continue
                if [n.sval for n in cond.name] != ["="]:
                    continue
                left, right = _tenant_ref(cond.lexpr), _tenant_ref(cond.rexpr)
                for ref, other in ((left, cond.rexpr), (right, cond.lexpr)):
                    if ref is not None and _is_value(other):
                        level.pinned.add(self._alias(level, ref[0]))
                if left is not None and right is not None:
                    level.links.append((self._alias(level, left[0]), self._alias(level, right[0])))
        known = level.pinned | outer
        changed = True
        while changed:
            changed = False
            for a, b in level.links:
                if (a in known) != (b in known):
                    known |= {a, b}
                    changed = True
        level.pinned = known

    @staticmethod
    def _alias(level: _Level, name: str | None) -> str:
        if name is not None:
            return name
        return next(iter(level.tables)) if len(level.tables) == 1 else "?"

    def query(self, node: Any, outer: set[str]) -> None:
        """Check one query level (and, recursively, the queries inside it)."""
        if node is None:
            return
        if isinstance(node, ast.SelectStmt):
            if node.op != pglast.enums.SetOperation.SETOP_NONE:
                self.query(node.larg, outer)
                self.query(node.rarg, outer)
                return
            self._with(node.withClause, outer)
            level, subqueries = _Level(), []
            for source in node.fromClause or ():
                self._sources(source, level, subqueries)
            self._level(level, node.whereClause, outer, subqueries, [node.targetList, node.whereClause,
                        node.havingClause, node.valuesLists])  # fmt: skip
        elif isinstance(node, ast.UpdateStmt | ast.DeleteStmt):
            self._with(node.withClause, outer)
            level, subqueries = _Level(), []
            self._sources(node.relation, level, subqueries)
            for source in (node.fromClause if isinstance(node, ast.UpdateStmt) else node.usingClause) or ():
                self._sources(source, level, subqueries)
            extra = node.targetList if isinstance(node, ast.UpdateStmt) else None
            self._level(level, node.whereClause, outer, subqueries, [node.whereClause, extra, node.returningClause])
        elif isinstance(node, ast.InsertStmt):
            self._with(node.withClause, outer)
            table = node.relation.relname
            if table in self.tenant_tables:
                self.touched = True
                columns = [c.name for c in node.cols or ()]
                if columns and "tenant" not in columns:
                    self.problems.append(f"INSERT INTO {table} gives no tenant")
            self.query(node.selectStmt, outer)
        else:
            self._expressions(node, outer)

    def _with(self, clause: Any, outer: set[str]) -> None:
        for cte in (clause.ctes if clause is not None else ()) or ():
            self.query(cte.ctequery, outer)

    def _level(self, level: _Level, where: Any, outer: set[str], subqueries: list[Any], parts: list[Any]) -> None:
        self._pin(level, where, outer)
        for alias, table in level.tables.items():
            if alias not in level.pinned:
                self.problems.append(f"{table} ({alias}) is not pinned to one tenant")
        inner = level.pinned  # with the enclosing levels' (``_pin`` started from them)
        for sub in subqueries:
            self.query(sub, inner)
        for part in parts:
            self._expressions(part, inner)

    def _expressions(self, node: Any, outer: set[str]) -> None:
        """Subqueries inside expressions (EXISTS, IN, scalar): each a query level of its own."""
        if node is None:
            return
        if isinstance(node, ast.SubLink):
            self._expressions(node.testexpr, outer)
            self.query(node.subselect, outer)
            return
        if isinstance(node, ast.SelectStmt | ast.UpdateStmt | ast.DeleteStmt | ast.InsertStmt):
            self.query(node, outer)
            return
        if isinstance(node, tuple | list):
            for child in node:
                self._expressions(child, outer)
            return
        if isinstance(node, ast.Node):
            for name in node:
                self._expressions(getattr(node, name), outer)


_DDL = (ast.CreateStmt, ast.IndexStmt, ast.AlterTableStmt, ast.DropStmt, ast.CreateTrigStmt, ast.RenameStmt,
        ast.CreatePolicyStmt, ast.AlterPolicyStmt, ast.GrantStmt, ast.TruncateStmt, ast.CreateFunctionStmt)  # fmt: skip


def classify(statement: str, tenant_tables: frozenset[str]) -> list[Classified]:
    """The verdict on each statement in ``statement`` (PostgreSQL syntax, ``$n`` parameters)."""
    out: list[Classified] = []
    for raw in pglast.parse_sql(statement):
        node = raw.stmt
        if isinstance(node, ast.CreateTableAsStmt) and node.into.rel.relpersistence == "t" and node.into.skipData:
            out.append(Classified("other"))  # a staging table shaped like a tenant table: it reads no row
            continue
        if isinstance(node, _DDL):
            named = {n.relname for n in _range_vars(node)} & tenant_tables
            temporary = all(n.relpersistence == "t" for n in _range_vars(node))
            if named or not temporary:
                out.append(Classified("bad", f"DDL at request time: {type(node).__name__} {sorted(named)}"))
                continue
        checker = _Checker(tenant_tables)
        checker.query(node, set())
        if checker.problems:
            out.append(Classified("bad", "; ".join(checker.problems)))
        elif checker.touched:
            out.append(Classified("tenant"))
        elif "tiermem_" in statement and isinstance(node, ast.SelectStmt):
            out.append(Classified("store-wide"))
        else:
            out.append(Classified("other"))
    return out


def _range_vars(node: Any) -> Iterator[ast.RangeVar]:
    if isinstance(node, ast.RangeVar):
        yield node
    elif isinstance(node, tuple | list):
        for child in node:
            yield from _range_vars(child)
    elif isinstance(node, ast.Node):
        for name in node:
            yield from _range_vars(getattr(node, name))


class StatementLog:
    """The statements psycopg sends while ``capturing`` (every connection of the process), each classified."""

    def __init__(self, tenant_tables: frozenset[str]) -> None:
        self.tenant_tables = tenant_tables
        self.capturing = False
        self.seen: list[tuple[str, Classified]] = []

    def record(self, query: Any, conn: Any, params: object) -> None:
        if not self.capturing:
            return
        text = _sql_text(query, conn, params)
        for verdict in classify(text, self.tenant_tables):
            self.seen.append((text, verdict))

    @contextmanager
    def paused(self) -> Iterator[None]:
        """Not capturing meanwhile (a store's opening, a schema's set-up: the owner's work, not a request's)."""
        was, self.capturing = self.capturing, False
        try:
            yield
        finally:
            self.capturing = was

    def bad(self) -> list[tuple[str, str]]:
        return [(text, v.reason) for text, v in self.seen if v.kind == "bad"]

    def dump(self) -> None:
        """Append the verdicts to ``$TIERMEM_STATEMENT_LOG`` when set (for a report of the whole suite)."""
        path = os.environ.get("TIERMEM_STATEMENT_LOG")
        if not path:
            return
        with open(path, "a", encoding="utf-8") as out:
            for text, verdict in self.seen:
                out.write(json.dumps({"kind": verdict.kind, "reason": verdict.reason, "statement": text}) + "\n")


@contextmanager
def capturing(log: StatementLog) -> Iterator[StatementLog]:
    """Every statement psycopg's cursors send meanwhile goes to ``log`` (while it is capturing)."""
    import psycopg

    real = psycopg.Cursor.execute, psycopg.Cursor.executemany, psycopg.Cursor.copy

    def execute(cur: Any, query: Any, params: Any = None, **kwargs: Any) -> Any:
        log.record(query, cur.connection, params)
        return real[0](cur, query, params, **kwargs)

    def executemany(cur: Any, query: Any, params_seq: Any, **kwargs: Any) -> Any:
        log.record(query, cur.connection, ())
        return real[1](cur, query, params_seq, **kwargs)

    def copy(cur: Any, statement: Any, params: Any = None, **kwargs: Any) -> Any:
        log.record(statement, cur.connection, params)
        return real[2](cur, statement, params, **kwargs)

    psycopg.Cursor.execute, psycopg.Cursor.executemany, psycopg.Cursor.copy = (  # type: ignore[method-assign]
        execute,
        executemany,
        copy,
    )
    log.capturing = True
    try:
        yield log
    finally:
        log.capturing = False
        psycopg.Cursor.execute, psycopg.Cursor.executemany, psycopg.Cursor.copy = real  # type: ignore[method-assign]
