"""``liuren mcp``: the chart and the 《心印賦》 as Model Context Protocol tools, resources and a prompt,
on the official ``mcp`` SDK (the ``liuren[mcp]`` extra). The only module that imports the SDK; only
texts/cli/serve.py imports it. What each tool does is texts/cli/tools.py's; docs/mcp.md says how to use it.

Bad input is a tool error (``isError``) whose text is the one line ``liuren`` says on stderr for
the same input; stdout carries only the protocol; logs go to stderr.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from functools import partial
from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.resources import FunctionResource
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, Field

from texts.cli import tools
from texts.cli.errors import one_line
from texts.corpus import corpus
from texts.words import LANGS, text

Structured = Annotated[CallToolResult, dict[str, Any]]  # a JSON object out, or a tool error
Lang = Annotated[str | None, Field(description=f"the reader's language: {', '.join(LANGS)} (default: ja)")]
_READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)


def _answer(job: Callable[[], tools.Result]) -> CallToolResult:
    """The tool's JSON and text; the CLI's one line as a tool error for input it cannot use."""
    try:
        data, said = job()
    except (ValueError, LookupError) as error:  # as texts/cli/liuren.py's run() reports them
        return CallToolResult(content=[TextContent(type="text", text=one_line(f"liuren: error: {error}"))],
                              is_error=True)
    return CallToolResult(content=[TextContent(type="text", text=said)], structured_content=data)


class SchoolOptions(BaseModel):
    """The school options, as `liuren cast` takes them (docs/rules.md#school-options); the defaults are its."""

    day_change: str = Field(default="23", description="the day pillar changes at 23 (子初換日) or 0 (midnight)")
    noble: str = Field(default="甲牛", description="the 貴人 table: 甲牛 or 甲羊")
    fuyin_repeat_clash: bool = Field(default=False, description="伏吟: 末 = 沖(中) when 刑(中) would repeat 初")
    shehai_depth: bool = Field(default=False, description="渉害: count the classical depth before the 孟仲 rule")
    maoxing_by_day: bool = Field(default=False, description="昴星: name 虎視転蓬/冬蛇掩目 by 剛日/柔日")
    tengshe_whenever_seen: bool = Field(default=False, description="騰蛇: its opening bears whenever it rides a 伝")


When = Annotated[str | None, Field(description="the moment: 2026-11-29 14:00, 14:00, now … (or day, yuejiang, hour)")]
Zone = Annotated[str | None, Field(description="IANA time zone of the moment (default $LIUREN_TZ, else Asia/Tokyo)")]
Day = Annotated[str | None, Field(description="day pillar, e.g. 甲子 (with yuejiang and hour: no calendar)")]
Yuejiang = Annotated[str | None, Field(description="月将 branch, e.g. 亥")]
Hour = Annotated[str | None, Field(description="hour branch, e.g. 午")]
BirthYear = Annotated[int | None, Field(description="the querent's birth year (1900–2100), for 本命 and 行年")]
Sex = Annotated[str | None, Field(description="the querent's sex, 男 or 女, for 行年")]


def _cast(school: SchoolOptions | None, **given: Any) -> dict[str, Any]:
    """The arguments of texts/cli/tools.py's chart tools: those given, and the school options."""
    return {k: v for k, v in given.items() if v is not None} | (school or SchoolOptions()).model_dump()


def _add_chart_tools(server: MCPServer) -> None:
    @server.tool(annotations=_READ_ONLY, structured_output=True)
    def cast_chart(when: When = None, zone: Zone = None, day: Day = None, yuejiang: Yuejiang = None, hour: Hour = None,
                   school: SchoolOptions | None = None, birth_year: BirthYear = None, sex: Sex = None,
                   lang: Lang = None) -> Structured:
        """Cast a 大六壬 chart: the JSON of `liuren cast --json` (schema versioned), and the chart as text."""
        given = _cast(school, when=when, zone=zone, day=day, yuejiang=yuejiang, hour=hour, birth_year=birth_year,
                      sex=sex)
        return _answer(lambda: tools.cast_chart(given, lang))

    @server.tool(annotations=_READ_ONLY, structured_output=True)
    def read_chart(
        question: Annotated[str | None, Field(description="the question asked; its matter is read first")] = None,
        matter: Annotated[str | None, Field(description="the matter to read instead of recognising it")] = None,
        when: When = None, zone: Zone = None, day: Day = None, yuejiang: Yuejiang = None, hour: Hour = None,
        school: SchoolOptions | None = None, birth_year: BirthYear = None, sex: Sex = None, lang: Lang = None,
    ) -> Structured:
        """Cast a chart and read it: the 《心印賦》 units that match it, each with its seed ¶ (as
        `liuren cast --json --question Q`), and the reading as text in `lang`."""
        given = _cast(school, when=when, zone=zone, day=day, yuejiang=yuejiang, hour=hour, birth_year=birth_year,
                      sex=sex)
        return _answer(lambda: tools.read_chart(given, question, matter, lang))

    @server.tool(annotations=_READ_ONLY, structured_output=True)
    def compare_schools(when: When = None, zone: Zone = None, day: Day = None, yuejiang: Yuejiang = None,
                        hour: Hour = None, school: SchoolOptions | None = None, lang: Lang = None) -> Structured:
        """The chart under the school options in force and under each option flipped alone: which
        options change its 三伝, generals, method or 課体."""
        given = _cast(school, when=when, zone=zone, day=day, yuejiang=yuejiang, hour=hour)
        return _answer(lambda: tools.compare_schools(given, lang))


def _add_text_tools(server: MCPServer) -> None:
    @server.tool(annotations=_READ_ONLY, structured_output=True)
    def get_passage(
        paragraph: Annotated[int | None, Field(description="the seed ¶ (1–176)")] = None,
        unit_id: Annotated[str | None, Field(description="a unit id, e.g. pattern.元首重審")] = None,
        lang: Lang = None,
    ) -> Structured:
        """The 《心印賦》 at a seed ¶ or by unit id: the original as written, the seed's Japanese and
        the project's English (each labelled), the editorial notes, the ¶ numbers. Quote only this."""
        return _answer(lambda: tools.get_passage(paragraph, unit_id, lang))

    @server.tool(annotations=_READ_ONLY, structured_output=True)
    def search_text(term: Annotated[str, Field(description="a term or phrase, in any of 繁/简/日 forms")],
                    lang: Lang = None) -> Structured:
        """The units of the 《心印賦》 that a term names or holds (as `liuren lookup TERM`)."""
        return _answer(lambda: tools.search_text(term, lang))

    @server.tool(annotations=_READ_ONLY, structured_output=True)
    def verify_quote(
        quote: Annotated[str, Field(description="the quotation; punctuation and spaces are ignored")],
        paragraph: Annotated[int | None, Field(description="the seed ¶ the quotation claims")] = None,
        lang: Lang = None,
    ) -> Structured:
        """Is a quotation of the 《心印賦》 verbatim? Where does it really stand (¶, unit)? If not
        verbatim, the closest passage with the differing characters in 【】; a translation is named so."""
        return _answer(lambda: tools.verify(quote, paragraph, lang))

    @server.tool(annotations=_READ_ONLY, structured_output=True)
    def check_citations(
        text: Annotated[str, Field(description="a draft: its quotations (「」『』“”\"\") and ¶ references")],
        lang: Lang = None,
    ) -> Structured:
        """Every quotation and ¶ reference of a text judged: verbatim at the claimed ¶, verbatim
        elsewhere, a translation, altered (with the diff) or not in the text."""
        return _answer(lambda: tools.citations(text, lang))


def _unit(unit_id: str) -> str:
    return json.dumps(tools.unit_json(corpus().get(unit_id), "ja"), ensure_ascii=False, indent=2)


def _add_resources(server: MCPServer) -> None:
    for unit in corpus().units:
        server.add_resource(FunctionResource(
            uri=f"liuren://unit/{unit.id}", name=unit.id, mime_type="application/json",
            description=f"《心印賦》 ¶{'/'.join(map(str, unit.lines))}", fn=partial(_unit, unit.id)))

    @server.resource("liuren://guide", name="guide", mime_type="text/markdown")
    def guide() -> str:
        """How to read a chart with these tools, and how to quote the text."""
        return text("mcp.guide", "en")

    @server.resource("liuren://guide/{lang}", name="guide-in", mime_type="text/markdown")
    def guide_in(lang: str) -> str:
        """The guide in ja, en, zh-TW or zh-CN."""
        return text("mcp.guide", tools.reader_of(lang))

    @server.prompt()
    def read_for_question(question: str, lang: str | None = None) -> str:
        """Cast, read, quote only what get_passage returns, and check the draft's citations."""
        reader = tools.reader_of(lang)
        return text("mcp.prompt", reader, question=question, language=text("language.name", reader))


def build() -> MCPServer:
    """The server with every tool, resource and prompt."""
    server: MCPServer = MCPServer("liuren", instructions=text("mcp.guide", "en"), log_level="WARNING")
    _add_chart_tools(server)
    _add_text_tools(server)
    _add_resources(server)
    return server


def serve(http: tuple[str, int] | None) -> None:
    """Serve on stdio, or on streamable HTTP at (host, port); logs on stderr."""
    logging.basicConfig(level=logging.WARNING)  # the default stream is stderr: stdout is the protocol's
    server = build()
    if http is None:
        server.run("stdio")
    else:
        server.run("streamable-http", host=http[0], port=http[1])
