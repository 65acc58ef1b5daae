"""LIUREN_GUILD_READY_TIMEOUT: how long the bot waits after READY for each next server."""

from __future__ import annotations

import pytest

from bot.core.config import guild_ready_timeout, read_config
from bot.core.host import make_bot


def test_unset_is_discord_pys_default_and_a_number_of_seconds_is_taken() -> None:
    assert guild_ready_timeout({}) is None and guild_ready_timeout({"LIUREN_GUILD_READY_TIMEOUT": " "}) is None
    assert guild_ready_timeout({"LIUREN_GUILD_READY_TIMEOUT": "0.05"}) == 0.05
    assert read_config({"LIUREN_GUILD_READY_TIMEOUT": "60"}).guild_ready_timeout == 60.0


@pytest.mark.parametrize("value", ["0", "-1", "61", "two", "nan", "inf"])
def test_a_value_it_cannot_use_names_the_variable(value: str) -> None:
    with pytest.raises(ValueError, match=r"LIUREN_GUILD_READY_TIMEOUT must be a number of seconds from 0\.01 to 60"):
        guild_ready_timeout({"LIUREN_GUILD_READY_TIMEOUT": value})


def test_the_bot_waits_as_long_as_it_is_told() -> None:
    assert make_bot(environ={"LIUREN_GUILD_READY_TIMEOUT": "0.3"})._connection.guild_ready_timeout == 0.3
    assert make_bot(environ={})._connection.guild_ready_timeout == 2.0  # discord.py's own default
