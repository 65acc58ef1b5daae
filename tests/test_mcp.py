"""`liuren mcp` as an assistant meets it: started as a subprocess, spoken to over stdio by the MCP
SDK's own client (texts/cli/mcp.py; docs/mcp.md)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest

from tests.test_verify import CHANGED, INVENTED, MIXED, RIGHT, SIMPLIFIED
from texts.cli import main

mcp = pytest.importorskip("mcp")  # the [mcp] extra; the test extra installs it
from mcp.client.session import ClientSession  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402
from mcp_types import CallToolResult, TextContent, TextResourceContents  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CLASSICAL = {"day": "甲子", "yuejiang": "亥", "hour": "午"}


@asynccontextmanager
async def served() -> AsyncIterator[ClientSession]:
    """A session with a fresh `python -m texts.cli mcp` (entered and left in one task, as anyio wants)."""
    env = {k: v for k, v in os.environ.items() if k != "LIUREN_LANG"}
    server = StdioServerParameters(command=sys.executable, args=["-m", "texts.cli", "mcp"], env=env, cwd=ROOT)
    async with stdio_client(server) as (read, write), ClientSession(read, write) as client:
        await client.initialize()
        yield client


def said(result: CallToolResult) -> str:
    block = result.content[0]
    assert isinstance(block, TextContent)
    return block.text


def data(result: CallToolResult) -> dict[str, Any]:
    assert not result.is_error and result.structured_content is not None, result
    found: dict[str, Any] = result.structured_content
    return found


def cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


async def test_lists_its_tools_resources_and_prompt() -> None:
    async with served() as session:
        tools = {t.name: t for t in (await session.list_tools()).tools}
        assert set(tools) == {"cast_chart", "read_chart", "get_passage", "search_text", "verify_quote",
                              "check_citations", "compare_schools"}
        assert tools["verify_quote"].input_schema["required"] == ["quote"]
        assert "paragraph" in tools["verify_quote"].input_schema["properties"]
        assert all(t.output_schema is not None for t in tools.values())
        uris = {str(r.uri) for r in (await session.list_resources()).resources}
        assert {"liuren://unit/pattern.元首重審", "liuren://unit/general.貴人", "liuren://guide"} <= uris
        unit = await session.read_resource("liuren://unit/pattern.元首重審")
        first = unit.contents[0]
        assert isinstance(first, TextResourceContents)
        assert json.loads(first.text)["paragraphs"] == {"original": 139, "translation": 141}
        prompts = (await session.list_prompts()).prompts
        assert [p.name for p in prompts] == ["read_for_question"]
        prompt = await session.get_prompt("read_for_question", {"question": "財布をなくしました", "lang": "en"})
        content = prompt.messages[0].content
        assert isinstance(content, TextContent) and "check_citations" in content.text


async def test_the_chart_and_its_reading_are_the_clis(capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LIUREN_LANG", raising=False)
    async with served() as session:
        cast = await session.call_tool("cast_chart", CLASSICAL)
        assert not cast.is_error
        status, out, _ = cli(["cast", "--day", "甲子", "--yuejiang", "亥", "--hour", "午", "--json"], capsys)
        assert status == 0 and cast.structured_content == json.loads(out)
        assert said(cast).startswith("甲子日 午時 月将亥")
        school = await session.call_tool("cast_chart", {**CLASSICAL, "school": {"noble": "甲羊", "shehai_depth": True}})
        _, out, _ = cli(["cast", "--day", "甲子", "--yuejiang", "亥", "--hour", "午", "--noble", "甲羊",
                         "--shehai-depth", "--json"], capsys)
        assert data(school) == json.loads(out) and data(school) != data(cast)
        read = await session.call_tool("read_chart", {**CLASSICAL, "question": "財布をなくしました", "lang": "en"})
        status, out, _ = cli(["cast", "--day", "甲子", "--yuejiang", "亥", "--hour", "午", "--json",
                              "--question", "財布をなくしました", "--lang", "en"], capsys)
        assert read.structured_content == json.loads(out)
        assert read.structured_content is not None and read.structured_content["reading"]["matters"][0]["key"] == "lost"
        passage = await session.call_tool("get_passage", {"paragraph": 139, "lang": "en"})
        units = data(passage)["units"]
        assert [u["id"] for u in units][:2] == ["pattern.卦名", "pattern.元首重審"]
        assert units[1]["translations"]["en"]["translator"] == "project"
        found = await session.call_tool("search_text", {"term": "元首"})
        assert "pattern.元首重審" in data(found)["exact"]
        missing = await session.call_tool("search_text", {"term": "量子計算"})  # found nothing: an answer
        assert data(missing)["units"] == [] and "量子計算" in said(missing)
        schools = await session.call_tool("compare_schools", CLASSICAL)
        options = {o["option"]: o["differs"] for o in data(schools)["options"]}
        assert options["noble_table"] is True and options["shehai_depth_first"] is False


async def test_quotations_are_judged_as_liuren_verify_judges_them(capsys: pytest.CaptureFixture[str]) -> None:
    async with served() as session:
        cases = [(RIGHT, 139, "verbatim"), (RIGHT, 51, "elsewhere"), (CHANGED, 139, "altered"),
                 (SIMPLIFIED, None, "verbatim"), (INVENTED, None, "absent")]
        for quote, paragraph, verdict in cases:
            given = {"quote": quote} | ({} if paragraph is None else {"paragraph": paragraph})
            result = await session.call_tool("verify_quote", given)
            assert result.structured_content is not None
            assert result.structured_content["judgement"]["verdict"] == verdict, quote
            argv = ["verify", quote, "--json"] + ([] if paragraph is None else ["--paragraph", str(paragraph)])
            _, out, _ = cli(argv, capsys)
            assert json.loads(out) == result.structured_content
        changed = await session.call_tool("verify_quote", {"quote": CHANGED, "lang": "en"})
        assert "而後【憂】" in said(changed) and "而後【喜】" in said(changed)
        report = await session.call_tool("check_citations", {"text": MIXED})
        assert [q["verdict"] for q in data(report)["quotes"]] == [
            "verbatim", "elsewhere", "altered", "verbatim", "absent", "translation"]


async def test_bad_input_is_a_tool_error_with_the_clis_line(capsys: pytest.CaptureFixture[str]) -> None:
    async with served() as session:
        no_pillar = await session.call_tool("cast_chart", {**CLASSICAL, "day": "甲丑"})
        _, _, err = cli(["cast", "--day", "甲丑", "--yuejiang", "亥", "--hour", "午"], capsys)
        assert no_pillar.is_error and said(no_pillar) == err.strip()
        far = await session.call_tool("cast_chart", {"when": "3000-01-01 12:00", "zone": "Asia/Tokyo"})
        _, _, err = cli(["cast", "--at", "3000-01-01 12:00", "--tz", "Asia/Tokyo"], capsys)
        assert far.is_error and said(far) == err.strip() and "1900–2100" in said(far)
        huge = await session.call_tool("check_citations", {"text": "天" * 5_000_000})
        assert huge.is_error and "at most 100000" in said(huge) and "\n" not in said(huge)
        bad_lang = await session.call_tool("verify_quote", {"quote": RIGHT, "lang": "fr"})
        assert bad_lang.is_error and said(bad_lang).startswith("liuren: error: ")
        odd = await session.call_tool("cast_chart", {**CLASSICAL, "school": {"noble": "甲猫"}})
        assert odd.is_error and "甲牛" in said(odd) and "\n" not in said(odd)
        nowhere = await session.call_tool("get_passage", {"paragraph": 9999})
        assert nowhere.is_error
        still = await session.call_tool("verify_quote", {"quote": RIGHT})  # the server keeps serving
        assert not still.is_error


async def test_ten_calls_in_flight_all_answer() -> None:
    async with served() as session:
        answers: dict[int, CallToolResult] = {}

        async def call(i: int) -> None:
            hour = "子丑寅卯辰巳午未申酉戌亥"[i]
            answers[i] = await session.call_tool("cast_chart", {**CLASSICAL, "hour": hour})

        with anyio.fail_after(60):
            async with anyio.create_task_group() as group:
                for i in range(10):
                    group.start_soon(call, i)
        assert sorted(answers) == list(range(10))
        assert [data(a)["hour"] for a in answers.values()] == [
            "子丑寅卯辰巳午未申酉戌亥"[i] for i in answers]


def test_without_the_extra_it_names_the_extra() -> None:
    """The core install has no MCP SDK: `liuren mcp` says which extra to install, in one line."""
    blocked = (
        "import builtins, sys\n"
        "real = builtins.__import__\n"
        "def guarded(name, *args, **kwargs):\n"
        "    if name == 'mcp' or name.startswith('mcp.'):\n"
        "        raise ModuleNotFoundError(f'No module named {name!r}')\n"
        "    return real(name, *args, **kwargs)\n"
        "builtins.__import__ = guarded\n"
        "from texts.cli import main\n"
        "sys.exit(main(['mcp']))\n"
    )
    done = subprocess.run([sys.executable, "-c", blocked], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "pip install 'liuren[mcp]'" in done.stderr


async def test_streamable_http_on_the_loopback_by_default() -> None:
    """`liuren mcp --http PORT` serves the same tools over the SDK's streamable HTTP, on 127.0.0.1."""
    from mcp.client.streamable_http import streamable_http_client

    with socket.socket() as probe:  # a free port, given back before the server takes it
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "texts.cli", "mcp", "--http", str(port)], cwd=ROOT,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        with anyio.fail_after(30):
            while True:  # until it listens
                try:
                    with socket.create_connection(("127.0.0.1", port), timeout=1):
                        break
                except OSError:
                    assert server.poll() is None, server.stderr.read() if server.stderr else ""
                    await anyio.sleep(0.1)
            async with streamable_http_client(f"http://127.0.0.1:{port}/mcp") as (read, write), \
                    ClientSession(read, write) as session:
                await session.initialize()
                result = await session.call_tool("verify_quote", {"quote": RIGHT, "paragraph": 139})
                assert data(result)["judgement"]["verdict"] == "verbatim"
    finally:
        server.terminate()
        server.wait(timeout=10)
    assert server.stdout is not None and server.stdout.read() == b""  # its logs go to stderr
