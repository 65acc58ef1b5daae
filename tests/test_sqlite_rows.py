"""A many-row INSERT … RETURNING read back in one step (bot.store.sqlite_rows) returns exactly the
rows RETURNING would, conflicts skipped, and leaves every other statement to the usual path."""

from __future__ import annotations

import sqlite3
from itertools import chain

import pytest

from bot.store import rows
from bot.store import sql as q
from bot.store.sqlite_rows import inserted
from tests.test_store_casebook import draft


@pytest.fixture
def conn() -> sqlite3.Connection:
    db = sqlite3.connect(":memory:", isolation_level=None)
    db.execute("CREATE TABLE cases_like (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT UNIQUE, n INTEGER, t TEXT)")
    return db


def many(count: int) -> str:
    rows = ", ".join(["(?, ?, ?)"] * count)
    return f"INSERT INTO cases_like (id, n, t) VALUES {rows} ON CONFLICT (id) DO NOTHING RETURNING id, seq, n, t"


def test_the_rows_are_those_returning_gives_conflicts_skipped(conn: sqlite3.Connection) -> None:
    values = [("A", 1 << 62, "問い 'quoted'"), ("B", -5, None), ("A", 3, "clash in the statement"), ("C", 0, "")]
    taken = ("C", 9, "stored before")
    conn.execute(many(1), taken)
    conn.execute("BEGIN IMMEDIATE")
    found = inserted(conn, many(4), tuple(chain.from_iterable(values)))
    conn.execute("ROLLBACK")
    conn.execute("BEGIN IMMEDIATE")
    returned = conn.execute(many(4), tuple(chain.from_iterable(values))).fetchall()
    conn.execute("ROLLBACK")
    assert found is not None and sorted(found) == sorted(returned)
    assert [row[0] for row in sorted(found)] == ["A", "B"] and found[0][2] == 1 << 62


def test_other_statements_are_left_alone(conn: sqlite3.Connection) -> None:
    assert inserted(conn, many(1), ("A", 1, "x")) is None  # one row: the usual path
    assert inserted(conn, "INSERT INTO cases_like (id, n, t) VALUES (?, ?, ?), (?, ?, ?)", ("A", 1, "x") * 2) is None
    assert inserted(conn, "SELECT id FROM cases_like", ()) is None
    assert conn.execute("SELECT count(*) FROM cases_like").fetchone() == (0,)


def test_the_stores_own_many_row_insert_is_one() -> None:
    statement = q.insert_cases(2)
    conn = sqlite3.connect(":memory:", isolation_level=None)
    assert inserted(conn, q.insert_cases(1), rows.case_params("AAAAAA", draft())) is None
    with pytest.raises(sqlite3.OperationalError, match="no such table: cases"):  # recognised, then run
        inserted(conn, statement, rows.case_params("AAAAAA", draft()) + rows.case_params("BBBBBB", draft()))
