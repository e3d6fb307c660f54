"""The NumPy surface beyond the Array API standard (what ``jax.numpy`` offers), on lax.

Each family module lists its public names in ``__all__``; ``laxarray`` re-exports them.
"""

import typing as _typing

from laxarray.numpy_api.aliases import *  # noqa: F401,F403
from laxarray.numpy_api.editing import *  # noqa: F401,F403
from laxarray.numpy_api.mathfuncs import *  # noqa: F401,F403
from laxarray.numpy_api.shaping import *  # noqa: F401,F403
from laxarray.numpy_api.statistics import *  # noqa: F401,F403
from laxarray.numpy_api.ufuncs import *  # noqa: F401,F403
from laxarray.numpy_api import methods as _methods  # noqa: F401  (fills Array.NUMPY_METHODS)
from laxarray.numpy_api import array_ufunc as _array_ufunc  # noqa: F401  (the same)
from laxarray.numpy_api import (aliases as _a, editing as _e, mathfuncs as _m, shaping as _sh,
                                statistics as _st, ufuncs as _u)

# Hidden from type checkers, which read only literal lists: without it they see every public
# name here, which are exactly the star-imported ones.
if not _typing.TYPE_CHECKING:
    __all__ = [*_a.__all__, *_e.__all__, *_m.__all__, *_sh.__all__, *_st.__all__, *_u.__all__]
