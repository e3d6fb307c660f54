"""Inspection: ``__array_namespace_info__()`` and its methods. Array API: inspection."""

from __future__ import annotations

from laxarray._core import dtypes as _dt
from laxarray._core.devices import all_devices, check_device, default_device as _default_device
from laxarray._core.errors import fail


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
        """Default dtypes: float64, complex128, int64 (integral and indexing)."""
        check_device("default_dtypes", device)
        return {"real floating": _dt.DEFAULT_FLOAT, "complex floating": _dt.DEFAULT_COMPLEX,
                "integral": _dt.DEFAULT_INT, "indexing": _dt.DEFAULT_INDEX}

    def dtypes(self, *, device=None, kind=None):
        """Supported dtypes by name, optionally only those of ``kind`` (as in ``isdtype``)."""
        check_device("dtypes", device)
        out = {}
        for dt in _dt.DTYPES:
            if kind is None or _dt.isdtype(dt, kind):
                out[dt.name] = dt
        return out

    def devices(self):
        """Every device arrays can be placed on (a tuple)."""
        return all_devices()


def __array_namespace_info__():
    """The inspection namespace. Array API: __array_namespace_info__."""
    return Info()


__all__ = ["__array_namespace_info__", "Info"]
_ = fail
