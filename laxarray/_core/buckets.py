"""Buckets: the padded shapes small concrete arrays run in, so that 17x5 and 19x6 share one
executable (the policy: ``laxarray._core.runtime.kernel``'s docstring), the padding filled on the
host, the true extents of a padded value as device vectors, masking the padding inside a
kernel, and cutting a padded value to its exact shape."""

from __future__ import annotations

import functools
import math

import numpy as np
from jax import lax

from laxarray._core.jaxapi import ConcreteArray, Tracer, device_put, put_like
from laxarray._core.jax_regions import staged
from laxarray._core import env_vars as _env_vars

#: Largest padded element count that runs bucketed (``LAXARRAY_BUCKET_LIMIT``; 0 disables).
BUCKET_LIMIT = _env_vars.value("LAXARRAY_BUCKET_LIMIT")


def set_bucket_limit(n: int) -> int:
    """Set :data:`BUCKET_LIMIT` (0 turns bucketing off for arrays made from now on);
    returns the previous limit."""
    global BUCKET_LIMIT
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValueError(f"set_bucket_limit: expected an int >= 0 for 'n'; got {n!r}")
    previous, BUCKET_LIMIT = BUCKET_LIMIT, n
    bucket_shape.cache_clear()
    return previous


#: Debugging aid for tests (read here at each padding, so a test may set it): fill host-side
#: padding with NaN / the dtype's maximum instead of zeros, so a bucket rule that forgets to
#: mask shows up as a wrong value.
POISON = _env_vars.value("LAXARRAY_BUCKET_POISON")


def bucket_dim(n: int) -> int:
    """The bucketed length of an axis of length ``n`` (axes of length 0 or 1 stay)."""
    return n if n <= 1 else 1 << (n - 1).bit_length()


@functools.lru_cache(maxsize=8192)
def bucket_shape(shape: tuple):
    """The padded shape of ``shape``, or ``None`` if arrays of that shape are not bucketed
    (an empty axis, or more than :data:`BUCKET_LIMIT` elements once padded)."""
    out = tuple(bucket_dim(n) for n in shape)
    if 0 in shape or math.prod(out) > BUCKET_LIMIT:
        return None
    return out


def _fill_value(dtype):
    if not POISON:
        return 0
    kind = np.dtype(dtype).kind
    if kind in "fc" or dtype.name == "bfloat16":
        return np.nan
    if kind in "iu":
        return np.iinfo(dtype).max
    return True


def pad_raw(v):
    """The bucket-shaped device copy of the concrete value ``v`` (padding filled on the host),
    or ``None`` if ``v`` is not bucketed (see :func:`bucket_shape`; one device only)."""
    if BUCKET_LIMIT <= 0 or type(v) is not ConcreteArray:
        return None
    bshape = bucket_shape(v.shape)
    if bshape is None:
        return None
    if bshape == v.shape:
        return v
    if len(v.sharding.device_set) != 1:
        return None
    return put_like(_padded_copy(np.asarray(v), bshape), v)


def pad_host(a):
    """The NumPy array ``a`` padded on the host to its bucket shape (as :func:`pad_raw` pads
    a device value), or ``None`` if ``a`` is not bucketed."""
    if BUCKET_LIMIT <= 0:
        return None
    bshape = bucket_shape(a.shape)
    if bshape is None:
        return None
    return a if bshape == a.shape else _padded_copy(a, bshape)


def _padded_copy(host, bshape):
    """The NumPy array ``host`` in the leading corner of a new one of shape ``bshape``."""
    out = np.full(bshape, _fill_value(host.dtype), host.dtype)
    out[tuple(slice(0, n) for n in host.shape)] = host
    return out


def unpad_raw(p, shape):
    """The leading ``shape`` part of the device value ``p``: a padded array's exact value,
    or the eager cut of a result whose length depends on the data (``unique``).  Cut on the
    host, so no compilation per length; a traced ``p`` (a padded constant that an outer
    trace staged) or one spread over several devices is sliced by lax instead."""
    if p.shape == shape:
        return p
    if isinstance(p, Tracer):   # (in a 32-bit caller's program: a region, see jaxapi)
        return staged(lambda q: lax.slice(q, (0,) * len(shape), shape), p)
    if len(p.sharding.device_set) != 1:
        return lax.slice(p, (0,) * len(shape), shape)
    return put_like(np.array(np.asarray(p)[tuple(slice(0, n) for n in shape)]), p)


@functools.lru_cache(maxsize=8192)
def extents(shape: tuple):
    """``shape`` as an int32 vector: the dynamic true extent of a padded input.  Kept on the
    device (uncommitted, so it follows its kernel's other inputs): a NumPy vector would be
    copied to the device on every call, about 6 us per extent."""
    return device_put(np.array(shape, np.int32))


def mask_padding(x, ext, fill):
    """``x`` (padded) with every element outside the true extent ``ext`` set to ``fill``."""
    keep = None
    for axis, n in enumerate(x.shape):
        if n > 1:
            ok = lax.lt(lax.broadcasted_iota(np.int32, x.shape, axis), ext[axis])
            keep = ok if keep is None else lax.bitwise_and(keep, ok)
    if keep is None:
        return x
    return lax.select(keep, x, lax.full_like(x, fill))


def static_shape_rule(*in_shapes, shape, **_):
    """The ``shape`` rule of a kernel whose static ``shape`` is its result's shape: that
    shape where it has a bucket, else ``None`` (the kernel runs exact)."""
    return shape if bucket_shape(shape) is not None else None


def static_shape_bucket(*in_shapes, shape, **_):
    """The ``bucket`` rule of such a kernel: on the buckets it makes the bucket of
    ``shape``."""
    return {"shape": bucket_shape(shape)}
