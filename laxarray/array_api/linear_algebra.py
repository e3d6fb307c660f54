"""Linear algebra in the main namespace: matmul (more in the linear-algebra issue)."""

from __future__ import annotations

from jax import lax

from laxarray._core import dtypes as _dt
from laxarray._core.errors import fail
from laxarray._core.kernel import call, kernel
from laxarray.array_api._ufunc import binary_operands, broadcast_shapes2, cast_broadcast


@kernel(static=("dtype", "vec1", "vec2"))
def _matmul_kernel(a, b, *, dtype, vec1, vec2):
    a = lax.convert_element_type(a, dtype)
    b = lax.convert_element_type(b, dtype)
    if vec1:
        a = lax.expand_dims(a, (0,))
    if vec2:
        b = lax.expand_dims(b, (1,))
    batch = lax.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    a = lax.broadcast_in_dim(a, batch + a.shape[-2:],
                             tuple(range(len(batch) - (a.ndim - 2), len(batch) + 2)))
    b = lax.broadcast_in_dim(b, batch + b.shape[-2:],
                             tuple(range(len(batch) - (b.ndim - 2), len(batch) + 2)))
    nb = len(batch)
    bdims = tuple(range(nb))
    out = lax.dot_general(a, b, (((nb + 1,), (nb,)), (bdims, bdims)),
                          precision=lax.Precision.HIGHEST, preferred_element_type=dtype)
    if vec1:
        out = lax.squeeze(out, (out.ndim - 2,))
    if vec2:
        out = lax.squeeze(out, (out.ndim - 1,))
    return out


def matmul(x1, x2, /):
    """Matrix product with NumPy's 1-D and batch rules. Array API: matmul. NumPy: numpy.matmul.

    Under ``jax.jit`` traces to one ``dot_general``.
    """
    from laxarray._core.dtypes import scalar_pytype
    for name, x in (("x1", x1), ("x2", x2)):
        if scalar_pytype(x) is not None:
            fail(TypeError, "matmul", f"an array for '{name}' (not a scalar)", x)
    v1, v2, dt = binary_operands("matmul", x1, x2)
    if dt not in _dt.CATEGORIES["numeric"] and dt != _dt.bool_:
        _dt.check_category("matmul", "x1, x2", dt, "numeric")
    if v1.ndim == 0 or v2.ndim == 0:
        fail(ValueError, "matmul", "arrays of rank >= 1", v1 if v1.ndim == 0 else v2)
    k1 = v1.shape[-1]
    k2 = v2.shape[0] if v2.ndim == 1 else v2.shape[-2]
    if k1 != k2:
        fail(ValueError, "matmul", f"matching contraction dimensions ({k1} != {k2})",
             (tuple(v1.shape), tuple(v2.shape)))
    broadcast_shapes2("matmul", tuple(v1.shape[:-2]), tuple(v2.shape[:-2]))
    return call(_matmul_kernel, v1, v2, dtype=dt, vec1=v1.ndim == 1, vec2=v2.ndim == 1)


__all__ = ["matmul"]


def matrix_transpose(x, /):
    """Transpose the last two axes. Array API: matrix_transpose. NumPy: numpy.matrix_transpose."""
    from laxarray.array_api.manipulation import _raw, permute_dims
    raw = _raw("matrix_transpose", x)
    if raw.ndim < 2:
        fail(ValueError, "matrix_transpose", "an array of rank >= 2", x)
    return permute_dims(raw, tuple(range(raw.ndim - 2)) + (raw.ndim - 1, raw.ndim - 2))


@kernel(static=("dtype", "axes1", "axes2"))
def _tensordot_kernel(a, b, *, dtype, axes1, axes2):
    a = lax.convert_element_type(a, dtype)
    b = lax.convert_element_type(b, dtype)
    return lax.dot_general(a, b, ((axes1, axes2), ((), ())), precision=lax.Precision.HIGHEST,
                           preferred_element_type=dtype)


def tensordot(x1, x2, /, *, axes=2):
    """Sum products over the given axes. Array API: tensordot. NumPy: numpy.tensordot.
    ``axes`` is static under ``jax.jit``."""
    from laxarray._core.validate import normalize_axis
    v1, v2, dt = binary_operands("tensordot", x1, x2)
    if isinstance(axes, int) and not isinstance(axes, bool):
        if axes < 0 or axes > min(v1.ndim, v2.ndim):
            fail(ValueError, "tensordot", "0 <= axes <= the smaller rank", axes)
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
    if dtype.kind == "c":
        a = lax.conj(a)
    return lax.reduce_sum(lax.mul(a, b), (axis,))


def vecdot(x1, x2, /, *, axis=-1):
    """Dot product of vectors along ``axis`` (conjugating ``x1``). Array API: vecdot.
    NumPy: numpy.vecdot."""
    from laxarray._core.validate import normalize_axis
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
