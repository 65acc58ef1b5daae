"""A chart's picture on the bot's side (bot.casebook.present.picture_for): every cast of
one 時 shares one picture, so casts arriving together wait for one drawing, and a picture drawn
before is given back without a trip to the drawing process or thread; the attachment still names
each cast's minute. Each test runs with the drawings in their own process and on the thread."""

from __future__ import annotations

import asyncio
import operator
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from bot.casebook import present
from bot.core import worker
from bot.core.drawing import process as drawer
from bot.reply import picture as reply_picture
from engine import cast
from texts.picture import draw as picture

TOKYO = ZoneInfo("Asia/Tokyo")
START = datetime(2031, 5, 3, 13, 0, tzinfo=TOKYO)  # a 時 no other test draws


@pytest.fixture(params=[True, False], ids=["process", "thread"])
async def apart(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The drawings in the drawing process (ended after the test) or on the drawing thread."""
    monkeypatch.setattr(worker, "APART", request.param)
    picture.clear_cache()  # each side draws its own
    yield request.param
    await drawer.close()


async def test_casts_of_one_hour_arriving_together_draw_its_picture_once(monkeypatch: pytest.MonkeyPatch,
                                                                         apart: bool) -> None:
    drawn: list[Any] = []
    real = reply_picture.on_drawing_side

    async def counted(work: Callable[..., picture.Picture], chart: Any, **options: Any) -> picture.Picture:
        drawn.append(chart.moment.local)
        return await real(work, chart, **options)

    monkeypatch.setattr(reply_picture, "on_drawing_side", counted)
    charts = [cast(START + timedelta(minutes=m)) for m in (0, 7, 59, 61, 119)]
    found = await asyncio.gather(*(present.picture_for(c, "ja") for c in charts))
    assert len(drawn) == 1
    assert all(f.png is found[0].png and f.alt == found[0].alt for f in found)
    assert [f.filename for f in found] == [picture.filename(c) for c in charts]
    assert found[1].filename == "liuren-20310503-1307.png"
    alone = picture.draw(charts[1])  # what texts.picture gives for that cast, drawn without the bot
    assert (found[1].png, found[1].alt, found[1].filename) == (alone.png, alone.alt, alone.filename)

    again = await present.picture_for(cast(START + timedelta(minutes=30)), "ja")  # kept: not drawn again
    assert len(drawn) == 1 and again.png is found[0].png and again.filename == "liuren-20310503-1330.png"
    other = await present.picture_for(cast(START + timedelta(minutes=120)), "ja")  # the next 時
    light = await present.picture_for(charts[0], "ja", "light")
    english = await present.picture_for(charts[0], "en")
    assert len(drawn) == 4 and len({other.png, light.png, english.png, found[0].png}) == 4


async def test_a_failed_drawing_is_not_kept(monkeypatch: pytest.MonkeyPatch, apart: bool) -> None:
    # A drawing that fails where it runs, in the process as on the thread (it is picklable):
    # division takes no theme=, lang=….
    monkeypatch.setattr(reply_picture, "paint", operator.truediv)
    chart = cast(START + timedelta(days=1))
    for _ in range(2):  # told each time, never a picture kept from a failure
        with pytest.raises(TypeError):
            await asyncio.gather(*(present.picture_for(chart, "ja") for _ in range(3)))
    monkeypatch.undo()
    assert (await present.picture_for(chart, "ja")).png == picture.draw(chart).png
