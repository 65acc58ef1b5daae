"""A place kept by the store (docs/rules.md §10.2), on both backends: a server's default place in
its options, a member's in their sealed profile and a case's sealed with its question under the
author's casebook key; each read back as written, a stored place that no longer decodes read as
``Bad``, and a member's deletion leaving no byte of their places in SQLite's files."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from bot.store import Bad, GuildOptions, KeptPlace, Profile, open_store
from engine import calendar
from engine.sun import Place
from tests.test_sqlite_lanes import sealed_of, stored_files
from tests.test_store_casebook import draft

URUMQI = KeptPlace(Place(43.80096, 87.60046), "Ürümqi", calendar.zone("Asia/Urumqi"))
TOKYO = KeptPlace(Place(35.6895, 139.69171), "東京", calendar.zone("Asia/Tokyo"))


async def test_a_servers_place_is_kept_and_a_bad_one_read_as_bad(store_location: str) -> None:
    store = await open_store(store_location)
    try:
        await store.set_guild_options(5, GuildOptions(place=URUMQI))
        assert (await store.guild_options(5)).place == URUMQI
        await store.set_guild_options(5, replace(await store.guild_options(5), place=None))
        assert (await store.guild_options(5)).place is None
        await store.driver.execute("UPDATE guild_options SET place = ? WHERE guild_id = 5", ('{"lat": 91}',))
        found = await open_store(store_location)  # not the options the first store remembers
        try:
            assert isinstance((await found.guild_options(5)).place, Bad)
        finally:
            await found.close()
    finally:
        await store.close()


async def test_a_profiles_place_is_sealed_with_it_and_shredded_with_it(store_location: str) -> None:
    store = await open_store(store_location)
    try:
        mine = Profile(7, 1987, "男", calendar.zone("Asia/Tokyo"), TOKYO)
        await store.set_profile(mine)
        assert await store.profile(7) == mine
        [(sealed, plain_zone)] = await store.driver.fetch("SELECT sealed, zone FROM profiles WHERE user_id = 7")
        assert plain_zone is None and "東京".encode() not in bytes(sealed)
        assert await store.delete_profile(7)
        assert await store.profile(7) is None
    finally:
        await store.close()


async def test_a_cases_place_is_sealed_with_its_question_and_read_back(store_location: str) -> None:
    store = await open_store(store_location)
    try:
        case = await store.add_case(replace(draft(author=9, question=None), place=URUMQI))
        assert case.place == URUMQI
        assert await store.case(case.id) == case
        [(sealed,)] = await store.driver.fetch("SELECT place_sealed FROM cases WHERE id = ?", (case.id,))
        assert sealed is not None and b"rumqi" not in bytes(sealed)
        without = await store.add_case(draft(author=9, question="no place"))
        assert (await store.case(without.id)) == without and without.place is None
        assert await store.delete_user_cases(9) == 2
    finally:
        await store.close()


async def test_deleting_a_members_data_leaves_no_byte_of_their_places_in_the_files(tmp_path: Path) -> None:
    """A profile's place and a case's are never in the files in plain text; once the profile and the
    cases are deleted, neither what sealed them nor the ciphertext is (secure_delete, the WAL emptied)."""
    path = tmp_path / "liuren.sqlite3"
    home = KeptPlace(Place(-54.8019, -68.303), "Ushuaia of the member", calendar.zone("America/Argentina/Ushuaia"))
    store = await open_store(path)
    try:
        await store.set_profile(Profile(7, 1961, "女", None, home))
        case = await store.add_case(replace(draft(question=None), place=home))
        plain = (home.name.encode(), b"-54.8019", b"Argentina")
        keys, sealed = sealed_of(path, 7)
        [(place_sealed,)] = await store.driver.fetch("SELECT place_sealed FROM cases WHERE id = ?", (case.id,))
        before = stored_files(path)
        assert all(found in before for found in (*keys, *sealed, bytes(place_sealed)))
        assert not any(marker in before for marker in plain)
        assert await store.delete_profile(7)
        assert await store.delete_user_cases(7) == 1
        after = stored_files(path)
        for gone in (*keys, *sealed, bytes(place_sealed), *plain):
            assert gone not in after, gone
    finally:
        await store.close()
