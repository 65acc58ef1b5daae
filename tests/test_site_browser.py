"""The study site in a real browser: Debian's chromium, headless, driven by selenium.

The pages are loaded from file://, as a student opening the built site would: no server. Checked:
the index and a chart page load with no console error and no failed load (a missing file is a
console error in chromium); the stylesheet, the picture's font and the search scripts really
load; the search finds 冬蛇掩目 → its one chart and 玄武 → its corpus page; the query is folded as
Python's lookups fold it; every link of the pages visited resolves; a phone-width window does not
scroll sideways; the dark theme follows the system setting.

Skipped only when chromium (or chromedriver, or selenium) is missing and ``CI`` is not set: in CI
the absence is a failure (.ci/run installs chromium and chromium-driver).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest

from texts.site.build import build, parse_days

# One worker builds this module's site (a module fixture) once: pytest-xdist's --dist loadfile. Slow,
# for it builds the study site and drives a browser; `pytest -m "not slow"` leaves it to the full suite.
pytestmark = pytest.mark.slow

CHROMIUM = os.environ.get("LIUREN_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("LIUREN_CHROMEDRIVER", "/usr/bin/chromedriver")


def _missing() -> str | None:
    for path in (CHROMIUM, CHROMEDRIVER):
        if not Path(path).is_file() and shutil.which(Path(path).name) is None:
            return f"{path} is not installed (apt-get install chromium chromium-driver)"
    try:
        import selenium  # noqa: F401
    except ModuleNotFoundError:
        return "selenium is not installed (pip install -e '.[test]')"
    return None


_WHY = _missing()
if _WHY is not None:
    if os.environ.get("CI"):
        pytest.fail(f"CI is set and the browser tests cannot run: {_WHY}", pytrace=False)
    pytest.skip(f"no browser for the site's tests: {_WHY}", allow_module_level=True)

Driver = Any  # selenium's WebDriver (untyped enough that Any is honest)
# selenium's locators and waits, imported with the browser (the ``browser`` fixture, which every test
# here takes): importing selenium.webdriver costs 0.2 s, and every worker collects this module,
# also for `-m "not slow"`, which runs none of it.
By: Any = None
WebDriverWait: Any = None


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("site")
    build(root, days=parse_days("丁丑,甲子"), progress=lambda _: None)
    return root


@pytest.fixture(scope="module")
def browser() -> Iterator[Driver]:
    global By, WebDriverWait
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which(CHROMIUM) or CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1100,900", "--lang=ja"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(shutil.which(CHROMEDRIVER) or CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()


def url(site: Path, page: str) -> str:
    return (site / page).resolve().as_uri()


def load(driver: Driver, address: str) -> list[dict[str, Any]]:
    """Open ``address``, wait for it and its fonts, and return what the console said meanwhile."""
    driver.get_log("browser")  # drop what earlier pages said
    driver.get(address)
    WebDriverWait(driver, 20).until(lambda d: d.execute_script("return document.readyState") == "complete")
    driver.execute_script("return document.fonts.ready.then(() => true)")
    logs: list[dict[str, Any]] = driver.get_log("browser")
    return logs


def errors(logs: list[dict[str, Any]]) -> list[str]:
    return [str(entry["message"]) for entry in logs if entry["level"] in ("SEVERE", "ERROR", "WARNING")]


CHART = "ja/chart/d13-y03-h06.html"  # 丁丑 月将卯 午時: the one 冬蛇掩目 chart


@pytest.mark.parametrize("page", ["index.html", "ja/index.html", CHART, "en/chart/d13-y03-h06.html",
                                  "zh-CN/corpus/general.玄武.html", "en/rules.html", "zh-TW/glossary.html"])
def test_a_page_loads_with_no_console_error_and_no_failed_load(browser: Driver, site: Path, page: str) -> None:
    assert errors(load(browser, url(site, page))) == []
    # what it loads did load: the stylesheet (its colours are on the body), and every script ran
    background = browser.execute_script("return getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(250, 247, 240)"
    lang = browser.execute_script("return document.documentElement.lang")
    assert lang == (page.split("/")[0] if "/" in page else "ja")


def test_the_chart_picture_is_drawn_with_its_own_font_and_described(browser: Driver, site: Path) -> None:
    assert errors(load(browser, url(site, CHART))) == []
    assert browser.execute_script("return document.fonts.check('700 16px liuren-picture', '丁丑')")
    svg = browser.find_element(By.CSS_SELECTOR, "svg.chart-picture")
    assert svg.get_attribute("role") == "img"
    title = browser.execute_script("return document.querySelector('svg.chart-picture title').textContent")
    assert title.startswith("大六壬の課の図。丁丑日") and "冬蛇掩目" in title
    width = browser.execute_script("return document.querySelector('svg.chart-picture').getBoundingClientRect().width")
    assert 300 < width <= 440
    assert "冬蛇掩目" in browser.find_element(By.CSS_SELECTOR, "dl.summary").text


def _results(driver: Driver) -> list[tuple[str, str]]:
    WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "count").text)
    return [(li.get_attribute("class"), li.find_element(By.TAG_NAME, "a").get_attribute("href"))
            for li in driver.find_elements(By.CSS_SELECTOR, "#results li")]


def test_the_search_finds_冬蛇掩目s_one_chart(browser: Driver, site: Path) -> None:
    assert errors(load(browser, url(site, "ja/search.html") + "?q=冬蛇掩目")) == []
    found = _results(browser)
    charts = [href for cls, href in found if cls == "result-chart"]
    assert len(charts) == 1 and charts[0].endswith("/ja/chart/d13-y03-h06.html")
    assert any(cls == "result-unit" and href.endswith("pattern.%E5%86%AC%E8%9B%87%E6%8E%A9%E7%9B%AE.html")
               for cls, href in found)
    browser.find_element(By.CSS_SELECTOR, "#results li.result-chart a").click()
    WebDriverWait(browser, 10).until(lambda d: "丁丑" in d.find_element(By.TAG_NAME, "h1").text)
    assert "月将卯" in browser.find_element(By.TAG_NAME, "h1").text


@pytest.mark.slow  # over a second on the project's machine
def test_the_search_finds_玄武s_corpus_page_typed_in_any_script(browser: Driver, site: Path) -> None:
    load(browser, url(site, "zh-CN/search.html"))
    box = browser.find_element(By.ID, "q")
    box.send_keys("玄武")
    found = _results(browser)
    assert found[0] == ("result-unit", url(site, "zh-CN/corpus/general.%E7%8E%84%E6%AD%A6.html").replace(
        "%25", "%"))
    # the header's search form leads to the same results from any page, in a simplified form too
    load(browser, url(site, "ja/index.html"))
    top = browser.find_element(By.ID, "q-top")
    top.send_keys("腾蛇")
    top.submit()
    WebDriverWait(browser, 10).until(lambda d: d.current_url.split("?")[0].endswith("/ja/search.html"))
    found = _results(browser)
    assert found[0][1].endswith("/ja/corpus/general.%E9%A8%B0%E8%9B%87.html")  # general.騰蛇


def test_the_browser_folds_a_query_as_python_does(browser: Driver, site: Path) -> None:
    from texts.site.search import fold

    load(browser, url(site, "en/search.html"))
    for value in ("三傳 三传", "青龍青龙青竜", "鑄印 铸印 鋳印", "遙克", "Azure ＤＲＡＧＯＮ", "騰蛇・朱雀"):
        assert browser.execute_script("return window.liurenFold(arguments[0])", value) == fold(value), value


def _links(driver: Driver) -> list[str]:
    hrefs: list[str] = driver.execute_script(
        "return Array.from(document.querySelectorAll('a[href], link[href], script[src]'))"
        ".map(e => e.href || e.src)")
    return [h for h in hrefs if h.startswith("file:")]


@pytest.mark.slow  # over a second on the project's machine
def test_every_link_of_the_pages_visited_resolves(browser: Driver, site: Path) -> None:
    checked = 0
    for page in ("index.html", "ja/index.html", CHART, "en/corpus/general.玄武.html", "zh-TW/rules.html",
                 "zh-TW/glossary.html"):
        load(browser, url(site, page))
        for link in _links(browser):
            parts = urlsplit(link)
            target = Path(unquote(parts.path))
            assert target.is_file(), (page, link)
            if parts.fragment:
                ids = browser.execute_script(
                    "return arguments[0] === location.pathname ? [...document.querySelectorAll('[id]')].map(e => e.id)"
                    " : null", parts.path)
                if ids is not None:
                    assert unquote(parts.fragment) in ids, (page, link)
            checked += 1
    assert checked > 150  # a subset: the index links only the 48 charts built


@pytest.mark.slow  # over a second on the project's machine
def test_a_phone_reads_a_chart_without_scrolling_sideways(browser: Driver, site: Path) -> None:
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": 375, "height": 812, "deviceScaleFactor": 2, "mobile": True})
    try:
        for page in ("ja/index.html", "en/rules.html", "zh-TW/glossary.html", "en/chart/d13-y03-h06.html", CHART):
            load(browser, url(site, page))
            wide = browser.execute_script("return document.documentElement.scrollWidth")
            assert wide <= 375, page
        picture = browser.execute_script(
            "return document.querySelector('svg.chart-picture').getBoundingClientRect().width")
        assert 300 < picture <= 375  # the picture shrinks to the phone, and stays legible
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


@pytest.mark.slow  # over a second on the project's machine
def test_the_dark_theme_follows_the_system(browser: Driver, site: Path) -> None:
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme",
                                                                         "value": "dark"}]})
    try:
        load(browser, url(site, CHART))
        assert browser.execute_script("return getComputedStyle(document.body).backgroundColor") == "rgb(30, 31, 34)"
        fill = browser.execute_script(
            "return getComputedStyle(document.querySelector('svg.chart-picture > rect')).fill")
        assert fill == "rgb(43, 45, 49)"  # texts.picture.THEMES['dark']['bg']
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
