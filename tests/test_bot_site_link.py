"""With ``LIUREN_SITE_URL`` set, a chart reply links to the chart's page on the study
site (a link button under the reply's own buttons), in the reader's language; without it, the reply
is as before; an address Discord could not take stops the bot at start with one line.

The real bot against the local Discord stand-in; the components it sends are checked against
Discord's own spec, and the page each link names is looked up in a site ``liuren site build`` wrote.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

import engine
from bot.core.config import LONGEST_CHART_PATH, URL_MAX, read_config, site_url
from bot.core.words import Lang, text
from engine.symbols import BRANCHES
from testkit.daily_harness import Harness, wait_for_post
from testkit.discord_standin import Callback, DiscordStandIn
from testkit.processes import finish, run_bot
from tests.conftest import StartBot
from tests.test_bot_counts import Counts
from tests.test_casebook_e2e import message_of, press
from texts.cli import main as cli
from texts.site import chart_path
from texts.words import LANGS

# One worker builds this module's site (a module fixture) once: pytest-xdist's --dist loadfile. Slow,
# for it builds the study site; `pytest -m "not slow"` leaves it to the full suite.
pytestmark = pytest.mark.slow

SPEC = Path("/work/shared/discord-api-spec/openapi.json")
NOW = datetime(2026, 11, 29, 5, 0, tzinfo=UTC)  # 14:00 in Tokyo: 丁未日, 未時
BASE = "https://example.org/liuren/"
LOCALES: dict[Lang, str] = {"ja": "ja", "en": "en-US", "zh-TW": "zh-TW", "zh-CN": "zh-CN"}
DAILY_AT = datetime(2026, 5, 2, 0, 0, tzinfo=UTC)  # the daily post's 09:00 in Tokyo
DAILY = engine.cast(DAILY_AT, "Asia/Tokyo")
# The site is built for the days of the charts below: /cast at NOW and its neighbours, /chart 丁丑, the post.
DAYS = ",".join(sorted({str(engine.cast(NOW, "Asia/Tokyo").day), "丁丑", str(DAILY.day)}))


def clock() -> datetime:
    return NOW


def case_id(callback: Callback) -> str:
    """The case id at the end of the first embed's footer (課 / 课 / Case 7K3QX2)."""
    found = re.search(r" ([0-9A-Z]{6})$", callback.embeds[0]["footer"]["text"])
    assert found is not None, callback.embeds[0]["footer"]
    return found[1]


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(SPEC.read_text(encoding="utf-8"))
    return loaded


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site as ``liuren site build`` writes it, for the days the charts here fall on."""
    root = tmp_path_factory.mktemp("site")
    assert cli(["site", "build", str(root), "--only-days", DAYS]) == 0
    return root


def schema(spec: dict[str, Any], name: str) -> dict[str, Any]:
    found: dict[str, Any] = spec["components"]["schemas"][name]
    return found


def style_value(spec: dict[str, Any], title: str) -> int:
    return next(int(s["const"]) for s in schema(spec, "ButtonStyleTypes")["oneOf"] if s["title"] == title)


def rows_of(components: list[dict[str, Any]], spec: dict[str, Any]) -> list[list[dict[str, Any]]]:
    """The message's action rows, each checked against Discord's spec for a message's components."""
    row_schema = schema(spec, "ActionRowComponentForMessageRequest")
    button_schema = schema(spec, "ButtonComponentForMessageRequest")
    assert len(components) <= 5  # action rows in a message (the classic, non-v2 layout)
    rows = []
    for row in components:
        assert row["type"] == row_schema["properties"]["type"]["enum"][0]
        items = row["components"]
        assert row_schema["properties"]["components"]["minItems"] <= len(items)
        assert len(items) <= row_schema["properties"]["components"]["maxItems"]
        for item in items:
            assert item["type"] == button_schema["properties"]["type"]["enum"][0]
            assert set(item) <= set(button_schema["properties"]), item
            assert set(button_schema["required"]) <= set(item), item
            assert len(item.get("label") or "") <= button_schema["properties"]["label"]["maxLength"]
        rows.append(items)
    return rows


def links(components: list[dict[str, Any]], spec: dict[str, Any]) -> list[dict[str, Any]]:
    """The link buttons: style LINK, an absolute url within the spec's length and no custom_id
    (Discord refuses a link button with one, and one without a url)."""
    link_style = style_value(spec, "LINK")
    url_max = schema(spec, "ButtonComponentForMessageRequest")["properties"]["url"]["maxLength"]
    found = [item for row in rows_of(components, spec) for item in row if item.get("style") == link_style]
    for item in found:
        assert "custom_id" not in item and re.match(r"https?://", item["url"]) and len(item["url"]) <= url_max
    for row in rows_of(components, spec):
        for item in row:
            if item.get("style") != link_style:
                assert item.get("custom_id") and "url" not in item
    return found


