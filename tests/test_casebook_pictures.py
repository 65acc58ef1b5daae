"""A chart's picture on the bot's side (bot.casebook.present.picture_for): every cast of
one 時 shares one picture, so casts arriving together wait for one drawing, and a picture drawn
before is given back without a worker thread; the attachment still names each cast's minute."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from bot.casebook import present
from engine import cast
from texts.picture import draw as picture

TOKYO = ZoneInfo("Asia/Tokyo")
START = datetime(2031, 5, 3, 13, 0, tzinfo=TOKYO)  # a 時 no other test draws


async def test_casts_of_one_hour_arriving_together_draw_its_picture_once(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[Any] = []
    real = present.draw

    def counted(chart: Any, **options: Any) -> picture.Picture:
        drawn.append(chart.moment.local)
        return real(chart, **options)

    monkeypatch.setattr(present, "draw", counted)
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


async def test_a_failed_drawing_is_not_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(chart: Any, **options: Any) -> picture.Picture:
        raise RuntimeError("the drawing failed")

    monkeypatch.setattr(present, "draw", broken)
    chart = cast(START + timedelta(days=1))
    for _ in range(2):  # told each time, never a picture kept from a failure
        with pytest.raises(RuntimeError):
            await asyncio.gather(*(present.picture_for(chart, "ja") for _ in range(3)))
    monkeypatch.undo()
    assert (await present.picture_for(chart, "ja")).png == picture.draw(chart).png
