"""The bot's commands as its registered tree holds them, against what /help and the docs say.

/help lists every command of the tree (each with its options and its description in the reader's
language); docs/usage.md names no command or option the bot does not have and mentions every
command and subcommand; README's command table names none it lacks and mentions every command.
The docs are compared with the slash commands (what is typed as ``/name option:``), not the menus.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.core.words import TEXTS, Lang, ls, text
from testkit.discord_standin import DiscordStandIn
from tests.conftest import StartBot

ROOT = Path(__file__).resolve().parents[1]
Commands = dict[str, set[str]]  # "cast", "case show" → the names of its options


def described(description: str, lang: Lang) -> str:
    """A command's description (its English default) in ``lang``, from the words data."""
    keys = [key for key, words in TEXTS.items() if words["en"] == description]
    assert keys, f"no word of the bot reads {description!r}"
    return TEXTS[keys[0]][lang]


def localized(name: str, lang: Lang) -> str:
    """A menu command's name in ``lang``: its word's, or as it is when it is no word of the bot."""
    keys = [key for key, words in TEXTS.items() if words["en"] == name]
    return TEXTS[keys[0]][lang] if keys else name


def slash_commands(tree: app_commands.CommandTree[Any]) -> Commands:
    """Every slash command and subcommand of the tree, with its options' names as users type them."""
    found: Commands = {}

    def walk(command: app_commands.Command[Any, ..., Any] | app_commands.Group, prefix: str) -> None:
        name = f"{prefix}{command.name}"
        if isinstance(command, app_commands.Group):
            found[name] = set()
            for child in command.commands:
                walk(child, name + " ")
        else:
            found[name] = {parameter.display_name for parameter in command.parameters}

    for command in tree.get_commands(type=discord.AppCommandType.chat_input):
        assert isinstance(command, app_commands.Command | app_commands.Group)
        walk(command, "")
    return found


def groups_of(commands: Commands) -> set[str]:
    return {name.split(" ")[0] for name in commands if " " in name}


def listed(fields: dict[str, str], command: Any, lang: Lang) -> None:
    """``command`` (of the tree) is in /help's fields: a slash command with its description, each
    subcommand and each option; a menu command by its name in ``lang``, saying where it is found."""
    if isinstance(command, app_commands.ContextMenu):
        name = localized(command.name, lang)
        assert fields.get(name) == text("help.menu", lang, name=name), f"/help does not list the menu {name}"
        return
    assert isinstance(command, app_commands.Command | app_commands.Group)
    value = fields.get(f"/{command.name}")
    assert value is not None, f"/help does not list /{command.name}"
    assert described(command.description, lang) in value
    children = command.commands if isinstance(command, app_commands.Group) else [command]
    for child in children:
        assert isinstance(child, app_commands.Command)
        if child is not command:
            assert f"**{child.name}**" in value and described(child.description, lang) in value
        for parameter in child.parameters:
            assert f"`{parameter.display_name}`" in value, (command.name, child.name, parameter.display_name)


def help_fields(callback: Any) -> dict[str, str]:
    return {f["name"]: f["value"] for embed in callback.embeds for f in embed.get("fields", [])}


@pytest.mark.parametrize(("locale", "lang"), [("en-US", "en"), ("ja", "ja"), ("zh-TW", "zh-TW"), ("zh-CN", "zh-CN")])
async def test_help_lists_every_registered_command_in_the_readers_language(
    standin: DiscordStandIn, start_bot: StartBot, locale: str, lang: Lang
) -> None:
    bot = await start_bot()
    callback = await standin.slash("help", locale=locale)
    assert callback.ephemeral
    fields = help_fields(callback)
    tops = bot.tree.get_commands()
    assert len(tops) >= 10
    for command in tops:
        listed(fields, command, lang)


async def test_a_command_added_to_the_tree_is_listed_by_help(standin: DiscordStandIn, start_bot: StartBot) -> None:
    """/help reads the tree when asked: a slash command and a message's menu added to it are listed
    (the words they use are the bot's own, as every command's)."""
    bot = await start_bot()

    async def nothing(interaction: discord.Interaction[Any], message: discord.Message) -> None:
        return None

    async def also(interaction: discord.Interaction[Any], term: str) -> None:
        return None

    added = app_commands.Command(name="also", description=ls("lookup.term.description"), callback=also)
    menu = app_commands.ContextMenu(name=ls("lookup.description"), callback=nothing)
    bot.tree.add_command(added)
    bot.tree.add_command(menu)
    fields = help_fields(await standin.slash("help", locale="zh-TW"))
    listed(fields, added, "zh-TW")
    listed(fields, menu, "zh-TW")
    assert fields["/also"] == f"{TEXTS['lookup.term.description']['zh-TW']}\n`term`"


