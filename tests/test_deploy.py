"""The deploy files agree with the code: what the Dockerfile copies exists, its healthcheck module
and the unit's command are the project's own, and every LIUREN_ setting they set is one the bot reads.
(No Docker engine runs here: `docker-compose config` and `systemd-analyze verify` are run by hand.)"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BOT_SOURCES = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "bot").rglob("*.py"))


def settings_in(text: str) -> set[str]:
    return set(re.findall(r"\b(LIUREN_[A-Z_]+)", text))


def test_dockerfile_is_slim_non_root_with_a_healthcheck() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    # An exact base (Python patch release and Debian release, a digest optional), named once,
    # as the default of the one ARG before any FROM (--build-arg BASE=... only where the registry is not)
    stages = re.findall(r"^FROM (\S+)", dockerfile, re.M)
    assert stages[0] == "${BASE}" and re.search(r"^FROM \$\{BASE\} AS base$", dockerfile, re.M)
    assert all(image == "base" for image in stages[1:]), stages
    head = dockerfile[: dockerfile.index("\nFROM ")]
    defaults = re.findall(r"^ARG BASE=(\S+)$", head, re.M)
    assert len(defaults) == 1 and re.fullmatch(r"python:3\.\d+\.\d+-slim-[a-z]+(@sha256:[0-9a-f]{64})?", defaults[0])
    users = re.findall(r"^USER (\S+)", dockerfile, re.M)
    assert users and users[-1] not in ("root", "0")
    health = re.search(r"^HEALTHCHECK .* CMD \[\"python\", \"-m\", \"([\w.]+)\"\]", dockerfile, re.M)
    assert health is not None and (ROOT / (health[1].replace(".", "/") + ".py")).exists()
    for source in re.findall(r"^COPY (?!--from)(.+) \S+$", dockerfile, re.M):
        for name in source.split():
            assert name.endswith("*") or (ROOT / name).exists(), name
    assert settings_in(dockerfile) <= settings_in(BOT_SOURCES)


def test_compose_runs_the_bot_on_postgres() -> None:
    compose = (ROOT / "compose.yaml").read_text(encoding="utf-8")
    assert re.search(r"^  bot:\n    build: \.", compose, re.M)
    assert re.search(r"^  db:\n    image: postgres:", compose, re.M)
    assert "LIUREN_DB: postgresql://" in compose and "condition: service_healthy" in compose
    assert settings_in(compose) <= settings_in(BOT_SOURCES)


def test_systemd_unit_runs_the_installed_script_and_stops_with_sigterm() -> None:
    unit = (ROOT / "deploy" / "liuren-bot.service").read_text(encoding="utf-8")
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    command = re.search(r"^ExecStart=(\S+)", unit, re.M)
    assert command is not None and Path(command[1]).name in scripts
    assert "KillSignal=SIGTERM" in unit and re.search(r"^User=(?!root)\w+", unit, re.M)
    assert settings_in(unit) <= settings_in(BOT_SOURCES)


def test_systemd_unit_outlives_a_database_outage_and_stops_on_a_configuration_error() -> None:
    """Exit 2 (a setting or database the bot refuses) is the only status that is not restarted; a
    database that is down at start is waited for by the bot itself (tests/test_bot_process.py:
    test_a_postgres_down_at_start_is_waited_for_then_the_bot_runs, test_a_wrong_postgres_setting_
    still_stops_with_exit_2), and no start limit leaves the unit failed after a long outage."""
    unit = (ROOT / "deploy" / "liuren-bot.service").read_text(encoding="utf-8")
    sections = dict(re.findall(r"^\[(\w+)\]\n(.*?)(?=^\[|\Z)", unit, re.M | re.S))
    service, head = sections["Service"], sections["Unit"]
    assert re.search(r"^Restart=on-failure$", service, re.M)
    assert re.findall(r"^RestartPreventExitStatus=(.*)$", service, re.M) == ["2"]
    assert re.search(r"^StartLimitIntervalSec=0$", head, re.M)
    assert "StartLimit" not in service  # systemd reads the start limit from [Unit] only
