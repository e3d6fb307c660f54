"""Inspection: ``__array_namespace_info__()`` and its methods. Array API: inspection."""

from __future__ import annotations

from laxarray._core import backend as _backend
from laxarray._core import dtypes as _dt
from laxarray._core.devices import all_devices, check_device, default_device as _default_device


class Info:
    """The namespace inspection object returned by ``__array_namespace_info__()``."""

    __slots__ = ()

    def capabilities(self):
        """Optional features: boolean indexing, data-dependent shapes, max dimensions."""
        return {"boolean indexing": True, "data-dependent shapes": True,
                "max dimensions": 64}

    def default_device(self):
        """The device new arrays go to."""
        return _default_device()

    def default_dtypes(self, *, device=None):
        """Default dtypes of ``device``'s backend: float64, complex128, int64 (integral and
        indexing) on the CPU, as in NumPy; float32, complex64, int32 on a TPU."""
        record = _backend.for_device(check_device("default_dtypes", device))
        return dict(record.defaults)

    def dtypes(self, *, device=None, kind=None):
        """The dtypes ``device``'s backend supports, by name, optionally only those of
        ``kind`` (as in ``isdtype``): the standard's 13 on the CPU, no 64-bit type on a TPU.
        (float16 and bfloat16, beyond the standard, are supported too and not listed.)"""
        record = _backend.for_device(check_device("dtypes", device))
        out = {}
        for dt in _dt.DTYPES:
            if record.supports(dt) and (kind is None or _dt.isdtype(dt, kind)):
                out[dt.name] = dt
        return out

    def devices(self):
        """Every device arrays can be placed on (a tuple)."""
        return all_devices()


def __array_namespace_info__():
    """The inspection namespace. Array API: __array_namespace_info__."""
    return Info()


__all__ = ["__array_namespace_info__", "Info"]
