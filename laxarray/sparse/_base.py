"""Helpers shared by the operation families: what is sparse, and the format of a result.

This module sits just above the two formats (it imports :mod:`.bcoo` and :mod:`.bcsr`)
and below every module of :mod:`laxarray.sparse.ops`, which import it.
"""

from __future__ import annotations

from laxarray.sparse.bcoo import BCOO
from laxarray.sparse.bcsr import BCSR, bcsr_from_bcoo


def is_sparse(x):
    """Whether ``x`` is a BCOO or BCSR."""
    return hasattr(x, "_as_bcoo")


def _restore(result, *inputs):
    """Return a sparse result in BCSR when every sparse input was BCSR and it fits."""
    if isinstance(result, BCOO) and inputs and all(isinstance(i, BCSR) for i in inputs
                                                    if is_sparse(i)) and result.n_sparse == 2:
        return bcsr_from_bcoo(result)
    return result


__all__ = ["is_sparse"]
