"""NumPy's ndarray methods on ``laxarray.Array`` (``x.sum()``, ``x.astype(...)``, ``x.tolist()``).

Each method is the namespace function with NumPy's method signature; ``out=`` is refused
(arrays are immutable), and ``x.sort()`` sorts in place by rebinding the handle, as
``x[...] = v`` does.  Under ``jax.jit`` they behave as the functions they call.
"""

from __future__ import annotations

import numpy as np

import laxarray.array_api as _api
from laxarray._core.errors import fail_text
from laxarray.array_api import _views
from laxarray.array_api._array import wrap
from laxarray.array_api._method_bodies import NUMPY_METHODS
from laxarray.array_api._operators import check_out, finish_out
from laxarray.numpy_api.mathfuncs._floatparts import around
from laxarray.numpy_api.mathfuncs._products import dot as _dot
from laxarray.numpy_api.statistics._cumulative import cumsum as _cumsum
from laxarray.numpy_api.aliases import ravel as _ravel
from laxarray.numpy_api.aliases import swapaxes as _swapaxes
from laxarray.numpy_api.aliases import transpose as _transpose


def _out(name, out, compute):
    """NumPy's ``out=``: ``compute()`` written into ``out`` (checked first), or returned."""
    check_out(f"Array.{name}", out)
    return finish_out(f"Array.{name}", out, compute())


def _shape_args(shape):
    return tuple(shape[0]) if len(shape) == 1 and isinstance(shape[0], (tuple, list)) else shape


def _reduction(name, fn_name):
    def method(self, axis=None, dtype=None, out=None, keepdims=False):
        x, kwargs = self, {}
        if dtype is not None and fn_name == "mean":  # the standard's mean has no dtype=
            x = _api.astype(self, dtype)
        elif dtype is not None:
            kwargs["dtype"] = dtype
        return _out(name, out, lambda: getattr(_api, fn_name)(x, axis=axis, keepdims=keepdims,
                                                              **kwargs))
    method.__name__ = name
    method.__doc__ = f"NumPy's ``ndarray.{name}``: ``laxarray.{fn_name}`` of this array."
    return method


def _extreme(name):
    def method(self, axis=None, out=None, keepdims=False):
        return _out(name, out, lambda: getattr(_api, name)(self, axis=axis, keepdims=keepdims))
    method.__name__ = name
    method.__doc__ = f"NumPy's ``ndarray.{name}``: ``laxarray.{name}`` of this array."
    return method


