"""NumPy surface: einsum/einsum_path, convolve/correlate, products (kron/outer/inner/vdot/dot/
cross/trace/matvec/vecmat), polynomials, windows, extra elementwise functions,
packbits/unpackbits, closeness tests.

The functions live in this package's private topic modules (``_compare``, ``_einsum``,
``_elementwise``, ``_floatparts``, ``_integer``, ``_poly``, ``_polyroots``, ``_products``,
``_windows``); this module re-exports them.
"""

import typing as _typing

from laxarray.numpy_api.mathfuncs import (_compare, _einsum, _elementwise, _floatparts, _integer,
                                          _poly, _polyroots, _products, _windows)
from laxarray.numpy_api.mathfuncs._compare import *  # noqa: F401,F403
from laxarray.numpy_api.mathfuncs._einsum import *  # noqa: F401,F403
from laxarray.numpy_api.mathfuncs._elementwise import *  # noqa: F401,F403
from laxarray.numpy_api.mathfuncs._floatparts import *  # noqa: F401,F403
from laxarray.numpy_api.mathfuncs._integer import *  # noqa: F401,F403
from laxarray.numpy_api.mathfuncs._poly import *  # noqa: F401,F403
from laxarray.numpy_api.mathfuncs._polyroots import *  # noqa: F401,F403
from laxarray.numpy_api.mathfuncs._products import *  # noqa: F401,F403
from laxarray.numpy_api.mathfuncs._windows import *  # noqa: F401,F403

# Hidden from type checkers, which read only literal lists: without it they see every public
# name here, which are exactly the star-imported ones.
if not _typing.TYPE_CHECKING:
    __all__ = [*_compare.__all__, *_einsum.__all__, *_elementwise.__all__, *_floatparts.__all__,
               *_integer.__all__, *_poly.__all__, *_polyroots.__all__, *_products.__all__,
               *_windows.__all__]
