"""The key of a kernel call, computed in one place.

A call of a kernel binding (``kernel.Bound``) is found in three steps, each from the one
before, and the kernel runtime reads top to bottom in that order: key -> table -> store ->
compile.

* :func:`signature` -- the key in the binding's table of executables: each argument's
  abstract value (a jax array's shape, dtype and weak type; with its sharding where it is
  committed to a device or a sharding, so an executable built for another placement is a
  different key, never a failed call), Python scalars and ``None`` by type, NumPy values by
  shape and dtype.  ``None`` for a tracer or an argument of another kind (``jax.jit`` serves
  such a call).  :func:`array_signature` is its form for the eager hot path, where every
  argument is a jax array: one list comprehension.
* :func:`spread` -- the key of an executable that an ambient mesh spread over several
  devices: the signature with the meshes.
* :func:`store_key` -- the text the executable store files the executable under, where the
  call can be kept across processes (default placement on one device; a kernel and statics
  that :func:`describe` can name): the kernel's and the statics' texts, the variant, the
  signature, the device, and what every executable depends on besides its program
  (``fingerprint``).  The store itself is a cache of bytes by that text.
"""

from __future__ import annotations

import enum
import functools

import jax
import numpy as np

from laxarray._core.runtime import fingerprint
from laxarray._core.runtime.serialize import home_device
from laxarray._core.jaxapi import Tracer

#: The store keys' layout; a change of it never reads an old entry.
KEY_FORMAT = 1


# ---- static arguments ------------------------------------------------------------------------

#: Static value types whose equal values (``0 == 0.0 == -0.0 == 0j``) a kernel may treat
#: differently.  Not ``bool``: ``False``/``True`` act as ``0``/``1`` wherever both are
#: accepted, and boolean statics (``keepdims``, ``descending``) are on every call's path.
_EQUAL_ACROSS_TYPES = (float, complex)


def static_key(items):
    """A binding's static ``items`` as a dict key that keeps apart the values Python calls
    equal -- ``0.0``, ``-0.0``, ``0j`` and ``0`` -- which a kernel may treat differently (a
    ``fill_value`` of ``0j`` cannot fill a float16 result; ``-0.0`` keeps its sign)."""
    for _, v in items:
        if type(v) in _EQUAL_ACROSS_TYPES:
            break
    else:
        return items
    return tuple((k, type(v), repr(v)) if type(v) in _EQUAL_ACROSS_TYPES else (k, v)
                 for k, v in items)


# ---- the table key ---------------------------------------------------------------------------

def array_signature(args):
    """:func:`signature` of ``args`` that are all jax arrays (the eager hot path); raises
    ``AttributeError`` or ``TypeError`` for any other argument (a tracer refuses
    ``_committed``)."""
    return tuple([a.aval if not a._committed else (a.aval, a.sharding) for a in args])


_SCALARS = (bool, int, float, complex)


def signature(args):
    """The key of a call of ``args`` in its binding's table (see the module docstring), or
    ``None`` for a tracer or an argument of another kind."""
    try:
        return array_signature(args)
    except (AttributeError, TypeError):
        pass
    sig = []
    for a in args:
        if isinstance(a, Tracer):
            return None
        if getattr(a, "aval", None) is not None:
            sig.append(a.aval if not getattr(a, "committed", False) else (a.aval, a.sharding))
        elif a is None or type(a) in _SCALARS:
            sig.append(type(a))
        elif type(a) is np.ndarray or isinstance(a, np.generic):
            sig.append((a.shape, a.dtype.str, "numpy"))
        else:
            return None
    return tuple(sig)


def spread(sig):
    """The key of an executable that spans several devices (an ambient mesh spread it):
    ``sig`` with the meshes in force."""
    return ("spread", sig, jax.sharding.get_abstract_mesh(), jax.sharding.get_mesh())


