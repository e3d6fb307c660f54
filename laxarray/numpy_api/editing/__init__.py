"""NumPy surface: pad, insert/delete/append/resize, rot90/flips, trim_zeros,
apply_along_axis/apply_over_axes/vectorize/piecewise/select/choose, the in-place
place/put/put_along_axis/putmask/copyto, extract/compress, unique and the 1-d set routines.

The functions live in this package's private modules by topic (``_pad``, ``_insert``,
``_sets``, ``_apply``, ``_put``); this module is the family's public list.
"""

from laxarray.numpy_api.editing._apply import (apply_along_axis, apply_over_axes, choose,
                                               piecewise, select, vectorize)
from laxarray.numpy_api.editing._insert import (append, delete, fliplr, flipud, insert, resize,
                                                rot90, trim_zeros)
from laxarray.numpy_api.editing._pad import pad
from laxarray.numpy_api.editing._put import (compress, copyto, extract, place, put, put_along_axis,
                                             putmask)
from laxarray.numpy_api.editing._sets import intersect1d, setdiff1d, setxor1d, union1d, unique

__all__: list[str] = [
    "pad", "insert", "delete", "append", "resize", "rot90", "fliplr", "flipud", "trim_zeros",
    "unique", "intersect1d", "union1d", "setdiff1d", "setxor1d", "apply_along_axis",
    "apply_over_axes", "vectorize", "piecewise", "select", "choose", "place", "put",
    "put_along_axis", "putmask", "copyto", "extract", "compress",
]
