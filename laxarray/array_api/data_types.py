"""Data type functions of the standard: astype, can_cast, finfo, iinfo, isdtype, result_type."""

from __future__ import annotations

import numpy as np
from jax import lax

from laxarray._core import dtypes as _dt
from laxarray._core.devices import check_device
from laxarray._core.dtypes import can_cast, finfo, iinfo, isdtype, result_type
from laxarray._core.errors import fail
from laxarray._core.kernel import call, kernel
from laxarray._core.validate import check_bool
from laxarray.array_api._array import Array, _copy_handle, wrap
from laxarray.array_api._convert import as_array
from laxarray.array_api._ufunc import same_shape_rule


_UINT_OF_WIDTH = {2: np.dtype("uint16"), 4: np.dtype("uint32"), 8: np.dtype("uint64")}


def _nonzero(x):
    """``x != 0`` for a real array, exact for subnormal floats (which XLA on CPU compares
    as zero): a float is non-zero when any bit other than the sign bit is set."""
    if _dt.kind_of(x.dtype) != "f":
        return lax.ne(x, lax.full_like(x, 0))
    utype = _UINT_OF_WIDTH[x.dtype.itemsize]
    bits = lax.bitcast_convert_type(x, utype)
    magnitude = np.array(np.iinfo(utype).max >> 1, utype)
    return lax.ne(lax.bitwise_and(bits, lax.full_like(bits, magnitude)), lax.full_like(bits, 0))


def nonzero_mask(x):
    """``x != 0`` inside a kernel for any dtype, exact for subnormals (see ``_nonzero``)."""
    if x.dtype == np.bool_:
        return x
    if _dt.kind_of(x.dtype) == "c":
        return lax.bitwise_or(_nonzero(lax.real(x)), _nonzero(lax.imag(x)))
    return _nonzero(x)


@kernel(static=("dtype",), shape=same_shape_rule)
def _astype_kernel(x, *, dtype):
    if _dt.kind_of(dtype) == "b":
        return nonzero_mask(x)
    if _dt.kind_of(x.dtype) == "c" and _dt.kind_of(dtype) != "c":
        x = lax.real(x)
    return lax.convert_element_type(x, dtype)


def astype(x, dtype, /, *, copy=True, device=None):
    """Cast to ``dtype``. Array API: astype. NumPy: numpy.ndarray.astype.

    Complex to a real numeric dtype raises ``TypeError``, as the standard asks (NumPy would
    drop the imaginary part): take ``real(x)`` or ``abs(x)`` first.  Complex to bool is
    ``x != 0``.  ``copy=False`` returns ``x`` itself when no cast is needed.  ``dtype`` is
    static under ``jax.jit``.  A copy without a cast shares the
    immutable value under a new handle: writes to either never reach the other.
    """
    raw = as_array("astype", x)
    dt = _dt.canonicalize_dtype("astype", dtype)
    if _dt.kind_of(raw.dtype) == "c" and _dt.kind_of(dt) in "iuf":
        fail(TypeError, "astype", "a complex or bool 'dtype' for a complex array (the "
             "imaginary part would be lost; take real(x) or abs(x) first)", dt)
    check_bool("astype", copy, "copy")
    dev = check_device("astype", device)
    if raw.dtype == dt and dev is None and isinstance(x, Array):
        # values are immutable: a copy is a new handle on the same value (no kernel)
        return _copy_handle(x) if copy else x
    out = call(_astype_kernel, raw, dtype=dt)
    if dev is not None:
        out = out.to_device(dev)
    return out


__all__ = ["astype", "can_cast", "finfo", "iinfo", "isdtype", "result_type"]
_ = wrap
