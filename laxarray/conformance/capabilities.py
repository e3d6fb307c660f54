"""What a namespace can do, read once per run: optional features, devices, flags.

:func:`probe` reads, for any namespace, the inspection API's ``capabilities()``
(``"boolean indexing"``, ``"data-dependent shapes"``) and the devices an array can be made
on (``devices()``); for array_api_strict it also reads the flags that
``set_array_api_strict_flags`` / ``ArrayAPIStrictFlags`` set (``api_version``,
``boolean_indexing``, ``data_dependent_shapes``, ``enabled_extensions``).  The runner skips,
with the reason, the specs that a missing feature makes inapplicable
(:attr:`~laxarray.conformance.spec.Spec.needs`), the names added after the namespace's
``api_version`` and the extensions it disabled.

A run may target one device (``--device NAME``): the specs then see the namespace through
:class:`OnDevice`, whose creation functions put arrays on that device and whose
``__array_namespace_info__()`` reports it as the default device (with its default dtypes).
Whatever the device -- the targeted one, else the namespace's default device -- the specs
draw no dtype it lacks (``dtypes(device=...)``: array_api_strict's ``no_float64`` and
``no_x64`` devices, a TPU's missing 64-bit types) and expect its default dtypes
(:mod:`laxarray.conformance.device_dtypes`: the probe's ``profile``); a spec none of whose
dtypes the device has is skipped (:data:`NO_DTYPE`).

>>> import array_api_strict as xp
>>> caps = probe(xp)
>>> caps.missing, len(caps.devices) > 1
({}, True)
>>> with xp.ArrayAPIStrictFlags(boolean_indexing=False):
...     probe(xp).missing
{'boolean_indexing': 'boolean indexing disabled (array_api_strict flag boolean_indexing=False)'}
"""

from __future__ import annotations

import functools
import re
import types
from dataclasses import dataclass, field

from hypothesis import reject

from . import device_dtypes
from .compare import dtype_name

#: the optional features of the standard's ``capabilities()``: need -> (key, flag).
FEATURES = {"boolean_indexing": "boolean indexing",
            "data_dependent_shapes": "data-dependent shapes"}
#: the reason device specs are skipped on a namespace with a single device.
ONE_DEVICE = "namespace has one device"
#: extensions array_api_strict can disable (``enabled_extensions``).
STRICT_EXTENSIONS = ("linalg", "fft")
#: the reason a spec is skipped when the run's device has none of its dtypes (the standard
#: lets a device support a subset of them).
NO_DTYPE = "no dtype of its group on this device"
#: creation functions that take ``device=``: :class:`OnDevice` passes the run's device.
CREATION = ("arange", "asarray", "empty", "eye", "full", "linspace", "ones", "zeros",
            "fft.fftfreq", "fft.rfftfreq")


