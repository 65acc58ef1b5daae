"""The classical text and its reading: what a chart means, in the reader's language.

docs/architecture.md maps the packages: the classical text as data (``texts.corpus``), the
project's own words (``texts.words``), a chart's reading (``texts.reading``), the matter asked
(``texts.matters``), the chart drawn (``texts.picture``), the quiz, the study site and the
terminal apps (``texts.cli``).
"""
