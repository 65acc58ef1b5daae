"""The store's SQL, written once for both dialects (``?`` placeholders; the PostgreSQL driver swaps
in ``%s``), and the decoders from a fetched row to its value. Only the claim of due rows differs
by dialect: it lives in the drivers (bot.store.sqlite, bot.store.postgres).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import date
from functools import lru_cache
from typing import TYPE_CHECKING, Any, TypeVar

import bot.store as front  # the quiz's and the daily posts' values, loaded by their first row (PEP 562)

from .forms import school_of
from .values import Shards

if TYPE_CHECKING:
    from .quiz_values import QuizAnswer, QuizRow, QuizScore, QuizTopicScore
    from .schedule_values import ScheduleRow

COLUMNS = (
    "id, guild_id, channel_id, post_time, timezone, locale, last_posted, since, disabled_reason, last_error, "
    "due_at, due_day, unsure, message_id"
)

# A row being posted (lease held) keeps its lease and owed day: the post in flight confirms
# and then schedules from the new settings.
PUT_SCHEDULE = (
    "INSERT INTO schedules (guild_id, channel_id, post_time, timezone, locale, since, due_at, due_day) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
    "ON CONFLICT (channel_id) DO UPDATE SET guild_id = excluded.guild_id, "
    "post_time = excluded.post_time, timezone = excluded.timezone, locale = excluded.locale, "
    "since = excluded.since, disabled_reason = NULL, last_error = NULL, "
    "due_at = CASE WHEN schedules.lease_token IS NULL THEN excluded.due_at ELSE schedules.due_at END, "
    "due_day = CASE WHEN schedules.lease_token IS NULL THEN excluded.due_day ELSE schedules.due_day END "
    "RETURNING id"
)
ALL = f"SELECT {COLUMNS} FROM schedules ORDER BY id"
PAGE = f"SELECT {COLUMNS} FROM schedules WHERE id > ? ORDER BY id LIMIT ?"
OF_GUILD = f"SELECT {COLUMNS} FROM schedules WHERE guild_id = ? ORDER BY id"
DELETE_GUILD = "DELETE FROM schedules WHERE guild_id = ?"
DELETE_CHANNEL = "DELETE FROM schedules WHERE guild_id = ? AND channel_id = ?"
CONFIRM = (
    "UPDATE schedules SET last_posted = ?, message_id = COALESCE(?, message_id), last_error = ?, "
    "due_at = ?, due_day = ?, lease_token = NULL, unsure = 0 WHERE id = ? AND lease_token = ?"
)
RELEASE = (
    "UPDATE schedules SET due_at = ?, last_error = ?, lease_token = NULL, unsure = ? "
    "WHERE id = ? AND lease_token = ?"
)
# A row under lease keeps its lease: its holder (or the next, after expiry) schedules it.
RESCHEDULE = (
    "UPDATE schedules SET due_at = ?, due_day = ? WHERE id = ? AND disabled_reason IS NULL AND lease_token IS NULL"
)
RESCHEDULE_HELD = (
    "UPDATE schedules SET due_at = ?, due_day = ?, lease_token = NULL, unsure = 0 WHERE id = ? AND lease_token = ?"
)
UNSCHEDULED = (
    f"SELECT {COLUMNS} FROM schedules WHERE due_at IS NULL AND disabled_reason IS NULL AND id > ? ORDER BY id LIMIT ?"
)
NO_LIMIT = 2**62
DISABLE = "UPDATE schedules SET disabled_reason = ?, due_at = NULL, lease_token = NULL, unsure = 0 WHERE id = ?"
ENABLE = "UPDATE schedules SET disabled_reason = NULL, due_at = ?, due_day = ? WHERE id = ?"
NOTE_ERROR = "UPDATE schedules SET last_error = ? WHERE id = ?"
META = "SELECT value FROM meta WHERE key = ?"
SET_META = "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value"
# The due rows, earliest first ({where}: the shard filter): a range of the due_at index.
DUE = (
    "SELECT " + COLUMNS + " FROM schedules WHERE due_at <= ? AND disabled_reason IS NULL{where} "
    "ORDER BY due_at LIMIT ?"
)
# ORDER BY … LIMIT 1 rather than MIN(): with a shard filter added, the index is still walked in
# order and the walk stops at the first row of this process's shards.
NEXT_DUE = "SELECT due_at FROM schedules WHERE due_at IS NOT NULL AND disabled_reason IS NULL"
NEXT_DUE_ORDER = " ORDER BY due_at LIMIT 1"


def shard_filter(shards: Shards | None) -> tuple[str, tuple[int, ...]]:
    """A SQL condition (with ``?`` placeholders) keeping the rows of `shards`' guilds."""
    if shards is None or shards.count <= 1:
        return "", ()
    marks = ", ".join("?" for _ in shards.ids)
    return f" AND ((guild_id >> 22) % ?) IN ({marks})", (shards.count, *shards.ids)


