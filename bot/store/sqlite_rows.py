"""The rows of a many-row ``INSERT … RETURNING`` read back in one step of SQLite, not one per row.

Python's sqlite3 lets go of the interpreter lock around every step of a statement (each row
returned is one) and takes it back after: on the writer's thread each is a wait for the event
loop to let go, and a busy loop lets go late (a whole switch interval, or longer when it keeps
taking the lock back first). So in a write transaction the rows such a statement inserted are
found again by rowid — each has a rowid above the table's largest before the statement, since
the transaction holds the write lock — and read as one JSON array: three steps, whatever the rows.
"""

from __future__ import annotations

import json
import re
import sqlite3

from .driver import Rows

__all__ = ["inserted"]

# INSERT INTO <table> … VALUES (…), (…) … RETURNING <plain columns>: the many-row inserts the store makes.
_MANY = re.compile(r"\s*INSERT\s+INTO\s+(\w+)\s.*\)\s*,\s*\(.*\sRETURNING\s+(\w+(?:\s*,\s*\w+)*)\s*", re.S | re.I)


def inserted(conn: sqlite3.Connection, statement: str, params: tuple[object, ...]) -> Rows | None:
    """The rows ``statement`` returns, run in three steps, when it is a many-row INSERT … RETURNING
    of plain columns whose values are integers or text (JSON keeps them exactly); None, nothing run,
    for any other statement. Only inside a write transaction (BEGIN IMMEDIATE)."""
    found = _MANY.fullmatch(statement)
    if found is None:
        return None
    table, columns = found[1], found[2]
    before = conn.execute(f"SELECT coalesce(max(rowid), 0) FROM {table}").fetchone()[0]
    conn.execute(statement[: found.start(2)].rstrip()[: -len("RETURNING")], params)
    text = conn.execute(f"SELECT json_group_array(json_array({columns})) FROM {table} WHERE rowid > ?",
                        (before,)).fetchone()[0]
    return [tuple(row) for row in json.loads(text)]