def page(site: Path, url: str) -> str:
    """The page of ``site`` that ``url`` names (it must be under BASE), as text."""
    assert url.startswith(BASE), url
    file = site / url.removeprefix(BASE)
    assert file.is_file(), f"{url} names no page of the built site"
    return file.read_text(encoding="utf-8")


def expect_link(callback: Callback, chart: engine.Chart, lang: Lang, spec: dict[str, Any], site: Path) -> None:
    """The reply has its five buttons in row 0 and the chart's page, in ``lang``, alone in row 1."""
    components = callback.data["components"]
    rows = rows_of(components, spec)
    assert [len(r) for r in rows] == [5, 1]
    assert not links(components[:1], spec)
    [link] = links(components, spec)
    assert (link["label"], link["url"]) == (text("button.site", lang), BASE + chart_path(chart, lang))
    html = page(site, link["url"])
    assert f'<html lang="{lang}">' in html and str(chart.day) in html


# -- the configuration ------------------------------------------------------------------------


def test_without_the_variable_there_is_no_site() -> None:
    assert read_config({}).site_url is None
    assert read_config({"LIUREN_SITE_URL": "  "}).site_url is None


@pytest.mark.parametrize("value", [BASE, "https://example.org", "http://127.0.0.1:8000/site/",
                                   "https://liuren-project.github.io/liuren", "HTTPS://Example.org/a%20b/"])
def test_an_http_address_is_the_site(value: str) -> None:
    assert read_config({"LIUREN_SITE_URL": f" {value} "}).site_url == value


@pytest.mark.parametrize(("value", "words"), [
    ("example.org/liuren", "http(s) address"),  # no scheme
    ("ftp://example.org/liuren/", "http(s) address"),
    ("file:///srv/site/", "http(s) address"),
    ("https://", "http(s) address"),  # no host
    ("https://[::1/", "http(s) address"),  # a malformed host
    ("https://example.org:port/", "http(s) address"),
    ("https://example.org/学习/", "ASCII"),
    ("https://example.org/my site/", "ASCII"),
    ("https://example.org/?lang=ja", "?query"),
    ("https://example.org/#top", "#fragment"),
    ("https://example.org/" + "a" * URL_MAX, f"{URL_MAX}"),
])
def test_an_address_discord_could_not_take_is_one_line_naming_the_variable(value: str, words: str) -> None:
    with pytest.raises(ValueError, match="LIUREN_SITE_URL") as refused:
        site_url({"LIUREN_SITE_URL": value})
    message = str(refused.value)
    assert words in message and "\n" not in message


def test_the_longest_chart_address_fits_a_button_under_the_longest_accepted_site() -> None:
    charts = [engine.cast_classical(day, hour, hour) for day in ("甲子", "癸亥") for hour in BRANCHES]
    assert 1 + max(len(chart_path(c, lang)) for c in charts for lang in LANGS) == LONGEST_CHART_PATH
    longest = "https://example.org/" + "a" * (URL_MAX - LONGEST_CHART_PATH - len("https://example.org/"))
    assert site_url({"LIUREN_SITE_URL": longest}) == longest
    assert max(len(f"{longest}/{chart_path(c, lang)}") for c in charts for lang in LANGS) == URL_MAX
    with pytest.raises(ValueError, match="LIUREN_SITE_URL"):
        site_url({"LIUREN_SITE_URL": longest + "a"})


async def test_a_bad_address_stops_the_bot_at_start_with_one_line(tmp_path: Path) -> None:
    process = await run_bot({"DISCORD_TOKEN": "x.y.z", "LIUREN_DB": str(tmp_path / "bot.sqlite3"),
                             "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10",
                             "LIUREN_SITE_URL": "ftp://example.org/liuren/"})
    code, err = await finish(process)
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 2, err  # a configuration error: deploy/liuren-bot.service does not restart on it
    assert "Traceback" not in err and len(lines) == 2, err  # the "database …" line, then the refusal
    assert lines[-1].startswith("cannot start: LIUREN_SITE_URL='ftp://example.org/liuren/'"), lines[-1]


# -- the replies ------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", list(LOCALES))
async def test_cast_links_to_the_charts_page_in_the_readers_language(
    standin: DiscordStandIn, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch, spec: dict[str, Any],
    site: Path, lang: Lang,
) -> None:
    monkeypatch.setenv("LIUREN_SITE_URL", BASE)
    await start_bot(clock=clock)
    callback = await standin.slash("cast", {"when": "now"}, locale=LOCALES[lang])
    assert callback.type == 4 and callback.embeds
    expect_link(callback, engine.cast(NOW, "Asia/Tokyo"), lang, spec, site)
    assert not [r for r in standin.requests if r.status >= 400]