def _moment(name):
    def method(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
        x = self if dtype is None else _api.astype(self, dtype)
        return _out(name, out, lambda: getattr(_api, name)(x, axis=axis, correction=ddof,
                                                           keepdims=keepdims))
    method.__name__ = name
    method.__doc__ = f"NumPy's ``ndarray.{name}`` (``ddof`` is the standard's ``correction``)."
    return method


def _arg(name):
    def method(self, axis=None, out=None, *, keepdims=False):
        return _out(name, out, lambda: getattr(_api, name)(self, axis=axis, keepdims=keepdims))
    method.__name__ = name
    method.__doc__ = f"NumPy's ``ndarray.{name}``."
    return method


def tolist(self):
    """The values as nested Python lists (NumPy's ``ndarray.tolist``; eager only)."""
    return np.asarray(self).tolist()


def item(self, *args):
    """One element as a Python scalar (NumPy's ``ndarray.item``; eager only)."""
    return np.asarray(self).item(*args)


def astype(self, dtype, order="K", casting="unsafe", subok=True, copy=True):
    """This array cast to ``dtype`` (NumPy's ``ndarray.astype``; ``order``/``casting`` are
    accepted for compatibility, the cast is NumPy's unsafe one)."""
    return _api.astype(self, dtype)


def reshape(self, *shape, order="C"):
    """NumPy's ``ndarray.reshape`` (shape as a tuple or as separate ints; order 'C')."""
    if order != "C":
        fail_text(ValueError, "Array.reshape", "only order='C' is supported")
    return _api.reshape(self, _shape_args(shape))


def flatten(self, order="C"):
    """A flattened copy (NumPy's ``ndarray.flatten``)."""
    out = _ravel(self, order=order)
    return wrap(out._value) if out.base is not None else out


def ravel(self, order="C"):
    """The flattened array (NumPy's ``ndarray.ravel``: a view where the data need not move)."""
    return _ravel(self, order=order)


def squeeze(self, axis=None):
    """Remove size-1 axes (all of them when ``axis`` is None), NumPy's ``ndarray.squeeze``."""
    if axis is None:
        axis = tuple(i for i, n in enumerate(self.shape) if n == 1)
    return _api.squeeze(self, axis=axis)


def transpose(self, *axes):
    """NumPy's ``ndarray.transpose`` (axes as a tuple, separate ints, or none: reversed)."""
    axes = _shape_args(axes)
    return _transpose(self, axes if axes else None)


def swapaxes(self, axis1, axis2):
    """NumPy's ``ndarray.swapaxes``."""
    return _swapaxes(self, axis1, axis2)


def conj(self):
    """Complex conjugate (NumPy's ``ndarray.conj``)."""
    return _api.conj(self)


def copy(self, order="C"):
    """An independent copy (NumPy's ``ndarray.copy``; never a view)."""
    return wrap(self._value)


def view(self, dtype=None, type=None):
    """A view of the same data, read as ``dtype`` if given (NumPy's ``ndarray.view``: the
    bytes reinterpreted; writes through the view change this array)."""
    if type is not None:
        fail_text(TypeError, "Array.view", "type= (ndarray subclasses) has no laxarray form")
    if dtype is None:
        return _views.make_view(self, ("reshape", tuple(self.shape)), None,
                                wrap(self._value), _views.layout_of(self))
    return _views.dtype_view(self, dtype)


def _part(name):
    def part(self):
        return _views.part_view(self, name)
    part.__name__ = name
    return part


def round(self, decimals=0, out=None):
    """NumPy's ``ndarray.round`` (half to even)."""
    return _out("round", out, lambda: _api.round(self) if decimals == 0 else
                around(self, decimals))


def clip(self, min=None, max=None, out=None):
    """NumPy's ``ndarray.clip``."""
    return _out("clip", out, lambda: _api.clip(self, min, max))


def cumsum(self, axis=None, dtype=None, out=None):
    """NumPy's ``ndarray.cumsum`` (flattened when ``axis`` is None)."""
    return _out("cumsum", out, lambda: _cumsum(self, axis=axis, dtype=dtype))


def sort(self, axis=-1, kind=None, order=None, *, stable=None):
    """Sort in place along ``axis`` as NumPy does: the handle is rebound to the sorted value
    (other references to this ``Array`` see it); returns None."""
    self._rebind(_api.sort(self, axis=axis, stable=True))


def argsort(self, axis=-1, kind=None, order=None, *, stable=None):
    """NumPy's ``ndarray.argsort`` (stable)."""
    return _api.argsort(self, axis=axis, stable=True)


def dot(self, b, out=None):
    """NumPy's ``ndarray.dot``."""
    return _out("dot", out, lambda: _dot(self, b))


def nonzero(self):
    """NumPy's ``ndarray.nonzero`` (eager, or under jit through ``laxarray.nonzero(size=)``)."""
    return _api.nonzero(self)


METHODS = {
    "tolist": tolist, "item": item, "astype": astype, "reshape": reshape, "flatten": flatten,
    "ravel": ravel, "squeeze": squeeze, "transpose": transpose, "swapaxes": swapaxes,
    "conj": conj, "conjugate": conj, "copy": copy, "round": round, "clip": clip,
    "cumsum": cumsum, "sort": sort, "argsort": argsort, "dot": dot, "nonzero": nonzero,
    "view": view,
    "sum": _reduction("sum", "sum"), "prod": _reduction("prod", "prod"),
    "mean": _reduction("mean", "mean"), "max": _extreme("max"), "min": _extreme("min"),
    "all": _extreme("all"), "any": _extreme("any"), "std": _moment("std"),
    "var": _moment("var"), "argmax": _arg("argmax"), "argmin": _arg("argmin"),
}
#: NumPy's ``real``/``imag``: a view of a complex array's part (writes go through).
PROPERTIES = {"real": _part("real"), "imag": _part("imag")}


# Array declares these names in its class body and looks them up here (imports flow one way).
NUMPY_METHODS.update(METHODS)
NUMPY_METHODS.update(PROPERTIES)
__all__: list[str] = []
