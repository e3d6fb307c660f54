"""Linear algebra in the main namespace: matmul (more in the linear-algebra issue)."""

from __future__ import annotations

from jax import lax

from laxarray._core import dtypes as _dt
from laxarray._core.errors import fail
from laxarray._core.kernel import call, kernel
from laxarray.array_api._ufunc import binary_operands, broadcast_shapes2


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
