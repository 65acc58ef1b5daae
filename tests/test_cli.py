"""The ``liuren`` command line: casting, languages, JSON, the table, find, and every bad input in one line."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from engine import CastError, cast, cast_classical
from texts.cli import main

KANA = re.compile(r"[\u3040-\u30ff]")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "texts.cli", *args], capture_output=True, text=True, timeout=120)


def test_cast_classical_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cast", "--day", "甲子", "--yuejiang", "亥", "--hour", "午"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("甲子日 午時 月将亥")
    assert "三伝" in out and "理由" in out
    # the ring: 地盤 午 (top row, second cell) carries 天盤 亥
    top = out.splitlines()[3]
    assert top.split("│")[2].endswith("亥")


@pytest.mark.parametrize("lang", ["en", "zh-TW", "zh-CN"])
def test_cast_in_other_languages_has_no_kana_outside_the_seed(lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cast", "--day", "甲子", "--yuejiang", "亥", "--hour", "午", "--lang", lang]) == 0
    out = capsys.readouterr().out
    assert not KANA.search(out), KANA.findall(out)[:10]


def test_cast_json_schema_3(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cast", "--day", "甲子", "--yuejiang", "亥", "--hour", "午", "--json", "--lang", "en"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["schema"] == 4 and data["lang"] == "en"
    assert (data["day"], data["hour"], data["yuejiang"]) == ("甲子", "午", "亥")
    assert data["plate"]["午"] == "亥" and len(data["plate"]) == 12
    assert data["moment"] is None
    # The trace is structured, with the rendered text in the asked language.
    rules = [step["rule"] for step in data["trace"]]
    assert rules == ["lessons", "several", "compare_one", "linked"]
    linked = data["trace"][-1]
    assert linked["values"] == {"initial": "子", "middle": "巳", "final": "戌"} and linked["seed"] == [51]
    assert all(step["text"] and not KANA.search(step["text"]) for step in data["trace"])


def test_reading_json_lists_entries_in_teachers_order(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cast", "--day", "甲子", "--yuejiang", "亥", "--hour", "午", "--reading", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    sections = [e["section"] for e in data["reading"]["entries"]]  # schema 3
    assert sections == sorted(sections, key=["課名", "發用", "干支", "課体", "中末", "取法"].index)
    ids = [e["unit"]["id"] for e in data["reading"]["entries"] if e["unit"]]
    assert len(ids) == len(set(ids))


def test_cast_at_with_zone(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cast", "--at", "2026-11-29 14:00", "--tz", "Asia/Tokyo", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["hour"] == "未"  # 13:00–14:59
    assert data["moment"]["zone"] == "Asia/Tokyo"
    assert data["moment"]["local"].startswith("2026-11-29T14:00:00+09:00")
    assert data["moment"]["principal_term"]["name"] == "小雪" and data["yuejiang"] == "寅"


def test_cast_reads_the_bots_forms(capsys: pytest.CaptureFixture[str]) -> None:
    """One moment parser: what the bot accepts, the CLI accepts."""
    assert main(["cast", "--at", "2026年11月29日 14時", "--tz", "asia/tokyo", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["moment"]["local"].startswith("2026-11-29T14:00:00+09:00")


def test_yuejiang_override(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cast", "--at", "2026-11-29 14:00", "--tz", "Asia/Tokyo", "--yuejiang", "卯", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["yuejiang"] == "卯" and data["moment"]["yuejiang_from_calendar"] == "寅"


def test_cast_now_runs_and_version() -> None:
    done = run("cast", "now", "--tz", "UTC")
    assert done.returncode == 0, done.stderr
    assert "UTC" in done.stdout
    version = run("--version")
    assert version.returncode == 0 and version.stdout.startswith("liuren ")


# Bad inputs run through the command as installed too (its streams and exit status): one of each
# refusal's source.
FROM_THE_COMMAND = [
    (["cast", "--day", "甲丑", "--yuejiang", "亥", "--hour", "午"], "干支"),  # the engine's refusal, in CJK
    (["cast", "--day", "甲子", "--yuejiang", "亥"], "--hour"),  # argparse's
    (["cast", "--at", "2026-11-29 14:00", "--tz", "Mars/Olympus"], "IANA"),  # the moment's
    (["find", "猫"], "lookup"),
]
BAD_INPUTS = [
    *FROM_THE_COMMAND,
    (["cast", "--day", "甲x", "--yuejiang", "亥", "--hour", "午"], "子丑寅卯辰巳午未申酉戌亥"),
    (["cast", "--day", "甲子", "--yuejiang", "猫", "--hour", "午"], "子丑寅卯辰巳午未申酉戌亥"),
    (["cast", "--at", "1850-01-01 12:00", "--tz", "Asia/Tokyo"], "1900"),
    (["cast", "--at", "2101-06-01 12:00", "--tz", "Asia/Tokyo"], "2100"),
    (["cast", "--at", "2026-11-29 14:00", "--tz", "localtime"], "IANA"),
    (["cast", "--at", "yesterday-ish"], "accepted forms"),
    (["cast", "--at", "2026-11-29 14:00 JST", "--tz", "America/New_York"], "JST"),
    (["cast", "--at", "0001-01-01T00:00:00+14:00", "--tz", "UTC"], "1900"),
    (["cast", "--at", ""], "empty"),
    (["cast", "now", "--tz", " "], "empty"),
    (["cast", "--at", "2026-11-29 14:00", "--hour", "午"], "--day"),
    (["cast", "--at", "2026-11-29 14:00", "--day", "甲子", "--yuejiang", "亥", "--hour", "午"], "--day"),
    (["cast", "--day", "甲子", "--yuejiang", "亥", "--hour", "午", "--tz", "UTC"], "--tz"),
    (["cast", "now", "--birth-year", "abc"], "year"),
    (["cast", "now", "--birth-year", "1800"], "1900"),
    (["cast", "now", "--sex", "x"], "男"),
    (["cast", "now", "--day-change", "5"], "23"),
]


def _refused_in_one_line(code: object, out: str, err: str, says: str) -> None:
    assert code == 2, (out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and says in lines[0], err
    assert "Traceback" not in err


@pytest.mark.parametrize(("args", "says"), BAD_INPUTS)
def test_bad_input_exits_2_with_one_line(args: list[str], says: str, capsys: pytest.CaptureFixture[str]) -> None:
    # In this process (21 interpreter starts were 7 s of the suite's CPU); the command as
    # installed is checked on FROM_THE_COMMAND in the test below.
    try:
        code = main(args)
    except SystemExit as stop:  # argparse's own refusals
        code = stop.code
    out, err = capsys.readouterr()
    _refused_in_one_line(code, out, err, says)


@pytest.mark.parametrize(("args", "says"), FROM_THE_COMMAND)
def test_bad_input_exits_2_with_one_line_from_the_command(args: list[str], says: str) -> None:
    done = run(*args)
    _refused_in_one_line(done.returncode, done.stdout, done.stderr, says)


@pytest.mark.parametrize(
    "call",
    [
        lambda: cast_classical("甲子", "亥", 12),  # type: ignore[arg-type]
        lambda: cast_classical(None, "亥", "午"),  # type: ignore[arg-type]
        lambda: cast_classical("甲子", 99, "午"),  # type: ignore[arg-type]
        lambda: cast("2026-11-29", "UTC"),  # type: ignore[arg-type]
        lambda: cast(yuejiang=99, tz="UTC"),  # type: ignore[arg-type]
    ],
)
def test_engine_api_refuses_bad_values_with_cast_error(call: object) -> None:
    with pytest.raises(CastError):
        call()  # type: ignore[operator]


def test_overflowing_instant_is_a_cast_error() -> None:
    from datetime import datetime, timedelta, timezone

    with pytest.raises(CastError, match="1900"):
        cast(datetime(1, 1, 1, tzinfo=timezone(timedelta(hours=14))), "UTC")


def test_table_has_720_lines_with_patterns(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["table"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 720
    assert len({line.split("  ")[0] for line in lines}) == 720  # each (day, plate) once
    assert all(line.endswith("]") and "[" in line for line in lines)  # the 課体 column


def test_table_json_and_school_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["table", "--json", "--fuyin-repeat-clash"]) == 0
    charts = json.loads(capsys.readouterr().out)
    assert len(charts) == 720
    ding_mao = next(c for c in charts if c["day"] == "丁卯" and c["plate"]["子"] == "子")
    assert [t["branch"] for t in ding_mao["transmissions"]] == ["卯", "子", "午"]
    assert ding_mao["school"]["fuyin_repeat_clash"] is True


def test_find_lists_the_charts_of_a_pattern(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["find", "冬蛇掩目"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    # docs/rules.md §7: under the default placement 冬蛇掩目 holds on exactly one chart, 丁丑 月将卯 午時.
    assert len(lines) == 2 and lines[0].startswith("丁丑日 月将卯 午時")
    assert main(["find", "鋳印"]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1].startswith("鋳印: 34 ")


def test_png_writes_a_picture(tmp_path: object) -> None:
    from pathlib import Path

    from PIL import Image

    target = Path(str(tmp_path)) / "chart.png"
    done = run("cast", "--day", "甲子", "--yuejiang", "亥", "--hour", "午", "--png", str(target))
    assert done.returncode == 0, done.stderr
    assert "三伝" in done.stdout  # the text chart is still printed
    with Image.open(target) as picture:
        assert picture.format == "PNG" and picture.width >= 800


def test_png_to_stdout_is_only_the_picture() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "texts.cli", "cast", "--day", "甲子", "--yuejiang", "亥", "--hour", "午", "--png", "-"],
        capture_output=True,
        timeout=120,
    )
    assert done.returncode == 0 and done.stdout[:8] == b"\x89PNG\r\n\x1a\n"


def test_png_into_a_missing_folder_is_one_line() -> None:
    done = run("cast", "--day", "甲子", "--yuejiang", "亥", "--hour", "午", "--png", "/no/such/folder/x.png")
    assert done.returncode == 1 and len(done.stderr.strip().splitlines()) == 1 and "/no/such/folder" in done.stderr


def test_a_closed_pipe_is_not_an_error() -> None:
    command = f"'{sys.executable}' -m texts.cli cast --day 甲子 --yuejiang 亥 --hour 午 --reading | head -1"
    done = subprocess.run(command, shell=True, capture_output=True, text=True, timeout=120)
    assert done.stdout.startswith("甲子日") and "error" not in done.stderr


def test_find_writes_the_chart_name_in_the_readers_script(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["find", "八専", "--lang", "zh-TW"]) == 0
    *charts, count = capsys.readouterr().out.strip().splitlines()
    assert charts and all("八專" in line and "・" not in line and "専" not in line for line in charts)
    assert count.startswith("八專：")  # the term in the reader's script, not as typed


def test_english_transmission_rows_line_up(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cast", "--day", "甲子", "--yuejiang", "亥", "--hour", "午", "--lang", "en"]) == 0
    out = capsys.readouterr().out.splitlines()
    rows = [line for line in out if line.split(" ")[0] in ("initial", "middle", "final")]
    assert len(rows) == 3 and len({row.index("  ", len("initial")) for row in rows}) == 1


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_no_trace_leaves_the_trace_out_of_the_reading_too(lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    from texts.words.explain import explain

    args = ["cast", "--day", "甲子", "--yuejiang", "亥", "--hour", "午", "--reading", "--lang", lang]
    steps = [explain(w, lang) for w in cast_classical("甲子", "亥", "午").transmissions.trace]
    assert main(args) == 0
    full = capsys.readouterr().out
    assert main([*args, "--no-trace"]) == 0
    short = capsys.readouterr().out
    assert steps and all(step in full for step in steps)
    assert not any(step in short for step in steps), short
    assert set(short.splitlines()) < set(full.splitlines())  # only the trace's lines went


def test_a_cast_starts_without_the_modules_it_does_not_use() -> None:
    """The CLI's start-up: a classical cast imports neither shutil (with its bz2, lzma and
    zlib; argparse's formatter would, for the terminal's width) nor importlib.metadata (--version),
    nor the reading, its presentation, the translation or the JSON schema (a chart alone prints none)."""
    unused = ("shutil", "bz2", "lzma", "importlib.metadata", "texts.reading", "texts.reading.sentences",
              "texts.corpus.translations", "engine.schema")
    code = ("import sys\nfrom texts.cli import main\n"
            "main(['cast', '--day', '甲子', '--yuejiang', '亥', '--hour', '午'])\n"
            f"print(sorted(m for m in {unused!r} if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "[]"


@pytest.mark.parametrize("columns", [60, 200])
def test_help_is_as_wide_as_the_terminal_says(columns: int, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """The usage wraps at the terminal's width (COLUMNS, as shutil reads it), less argparse's margin of 2."""
    monkeypatch.setenv("COLUMNS", str(columns))
    with pytest.raises(SystemExit):
        main(["cast", "--help"])
    out = capsys.readouterr().out
    usage = out[: out.index("\n\n")].splitlines()
    widest = max(len(line) for line in usage)
    assert columns - 16 < widest <= columns - 2, usage


@pytest.mark.parametrize(
    "argv",
    [
        ["site", "path", "2026\n11"],  # argparse names the arguments it does not know as given
        ["lookup", "ない\n言葉"],  # the lookup quotes the term it could not find
        ["lookup", "貴人", "子\u2028丑"],  # a line separator breaks a line in a terminal too
        ["cast", "--day", "甲子", "--yuejiang", "亥", "--hour", "午", "--png", "{tmp}/no\nsuch/x.png"],
        ["cast", "--tz", "Asia\rTokyo"],
    ],
)
def test_an_error_is_one_line_whatever_the_arguments_hold(argv: list[str], tmp_path: object,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """A newline (or any control or separator character) in an argument is written as its escape:
    the error stays the one line a script or a reader expects."""
    try:
        code = main([a.replace("{tmp}", str(tmp_path)) for a in argv])
    except SystemExit as done:  # argparse's usage errors end the process
        code = done.code
    err = capsys.readouterr().err
    assert code != 0 and err.endswith("\n") and err.count("\n") == 1, err
    assert "\r" not in err and "\u2028" not in err, err


def test_the_lookup_command_says_its_errors_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    """``python -m texts`` (texts/cli/lookup.py) too: an unknown option is quoted on one line."""
    from texts.cli.lookup import main as lookup

    assert lookup(["--no\npe"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--no\\npe" in err, err


# -- the zone a cast is read in when none is named ---------------------------------------------


def test_the_machines_zone_is_read_from_the_system(tmp_path: Path) -> None:
    from datetime import timedelta

    from texts.cli.zone import by_offset, cli_zone, machine_zone

    zoneinfo = tmp_path / "usr" / "share" / "zoneinfo" / "Europe"
    zoneinfo.mkdir(parents=True)
    (zoneinfo / "Paris").write_bytes(b"TZif")
    link = tmp_path / "localtime"
    link.symlink_to(zoneinfo / "Paris")
    written = tmp_path / "timezone"
    written.write_text("America/Chicago\n", encoding="utf-8")
    absent = tmp_path / "absent"
    assert machine_zone(link, written, environ={}) == "Europe/Paris"  # the /etc/localtime link first
    assert machine_zone(absent, written, environ={}) == "America/Chicago"  # then /etc/timezone
    assert machine_zone(link, written, environ={"TZ": ":Asia/Kolkata"}) == "Asia/Kolkata"  # $TZ before both
    assert machine_zone(link, written, environ={"TZ": "JST-9"}) == "Europe/Paris"  # a POSIX rule is no name
    assert cli_zone({"LIUREN_TZ": "Asia/Tokyo", "TZ": "Europe/Paris"}) == "Asia/Tokyo"  # $LIUREN_TZ wins
    assert by_offset(timedelta(hours=9)) == "Etc/GMT-9" and by_offset(timedelta(hours=-5)) == "Etc/GMT+5"
    assert by_offset(timedelta(0)) == "UTC" and by_offset(timedelta(hours=5, minutes=30)) == "UTC"


@pytest.mark.parametrize(("liuren_tz", "tz", "shown"), [(None, "America/New_York", "America/New_York"),
                                                        (None, "UTC", "UTC"),
                                                        ("Asia/Tokyo", "America/New_York", "Asia/Tokyo")])
def test_cast_now_defaults_to_the_machines_zone(liuren_tz: str | None, tz: str, shown: str) -> None:
    """A machine whose own zone is UTC (or New York) casts in it, not in Asia/Tokyo; $LIUREN_TZ still wins."""
    env = {k: v for k, v in os.environ.items() if k != "LIUREN_TZ"} | {"TZ": tz}
    if liuren_tz is not None:
        env["LIUREN_TZ"] = liuren_tz
    done = subprocess.run([sys.executable, "-m", "texts.cli", "cast", "now"], env=env, capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert re.search(rf"^\d{{4}}-\d\d-\d\d \d\d:\d\d {re.escape(shown)} ", done.stdout, re.M), done.stdout[:300]
