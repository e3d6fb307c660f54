"""Padded values: their true extents as device vectors, masking the padding inside a kernel,
and cutting a padded value to its exact shape.  (Bucket shapes and padding on the host are
the kernel helper's policy: ``laxarray._core.kernel``, which re-exports these.)"""

from __future__ import annotations

import functools

import jax
import numpy as np
from jax import lax

from laxarray._core.jaxapi import Tracer, put_like


def unpad_raw(p, shape):
    """The leading ``shape`` part of the device value ``p``: a padded array's exact value,
    or the eager cut of a result whose length depends on the data (``unique``).  Cut on the
    host, so no compilation per length; a traced ``p`` (a padded constant that an outer
    trace staged) or one spread over several devices is sliced by lax instead."""
    if p.shape == shape:
        return p
    if isinstance(p, Tracer) or len(p.sharding.device_set) != 1:
        return lax.slice(p, (0,) * len(shape), shape)
    return put_like(np.array(np.asarray(p)[tuple(slice(0, n) for n in shape)]), p)


@functools.lru_cache(maxsize=8192)
def extents(shape: tuple):
    """``shape`` as an int32 vector: the dynamic true extent of a padded input.  Kept on the
    device (uncommitted, so it follows its kernel's other inputs): a NumPy vector would be
    copied to the device on every call, about 6 us per extent."""
    return jax.device_put(np.array(shape, np.int32))


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
