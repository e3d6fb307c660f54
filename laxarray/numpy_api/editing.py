"""NumPy surface: pad, insert/delete/append/resize, rot90/flips, trim_zeros,
apply_along_axis/apply_over_axes/vectorize/piecewise/select/choose, the in-place
place/put/put_along_axis/putmask/copyto, extract/compress, unique and the 1-d set routines.

The functions live in private modules by topic (``_edit_pad``, ``_edit_insert``,
``_edit_sets``, ``_edit_apply``, ``_edit_put``); this module is the family's public list.
"""

from laxarray.numpy_api._edit_apply import (apply_along_axis, apply_over_axes, choose,
                                            piecewise, select, vectorize)
from laxarray.numpy_api._edit_insert import (append, delete, fliplr, flipud, insert, resize,
                                             rot90, trim_zeros)
from laxarray.numpy_api._edit_pad import pad
from laxarray.numpy_api._edit_put import (compress, copyto, extract, place, put, put_along_axis,
                                          putmask)
from laxarray.numpy_api._edit_sets import intersect1d, setdiff1d, setxor1d, union1d, unique

__all__: list[str] = [
    "pad", "insert", "delete", "append", "resize", "rot90", "fliplr", "flipud", "trim_zeros",
    "unique", "intersect1d", "union1d", "setdiff1d", "setxor1d", "apply_along_axis",
    "apply_over_axes", "vectorize", "piecewise", "select", "choose", "place", "put",
    "put_along_axis", "putmask", "copyto", "extract", "compress",
]
