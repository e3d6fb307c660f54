"""Linear algebra in the main namespace: matmul (more in the linear-algebra issue)."""

from __future__ import annotations

from jax import lax

from laxarray._core import dtypes as _dt
from laxarray._core.errors import AxisError, OperandValueError, fail
from laxarray._core.kernel import kernel
from laxarray._core.validate import normalize_axis
from laxarray._core.numerics import dot_general
from laxarray.array_api._array import Array, wrap
from laxarray.array_api._broadcast import broadcast_shapes2
from laxarray.array_api._calls import call
from laxarray.array_api._convert import as_array
from laxarray.array_api._dispatch import provide
from laxarray.array_api._ufunc import binary_operands, cast_broadcast
from laxarray.array_api.manipulation import permute_dims
from laxarray._core.jaxapi import in_wide_mode, in_wide_region


def _zero_fill(dtype, static):
    return 0


def _matmul_shape(s1, s2):
    """matmul's result shape, with its shape checks (bucketed calls run these first)."""
    if len(s1) == 0 or len(s2) == 0:
        fail(ValueError, "matmul", "arrays of rank >= 1", s1 if len(s1) == 0 else s2)
    k1 = s1[-1]
    k2 = s2[0] if len(s2) == 1 else s2[-2]
    if k1 != k2:
        fail(ValueError, "matmul", f"matching contraction dimensions ({k1} != {k2})",
             (tuple(s1), tuple(s2)))
    if len(s1) == 1:
        return tuple(s2[:-2]) + tuple(s2[-1:]) if len(s2) > 1 else ()
    if len(s2) == 1:
        return tuple(s1[:-1])
    batch = broadcast_shapes2("matmul", tuple(s1[:-2]), tuple(s2[:-2]))
    return batch + (s1[-2], s2[-1])


@kernel(fills=(_zero_fill, _zero_fill), shape=_matmul_shape)
def _matmul_kernel(a, b):
    """Checks (at trace time: shapes and dtypes are static) and one ``dot_general``."""
    dtype = a.dtype if a.dtype == b.dtype else _dt.promote_types(a.dtype, b.dtype)
    if dtype not in _dt.CATEGORIES["numeric"] and dtype != _dt.bool_:
        _dt.check_category("matmul", "x1, x2", dtype, "numeric")
    if a.ndim == 0 or b.ndim == 0:
        fail(ValueError, "matmul", "arrays of rank >= 1", a.shape if a.ndim == 0 else b.shape)
    k1 = a.shape[-1]
    k2 = b.shape[0] if b.ndim == 1 else b.shape[-2]
    if k1 != k2:
        fail(ValueError, "matmul", f"matching contraction dimensions ({k1} != {k2})",
             (tuple(a.shape), tuple(b.shape)))
    batch = broadcast_shapes2("matmul", tuple(a.shape[:-2]), tuple(b.shape[:-2]))
    a = lax.convert_element_type(a, dtype)
    b = lax.convert_element_type(b, dtype)
    prec = dict(preferred_element_type=dtype)
    if a.ndim == 1 or b.ndim == 1:  # a vector operand: contract directly, no batch dims
        ca = (a.ndim - 1,)
        cb = (0,) if b.ndim == 1 else (b.ndim - 2,)
        return dot_general(a, b, ((ca, cb), ((), ())), **prec)
    nb = len(batch)
    if a.shape[:-2] != batch:
        a = lax.broadcast_in_dim(a, batch + a.shape[-2:],
                                 tuple(range(nb - (a.ndim - 2), nb + 2)))
    if b.shape[:-2] != batch:
        b = lax.broadcast_in_dim(b, batch + b.shape[-2:],
                                 tuple(range(nb - (b.ndim - 2), nb + 2)))
    bdims = tuple(range(nb))
    return dot_general(a, b, (((nb + 1,), (nb,)), (bdims, bdims)), **prec)


def matmul(x1, x2, /):
    """Matrix product with NumPy's 1-D and batch rules. Array API: matmul. NumPy: numpy.matmul.

    Under ``jax.jit`` traces to one ``dot_general``.
    """
    if type(x1) is Array and type(x2) is Array:
        if x1._padded() is False or x2._padded() is False:  # not bucketed: checks in the kernel
            return wrap(_matmul_kernel.bind(())(x1._value, x2._value))
        return call(_matmul_kernel, x1, x2)
    for name, x in (("x1", x1), ("x2", x2)):
        if _dt.scalar_pytype(x) is not None:
            fail(OperandValueError, "matmul", f"an array for '{name}' (not a scalar)", x)
    v1, v2, _ = binary_operands("matmul", x1, x2, keep_arrays=True)
    return call(_matmul_kernel, v1, v2)


