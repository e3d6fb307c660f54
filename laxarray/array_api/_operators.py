"""Writing a result into an existing array: the in-place operators' rule (the operator
table itself is in ``Array``'s class body), NumPy's ``out=``, and the cast back to the
updated array's dtype that every in-place update shares.

An in-place operator computes the same result as its forward form -- in the promoted dtype
-- and casts it back to ``self``'s dtype as NumPy does: under NumPy's ``same_kind`` rule
(``int32 += int64`` wraps around, ``float32 += float64`` rounds to nearest, ``int32 +=
float64`` raises NumPy's ``UFuncTypeError``, a ``TypeError``).  The dtype and shape of
``self`` never change (the standard's rule); the handle is rebound.  ``out=`` follows
the same cast rule and writes into a laxarray or a NumPy array of the result's shape.
"""

from __future__ import annotations

import numpy as np

from laxarray._core import dtypes as _dt
from laxarray._core.errors import broadcast_error, fail, shape_text
from laxarray._core.runtime.kernel import kernel
from laxarray._core.numerics import cast_value
from laxarray._core.validate import check_output_cast
from laxarray.array_api._array import WRITE_LOCK, Array, check_writable
from laxarray.array_api._broadcast import broadcast_many, operands_text, same_shape_rule
from laxarray.array_api._calls import call
from laxarray.array_api._method_bodies import provide

#: ``__i{stem}__`` -> the standard function that computes it
STEM_FUNCTIONS = {
    "add": "add", "sub": "subtract", "mul": "multiply", "truediv": "divide",
    "floordiv": "floor_divide", "mod": "remainder", "pow": "pow", "matmul": "matmul",
    "and": "bitwise_and", "or": "bitwise_or", "xor": "bitwise_xor",
    "lshift": "bitwise_left_shift", "rshift": "bitwise_right_shift"}

@kernel(static=("dtype",), shape=same_shape_rule)
def _cast_back_kernel(x, *, dtype):
    return cast_value(x, dtype)


def cast_back(result, dtype):
    """The Array ``result`` cast to ``dtype`` as NumPy casts an in-place result back."""
    if result.dtype == dtype:
        return result
    return call(_cast_back_kernel, result, dtype=dtype)


def _static_result(name, stem, self, other):
    """``(dtype, shape)`` of ``self <op> other`` from static facts, or ``None`` when the
    function itself must judge ``other`` (lists, unsupported dtypes)."""
    pytype = _dt.scalar_pytype(other)
    if pytype is not None:
        dtype, shape = _dt.weak_promote(self.dtype, pytype), self.shape
    else:
        o_dtype, o_shape = getattr(other, "dtype", None), getattr(other, "shape", None)
        if o_dtype not in _dt.CATEGORIES["any"] or o_shape is None:
            return None
        dtype = _dt.promote_types(self.dtype, o_dtype)
        shape = tuple(o_shape)
        if stem == "matmul" or shape == self.shape:
            shape = self.shape
        else:  # NumPy names the output's shape too: "... with shapes (3,) (4,) (3,) "
            shape = broadcast_many(name, (self.shape, shape),
                                   lambda s: operands_text(s + (s[0],)))
    if stem == "truediv" and _dt.kind_of(dtype) not in "fc":
        dtype = _dt.default_float()
    return dtype, shape


def _check_result(name, stem, self, dtype, shape):
    if dtype != self.dtype:
        check_output_cast(name, STEM_FUNCTIONS[stem], dtype, self.dtype)
    if shape != self.shape:
        if (stem == "matmul" and len(shape) == len(self.shape) >= 2
                and shape[:-1] == self.shape[:-1]):
            text = ("matmul: Output operand 0 has a mismatch in its core dimension 1, with "
                    "gufunc signature (n?,k),(k,m?)->(n?,m?) (size "
                    f"{self.shape[-1]} is different from {shape[-1]})")
        else:
            text = (f"non-broadcastable output operand with shape {shape_text(self.shape)} "
                    f"doesn't match the broadcast shape {shape_text(shape)}")
        raise broadcast_error(name, f"a result of shape {self.shape} (in-place operations "
                              "keep the shape)", shape, text)


def update_in_place(self, other, fn, stem):
    """``self = fn(self, other)`` cast back to ``self.dtype`` for ``__i{stem}__``, refusing
    (before computing, and again on the result) a cast across kinds or a change of shape;
    the caller holds ``WRITE_LOCK``."""
    name = f"Array.__i{stem}__"
    static = _static_result(name, stem, self, other)
    if static is not None:
        _check_result(name, stem, self, *static)
    out = fn(self, other)
    if out.dtype != self.dtype or out.shape != self.shape:
        _check_result(name, stem, self, out.dtype, out.shape)
        out = cast_back(out, self.dtype)
    self._rebind(out)
    return self


def check_out(fn, out):
    """An ``out=`` argument must be a laxarray Array or a NumPy array (checked first)."""
    if out is not None and not isinstance(out, (Array, np.ndarray)):
        fail(TypeError, fn, "a laxarray or NumPy array for 'out' (jax arrays are immutable)",
             out)


def finish_out(fn, out, result):
    """NumPy's ``out=``: ``result`` written into ``out`` (same shape; a result dtype that
    casts to ``out``'s by ``same_kind``), then ``out`` returned; ``result`` if ``out`` is None."""
    if out is None:
        return result
    check_out(fn, out)
    if tuple(out.shape) != tuple(result.shape):
        fail(ValueError, fn, f"an 'out' of the result's shape {tuple(result.shape)}", out)
    check_output_cast(fn, fn, result.dtype, out.dtype, f"an 'out' whose dtype {out.dtype} "
                      f"the result's dtype {result.dtype} casts to (same_kind)")
    if isinstance(out, np.ndarray):
        out[...] = np.asarray(result)
        return out
    check_writable(fn, out)
    with WRITE_LOCK:
        out._rebind(cast_back(result, out.dtype))
    return out


provide(update_in_place)

__all__ = ["update_in_place", "cast_back", "cast_value", "check_out", "finish_out"]
