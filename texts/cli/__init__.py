"""The terminal apps, the only code that reads a command line: ``liuren`` (liuren.py, with cast.py
for what ``cast`` and ``table`` make of their arguments), its ``lookup`` (lookup.py, also
``python -m texts``), ``find`` (find.py), ``quiz`` (quiz.py) and ``site`` (site.py); and
``python -m texts.cli.picture`` (picture.py). What they print on stderr is one line (errors.py).
"""

from texts.cli.liuren import console, main

__all__ = ["console", "main"]