def iso(day: date | None) -> str | None:
    return None if day is None else day.isoformat()


def row_of(r: Sequence[Any]) -> ScheduleRow:
    """A stored row as read; odd column types become text so a bad row still comes back and is
    reported, rather than raising here and hiding every other row."""
    return front.ScheduleRow(
        id=int(r[0]),
        guild_id=int(r[1]),
        channel_id=int(r[2]),
        post_time=str(r[3]),
        timezone=str(r[4]),
        locale=str(r[5]),
        last_posted=None if r[6] is None else str(r[6]),
        since=None if r[7] is None else str(r[7]),
        disabled_reason=None if r[8] is None else str(r[8]),
        last_error=None if r[9] is None else str(r[9]),
        due_at=None if r[10] is None else int(r[10]),
        due_day=None if r[11] is None else str(r[11]),
        unsure=bool(r[12]),
        message_id=None if r[13] is None else int(r[13]),
    )


# -- the study quiz (/quiz) --------------------------------------------------------------------

QUIZ_COLUMNS = (
    "id, guild_id, channel_id, user_id, locale, level, count, seed, school, seconds, question, deadline, "
    "message_id, status, started_at, ended_at"
)
# The partial unique index quizzes_running makes a second running quiz in a channel a conflict:
# nothing is inserted and nothing is returned.
CREATE_QUIZ = (
    "INSERT INTO quizzes (guild_id, channel_id, user_id, locale, level, count, seed, school, seconds, question, "
    "deadline, started_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?) "
    f"ON CONFLICT DO NOTHING RETURNING {QUIZ_COLUMNS}"
)
QUIZ = f"SELECT {QUIZ_COLUMNS} FROM quizzes WHERE id = ?"
RUNNING_QUIZ = f"SELECT {QUIZ_COLUMNS} FROM quizzes WHERE channel_id = ? AND status = 'running'"
RUNNING_QUIZZES = "SELECT " + QUIZ_COLUMNS + " FROM quizzes WHERE status = 'running'{where} ORDER BY id"
DUE_QUIZZES = (
    "SELECT " + QUIZ_COLUMNS + " FROM quizzes WHERE status = 'running' AND deadline <= ?{where} "
    "ORDER BY deadline, id"
)
NEXT_QUIZ_DEADLINE = "SELECT deadline FROM quizzes WHERE status = 'running'{where} ORDER BY deadline LIMIT 1"
SET_QUIZ_MESSAGE = "UPDATE quizzes SET message_id = ? WHERE id = ? AND question = ? AND status = 'running'"
ADVANCE_QUIZ = (
    "UPDATE quizzes SET question = question + 1, deadline = ?, message_id = NULL "
    "WHERE id = ? AND question = ? AND status = 'running'"
)
END_QUIZ = "UPDATE quizzes SET status = ?, ended_at = ? WHERE id = ? AND status = 'running'"
ANSWER_COLUMNS = "quiz_id, question, user_id, choice, correct, topic, seed, answered_at, half"
ADD_QUIZ_ANSWER = (
    f"INSERT INTO quiz_answers ({ANSWER_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING"
)
QUIZ_ANSWERS = f"SELECT {ANSWER_COLUMNS} FROM quiz_answers WHERE quiz_id = ? ORDER BY question, answered_at, user_id"
QUIZ_ANSWERS_TO = (
    f"SELECT {ANSWER_COLUMNS} FROM quiz_answers WHERE quiz_id = ? AND question = ? ORDER BY answered_at, user_id"
)
# Every answer of a member, in every server and quiz (index quiz_answers_user): /quiz me's button.
FORGET_QUIZ_ANSWERS = "DELETE FROM quiz_answers WHERE user_id = ?"
# {where}: AND-ed conditions on the quiz's level and the answer's time. Points in halves keep the
# order in integers: right + half/2 ranks as 2 * right + half.
QUIZ_SCORES = (
    "SELECT a.user_id, SUM(a.correct), COUNT(*), SUM(a.half) FROM quiz_answers AS a "
    "JOIN quizzes AS z ON z.id = a.quiz_id WHERE z.guild_id = ?{where} GROUP BY a.user_id "
    "ORDER BY 2 * SUM(a.correct) + SUM(a.half) DESC, COUNT(*), a.user_id LIMIT ?"
)
QUIZ_TOPICS = (
    "SELECT z.level, a.topic, SUM(a.correct), COUNT(*), MAX(a.seed), SUM(a.half) FROM quiz_answers AS a "
    "JOIN quizzes AS z ON z.id = a.quiz_id WHERE z.guild_id = ? AND a.user_id = ? "
    "GROUP BY z.level, a.topic ORDER BY z.level, a.topic"
)


