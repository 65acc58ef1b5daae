"""The study site: every classical chart, the corpus, the glossary and the rules as static pages.

``liuren site build DIR`` writes it (:func:`texts.site.build.build`); ``liuren site path`` prints a
chart's page (:func:`texts.site.paths.chart_path`). Pages need no server: every link is relative,
the search runs in the browser from a small index, and nothing is fetched from elsewhere.

The one function a caller outside needs is :func:`chart_url`: the page of the chart a reply shows,
under the site's address (the bot reads it from ``LIUREN_SITE_URL``).
"""

from __future__ import annotations

from texts.site.paths import chart_path, chart_url

__all__ = ["chart_path", "chart_url"]