def placement(args):
    """The one device every jax array of ``args`` lives on (its id; ``-1``: none there), or
    ``None`` where they span several (sharded programs stay out of the store)."""
    found = None
    for a in args:
        sharding = getattr(a, "sharding", None)
        if sharding is None:
            continue
        devices = sharding.device_set
        if len(devices) != 1:
            return None
        (device,) = devices
        if found is not None and device.id != found:
            return None
        found = device.id
    return -1 if found is None else found


# ---- the store's key -------------------------------------------------------------------------

def storable(args) -> bool:
    """Whether a call on ``args`` can be kept in the store: every jax array on one device,
    placed by default or committed to the device a stored executable loads onto
    (:func:`home_device`) alone -- a ``SingleDeviceSharding`` there, which the signature
    names, so a committed call's executable has a key of its own."""
    where = placement(args)
    if where is None:
        return False
    committed = [a for a in args if getattr(a, "committed", False)]
    return not committed or (where == home_device().id and all(
        type(a.sharding) is jax.sharding.SingleDeviceSharding for a in committed))


def store_key(kernel_text, statics_text, masked, sig, device) -> str:
    """The store's text for the executable of a kernel (``kernel_text``: its
    ``KernelId.store``) bound to statics (``statics_text``: :func:`describe` of them),
    ``masked`` or not, on a call of signature ``sig`` placed on ``device``
    (:func:`placement`), with what every executable depends on besides its program."""
    return text_key((kernel_text, statics_text, masked, repr(sig), device))


def text_key(parts: tuple) -> str:
    """The store's text for ``parts`` (strings, ints, reprs) with
    :func:`fingerprint.environment_fingerprint` and :func:`fingerprint.source_fingerprint`
    (also for keys of laxarray's own tests and tools)."""
    if type(parts) is not tuple:
        raise TypeError(f"text_key: expected a tuple of strings and ints; got "
                        f"{type(parts).__name__}")
    return "|".join((f"laxarray-exec/{KEY_FORMAT}", fingerprint.environment_fingerprint(),
                     fingerprint.source_fingerprint(), *map(repr, parts)))


_PLAIN = (str, int, float, complex, bool, type(None), np.dtype, np.generic)


def describe(v, depth=0):
    """A text naming ``v`` the same way in every process (a constant, a dtype, a module
    function with what its closure holds), or ``None`` where there is none (an object of
    this process only): the store key of a kernel and its static arguments."""
    if isinstance(v, _PLAIN):
        return f"{type(v).__name__}:{v!r}"
    if isinstance(v, enum.Enum):  # lax.GatherScatterMode, say
        return f"enum:{type(v).__module__}.{type(v).__qualname__}.{v.name}"
    if isinstance(v, (tuple, list, frozenset)):
        parts = [describe(x, depth) for x in (sorted(v, key=repr) if type(v) is frozenset
                                               else v)]
        return None if None in parts else f"{type(v).__name__}({','.join(parts)})"
    if isinstance(v, type):
        return f"type:{v.__module__}.{v.__qualname__}"
    if depth > 3:
        return None
    if isinstance(v, functools.partial):
        inner = describe((v.func, v.args, tuple(sorted(v.keywords.items()))), depth + 1)
        return None if inner is None else f"partial({inner})"
    name = getattr(v, "__qualname__", None)
    module = getattr(v, "__module__", None)
    if not (isinstance(name, str) and isinstance(module, str)):
        return None
    text = f"{module}.{getattr(v, '__name__', '')}/{name}"
    cells = getattr(v, "__closure__", None) or ()
    if cells:
        try:
            inner = describe(tuple(c.cell_contents for c in cells), depth + 1)
        except ValueError:  # an empty cell
            return None
        if inner is None:
            return None
        text += f"[{inner}]"
    return text


__all__ = ["static_key", "array_signature", "signature", "spread", "placement", "storable",
           "store_key", "text_key", "describe", "KEY_FORMAT"]
