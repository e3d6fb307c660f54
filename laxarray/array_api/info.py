"""Inspection: ``__array_namespace_info__()`` and its methods. Array API: inspection."""

from __future__ import annotations

from laxarray._core import backend as _backend
from laxarray._core import dtypes as _dt
from laxarray._core.devices import all_devices, check_device, default_device as _default_device


class Info:
    """The namespace inspection object returned by ``__array_namespace_info__()``.

    Array API: the inspection namespace.

    Its methods say what laxarray supports where it runs: ``capabilities()``,
    ``default_device()``, ``default_dtypes(device=)``, ``dtypes(device=, kind=)`` and
    ``devices()``.

    Examples
    --------
    >>> import laxarray as xp
    >>> sorted(xp.__array_namespace_info__().dtypes(kind="bool"))
    ['bool']
    """

    __slots__ = ()

    def capabilities(self):
        """Return the optional features laxarray has.

        Returns
        -------
        dict
            ``{"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 64}``:
            boolean-mask indexing and functions whose output shape depends on the data
            (``nonzero``, ``unique_*``) work eagerly (under ``jax.jit`` the latter need
            ``size=``).

        Examples
        --------
        >>> import laxarray as xp
        >>> xp.__array_namespace_info__().capabilities()
        {'boolean indexing': True, 'data-dependent shapes': True, 'max dimensions': 64}
        """
        return {"boolean indexing": True, "data-dependent shapes": True,
                "max dimensions": 64}

    def default_device(self):
        """Return the device new arrays go to.

        Returns
        -------
        jax.Device
            jax's default device for laxarray's backend.

        Examples
        --------
        >>> import laxarray as xp
        >>> xp.__array_namespace_info__().default_device()
        CpuDevice(id=0)
        """
        return _default_device()

    def default_dtypes(self, *, device=None):
        """Return the default dtypes of a device's backend.

        Parameters
        ----------
        device : jax.Device, str or jax.sharding.Sharding, optional
            The device to answer for; default ``None``: the default device.

        Returns
        -------
        dict
            ``"real floating"``, ``"complex floating"``, ``"integral"`` and ``"indexing"``:
            float64, complex128, int64 and int64 on the CPU, as in NumPy; float32, complex64,
            int64 and int32 on a TPU.

        Raises
        ------
        ValueError
            If ``device`` is none of laxarray's devices.

        Examples
        --------
        >>> import laxarray as xp
        >>> xp.__array_namespace_info__().default_dtypes()
        {'real floating': dtype('float64'), 'complex floating': dtype('complex128'),
         'integral': dtype('int64'), 'indexing': dtype('int64')}
        """
        record = _backend.for_device(check_device("default_dtypes", device))
        return dict(record.defaults)

    def dtypes(self, *, device=None, kind=None):
        """Return the dtypes a device's backend supports, by name.

        Parameters
        ----------
        device : jax.Device, str or jax.sharding.Sharding, optional
            The device to answer for; default ``None``: the default device.
        kind : str, dtype or tuple of them, optional
            Only the dtypes of this kind (as in ``isdtype``); default ``None``: all.

        Returns
        -------
        dict
            ``{name: dtype}``: the standard's 13 dtypes on the CPU; no float64 or complex128 on
            a TPU.  float16 and bfloat16, beyond the standard, are supported too and not listed.

        Raises
        ------
        ValueError
            If ``device`` is none of laxarray's devices, or ``kind`` names no kind.

        Examples
        --------
        >>> import laxarray as xp
        >>> list(xp.__array_namespace_info__().dtypes(kind="real floating"))
        ['float32', 'float64']
        """
        record = _backend.for_device(check_device("dtypes", device))
        out = {}
        for dt in _dt.DTYPES:
            if record.supports(dt) and (kind is None or _dt.isdtype(dt, kind)):
                out[dt.name] = dt
        return out

    def devices(self):
        """Return every device arrays can be placed on.

        Returns
        -------
        tuple of jax.Device
            The devices of laxarray's backend.

        Examples
        --------
        >>> import laxarray as xp
        >>> xp.__array_namespace_info__().devices()
        (CpuDevice(id=0),)
        """
        return all_devices()


def __array_namespace_info__():
    """Return the namespace's inspection object.

    Array API: __array_namespace_info__.

    Returns
    -------
    Info
        An object whose methods ``capabilities``, ``default_device``, ``default_dtypes``,
        ``dtypes`` and ``devices`` describe laxarray on this machine.

    Notes
    -----
    Static under ``jax.jit``: none (it takes no argument and reads no array).

    Examples
    --------
    >>> import laxarray as xp
    >>> info = xp.__array_namespace_info__()
    >>> info.capabilities()["boolean indexing"]
    True
    >>> info.default_dtypes()["real floating"]
    dtype('float64')
    """
    return Info()


__all__ = ["__array_namespace_info__", "Info"]
