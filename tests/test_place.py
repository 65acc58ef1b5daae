"""A place as typed (docs/rules.md §10.2): coordinates, names in Japanese, Chinese and English through the
offline gazetteer, candidates for an ambiguous name, a clear error for an unknown one."""

from __future__ import annotations

import pytest

from engine import Place
from texts.place import AmbiguousPlace, PlaceError, candidates, nearest, parse_place, suggest


@pytest.mark.parametrize("name", ["東京", "东京", "Tokyo", "tokyo", "ｔｏｋｙｏ"])
def test_tokyo_in_every_script(name: str) -> None:
    found = parse_place(name)
    assert (found.name, found.country, found.zone) == ("Tokyo", "JP", "Asia/Tokyo")
    assert abs(found.place.lat - 35.6895) < 0.01 and abs(found.place.lon - 139.6917) < 0.01


@pytest.mark.parametrize("name", ["ウルムチ", "乌鲁木齐", "烏魯木齊", "Urumqi", "Ürümqi"])
def test_urumqi_brings_its_own_zone(name: str) -> None:
    found = parse_place(name)
    assert found.zone == "Asia/Urumqi" and found.country == "CN"
    assert abs(found.place.lon - 87.60) < 0.05


def test_traditional_and_simplified_forms_fold_alike() -> None:
    assert parse_place("臺北").name == parse_place("台北").name == "Taipei"


def test_an_ambiguous_name_answers_with_the_candidates_and_a_country_picks_one() -> None:
    with pytest.raises(AmbiguousPlace) as raised:
        parse_place("Madrid")
    found = raised.value.candidates
    assert {c.country for c in found} >= {"ES", "CO"} and found[0].country == "ES"  # largest first
    assert "Madrid (ES) 40.4165,-3.7026" in str(raised.value) and "Madrid, ES" in str(raised.value)
    assert parse_place("Madrid, ES").zone == "Europe/Madrid"
    assert parse_place("Madrid, co").zone == "America/Bogota"
    assert candidates("Madrid, FR") == ()


@pytest.mark.parametrize("text", ["Xyzzyville", "どこでもない町"])
def test_an_unknown_name_is_a_clear_error(text: str) -> None:
    with pytest.raises(PlaceError, match=r"no city named .* give lat,lon"):
        parse_place(text)


def test_coordinates_need_no_gazetteer_and_are_checked() -> None:
    assert parse_place("35.68,139.69").place == Place(35.68, 139.69)
    assert parse_place(" -33.87 , 151.21 ").place == Place(-33.87, 151.21)
    assert parse_place("43.825，87.6").zone is None
    for bad in ("91,0", "0,181"):
        with pytest.raises(PlaceError, match="out of range"):
            parse_place(bad)
    with pytest.raises(PlaceError, match="empty"):
        parse_place("  ")


def test_nearest_lends_coordinates_a_zone_and_suggest_completes() -> None:
    assert nearest(Place(43.825, 87.6)).zone == "Asia/Urumqi"
    assert nearest(Place(40.42, -3.70)).zone == "Europe/Madrid"
    assert nearest(Place(64.0, -179.9)).country in ("RU", "US")  # across the date line
    assert suggest("tok", 3)[0].name == "Tokyo" and suggest("") == ()
