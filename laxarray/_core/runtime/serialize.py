"""Compiled executables as bytes: :func:`serialize_compiled` writes one blob per
executable (refusing what would not load and run whole), :func:`load_compiled` loads it on
this process's default backend (preparing LAPACK where the program calls it); the
executable store (``exec_store``) keeps the blobs.

``jax.experimental.serialize_executable`` is the one module of ``jax.experimental`` the
library may use, imported by ``_core/jaxapi`` alone (tests/test_house_rules.py allows
exactly that import).
"""

from __future__ import annotations

import pickle as _pickle
import re as _re
import threading as _threading
import weakref as _weakref

import jax
import jax.monitoring

from laxarray._core.jaxapi import serialize_executable as _serialize
from laxarray._core.runtime.hlo_text import has_object_code, needs_no_code, platform_of, program_text

#: The version of what :func:`serialize_compiled` writes; part of
#: ``fingerprint.environment_fingerprint``, so a change of the format never loads an old blob.
EXECUTABLE_FORMAT = 1

class NotSerializable(Exception):
    """A compiled program that cannot be written out (a host callback -- ``jax.pure_callback``,
    ``host_call`` -- holds a Python function; or jax refuses this executable)."""


class NotLoadable(Exception):
    """A blob that does not load into an executable in this process (damaged, or written by
    another jax, jaxlib or machine)."""


def serialize_compiled(compiled) -> bytes:
    """One bytes blob holding the ``jax.stages.Compiled`` ``compiled``; ``NotSerializable``
    where it cannot be written whole (see below).

    The blob is a pickle of ``(payload, in_tree, out_tree, needs)``: what
    ``jax.experimental.serialize_executable.serialize`` returns, and the runtime libraries the
    program calls (``("lapack",)`` or ``()``) for :func:`load_compiled` to prepare.

    Not serializable: a program with a host callback (``jax.pure_callback``, ``host_call``:
    its Python function lives in this process only), and an executable that was itself
    loaded -- by :func:`load_compiled`, or on CPU by jax from its persistent compilation
    cache: jaxlib 0.10.2 writes a loaded executable again without its machine code, and
    that blob would load, then fail on its first run (``NOT_FOUND: Function ... not
    found``).  A process that has had no hit in jax's persistent cache (counted from the
    import of laxarray) compiled all its executables afresh; after a hit, a CPU executable
    passes only with machine code in it or with no need of any (``hlo_text.needs_no_code``).  On a
    TPU an executable from jax's cache serializes whole and loads again (measured by
    ``tools/device/store_check.py``), so only the CPU's are checked."""
    if compiled in _LOADED:
        raise NotSerializable("serialize_compiled: expected an executable compiled in this "
                              "process; got one that load_compiled loaded (jaxlib writes it "
                              "again without its machine code)")
    text = program_text(compiled)
    if text is None:
        raise NotSerializable("serialize_compiled: expected an executable whose program "
                              "jax can print; got one without text (as_text)")
    targets = set(_re.findall(r'custom_call_target="([^"]+)"', text))
    callbacks = sorted(t for t in targets if "callback" in t)
    if callbacks:
        raise NotSerializable(f"serialize_compiled: expected an executable without host "
                              f"callbacks; got one that calls {', '.join(callbacks)}")
    needs = ("lapack",) if any(t.startswith("lapack_") for t in targets) else ()
    try:
        payload, in_tree, out_tree = _serialize.serialize(compiled)
        blob = _pickle.dumps((payload, in_tree, out_tree, needs),
                             protocol=_pickle.HIGHEST_PROTOCOL)
    except Exception as err:  # noqa: BLE001  (pickle raises AttributeError, TypeError, ...)
        raise NotSerializable(f"serialize_compiled: expected an executable that jax can "
                              f"serialize; got one it refuses ({type(err).__name__}: {err})"
                              ) from err
    if (_JAX_CACHE_HITS[0] and platform_of(compiled) == "cpu"
            and not has_object_code(payload) and not needs_no_code(text)):
        raise NotSerializable("serialize_compiled: expected an executable with its machine "
                              "code; got one without (on CPU, an executable that jax loaded "
                              "from its persistent compilation cache: compile it afresh)")
    return blob


#: Hits in jax's persistent compilation cache since laxarray was imported (a hit hands out
#: a loaded executable, which :func:`serialize_compiled` cannot write whole).
_JAX_CACHE_HITS = [0]


def _count_jax_cache_hit(event, **_):
    if event == "/jax/compilation_cache/cache_hits":
        _JAX_CACHE_HITS[0] += 1


jax.monitoring.register_event_listener(_count_jax_cache_hit)

#: The executables that :func:`load_compiled` made (never serialized again).
_LOADED = _weakref.WeakSet()

def load_compiled(blob: bytes):
    """The ``jax.stages.Compiled`` that :func:`serialize_compiled` wrote into ``blob``, loaded
    on this process's default backend; ``NotLoadable`` where it does not load.

    Only for blobs this user wrote (loading unpickles).  A program that calls LAPACK runs
    :func:`prepare_lapack` first."""
    try:
        payload, in_tree, out_tree, needs = _pickle.loads(blob)
        if "lapack" in needs:
            prepare_lapack()
        # on the default device alone: by default jax loads it for every device of the
        # backend, and with several (8 host devices) it then wants one shard per device
        compiled = _serialize.deserialize_and_load(payload, in_tree, out_tree,
                                                   execution_devices=[home_device()])
    except Exception as err:  # noqa: BLE001  (unpickling and XLA raise many kinds)
        raise NotLoadable(f"load_compiled: expected a blob from serialize_compiled in this "
                          f"environment; got one that does not load "
                          f"({type(err).__name__}: {err})") from err
    _LOADED.add(compiled)
    return compiled


def home_device():
    """The device an uncommitted array lands on (``jax_default_device``, else the first):
    where :func:`load_compiled` loads every executable (the store's keys name it)."""
    device = jax.config.jax_default_device
    return device if isinstance(device, jax.Device) else jax.devices()[0]


_LAPACK_READY = []
_LAPACK_LOCK = _threading.Lock()


def prepare_lapack() -> None:
    """Make jaxlib's LAPACK custom calls runnable in this process, once (what jax does when it
    lowers a linalg primitive; a loaded executable that calls LAPACK before it crashes).

    It imports SciPy's LAPACK (about 0.3 s): :func:`load_compiled` runs it only for programs
    that call LAPACK."""
    if _LAPACK_READY:
        return
    with _LAPACK_LOCK:
        if _LAPACK_READY:
            return
        try:
            from jaxlib import lapack as _jlapack  # local: imported on the first CPU solve only
        except ImportError:  # a jaxlib without the CPU LAPACK kernels: nothing to prepare
            _jlapack = None
        if _jlapack is not None:
            _jlapack._lapack.initialize()   # jax._src.lax.linalg.initialize_lapack's one line
        _LAPACK_READY.append(True)
