"""Devices: laxarray places arrays on jax devices; ``device=`` arguments take a jax Device or a
``jax.sharding.Sharding`` (a sharded array: XLA's SPMD partitioner runs every kernel on it)."""

from __future__ import annotations

import functools

import jax
import numpy as np

from laxarray._core.errors import fail
from laxarray._core.jaxapi import Tracer, device_put


@functools.lru_cache(maxsize=None)
def all_devices() -> tuple:
    """Every device jax can place an array on (the default backend's devices)."""
    return tuple(jax.devices())


@functools.lru_cache(maxsize=None)
def _listed() -> frozenset:
    """:func:`all_devices` as a set (what a placement is checked against)."""
    return frozenset(all_devices())


def default_device():
    """The device new arrays go to when ``device=None``."""
    return all_devices()[0]


def place(value, device):
    """``value`` (a jax value) on ``device``.  With one device there is nothing to choose:
    the value stays as it is, uncommitted (committed and uncommitted arguments are separate
    jax cache entries, so committing would compile every kernel twice).  A concrete array
    on a device laxarray does not list (the host CPU's, on a machine whose default backend
    is an accelerator: what ``jax.dlpack.from_dlpack`` makes of a NumPy buffer there)
    moves to ``device``, or uncommitted to the default device: laxarray's arrays live on
    :func:`all_devices` only."""
    if isinstance(value, Tracer):
        return value
    foreign = isinstance(value, jax.Array) and not value.sharding.device_set <= _listed()
    if foreign and (device is None or len(all_devices()) == 1):
        return device_put(np.asarray(value))
    if device is None:
        return value
    if isinstance(device, jax.sharding.Sharding):
        return device_put(value, device)
    if len(all_devices()) == 1 and isinstance(value, jax.Array):
        return value
    return device_put(value, device)


def device_of(value):
    """The device of a concrete jax array, or its sharding when it spans several devices
    (what ``jax.Array.device`` reports)."""
    sharding = value.sharding
    if len(sharding.device_set) > 1:
        return sharding
    return next(iter(sharding.device_set))


def committed_places(values) -> list:
    """The devices (as text, sorted) of the committed concrete jax arrays among ``values``:
    the ones jax's jit refuses to mix (uncommitted arrays follow the others)."""
    return sorted({str(device_of(v)) for v in values
                   if isinstance(v, jax.Array) and not isinstance(v, Tracer) and v.committed})


def fail_mixed_devices(fn: str, values):
    """``ValueError`` naming ``fn`` and the devices of ``values``, which jax refused to mix."""
    fail(ValueError, fn, "arrays on one device (move them with to_device)",
         ", ".join(committed_places(values)))


def check_device(fn: str, device, argname: str = "device"):
    """``None``, one of :func:`all_devices` (also accepted: ``"cpu"``), or a
    ``jax.sharding.Sharding`` over them; else ``ValueError``."""
    if device is None:
        return None
    if isinstance(device, jax.sharding.Sharding):
        if device.device_set <= _listed():
            return device
        fail(ValueError, fn, f"a sharding over the devices {all_devices()} for '{argname}'",
             device)
    if isinstance(device, str):
        matches = [d for d in all_devices() if d.platform == device]
        if matches:
            return matches[0]
    elif device in all_devices():
        return device
    fail(ValueError, fn, f"'{argname}' to be None, a jax.sharding.Sharding or one of "
         f"{all_devices()}", device)


def check_devices(kernel_name: str, exc, values) -> None:
    """jax refused ``values`` committed to different devices (``exc`` says so): fail as the
    public function (the kernel's name without ``_`` and ``_kernel``), not as jax's jit.
    Returns where ``exc`` is about something else."""
    if "incompatible devices" not in str(exc):
        return
    name = kernel_name.strip("_").removesuffix("_kernel").removesuffix("_padded")
    # the committed arguments are the user's arrays (uncommitted ones, such as a padded
    # kernel's extents, follow the others and are not the conflict)
    fail_mixed_devices(name, values)
