"""NumPy surface: statistics.

NaN-aware reductions, order statistics (median/percentile/quantile), averages,
cov/corrcoef, histograms, bincount/digitize, interp/gradient/trapezoid,
partition/lexsort.  The functions live in this package's private modules by topic
(``_nan``, ``_cumulative``, ``_order``, ``_median``, ``_partition``, ``_hist``, ``_average``,
``_calc``); this module gathers them.
"""

import typing as _typing

from laxarray.numpy_api.statistics._nan import *  # noqa: F401,F403
from laxarray.numpy_api.statistics._cumulative import *  # noqa: F401,F403
from laxarray.numpy_api.statistics._order import *  # noqa: F401,F403
from laxarray.numpy_api.statistics._median import *  # noqa: F401,F403
from laxarray.numpy_api.statistics._partition import *  # noqa: F401,F403
from laxarray.numpy_api.statistics._hist import *  # noqa: F401,F403
from laxarray.numpy_api.statistics._average import *  # noqa: F401,F403
from laxarray.numpy_api.statistics._calc import *  # noqa: F401,F403
from laxarray.numpy_api.statistics import (_average, _calc, _cumulative, _hist, _median, _nan,
                                           _order, _partition)

# Hidden from type checkers, which read only literal lists: without it they see every public
# name here, which are exactly the star-imported ones.
if not _typing.TYPE_CHECKING:
    __all__ = [*_nan.__all__, *_cumulative.__all__, *_order.__all__, *_median.__all__,
               *_partition.__all__, *_hist.__all__, *_average.__all__, *_calc.__all__]
