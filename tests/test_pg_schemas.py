"""The store tests' reused PostgreSQL schemas (testkit/pg_schemas.py): a schema handed back
is given out again only as a new one would be, empty with its ids starting again; one whose shape a
test changed, or that a test left locked, is dropped, not given out."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest

from bot.store import open_store
from bot.store.migrations import MIGRATIONS
from testkit.pg_schemas import MigratedSchemas, schema_url


@pytest.fixture
def schemas(postgres_server: str, postgres_admin: Any) -> Any:
    made = MigratedSchemas(postgres_server, postgres_admin)
    yield made
    made.close()


def _exists(admin: Any, schema: str) -> bool:
    return admin.execute("SELECT 1 FROM pg_namespace WHERE nspname = %s", (schema,)).fetchone() is not None


def test_a_schema_handed_back_is_empty_and_its_ids_start_again(schemas: Any, postgres_server: str) -> None:
    schema = schemas.take()
    url = schema_url(postgres_server, schema)
    with psycopg.connect(url, autocommit=True) as conn:
        assert conn.execute("SELECT version FROM liuren_schema").fetchall() == [(len(MIGRATIONS),)]
        tables = [r[0] for r in conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = %s AND tablename <> 'liuren_schema'", (schema,)
        ).fetchall()]
        sequences = [r[0] for r in conn.execute(
            "SELECT sequencename FROM pg_sequences WHERE schemaname = %s", (schema,)).fetchall()]
        assert tables and sequences
        first = [conn.execute("SELECT nextval(%s)", (f"{schema}.{s}",)).fetchone() for s in sequences]
        conn.execute("INSERT INTO guild_options (guild_id, timezone) VALUES (1, 'Asia/Tokyo')")
    schemas.give_back(schema)
    assert schemas.take() == schema and schemas.reused == 1
    with psycopg.connect(url, autocommit=True) as conn:
        assert all(conn.execute(f"SELECT count(*) FROM {t}").fetchone() == (0,) for t in tables)
        assert [conn.execute("SELECT nextval(%s)", (f"{schema}.{s}",)).fetchone() for s in sequences] == first
        assert conn.execute("SELECT version FROM liuren_schema").fetchall() == [(len(MIGRATIONS),)]


async def test_a_store_opens_on_a_reused_schema_as_on_a_new_one(schemas: Any, postgres_server: str) -> None:
    schema = schemas.take()
    store = await open_store(schema_url(postgres_server, schema))
    await store.close()
    schemas.give_back(schema)
    again = schemas.take()
    assert again == schema
    store = await open_store(schema_url(postgres_server, again))
    try:
        assert (await store.guild_options(1)).timezone is None
    finally:
        await store.close()


@pytest.mark.parametrize("change", [
    "ALTER TABLE guild_options ADD COLUMN extra INTEGER",
    "CREATE INDEX extra_index ON guild_options (timezone)",
    "DROP TABLE profiles",
    "UPDATE liuren_schema SET version = 1",
])
def test_a_schema_whose_shape_a_test_changed_is_dropped(schemas: Any, postgres_server: str,
                                                        postgres_admin: Any, change: str) -> None:
    schema = schemas.take()
    with psycopg.connect(schema_url(postgres_server, schema), autocommit=True) as conn:
        conn.execute(change)
    schemas.give_back(schema)
    assert not _exists(postgres_admin, schema)
    assert schemas.take() != schema and schemas.reused == 0


def test_a_schema_a_test_left_locked_is_not_given_out_again(schemas: Any, postgres_server: str,
                                                            postgres_admin: Any) -> None:
    schema = schemas.take()
    with psycopg.connect(schema_url(postgres_server, schema)) as holder:  # a transaction left open
        holder.execute("LOCK TABLE cases IN ACCESS EXCLUSIVE MODE")
        schemas.give_back(schema)  # within the lock timeout, not hanging
        assert _exists(postgres_admin, schema) and schemas.take() != schema
    schemas.close()
    assert not _exists(postgres_admin, schema)
