"""A package's names whose modules load at their first use (PEP 562), so a start skips them.

    __getattr__ = deferred_names(__name__, {"answer": "texts.matters.values"})  # in texts/matters/__init__.py

The package's module ``__getattr__``: a listed name is imported from its module when first asked
for, then bound in the package as an import would bind it, so later reads are plain look-ups (a read
through ``__getattr__`` costs microseconds: the usual look-up fails first). Names the package's
modules use in annotations are imported for the type checker under ``TYPE_CHECKING``.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["deferred_names"]


def deferred_names(package: str, homes: Mapping[str, str]) -> Callable[[str], Any]:
    """``package``'s ``__getattr__``: each name of ``homes`` from the module it names, imported and
    bound in ``package`` at its first use; ``AttributeError`` for any other name."""

    def __getattr__(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(home), name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__