def quiz_scores_query(level: str | None, since: int | None) -> tuple[str, tuple[object, ...]]:
    """QUIZ_SCORES narrowed to a level and to answers since an instant (each when given)."""
    where = ""
    params: tuple[object, ...] = ()
    if level is not None:
        where, params = where + " AND z.level = ?", (*params, level)
    if since is not None:
        where, params = where + " AND a.answered_at >= ?", (*params, since)
    return QUIZ_SCORES.format(where=where), params


def quiz_of(r: Sequence[Any]) -> QuizRow:
    return front.QuizRow(
        id=int(r[0]), guild_id=int(r[1]), channel_id=int(r[2]), user_id=int(r[3]), locale=str(r[4]),
        level=str(r[5]), count=int(r[6]), seed=int(r[7]), school=school_of(r[8]), seconds=int(r[9]),
        question=int(r[10]), deadline=int(r[11]), message_id=None if r[12] is None else int(r[12]),
        status=str(r[13]), started_at=int(r[14]), ended_at=None if r[15] is None else int(r[15]),
    )


def answer_params(a: QuizAnswer) -> tuple[object, ...]:
    return (a.quiz_id, a.question, a.user_id, a.choice, int(a.correct), a.topic, a.seed, a.answered_at, int(a.half))


def answer_of(r: Sequence[Any]) -> QuizAnswer:
    return front.QuizAnswer(
        quiz_id=int(r[0]), question=int(r[1]), user_id=int(r[2]), choice=int(r[3]), correct=bool(r[4]),
        topic=str(r[5]), seed=str(r[6]), answered_at=int(r[7]), half=bool(r[8]),
    )


def score_of(r: Sequence[Any]) -> QuizScore:
    return front.QuizScore(user_id=int(r[0]), right=int(r[1]), asked=int(r[2]), half=int(r[3]))


def topic_of(r: Sequence[Any]) -> QuizTopicScore:
    return front.QuizTopicScore(level=str(r[0]), topic=str(r[1]), right=int(r[2]), asked=int(r[3]), seed=str(r[4]),
                          half=int(r[5]))


# -- the casebook, server options, profiles ----------------------------------------------------

CASE_COLUMNS = (
    "seq, id, guild_id, channel_id, author_id, private, instant, zone, day, yuejiang, hour, school, "
    "question, birth_year, sex, created_at, matter, "  # matter: step 7
    "question_sealed, birth_sealed, k.case_key, k.birth_key, "  # sealed under the author's keys (bot.store.sealing)
    "place_sealed"  # step 12: sealed under the casebook key, as the question
)
# The cases with their author's keys (a member without keys has none: the LEFT JOIN's NULLs).
# _CASE_WRITTEN is case_params' order.
_CASES = "cases LEFT JOIN member_keys AS k ON k.user_id = cases.author_id"
_CASE_WRITTEN = ("id, guild_id, channel_id, author_id, private, instant, zone, day, yuejiang, hour, school, question, "
                 "birth_year, sex, created_at, matter, question_sealed, birth_sealed, place_sealed")