# -- the docs ----------------------------------------------------------------------------------


def spans(text: str) -> list[str]:
    """The code spans of a Markdown text, ``\\|`` read as ``|`` (a pipe inside a table cell)."""
    return [span.replace("\\|", "|") for span in re.findall(r"`([^`\n]+)`", text)]


def named(text: str, commands: Commands) -> tuple[set[str], list[str]]:
    """The commands a text's code spans name (``/case show id:<id>`` names ``case show``; README's
    ``/case show|note`` both), and what they name that the bot does not have."""
    mentioned: set[str] = set()
    wrong: list[str] = []
    options = set().union(*commands.values())
    groups = groups_of(commands)
    for span in spans(text):
        if re.fullmatch(r"[a-z_]+:\S*", span):  # an option alone, in prose: `part:5`, `matter:`
            if span.split(":")[0] not in options:
                wrong.append(f"option {span!r}: no command has it")
            continue
        if not re.match(r"/[a-z]", span):
            continue
        tokens = re.sub(r"<[^>]*>", "<>", span).split()
        top = tokens[0][1:]
        if top not in commands:
            wrong.append(f"{span!r}: no command /{top}")
            continue
        paths = [top]
        rest = tokens[1:]
        if top in groups:
            if not rest or not re.fullmatch(r"[a-z_]+(\|[a-z_]+)*", rest[0]):
                mentioned.add(top)
                continue
            paths = [f"{top} {sub}" for sub in rest[0].split("|")]
            rest = rest[1:]
        for path in paths:
            if path not in commands:
                wrong.append(f"{span!r}: no command /{path}")
                continue
            mentioned.add(path)
            for token in rest:
                option = token.split(":")[0] if ":" in token else token.strip("[]")
                if token == "…":
                    continue
                if ":" not in token and not (token.startswith("[") and token.endswith("]")):
                    wrong.append(f"{span!r}: {token!r} is neither an option nor a subcommand")
                elif option not in commands[path]:
                    wrong.append(f"{span!r}: /{path} has no option {option!r}")
    return mentioned, wrong


async def test_usage_and_readme_name_the_registered_commands_and_options(start_bot: StartBot) -> None:
    bot = await start_bot()
    commands = slash_commands(bot.tree)
    assert {"cast", "case show", "quiz start", "verify"} <= commands.keys()
    assert commands["case note"] == {"id", "text", "edit"}  # the names typed, not the parameters'
    usage = (ROOT / "docs" / "usage.md").read_text(encoding="utf-8")
    mentioned, wrong = named(usage, commands)
    assert not wrong, f"docs/usage.md names what the bot does not have: {wrong}"
    leaves = {name for name in commands if name not in groups_of(commands)}
    assert not leaves - mentioned, f"docs/usage.md does not mention {sorted(leaves - mentioned)}"
    table = "\n".join(line for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
                      if line.startswith("| `/"))
    mentioned, wrong = named(table, commands)
    assert not wrong, f"README's command table names what the bot does not have: {wrong}"
    tops = {name for name in commands if " " not in name}
    missing = tops - {name.split(" ")[0] for name in mentioned}
    assert not missing, f"README's command table does not mention {sorted(missing)}"


def test_the_comparison_catches_a_wrong_option_and_a_missing_command() -> None:
    """The check itself: an option the command lacks, a command it lacks, one left unmentioned."""
    commands: Commands = {"case": set(), "case show": {"id"}, "help": set()}
    mentioned, wrong = named("`/case show case_id:<id>` and `/cases` and `nope:`", commands)
    assert len(wrong) == 3 and mentioned == {"case show"}
    mentioned, wrong = named("`/case show\\|help id:<x>` `/help`", commands)
    assert mentioned == {"case show", "help"} and wrong == ["'/case show|help id:<x>': no command /case help"]
