"""The Array API standard's namespace, a module per chapter of the spec (per family of a
long chapter: creation, elementwise, manipulation, statistical)."""

import typing as _typing

from laxarray.array_api._array import Array
from laxarray.array_api.constants import *  # noqa: F401,F403
from laxarray.array_api.creation import *  # noqa: F401,F403
from laxarray.array_api.creation_filled import *  # noqa: F401,F403
from laxarray.array_api.creation_ranges import *  # noqa: F401,F403
from laxarray.array_api.data_types import *  # noqa: F401,F403
from laxarray.array_api.elementwise import *  # noqa: F401,F403
from laxarray.array_api.elementwise_bitwise import *  # noqa: F401,F403
from laxarray.array_api.elementwise_compare import *  # noqa: F401,F403
from laxarray.array_api.elementwise_floating import *  # noqa: F401,F403
from laxarray.array_api.elementwise_math import *  # noqa: F401,F403
from laxarray.array_api.elementwise_pairwise import *  # noqa: F401,F403
from laxarray.array_api.info import __array_namespace_info__  # noqa: F401
from laxarray.array_api.linear_algebra import *  # noqa: F401,F403
from laxarray.array_api.manipulation import *  # noqa: F401,F403
from laxarray.array_api.manipulation_join import *  # noqa: F401,F403
from laxarray.array_api.manipulation_rearrange import *  # noqa: F401,F403
from laxarray.array_api.indexing_functions import *  # noqa: F401,F403
from laxarray.array_api.statistical import *  # noqa: F401,F403
from laxarray.array_api.statistical_cumulative import *  # noqa: F401,F403
from laxarray.array_api.statistical_moments import *  # noqa: F401,F403
from laxarray.array_api.sorting import *  # noqa: F401,F403
from laxarray.array_api.searching import *  # noqa: F401,F403
from laxarray.array_api.sets import *  # noqa: F401,F403
# the bodies of the Array's indexing, .at, in-place writes and views' write-back (_method_bodies)
from laxarray.array_api import _indexing, _indexing_at, _operators, _views  # noqa: F401
# the ufunc facts of the elementwise chapters' ufuncs, which name the reductions
from laxarray.array_api import _ufunc_facts  # noqa: F401

from laxarray.array_api import (constants as _c, creation as _cr, creation_filled as _cf,  # noqa: E402
                                creation_ranges as _crr, data_types as _d,
                                elementwise as _e, elementwise_bitwise as _eb,
                                elementwise_compare as _ec, elementwise_floating as _ef,
                                elementwise_math as _em, elementwise_pairwise as _ep,
                                indexing_functions as _i, linear_algebra as _la,
                                manipulation as _ma, manipulation_join as _mj,
                                manipulation_rearrange as _mr, searching as _se, sets as _s,
                                sorting as _so, statistical as _st,
                                statistical_cumulative as _stc, statistical_moments as _stm)

#: The standard's names only (``laxarray`` re-exports them): no helpers, no submodules.
# Hidden from type checkers, which read only literal lists: without it they see every public
# name here, which are exactly the star-imported ones.
if not _typing.TYPE_CHECKING:
    __all__ = ["Array", "__array_namespace_info__",
               *(n for m in (_c, _cr, _cf, _crr, _d, _e, _eb, _ec, _ef, _em, _ep, _i, _la, _ma,
                             _mj, _mr, _se, _s, _so, _st, _stc, _stm)
                 for n in m.__all__)]