_CASE_ROW = "(" + ", ".join("?" * len(_CASE_WRITTEN.split(","))) + ")"
INSERT_CASE = (  # one case; its statement as a step of the store's batched writes
    f"INSERT INTO cases ({_CASE_WRITTEN}) VALUES {_CASE_ROW} ON CONFLICT (id) DO NOTHING RETURNING id, seq"
)


ROWS_PER_STATEMENT = 32
T = TypeVar("T")


def pieces(rows: Sequence[T]) -> Iterator[Sequence[T]]:
    """``rows`` (cases written, keys read) in order, cut for the fewest statements of 32, 16, 8, 4, 2
    or 1 rows: the database (and its cache of prepared statements) sees six shapes of statement,
    not one per batch size.

    >>> [len(p) for p in pieces(range(45))], [len(p) for p in pieces(range(64))], list(pieces("abc"))
    ([32, 8, 4, 1], [32, 32], ['ab', 'c'])
    """
    at = 0
    while (left := len(rows) - at) > 0:
        size = min(ROWS_PER_STATEMENT, 1 << (left.bit_length() - 1))
        yield rows[at:at + size]
        at += size


@lru_cache(maxsize=8)  # the store asks for six sizes (pieces)
def insert_cases(count: int) -> str:
    """``INSERT_CASE`` for ``count`` cases in one statement (a batch of casts is a few
    statements, not one each): each row's ``case_params`` in turn. An id already taken is skipped;
    the id and seq of every row inserted are returned, in no set order."""
    return INSERT_CASE.replace(_CASE_ROW, ", ".join([_CASE_ROW] * count), 1)


# A case sealed again under its author's key when another write stored that key first.
RESEAL_CASE = "UPDATE cases SET question_sealed = ?, birth_sealed = ?, place_sealed = ? WHERE id = ?"
CASE = f"SELECT {CASE_COLUMNS} FROM {_CASES} WHERE id = ?"
BY_AUTHOR = f"SELECT {CASE_COLUMNS} FROM {_CASES} WHERE author_id = ? ORDER BY seq DESC LIMIT ? OFFSET ?"
DELETE_CASE_NOTES = "DELETE FROM case_notes WHERE case_id = ?"
DELETE_CASE = "DELETE FROM cases WHERE id = ?"
NOTE_COLUMNS = "id, case_id, author_id, body, created_at, edited_at"
# A note's text: sealed under its author's casebook key (body '' then), or plain (written before).
ADD_NOTE = (
    "INSERT INTO case_notes (case_id, author_id, body, body_sealed, created_at) VALUES (?, ?, ?, ?, ?) "
    f"RETURNING {NOTE_COLUMNS}"
)
# At most ? notes on a case, and one per interaction that sent it (source_id, unique; NULL for
# none): a second delivery inserts nothing, nor does a case at its cap.
ADD_NOTE_CAPPED = (
    "INSERT INTO case_notes (case_id, author_id, body, body_sealed, created_at, source_id) SELECT ?, ?, ?, ?, ?, ? "
    f"WHERE (SELECT count(*) FROM case_notes WHERE case_id = ?) < ? ON CONFLICT (source_id) DO NOTHING "
    f"RETURNING {NOTE_COLUMNS}"
)
NOTE_FROM = (f"SELECT {NOTE_COLUMNS}, body_sealed, k.case_key FROM case_notes LEFT JOIN member_keys AS k "
             "ON k.user_id = case_notes.author_id WHERE source_id = ?")
