"""Install the Array operators from one table of (dunder, function) pairs.

Forward operators call the namespace function; reflected ones swap the operands; in-place
ones compute the same result, require it to keep ``self``'s dtype and shape (as NumPy's
same-kind casting does), and rebind the handle.
"""

from __future__ import annotations

import jax
import numpy as np

from laxarray._core import dtypes as _dt
from laxarray._core.errors import fail
from laxarray.array_api import elementwise as _ew
from laxarray.array_api._array import WRITE_LOCK, Array
from laxarray.array_api._ufunc import broadcast_shapes2
from laxarray.array_api.linear_algebra import matmul

#: (operator stem, namespace function); each stem gets __op__, __rop__ and __iop__.
BINARY_OPERATORS = (
    ("add", _ew.add), ("sub", _ew.subtract), ("mul", _ew.multiply),
    ("truediv", _ew.divide), ("floordiv", _ew.floor_divide), ("mod", _ew.remainder),
    ("pow", _ew.pow), ("matmul", matmul),
    ("and", _ew.bitwise_and), ("or", _ew.bitwise_or), ("xor", _ew.bitwise_xor),
    ("lshift", _ew.bitwise_left_shift), ("rshift", _ew.bitwise_right_shift),
)
COMPARISONS = (
    ("eq", _ew.equal), ("ne", _ew.not_equal), ("lt", _ew.less), ("le", _ew.less_equal),
    ("gt", _ew.greater), ("ge", _ew.greater_equal),
)
UNARY_OPERATORS = (
    ("neg", _ew.negative), ("pos", _ew.positive), ("abs", _ew.abs),
    ("invert", _ew.bitwise_invert),
)

_OPERAND_TYPES = (Array, bool, int, float, complex, np.ndarray, np.generic, list, tuple,
                  jax.Array)
_EXACT_TYPES = frozenset((Array, float, int, bool, complex))


def _accepts(other):
    return type(other) in _EXACT_TYPES or isinstance(other, _OPERAND_TYPES)


def _forward(fn):
    def op(self, other, /):
        if type(other) is not Array and not _accepts(other):
            return NotImplemented
        return fn(self, other)
    return op


def _reflected(fn):
    def op(self, other, /):
        if not _accepts(other):
            return NotImplemented
        return fn(other, self)
    return op


def _static_inplace_check(name, stem, self, other):
    """Reject, before computing, an in-place update that would change dtype or shape."""
    pytype = _dt.scalar_pytype(other)
    if pytype is not None:
        dtype, shape = _dt.weak_promote(self.dtype, pytype), self.shape
    else:
        o_dtype, o_shape = getattr(other, "dtype", None), getattr(other, "shape", None)
        if o_dtype not in _dt.CATEGORIES["any"] or o_shape is None:
            return  # lists, unsupported dtypes: the function itself reports them
        dtype = _dt.promote_types(self.dtype, o_dtype)
        shape = self.shape if stem == "matmul" else broadcast_shapes2(
            name, self.shape, tuple(o_shape))
    if stem == "truediv" and _dt.kind_of(dtype) not in "fc":
        dtype = _dt.DEFAULT_FLOAT
    if dtype != self.dtype:
        fail(TypeError, name, f"a result of dtype {self.dtype} (in-place operations keep "
             "the dtype)", dtype)
    if shape != self.shape:
        fail(ValueError, name, f"a result of shape {self.shape} (in-place operations keep "
             "the shape)", shape)


def _inplace(fn, stem):
    name = f"Array.__i{stem}__"

    def op(self, other, /):
        if type(other) is not Array and not _accepts(other):
            return NotImplemented
        with WRITE_LOCK:
            return _update_in_place(self, other)

    def _update_in_place(self, other):
        _static_inplace_check(name, stem, self, other)
        out = fn(self, other)
        if out.dtype != self.dtype:
            fail(TypeError, name, f"a result of dtype {self.dtype} (in-place operations keep "
                 "the dtype)", out.dtype)
        if out.shape != self.shape:
            fail(ValueError, name, f"a result of shape {self.shape} (in-place operations "
                 "keep the shape)", out)
        self._rebind(out)
        return self
    return op


def install() -> None:
    for stem, fn in BINARY_OPERATORS:
        setattr(Array, f"__{stem}__", _forward(fn))
        setattr(Array, f"__r{stem}__", _reflected(fn))
        setattr(Array, f"__i{stem}__", _inplace(fn, stem))
    for stem, fn in COMPARISONS:
        setattr(Array, f"__{stem}__", _forward(fn))
    for stem, fn in UNARY_OPERATORS:  # the function itself: x.__neg__() is negative(x)
        setattr(Array, f"__{stem}__", fn)


install()
