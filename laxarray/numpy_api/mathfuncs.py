"""NumPy surface: einsum/einsum_path, convolve/correlate, products (kron/outer/inner/vdot/dot/
cross/trace/matvec/vecmat), polynomials, windows, extra elementwise functions,
packbits/unpackbits, closeness tests.

The functions live in private topic modules (``_math_*``); this module re-exports them.
"""

from laxarray.numpy_api import (_math_compare, _math_einsum, _math_elementwise, _math_poly,
                                _math_products)
from laxarray.numpy_api._math_compare import *  # noqa: F401,F403
from laxarray.numpy_api._math_einsum import *  # noqa: F401,F403
from laxarray.numpy_api._math_elementwise import *  # noqa: F401,F403
from laxarray.numpy_api._math_poly import *  # noqa: F401,F403
from laxarray.numpy_api._math_products import *  # noqa: F401,F403

__all__: list[str] = [*_math_compare.__all__, *_math_einsum.__all__, *_math_elementwise.__all__,
                      *_math_poly.__all__, *_math_products.__all__]
