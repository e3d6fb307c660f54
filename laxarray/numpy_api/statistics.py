"""NumPy surface: statistics.

NaN-aware reductions, order statistics (median/percentile/quantile), averages,
cov/corrcoef, histograms, bincount/digitize, interp/gradient/trapezoid,
partition/lexsort.  The functions live in private ``_stats_*`` modules by topic
(``_stats_nan``, ``_stats_order``, ``_stats_hist``, ``_stats_calc``); this module
gathers them.
"""

import typing as _typing

from laxarray.numpy_api._stats_nan import *  # noqa: F401,F403
from laxarray.numpy_api._stats_order import *  # noqa: F401,F403
from laxarray.numpy_api._stats_hist import *  # noqa: F401,F403
from laxarray.numpy_api._stats_calc import *  # noqa: F401,F403
from laxarray.numpy_api import _stats_calc, _stats_hist, _stats_nan, _stats_order

# Hidden from type checkers, which read only literal lists: without it they see every public
# name here, which are exactly the star-imported ones.
if not _typing.TYPE_CHECKING:
    __all__ = [*_stats_nan.__all__, *_stats_order.__all__, *_stats_hist.__all__,
               *_stats_calc.__all__]
