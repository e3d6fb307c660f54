"""NumPy's ``__array_ufunc__`` protocol on ``laxarray.Array``: a NumPy ufunc called on a
laxarray array runs laxarray's function of the same name.

``np.isfinite(x)``, ``np.add(ndarray, x)`` and ``ndarray + x`` therefore give laxarray arrays
(NumPy operands are converted with ``asarray``), and ``np.add.reduce(x)`` runs
``laxarray.add.reduce``: code written for NumPy, such as matplotlib's range checks, runs on
laxarray arrays, as it does on CuPy's.  ``out=`` is passed on (a NumPy array there is
written, as laxarray's ``out=`` does).  A ufunc or method laxarray lacks (``isnat``,
``reduceat``) returns ``NotImplemented``, which NumPy reports as its ``TypeError``.  Under
``jax.jit`` NumPy cannot call a ufunc on a traced array; ``laxarray``'s functions can.
"""

from __future__ import annotations

import numpy as np

import laxarray.array_api as _api
from laxarray.array_api._method_bodies import NUMPY_METHODS
from laxarray.numpy_api import aliases, editing, mathfuncs, shaping, statistics

#: NumPy ufunc name -> laxarray's function (the NumPy surface's where it has one)
_BY_NAME = {}
for _module in (_api, aliases, editing, mathfuncs, shaping, statistics):  # NumPy's win
    for _name in _module.__all__:
        if isinstance(getattr(np, _name, None), np.ufunc):
            _BY_NAME[getattr(np, _name).__name__] = getattr(_module, _name)


def array_ufunc(self, ufunc, method, /, *inputs, **kwargs):
    """NumPy's ufunc ``ufunc`` (its ``method``) on laxarray arrays: laxarray's function of
    the same name, or ``NotImplemented`` where laxarray has none."""
    fn = _BY_NAME.get(ufunc.__name__)
    if fn is not None and method != "__call__":
        fn = getattr(fn, method, None)
    if fn is None:
        return NotImplemented
    out = kwargs.get("out")
    if isinstance(out, tuple):
        if len(out) != 1:
            return NotImplemented
        kwargs["out"] = out[0]
    inputs = tuple(_api.asarray(v) if isinstance(v, np.ndarray) else v for v in inputs)
    return fn(*inputs, **kwargs)


NUMPY_METHODS["__array_ufunc__"] = array_ufunc
__all__: list[str] = []
