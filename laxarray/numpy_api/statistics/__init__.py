"""NumPy surface: statistics.

NaN-aware reductions, order statistics (median/percentile/quantile), averages,
cov/corrcoef, histograms, bincount/digitize, interp/gradient/trapezoid,
partition/lexsort.  The functions live in this package's private modules by topic
(``_nan``, ``_order``, ``_hist``, ``_calc``); this module gathers them.
"""

import typing as _typing

from laxarray.numpy_api.statistics._nan import *  # noqa: F401,F403
from laxarray.numpy_api.statistics._order import *  # noqa: F401,F403
from laxarray.numpy_api.statistics._hist import *  # noqa: F401,F403
from laxarray.numpy_api.statistics._calc import *  # noqa: F401,F403
from laxarray.numpy_api.statistics import _calc, _hist, _nan, _order

# Hidden from type checkers, which read only literal lists: without it they see every public
# name here, which are exactly the star-imported ones.
if not _typing.TYPE_CHECKING:
    __all__ = [*_nan.__all__, *_order.__all__, *_hist.__all__, *_calc.__all__]