@dataclass(frozen=True)
class Capabilities:
    """What :func:`probe` found: ``missing`` maps each need of
    :data:`~laxarray.conformance.spec.NEEDS` the namespace lacks to the reason;
    ``api_version``/``extensions`` are array_api_strict's flags (None: not restricted);
    ``devices`` are the usable devices; ``device`` the run's target device (None: the
    namespace's default); ``profile`` the dtypes of the device the specs run on (that one,
    else the default device: :class:`~laxarray.conformance.device_dtypes.Profile`) and
    ``excluded_dtypes`` the dtype names it lacks."""

    missing: dict = field(default_factory=dict)
    api_version: str | None = None
    extensions: tuple | None = None
    devices: tuple = ()
    device: object = None
    excluded_dtypes: tuple = ()
    profile: device_dtypes.Profile = device_dtypes.FULL

    def where(self):
        """The device the specs run on, as the report names it."""
        if self.device is not None:
            return f"device {self.device!r}"
        named = self.profile.device
        return "the default device" + ("" if named is None else f" {named!r}")

    def no_dtype(self, why):
        """The message of a spec skipped for want of a dtype (:data:`NO_DTYPE`)."""
        return f"{NO_DTYPE} ({self.where()} {why})"

    def skip_reason(self, spec, added_in=None):
        """Why ``spec`` does not apply to the namespace, or ``""``: ``added_in`` is the
        version that added its name (None: in every version)."""
        return self.version_reason(spec, added_in) or self.needs_reason(spec)

    def version_reason(self, spec, added_in=None):
        """Why ``spec`` is not in the namespace's version of the standard (array_api_strict's
        ``api_version`` and ``enabled_extensions`` flags), or ``""``."""
        if added_in and self.api_version and added_in > self.api_version:
            return (f"added in {added_in}; the namespace's api_version is "
                    f"{self.api_version} (array_api_strict flag)")
        ext = spec.extension or (spec.kind if spec.kind in STRICT_EXTENSIONS else None)
        if ext in STRICT_EXTENSIONS and self.extensions is not None \
                and ext not in self.extensions:
            return (f"extension {ext!r} disabled (array_api_strict flag "
                    f"enabled_extensions={self.extensions!r})")
        return ""

    def needs_reason(self, spec):
        """Why ``spec`` cannot run on the namespace (it lacks a feature of
        :attr:`Spec.needs`, or the run's device lacks all the spec's dtypes), or ``""``."""
        for need in spec.needs:
            if need in self.missing:
                return self.missing[need]
        if spec.dtypes and self.excluded_dtypes \
                and set(spec.dtypes) <= set(self.excluded_dtypes):
            return self.no_dtype(f"lacks {', '.join(spec.dtypes)}")
        return ""

    def dtype_note(self, spec):
        """The note on a spec run on a device that lacks some of its dtypes, or ``""``."""
        lacking = [d for d in spec.dtypes if d in self.excluded_dtypes]
        if not lacking:
            return ""
        return f"{', '.join(lacking)} not drawn: missing on {self.where()}"

    def notes(self):
        """Lines describing the probe for the run's report."""
        lines = [f"{why}: the specs that need it are skipped"
                 for n, why in self.missing.items() if n in FEATURES]
        if self.extensions is not None and set(self.extensions) < set(STRICT_EXTENSIONS):
            lines.append(f"enabled extensions {self.extensions!r} (array_api_strict flag)")
        if self.device is not None:
            lines.append(f"device {self.device!r}: inputs created there"
                         + (f"; {', '.join(self.excluded_dtypes)} not drawn (missing there)"
                            if self.excluded_dtypes else ""))
        elif self.excluded_dtypes:
            lines.append(f"{self.where()}: {', '.join(self.excluded_dtypes)} not drawn "
                         "(missing there)")
        if self.excluded_dtypes:
            defaults = self.profile.defaults
            lines.append("default dtypes expected: " + ", ".join(
                f"{kind} {defaults[kind]}" for kind in device_dtypes.KINDS))
        return lines

    def target(self, xp):
        """``xp`` as the specs see it: :class:`OnDevice` when the run targets a device, or
        when the default device lacks some dtype (then only to reject the calls that ask
        for one: see :class:`OnDevice`); ``xp`` itself otherwise."""
        if self.device is None and not self.excluded_dtypes:
            return xp
        return OnDevice(xp, self.device, self.excluded_dtypes)


def _info(xp):
    try:
        return xp.__array_namespace_info__()
    except Exception:  # noqa: BLE001 -- a namespace without the inspection API
        return None


def strict_flags(xp):
    """array_api_strict's flags (``get_array_api_strict_flags()``), or None for a
    namespace that has none."""
    get = getattr(xp, "get_array_api_strict_flags", None)
    try:
        return dict(get()) if callable(get) else None
    except Exception:  # noqa: BLE001 -- not array_api_strict's after all
        return None


def usable_devices(xp):
    """The devices of ``__array_namespace_info__().devices()`` an array can be made on
    (``asarray(0, device=d)`` works), in the namespace's order; ``()`` without them.
    ``None`` in the list (jax.numpy lists it: ``device=None`` means the default device)
    is not a device of its own and is left out."""
    info = _info(xp)
    try:
        devices = tuple(info.devices())
    except Exception:  # noqa: BLE001 -- no inspection API, or no devices()
        return ()
    usable = []
    for d in devices:
        if d is None:
            continue
        try:
            xp.asarray(0, device=d)
        except Exception:  # noqa: BLE001 -- a listed device that holds no array
            continue
        usable.append(d)
    return tuple(usable)


def _device_names(device):
    """The names ``--device`` accepts for ``device``: its str and repr, the quoted name
    in them (array_api_strict's ``Device('no_float64')``), its ``platform:id``."""
    names = {str(device), repr(device)}
    names.update(re.findall(r"'([^']*)'", repr(device)))
    if hasattr(device, "platform") and hasattr(device, "id"):
        names.add(f"{device.platform}:{device.id}")
    return names


def find_device(xp, name):
    """The device of ``xp`` called ``name`` (its str, repr, quoted name, or its index in
    ``devices()``); ValueError naming the choices if there is none."""
    info = _info(xp)
    try:
        devices = tuple(info.devices())
    except Exception:  # noqa: BLE001 -- no inspection API
        devices = ()
    for d in devices:
        if name in _device_names(d):
            return d
    if name.isdigit() and int(name) < len(devices):
        return devices[int(name)]
    choices = ", ".join(sorted({n for d in devices for n in _device_names(d)
                                if "(" not in n})) or "none"
    raise ValueError(f"find_device: expected a device of the namespace ({choices}, or an "
                     f"index); got {name!r}")


