"""docs/rules.md §9.4 as amended: the person asked about, the added keywords and stop words, the
line said when no matter is recognised, and the matter option taking the names a reply prints.

§9.4 (amended): "A `woman` keyword names *who* the question is about, not what: 「母の病気は治りますか」
asks of illness. When any other matter is recognised, `woman` is read after all of them (not in its
9.2 place), under the heading "the person asked about" (ja 「問われる人」, zh 「所問之人」), and its
section quotes 天后's opening and name line only (no mentions, no patterns). With no other matter it
stays a matter as before. The reply always says which words decided each matter, and says in one
line when no matter was recognised (with the `matter` option's name in the reader's language, as
the option is shown there). Keywords added: marriage 親事 夫 老公 (and stop words 大丈夫 工夫 丈夫 so
that 夫 inside them does not fire); wealth 加薪 昇給; deceit lied; stop words 官房 五官 長官 (office is
not asked by naming an official's title) 不安定 (not fright)."
"""

from __future__ import annotations

import pytest

from engine import cast_classical
from engine.classical import classical_charts
from engine.school import DEFAULT_SCHOOL
from texts.cli import main as cli_main
from texts.matters.phrases import matter_named
from texts.matters.recognise import MATTERS, Matter, recognise
from texts.matters.sentences import items, render_matters, unrecognised
from texts.matters.values import answer
from texts.words import LANGS, Lang, term, text

MOTHER = "母の病気は治りますか"


def test_the_mother_asked_about_is_read_after_her_illness() -> None:
    """§9.4: "`woman` is read after all of them … under the heading "the person asked about"."""
    assert [f.matter for f in recognise(MOTHER)] == [Matter.woman, Matter.illness]  # §9.2's order
    for chart in list(classical_charts(DEFAULT_SCHOOL))[::11]:
        illness, woman = answer(chart, question=MOTHER).matters
        assert illness.matter is Matter.illness and not illness.person
        assert woman.matter is Matter.woman and woman.person and woman.words == ("母",)
        # "its section quotes 天后's opening and name line only (no mentions, no patterns)"
        assert not woman.mentions and not woman.patterns and not woman.undecided and not woman.any_matter
        assert [s.general.name for s in woman.spirits] == ["天后"]
        for lang in LANGS:
            heading = items(woman, lang)[0].heading
            assert heading is not None and heading.startswith(text("matter.person", lang))
    assert text("matter.person", "ja") == "問われる人" and text("matter.person", "zh-TW") == "所問之人"


def test_a_woman_alone_stays_a_matter_as_before() -> None:
    """§9.4: "With no other matter it stays a matter as before"."""
    (section,) = answer(cast_classical("甲子", "寅", "午"), question="母は元気ですか").matters
    assert section.matter is Matter.woman and not section.person
    assert items(section, "ja")[0].heading == text("matter.heading", "ja", matter=term(Matter.woman, "ja"))


@pytest.mark.parametrize(
    ("question", "matter", "words"),
    [
        ("親事はまとまりますか", Matter.marriage, ("親事",)),
        ("夫は帰ってきますか", Matter.marriage, ("夫",)),
        ("我老公会回来吗", Matter.marriage, ("老公",)),
        ("今年能加薪吗", Matter.wealth, ("加薪",)),
        ("昇給はありますか", Matter.wealth, ("昇給",)),
        ("Has he lied to me?", Matter.deceit, ("lied",)),
    ],
)
def test_the_added_keywords_fire(question: str, matter: Matter, words: tuple[str, ...]) -> None:
    """§9.4: "Keywords added: marriage 親事 夫 老公 …; wealth 加薪 昇給; deceit lied"."""
    assert [(f.matter, f.words) for f in recognise(question)] == [(matter, words)]


STOPPED = ["官房長官に会えますか", "五官の働き", "長官は来るか", "大丈夫ですか", "工夫が要る", "丈夫な体", "不安定"]


@pytest.mark.parametrize("question", STOPPED)
def test_the_added_stop_words_keep_shorter_keywords_quiet(question: str) -> None:
    """§9.4: "stop words 大丈夫 工夫 丈夫 so that 夫 inside them does not fire"; "官房 五官 長官 (office
    is not asked by naming an official's title) 不安定 (not fright)"."""
    assert recognise(question) == ()


@pytest.mark.parametrize("lang", LANGS)
def test_a_question_with_no_matter_is_told_so_in_one_line(lang: Lang, capsys: pytest.CaptureFixture[str]) -> None:
    """§9.4: "says in one line when no matter was recognised (with the `matter` option's name …)"."""
    line = unrecognised(lang, "--matter")
    assert "--matter" in line and "\n" not in line
    base = ["cast", "--day", "甲子", "--yuejiang", "寅", "--hour", "午", "--lang", lang]
    assert cli_main([*base, "--question", "What will the weather be?"]) == 0
    assert line in capsys.readouterr().out
    assert cli_main([*base, "--question", MOTHER]) == 0
    assert line not in capsys.readouterr().out


def test_the_matter_option_takes_the_names_a_reply_prints(capsys: pytest.CaptureFixture[str]) -> None:
    """`--matter 婚姻`: every matter as any language prints it names that matter."""
    for m in MATTERS:
        for lang in LANGS:
            assert matter_named(term(m, lang)) is m, (m, lang)
        assert matter_named(m.value) is m
    assert matter_named("general") is None
    with pytest.raises(ValueError, match="marriage"):
        matter_named("weather")
    base = ["cast", "--day", "甲子", "--yuejiang", "寅", "--hour", "午"]
    assert cli_main([*base, "--matter", "婚姻"]) == 0
    chosen = capsys.readouterr().out
    assert cli_main([*base, "--matter", "marriage"]) == 0
    assert chosen == capsys.readouterr().out
    shown = render_matters(answer(cast_classical("甲子", "寅", "午"), matter="marriage").matters, "ja")
    assert shown in chosen


def test_the_bots_matter_option_takes_the_printed_names_too() -> None:
    import asyncio
    from typing import Any, cast

    from bot.core.options import MatterOption

    option = MatterOption()
    nobody = cast(Any, None)  # the transform reads only the value
    assert asyncio.run(option.transform(nobody, "婚姻")) == "marriage"
    assert asyncio.run(option.transform(nobody, "illness and mourning (病·喪)")) == "illness"
    assert asyncio.run(option.transform(nobody, "general")) == "general"
