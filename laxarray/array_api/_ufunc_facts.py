"""NumPy's ufunc facts of laxarray's binary ufuncs: identity, reorderability, and the
reduction, accumulation and ``x.at[...]`` update that are their ``reduce``, ``accumulate``
and ``at`` (:class:`~laxarray.array_api._ufunc.UfuncFacts`).

The ufuncs are built by the elementwise chapters (``elementwise_binary(ufunc=True)``), the
reductions in a later chapter (``statistical``), and the updates by ``x.at``
(``_indexing_at``): this module comes after all three and passes the functions themselves.
``laxarray.array_api`` imports it with its chapters, before any ufunc method can run, and
``laxarray.numpy_api.ufuncs`` (the methods' bodies) imports it too.  A ufunc declared
nothing for here has no identity, reduces over one axis at a time and folds with its function
(``divide``, ``atan2``, ``pow`` ...).
"""

from __future__ import annotations

import math

from laxarray.array_api._indexing_at import IndexUpdateRef
from laxarray.array_api._ufunc import UfuncFacts, declare
from laxarray.array_api.elementwise import add, multiply, subtract
from laxarray.array_api.elementwise_bitwise import (bitwise_and, bitwise_or, bitwise_xor,
                                                    logical_and, logical_or, logical_xor)
from laxarray.array_api.elementwise_compare import maximum, minimum
from laxarray.array_api.elementwise_pairwise import hypot, logaddexp
from laxarray.array_api.statistical import all, any, max, min, prod, sum
from laxarray.array_api.statistical_cumulative import cumulative_prod, cumulative_sum

declare(add, UfuncFacts(identity=0, reorderable=True, reduce=sum, accumulate=cumulative_sum,
                        at=IndexUpdateRef.add))
declare(subtract, UfuncFacts(at=IndexUpdateRef.subtract))
declare(multiply, UfuncFacts(identity=1, reorderable=True, reduce=prod,
                             accumulate=cumulative_prod, at=IndexUpdateRef.multiply))
declare(maximum, UfuncFacts(reorderable=True, reduce=max, at=IndexUpdateRef.max))
declare(minimum, UfuncFacts(reorderable=True, reduce=min, at=IndexUpdateRef.min))
declare(bitwise_and, UfuncFacts(identity=-1, reorderable=True))
declare(bitwise_or, UfuncFacts(identity=0, reorderable=True))
declare(bitwise_xor, UfuncFacts(identity=0, reorderable=True))
declare(logical_and, UfuncFacts(identity=True, reorderable=True, reduce=all))
declare(logical_or, UfuncFacts(identity=False, reorderable=True, reduce=any))
declare(logical_xor, UfuncFacts(identity=False, reorderable=True))
declare(hypot, UfuncFacts(identity=0, reorderable=True))
declare(logaddexp, UfuncFacts(identity=-math.inf, reorderable=True))