async def test_chart_links_to_the_page_of_the_same_day_and_plate(
    standin: DiscordStandIn, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch, spec: dict[str, Any],
    site: Path,
) -> None:
    """丁丑, 月将 巳 at the 申 hour is shown by the page of 丁丑, 月将 卯 at 午 (the same plate by day)."""
    monkeypatch.setenv("LIUREN_SITE_URL", BASE.rstrip("/"))  # with or without the last "/"
    await start_bot(clock=clock)
    callback = await standin.slash("chart", {"day": "丁丑", "yuejiang": "巳", "hour": "申"}, locale="en-US")
    chart = engine.cast_classical("丁丑", "巳", "申")
    expect_link(callback, chart, "en", spec, site)
    assert callback.data["components"][1]["components"][0]["url"] == BASE + "en/chart/d13-y03-h06.html"
    night = await standin.slash("chart", {"day": "丁丑", "yuejiang": "丑", "hour": "戌"}, locale="zh-TW")
    expect_link(night, engine.cast_classical("丁丑", "丑", "戌"), "zh-TW", spec, site)
    assert night.data["components"][1]["components"][0]["url"].endswith("zh-TW/chart/d13-y03-h00.html")


async def test_the_neighbouring_hours_and_the_case_shown_again_link_to_their_pages(
    standin: DiscordStandIn, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch, spec: dict[str, Any],
    site: Path,
) -> None:
    monkeypatch.setenv("LIUREN_SITE_URL", BASE)
    await start_bot(clock=clock)
    cast = await standin.slash("cast", {"when": "now"}, locale="zh-CN")
    message = message_of(standin, cast)
    pages = set()
    for action, step in (("prev", -2), ("next", 2)):
        reply = await press(standin, message, f"lr:c:{action}:{case_id(cast)}", locale="zh-CN")
        assert reply.type == 4
        chart = engine.cast(NOW + timedelta(hours=step), "Asia/Tokyo")  # the 時 before and after (2 h each)
        expect_link(reply, chart, "zh-CN", spec, site)
        pages.add(reply.data["components"][1]["components"][0]["url"])
    assert len(pages | {cast.data["components"][1]["components"][0]["url"]}) == 3  # three plates, three pages
    shown = await standin.slash("case show", {"id": case_id(cast)}, locale="zh-CN")  # the case again, later
    expect_link(shown, engine.cast(NOW, "Asia/Tokyo"), "zh-CN", spec, site)


async def test_without_a_site_the_reply_has_no_link(
    standin: DiscordStandIn, start_bot: StartBot, spec: dict[str, Any]
) -> None:
    await start_bot(clock=clock)
    callback = await standin.slash("cast", {"when": "now"}, locale="en-US")
    components = callback.data["components"]
    assert [len(r) for r in rows_of(components, spec)] == [5]
    assert links(components, spec) == []
    assert "url" not in json.dumps(components)


async def test_the_link_casts_nothing_more(
    standin: DiscordStandIn, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page is found from the chart already cast (one cast per /cast)."""
    monkeypatch.setenv("LIUREN_SITE_URL", BASE)
    bot = await start_bot(clock=clock)
    counts = Counts(monkeypatch)
    counts.store(bot.store)
    callback = await standin.slash("cast", {})
    assert len(callback.data["components"]) == 2
    assert counts.seen["cast"] == 1, counts.seen


# -- the daily post ---------------------------------------------------------------------------


@pytest.mark.parametrize("base", [BASE, None])
async def test_the_daily_post_links_to_its_charts_page(
    harness: Harness, spec: dict[str, Any], site: Path, base: str | None
) -> None:
    h = harness
    if base is not None:
        h.env["LIUREN_SITE_URL"] = base
    await h.start()
    channel = h.channel()
    await h.slash("daily set", {"channel": channel, "time": "09:00", "tz": "Asia/Tokyo"})
    await h.at(DAILY_AT)
    h.cog.changed()
    await wait_for_post(h, channel)
    posts = h.posts(channel)
    if base is None:
        assert all(not p["components"] for p in posts)
        return
    first, *rest = posts
    [link] = links(first["components"], spec)
    assert [len(r) for r in rows_of(first["components"], spec)] == [1]
    assert link["url"] == BASE + chart_path(DAILY, "ja") and link["label"] == text("button.site", "ja")
    assert '<html lang="ja">' in page(site, link["url"])
    assert all(not p["components"] for p in rest)  # the link rides with the header, once
