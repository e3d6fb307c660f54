"""Data type functions of the standard: astype, can_cast, finfo, iinfo, isdtype, result_type."""

from __future__ import annotations

from jax import lax

from laxarray._core import dtypes as _dt
from laxarray._core.devices import check_device
from laxarray._core.dtypes import can_cast, finfo, iinfo, isdtype, result_type
from laxarray._core.kernel import call, kernel
from laxarray._core.validate import check_bool
from laxarray.array_api._array import Array, wrap
from laxarray.array_api._convert import to_raw


@kernel(static=("dtype",))
def _astype_kernel(x, *, dtype):
    if x.dtype.kind == "c" and dtype.kind != "c":
        x = lax.real(x)
    if dtype.kind == "b" and x.dtype.kind != "b":
        return lax.ne(x, lax.full_like(x, 0))
    return lax.convert_element_type(x, dtype)


def astype(x, dtype, /, *, copy=True, device=None):
    """Cast to ``dtype``. Array API: astype. NumPy: numpy.ndarray.astype.

    Complex to real keeps the real part (as NumPy does). ``copy=False`` returns ``x`` itself
    when no cast is needed. ``dtype`` is static under ``jax.jit``.
    """
    raw = x._value if isinstance(x, Array) else to_raw("astype", x, "x")
    dt = _dt.canonicalize_dtype("astype", dtype)
    check_bool("astype", copy, "copy")
    dev = check_device("astype", device)
    if raw.dtype == dt and not copy and dev is None and isinstance(x, Array):
        return x
    out = call(_astype_kernel, raw, dtype=dt)
    if dev is not None:
        out = out.to_device(dev)
    return out


__all__ = ["astype", "can_cast", "finfo", "iinfo", "isdtype", "result_type"]
_ = wrap
