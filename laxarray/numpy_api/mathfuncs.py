"""NumPy surface: einsum/einsum_path, convolve/correlate, products (kron/outer/inner/vdot/dot/
cross/trace/matvec/vecmat), polynomials, windows, extra elementwise functions,
packbits/unpackbits, closeness tests.

The functions live in private topic modules (``_math_*``); this module re-exports them.
"""

import typing as _typing

from laxarray.numpy_api import (_math_compare, _math_einsum, _math_elementwise, _math_poly,
                                _math_products)
from laxarray.numpy_api._math_compare import *  # noqa: F401,F403
from laxarray.numpy_api._math_einsum import *  # noqa: F401,F403
from laxarray.numpy_api._math_elementwise import *  # noqa: F401,F403
from laxarray.numpy_api._math_poly import *  # noqa: F401,F403
from laxarray.numpy_api._math_products import *  # noqa: F401,F403

# Hidden from type checkers, which read only literal lists: without it they see every public
# name here, which are exactly the star-imported ones.
if not _typing.TYPE_CHECKING:
    __all__ = [*_math_compare.__all__, *_math_einsum.__all__, *_math_elementwise.__all__,
               *_math_poly.__all__, *_math_products.__all__]