__all__ = ["matmul"]


@in_wide_mode
def matrix_transpose(x, /):
    """Transpose the last two axes. Array API: matrix_transpose. NumPy: numpy.matrix_transpose."""
    raw = as_array("matrix_transpose", x)
    if raw.ndim < 2:
        fail(ValueError, "matrix_transpose", "an array of rank >= 2", x)
    return permute_dims(raw, tuple(range(raw.ndim - 2)) + (raw.ndim - 1, raw.ndim - 2))


@kernel(static=("dtype", "axes1", "axes2"))
def _tensordot_kernel(a, b, *, dtype, axes1, axes2):
    a = lax.convert_element_type(a, dtype)
    b = lax.convert_element_type(b, dtype)
    return dot_general(a, b, ((axes1, axes2), ((), ())), preferred_element_type=dtype)


@in_wide_region
def tensordot(x1, x2, /, *, axes=2):
    """Sum products over the given axes. Array API: tensordot. NumPy: numpy.tensordot.
    ``axes`` is static under ``jax.jit``."""
    v1, v2, dt = binary_operands("tensordot", x1, x2)
    if isinstance(axes, int) and not isinstance(axes, bool):
        if axes < 0 or axes > min(v1.ndim, v2.ndim):
            fail(AxisError, "tensordot", "0 <= axes <= the smaller rank", axes)
        a1 = tuple(range(v1.ndim - axes, v1.ndim))
        a2 = tuple(range(axes))
    elif isinstance(axes, (tuple, list)) and len(axes) == 2:
        s1 = axes[0] if isinstance(axes[0], (tuple, list)) else (axes[0],)
        s2 = axes[1] if isinstance(axes[1], (tuple, list)) else (axes[1],)
        a1 = tuple(normalize_axis("tensordot", a, v1.ndim, "axes") for a in s1)
        a2 = tuple(normalize_axis("tensordot", a, v2.ndim, "axes") for a in s2)
        if len(a1) != len(a2):
            fail(ValueError, "tensordot", "equally many axes for x1 and x2", axes)
    else:
        fail(TypeError, "tensordot", "an int or a pair of axis sequences for 'axes'", axes)
    for i, j in zip(a1, a2):
        if v1.shape[i] != v2.shape[j]:
            fail(ValueError, "tensordot", "contracted axes of equal size",
                 (tuple(v1.shape), tuple(v2.shape)))
    return call(_tensordot_kernel, v1, v2, dtype=dt, axes1=a1, axes2=a2)


@kernel(static=("dtype", "axis", "shape"))
def _vecdot_kernel(a, b, *, dtype, axis, shape):
    a, b = cast_broadcast(a, dtype, shape), cast_broadcast(b, dtype, shape)
    if _dt.kind_of(dtype) == "c":
        a = lax.conj(a)
    return lax.reduce_sum(lax.mul(a, b), (axis,))


@in_wide_region
def vecdot(x1, x2, /, *, axis=-1):
    """Dot product of vectors along ``axis`` (conjugating ``x1``). Array API: vecdot.
    NumPy: numpy.vecdot."""
    v1, v2, dt = binary_operands("vecdot", x1, x2)
    shape = broadcast_shapes2("vecdot", tuple(v1.shape), tuple(v2.shape))
    if not shape:
        fail(ValueError, "vecdot", "arrays of rank >= 1", x1)
    ax = normalize_axis("vecdot", axis, len(shape))
    # the standard: axis counts from the end and must exist in both inputs
    for v in (v1, v2):
        if ax - len(shape) < -v.ndim or v.shape[v.ndim + ax - len(shape)] != shape[ax]:
            fail(ValueError, "vecdot", "x1 and x2 of equal size along 'axis'",
                 (tuple(v1.shape), tuple(v2.shape)))
    return call(_vecdot_kernel, v1, v2, dtype=dt, axis=ax, shape=shape)


__all__ += ["matrix_transpose", "tensordot", "vecdot"]

provide(matmul)  # the body of ``x @ y``