EDIT_NOTE = (
    "UPDATE case_notes SET body = ?, body_sealed = ?, edited_at = ? WHERE id = ? AND case_id = ? AND author_id = ?"
)
GUILD_OPTIONS = "SELECT guild_id, school, language, image, timezone, place FROM guild_options WHERE guild_id = ?"
SET_GUILD_OPTIONS = (
    "INSERT INTO guild_options (guild_id, school, language, image, timezone, place) VALUES (?, ?, ?, ?, ?, ?) "
    "ON CONFLICT (guild_id) DO UPDATE SET school = excluded.school, language = excluded.language, "
    "image = excluded.image, timezone = excluded.timezone, place = excluded.place"
)
# A profile sealed under its member's birth key (birth_year 0, sex '' and zone NULL in the plain columns).
PROFILE = (
    "SELECT user_id, birth_year, sex, zone, sealed, k.birth_key FROM profiles LEFT JOIN member_keys AS k "
    "USING (user_id) WHERE user_id = ?"
)
SET_PROFILE = (
    "INSERT INTO profiles (user_id, birth_year, sex, zone, sealed) VALUES (?, ?, ?, ?, ?) "
    "ON CONFLICT (user_id) DO UPDATE SET birth_year = excluded.birth_year, sex = excluded.sex, zone = excluded.zone, "
    "sealed = excluded.sealed"
)
DELETE_PROFILE = "DELETE FROM profiles WHERE user_id = ?"
# The reads the store gathers into one trip (bot.store.batch), each of one row by its key
# (``WHERE key = ?``, the key the row's first column), so the keys of many are read by one statement.
# A member's keys (bot.store.sealing), read with the others of the moment, never remembered.
MEMBER_KEYS = "SELECT user_id, case_key, birth_key FROM member_keys WHERE user_id = ?"
KEYED = frozenset((GUILD_OPTIONS, PROFILE, MEMBER_KEYS))


@lru_cache(maxsize=16)  # two reads, in six sizes each (pieces)
def keyed_many(statement: str, count: int) -> str:
    """The ``KEYED`` read ``statement`` for ``count`` keys at once: each key's row, if it has one,
    in no set order.

        >>> keyed_many(MEMBER_KEYS, 3)
        'SELECT user_id, case_key, birth_key FROM member_keys WHERE user_id IN (?, ?, ?)'
    """
    if statement not in KEYED:
        raise ValueError(f"not a read by one key: {statement!r}")
    return statement.replace(" = ?", f" IN ({', '.join('?' * count)})", 1)
# With the profile, the birth year and sex every case of the user was cast with.
FORGET_BIRTH = (
    "UPDATE cases SET birth_year = NULL, sex = NULL, birth_sealed = NULL WHERE author_id = ? "
    "AND (birth_year IS NOT NULL OR sex IS NOT NULL OR birth_sealed IS NOT NULL)"
)
# Every row of a user: their notes (on any case), the notes others left on their cases, their cases.
DELETE_USER_NOTES = (
    "DELETE FROM case_notes WHERE author_id = ? OR case_id IN (SELECT id FROM cases WHERE author_id = ?)"
)
DELETE_USER_CASES = "DELETE FROM cases WHERE author_id = ?"
# What makes an emptied SQLite file suspicious (bot.store.sqlite leaves a marker once it is true).
HOLDS_ROWS = "SELECT 1 FROM schedules UNION ALL SELECT 1 FROM cases LIMIT 1"


def notes_of(count: int) -> str:
    """The notes of `count` cases, by case and then oldest first (with the sealed text and its key)."""
    marks = ", ".join("?" for _ in range(count))
    return (f"SELECT {NOTE_COLUMNS}, body_sealed, k.case_key FROM case_notes LEFT JOIN member_keys AS k "
            f"ON k.user_id = case_notes.author_id WHERE case_id IN ({marks}) ORDER BY case_id, id")


# -- the casebook read by keyset (/case export) and by the channels a member may see (/history) --

def _in_list(count: int) -> str:
    """``IN (?, ?, …)`` for `count` values; ``IN (NULL)`` (matches nothing) for none."""
    return "IN (" + (", ".join("?" * count) or "NULL") + ")"


def seen_in_guild(channels: int) -> str:
    """The server's cases a member may see: theirs, and others' not private cast in one of
    `channels` channels; newest first, a page by offset (/history scope:server)."""
    return (f"SELECT {CASE_COLUMNS} FROM {_CASES} WHERE guild_id = ? AND (author_id = ? OR (private = 0 AND "
            f"channel_id {_in_list(channels)})) ORDER BY seq DESC LIMIT ? OFFSET ?")


MINE_BEFORE = f"SELECT {CASE_COLUMNS} FROM {_CASES} WHERE author_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?"


def others_before(channels: int) -> str:
    """Others' cases of a server, not private, cast in one of `channels` channels, below a seq;
    newest first (a keyset page of /case export)."""
    return (f"SELECT {CASE_COLUMNS} FROM {_CASES} WHERE guild_id = ? AND author_id <> ? AND private = 0 AND "
            f"channel_id {_in_list(channels)} AND seq < ? ORDER BY seq DESC LIMIT ?")
