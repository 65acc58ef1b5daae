"""大六壬 casting engine: instant → pillars and 月将 → 天地盤 → 四課 → 三伝 → 天将.

Pure Python, no I/O. Start with :func:`cast` (an instant) or :func:`cast_classical`
(day pillar, 月将, hour branch); both return an immutable :class:`Chart`.
"""

from .chart import CastError, Chart, Step, cast, cast_classical
from .school import School
from .sun import Place
from .symbols import Branch, Pillar, Stem

__all__ = ["Branch", "CastError", "Chart", "Pillar", "Place", "School", "Stem", "Step", "cast", "cast_classical"]
