"""NumPy surface: splitting and stacking (split/hstack/block/atleast_*d), index helpers
(r_/c_/s_/mgrid/ogrid/ix_/indices, ravel_multi_index/unravel_index, argwhere/flatnonzero),
diagonal and triangle helpers (diag/diagonal/tri/*_indices/fill_diagonal) and extra
creation functions (array/copy/identity/logspace/geomspace/fromfunction).

The implementations live in this package's private modules, one topic each (``_create``,
``_diag``, ``_grid``, ``_ravel``, ``_split``); this module is the family's public list.
"""

from laxarray.numpy_api.shaping._create import (array, copy, fromfunction, geomspace,
                                                identity, logspace)
from laxarray.numpy_api.shaping._diag import (diag, diag_indices, diag_indices_from, diagflat,
                                              diagonal, fill_diagonal, mask_indices, tri,
                                              tril_indices, tril_indices_from, triu_indices,
                                              triu_indices_from)
from laxarray.numpy_api.shaping._grid import (c_, index_exp, indices, ix_, mgrid, ogrid, r_,
                                              s_)
from laxarray.numpy_api.shaping._ravel import (argwhere, flatnonzero, ravel_multi_index,
                                               unravel_index)
from laxarray.numpy_api.shaping._split import (array_split, atleast_1d, atleast_2d, atleast_3d,
                                               block, column_stack, dsplit, dstack, hsplit,
                                               hstack, split, vsplit, vstack)

__all__ = [
    "split", "array_split", "hsplit", "vsplit", "dsplit",
    "hstack", "vstack", "dstack", "column_stack", "block",
    "atleast_1d", "atleast_2d", "atleast_3d",
    "r_", "c_", "s_", "index_exp", "mgrid", "ogrid", "ix_", "indices",
    "diag", "diagflat", "diagonal", "diag_indices", "diag_indices_from", "tri",
    "tril_indices", "triu_indices", "tril_indices_from", "triu_indices_from", "mask_indices",
    "fill_diagonal",
    "ravel_multi_index", "unravel_index", "argwhere", "flatnonzero",
    "array", "copy", "identity", "geomspace", "logspace", "fromfunction",
]
