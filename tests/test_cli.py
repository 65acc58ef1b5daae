"""The engine's command line: the issue's examples, the JSON schema, the table, and bad input."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from engine.cli import main


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine", *args], capture_output=True, text=True, timeout=60)


def test_cast_classical_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cast", "--day", "甲子", "--yuejiang", "亥", "--hour", "午"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("甲子日 午時 月将亥")
    assert "三伝" in out and "理由" in out
    # the ring: 地盤 午 (top row, second cell) carries 天盤 亥
    top = out.splitlines()[3]
    assert top.split("│")[2].endswith("亥")


def test_cast_json_schema(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cast", "--day", "甲子", "--yuejiang", "亥", "--hour", "午", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    for key in ("day", "hour", "yuejiang", "plate", "lessons", "transmissions", "method", "trace"):
        assert key in data
    assert (data["day"], data["hour"], data["yuejiang"]) == ("甲子", "午", "亥")
    assert data["plate"]["午"] == "亥" and len(data["plate"]) == 12
    assert len(data["lessons"]) == 4 and all({"upper", "lower"} <= set(x) for x in data["lessons"])
    assert [set(t) >= {"branch", "general"} for t in data["transmissions"]] == [True] * 3
    assert data["moment"] is None


def test_cast_at_with_zone(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cast", "--at", "2026-11-29 14:00", "--tz", "Asia/Tokyo", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["hour"] == "未"  # 13:00–14:59
    assert data["moment"]["zone"] == "Asia/Tokyo"
    assert data["moment"]["local"].startswith("2026-11-29T14:00:00+09:00")
    assert data["moment"]["principal_term"]["name"] == "小雪" and data["yuejiang"] == "寅"


def test_yuejiang_override(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cast", "--at", "2026-11-29 14:00", "--tz", "Asia/Tokyo", "--yuejiang", "卯", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["yuejiang"] == "卯" and data["moment"]["yuejiang_from_calendar"] == "寅"


def test_cast_now_runs() -> None:
    done = run("cast", "now", "--tz", "UTC")
    assert done.returncode == 0, done.stderr
    assert "UTC" in done.stdout


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["cast", "--day", "甲丑", "--yuejiang", "亥", "--hour", "午"], "干支"),
        (["cast", "--day", "甲x", "--yuejiang", "亥", "--hour", "午"], "子丑寅卯辰巳午未申酉戌亥"),
        (["cast", "--day", "甲子", "--yuejiang", "亥"], "--hour"),
        (["cast", "--day", "甲子", "--yuejiang", "猫", "--hour", "午"], "子丑寅卯辰巳午未申酉戌亥"),
        (["cast", "--at", "1850-01-01 12:00", "--tz", "Asia/Tokyo"], "1900"),
        (["cast", "--at", "2101-06-01 12:00", "--tz", "Asia/Tokyo"], "2100"),
        (["cast", "--at", "2026-11-29 14:00", "--tz", "Mars/Olympus"], "IANA"),
        (["cast", "--at", "yesterday-ish"], "ISO 8601"),
    ],
)
def test_bad_input_exits_non_zero_with_one_line(args: list[str], says: str) -> None:
    done = run(*args)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and says in lines[0], done.stderr
    assert "Traceback" not in done.stderr


def test_table_has_720_lines(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["table"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 720
    assert len({line.split("  ")[0] for line in lines}) == 720  # each (day, plate) once


def test_table_json_and_school_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["table", "--json", "--fuyin-repeat-clash"]) == 0
    charts = json.loads(capsys.readouterr().out)
    assert len(charts) == 720
    ding_mao = next(c for c in charts if c["day"] == "丁卯" and c["plate"]["子"] == "子")
    assert [t["branch"] for t in ding_mao["transmissions"]] == ["卯", "子", "午"]
    assert ding_mao["school"]["fuyin_repeat_clash"] is True
