"""PostgreSQL schemas for the store's tests: a fresh empty one per test, or one already migrated.

A fresh schema costs the server a migration (a dozen tables and their indexes, then dropped
again; figures in docs/performance.md). A test that only needs a store at the current version gets
one from :class:`MigratedSchemas` instead: migrated once per worker, handed back after the test with
every table emptied and its sequences restarted (so ids start again as in a new schema), and dropped
instead of reused when the test changed its shape (tables, columns, indexes, constraints or the
schema version) or left it locked. Tests of migration itself keep asking for a fresh empty schema.
"""

from __future__ import annotations

import asyncio
import hashlib
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any
from urllib.parse import quote

import psycopg

__all__ = ["MigratedSchemas", "fresh_schema", "schema_url"]

# How long the reset waits for a lock a test left behind before the schema is dropped instead.
RESET_LOCK_TIMEOUT = "500ms"

# The schema's shape: its relations (tables, indexes, sequences) and their columns, and its
# constraints, by name and type (pg_indexes' definitions cost the server three times as much).
_SHAPE = """
SELECT c.relkind::text || ' ' || c.relname || ' ' || coalesce(a.attname || ' ' || a.atttypid::text || ' '
       || a.attnotnull::text, '')
  FROM pg_class c LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
 WHERE c.relnamespace = %(ns)s::text::regnamespace
UNION ALL
SELECT 'c ' || conname || ' ' || contype::text FROM pg_constraint WHERE connamespace = %(ns)s::text::regnamespace
ORDER BY 1
"""


def schema_url(server: str, schema: str) -> str:
    """``server``'s URL with connections whose ``search_path`` is ``schema``."""
    separator = "&" if "?" in server else "?"
    return f"{server}{separator}options={quote(f'-csearch_path={schema}')}"


@contextmanager
def fresh_schema(admin: psycopg.Connection[Any]) -> Iterator[str]:
    """A new, empty schema, dropped afterwards."""
    schema = f"t_{uuid.uuid4().hex[:16]}"
    admin.execute(f"CREATE SCHEMA {schema}")
    try:
        yield schema
    finally:
        admin.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")


class MigratedSchemas:
    """Schemas at the store's current version with no rows, kept for reuse within one process."""

    def __init__(self, server: str, admin: psycopg.Connection[Any]) -> None:
        self.server, self.admin = server, admin
        self._free: list[str] = []
        self._made: list[str] = []
        self._shape: str | None = None  # of a schema just migrated: what a handed-back one must match
        self.reused = 0

    def take(self) -> str:
        """A migrated, empty schema: one handed back, else a new one migrated now."""
        if self._free:
            self.reused += 1
            return self._free.pop()
        schema = f"m_{uuid.uuid4().hex[:16]}"
        self.admin.execute(f"CREATE SCHEMA {schema}")
        self._made.append(schema)
        # On a thread of its own: take() may be called from a test's running event loop.
        with ThreadPoolExecutor(1) as thread:
            thread.submit(asyncio.run, self._migrate(schema_url(self.server, schema))).result()
        if self._shape is None:
            self._shape = self.shape(schema)
        return schema

    def give_back(self, schema: str) -> None:
        """Empty ``schema`` for the next test, or drop it if the test changed its shape or left it locked."""
        if self.shape(schema) != self._shape or not self._emptied(schema):
            self._drop(schema)
            return
        self._free.append(schema)

    def close(self) -> None:
        """Drop every schema made (one still locked is left to the test database)."""
        for schema in list(self._made):
            self._drop(schema)
        self._free.clear()

    def shape(self, schema: str) -> str:
        """A digest of the schema's tables, columns, indexes, constraints and version."""
        rows = self.admin.execute(_SHAPE, {"ns": schema}).fetchall()
        text = "\n".join(str(r[0]) for r in rows).replace(schema, "<schema>")
        try:
            with self._bounded():
                version = self.admin.execute(f"SELECT version FROM {schema}.liuren_schema").fetchall()
        except psycopg.Error:  # gone, or locked by what the test left: not the shape to reuse
            version = []
        return hashlib.sha256(f"{text}\n{version}".encode()).hexdigest()

    def _emptied(self, schema: str) -> bool:
        """Every table but the version's emptied and every sequence restarted, as in a new schema
        (DELETE, not TRUNCATE: for a test's few rows it costs the server a tenth)."""
        tables = [r[0] for r in self.admin.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = %s AND tablename <> 'liuren_schema'", (schema,)
        ).fetchall()]
        sequences = [r[0] for r in self.admin.execute(
            "SELECT sequencename FROM pg_sequences WHERE schemaname = %s", (schema,)
        ).fetchall()]
        try:
            with self._bounded():
                self.admin.execute("SET LOCAL session_replication_role = replica")  # no foreign-key order
                for table in tables:
                    self.admin.execute(f"DELETE FROM {schema}.{table}")
                for sequence in sequences:
                    self.admin.execute(f"ALTER SEQUENCE {schema}.{sequence} RESTART")
        except psycopg.Error:  # a lock the test left (a backend still open): not reused
            return False
        return True

    def _drop(self, schema: str) -> None:
        """Drop ``schema``; if a test left it locked, it stays listed for ``close`` to try again
        (a drop that waited for the lock would hang the session instead of ending it)."""
        try:
            with self._bounded():
                self.admin.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        except psycopg.Error:
            return
        if schema in self._made:
            self._made.remove(schema)

    @contextmanager
    def _bounded(self) -> Iterator[None]:
        """A transaction of the admin connection whose waits for a lock end after RESET_LOCK_TIMEOUT
        (psycopg.Error then): a lock a test left must cost a schema, never hang the session."""
        with self.admin.transaction():
            self.admin.execute(f"SET LOCAL lock_timeout = '{RESET_LOCK_TIMEOUT}'")
            yield

    @staticmethod
    async def _migrate(url: str) -> None:
        from bot.store.postgres import migrate

        async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
            await migrate(conn, name="a test schema")