def probe(xp, device=None):
    """The :class:`Capabilities` of namespace ``xp``; ``device`` (a device of ``xp`` or a
    name for :func:`find_device`): the run's target device."""
    missing = {}
    info = _info(xp)
    try:
        declared = dict(info.capabilities())
    except Exception:  # noqa: BLE001 -- no capabilities(): nothing declared missing
        declared = {}
    flags = strict_flags(xp)
    for need, key in FEATURES.items():
        if flags is not None and flags.get(need) is False:
            missing[need] = f"{key} disabled (array_api_strict flag {need}=False)"
        elif declared.get(key) is False:
            missing[need] = f"{key} disabled (capabilities()[{key!r}] is False)"
    devices = usable_devices(xp)
    if len(devices) < 2:
        missing["multiple_devices"] = ONE_DEVICE if devices else \
            "namespace lists no usable devices (__array_namespace_info__().devices())"
    if isinstance(device, str):
        device = find_device(xp, device)
    # the dtypes of the device the specs run on: the targeted one, else the default device
    # (no per-device dtypes: all of them, 64-bit defaults)
    profile = device_dtypes.probe(xp, device)
    api_version = extensions = None
    if flags is not None:
        api_version = flags.get("api_version")
        if flags.get("enabled_extensions") is not None:
            extensions = tuple(flags["enabled_extensions"])
    return Capabilities(missing, api_version, extensions, devices, device, profile.missing(),
                        profile)


class _InfoOnDevice:
    """An inspection object whose default device is ``device``, with that device's
    dtypes and default dtypes unless another device is asked for."""

    def __init__(self, info, device):
        self._info, self._device = info, device

    def __getattr__(self, name):
        return getattr(self._info, name)

    def default_device(self):
        """The run's device."""
        return self._device

    def default_dtypes(self, *, device=None):
        """The namespace's default dtypes on ``device`` (default: the run's device)."""
        return self._info.default_dtypes(device=self._device if device is None else device)

    def dtypes(self, *, device=None, kind=None):
        """The namespace's dtypes of ``kind`` on ``device`` (default: the run's device)."""
        return self._info.dtypes(device=self._device if device is None else device,
                                 kind=kind)


class OnDevice:
    """Namespace ``xp`` with ``device`` as its default device: the creation functions
    (:data:`CREATION`) put arrays there unless given ``device=`` (``asarray`` of an array
    keeps the array's device, as the standard says); a call asking for a
    dtype in ``excluded`` (``dtype=``, ``astype``'s target, ``asarray`` of an array of
    that dtype) is rejected as an example (hypothesis' ``reject``), not run; everything
    else is ``xp``'s own.  ``device=None`` keeps the namespace's default device (and its
    inspection object): only the rejection applies -- a default device that lacks some
    dtype, whose missing dtypes a spec may still ask for by name."""

    def __init__(self, xp, device, excluded=()):
        self._xp, self._device, self._excluded = xp, device, frozenset(excluded)
        self._wrapped = {}

    def __repr__(self):
        return f"OnDevice({getattr(self._xp, '__name__', self._xp)!r}, {self._device!r})"

    def __getattr__(self, name):
        attr = getattr(self._xp, name)
        if name == "__array_namespace_info__" and self._device is not None:
            return lambda: _InfoOnDevice(attr(), self._device)
        if name == "fft" and self._device is not None:
            return self._fft(attr)
        if not callable(attr) or isinstance(attr, type) or name.startswith("__"):
            return attr
        cached = self._wrapped.get(name)
        if cached is None or cached.__wrapped__ is not attr:
            cached = self._wrapped[name] = self._wrap(name, attr)
        return cached

    def _fft(self, fft):
        """The ``fft`` extension with its creation functions (``fftfreq``, ``rfftfreq``)
        wrapped: a ``SimpleNamespace``, which the runner's call records still enter
        (:class:`~laxarray.conformance.flushing.Calls`)."""
        cached = self._wrapped.get("fft")
        if cached is None or cached[0] is not fft:
            names = {k: getattr(fft, k) for k in dir(fft) if not k.startswith("_")}
            names.update({k: self._wrap(f"fft.{k}", names[k]) for k in ("fftfreq", "rfftfreq")
                          if callable(names.get(k))})
            cached = self._wrapped["fft"] = (fft, types.SimpleNamespace(**names))
        return cached[1]

    def _excluded_dtype(self, dtype):
        return dtype is not None and not isinstance(dtype, (bool, int, float, complex)) \
            and dtype_name(dtype) in self._excluded

    def _wrap(self, name, fn):
        @functools.wraps(fn)
        def call(*args, **kwargs):
            if self._excluded:
                asked = kwargs.get("dtype")
                if name == "astype" and len(args) > 1:
                    asked = args[1]
                if name == "asarray" and asked is None and args and hasattr(args[0], "dtype"):
                    asked = args[0].dtype
                if self._excluded_dtype(asked):
                    reject()
            keeps = name == "asarray" and args and hasattr(args[0], "device") \
                and not hasattr(args[0], "__array_interface__")  # an array, not NumPy's
            if name in CREATION and kwargs.get("device") is None and not keeps \
                    and self._device is not None:
                kwargs["device"] = self._device
            return fn(*args, **kwargs)
        return call


__all__ = ["Capabilities", "FEATURES", "ONE_DEVICE", "OnDevice", "probe", "find_device",
           "usable_devices", "strict_flags"]
