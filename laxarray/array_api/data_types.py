"""Data type functions of the standard: astype, can_cast, finfo, iinfo, isdtype, result_type."""

from __future__ import annotations

from laxarray._core import dtypes as _dt
from laxarray._core.devices import check_device
from laxarray._core.dtypes import can_cast, finfo, iinfo, isdtype, result_type
from laxarray._core.errors import fail
from laxarray._core.runtime.kernel import kernel
from laxarray._core.numerics import cast_value
from laxarray._core.validate import check_bool
from laxarray.array_api._array import Array, _copy_handle, wrap
from laxarray.array_api._broadcast import same_shape_rule
from laxarray.array_api._calls import call
from laxarray.array_api._convert import as_array


@kernel(static=("dtype",), shape=same_shape_rule)
def _astype_kernel(x, *, dtype):
    return cast_value(x, dtype)


def astype(x, dtype, /, *, copy=True, device=None):
    """Copy an array to a given dtype.

    Array API: astype. NumPy: numpy.ndarray.astype.

    Parameters
    ----------
    x : array_like
        The array to cast.
    dtype : dtype
        The dtype to cast to.
    copy : bool, optional
        ``True``: always a new array; ``False``: ``x`` itself when no cast is needed (same
        dtype and device); default ``True``.
    device : jax.Device, str or jax.sharding.Sharding, optional
        Where to place the result; default ``None``: the device of ``x``.

    Returns
    -------
    Array
        The values of ``x`` as ``dtype``.

    Raises
    ------
    TypeError
        If ``x`` is not array_like, ``dtype`` is not a supported dtype (``float64`` on a
        TPU), ``copy`` is not a bool, or ``x`` is complex and ``dtype`` a real numeric one.
    ValueError
        If ``device`` is none of laxarray's devices.

    Notes
    -----
    Static under ``jax.jit``: ``dtype``, ``copy`` and ``device``.

    Complex to a real numeric dtype raises ``TypeError``, as the standard asks (NumPy would
    drop the imaginary part): take ``real(x)`` or ``abs(x)`` first.  Complex to bool is
    ``x != 0``.  Floats to integers truncate toward zero (NaN and out-of-range values give
    what XLA's conversion gives).  A copy without a cast shares the immutable value under a
    new handle: writes to either never reach the other.  Unlike NumPy, no ``casting`` or
    ``order``.

    Examples
    --------
    >>> import laxarray as xp
    >>> xp.astype(xp.asarray([1.7, -1.7]), xp.int32)
    Array([ 1, -1], dtype=int32)
    >>> xp.astype(xp.asarray([1j, 0]), xp.bool)
    Array([ True, False])
    >>> x = xp.asarray([1.0])
    >>> xp.astype(x, xp.float64, copy=False) is x
    True
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
