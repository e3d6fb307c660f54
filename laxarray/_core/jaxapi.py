"""The only package that touches jax's tracing internals.

Everything the library needs from ``jax.core`` / ``jax.extend`` / ``jax.interpreters`` is
reached through here, so a jax upgrade changes one package.  This module: laxarray's own
64-bit mode, the types of traced and concrete values (tracer detection, jaxpr types),
placing values on devices, and compiled executables' placement and fast call.  Beside it:
``tracing`` (what the jaxpr interpreter and the kernel helper read of a program),
``regions`` (laxarray's part of a 32-bit user's program, in 64-bit mode) and ``host_calls``
(NumPy inside a jax program).
"""

from __future__ import annotations

import functools
import threading

import jax
import jax.core as _jcore
import numpy as np
import jax.extend as _jex
import jax.extend.core.primitives as _jprims  # noqa: F401  (and the rest, for jax_tracing,
import jax.extend.linear_util  # noqa: F401       jax_regions, jax_host_calls: this module
import jax.extend.source_info_util as _jsrc  # noqa: F401   alone imports jax's internals)
from jax.interpreters import ad as _jad  # noqa: F401
from jax.interpreters import batching as _jbatching  # noqa: F401
from jax.interpreters import mlir as _jmlir  # noqa: F401
from jax.interpreters import partial_eval as _jpe  # noqa: F401
# the house's one jax.experimental import (tests/test_house_rules.py): executables are
# serialized through jax's module, for laxarray._core.runtime.serialize
from jax.experimental import serialize_executable  # noqa: F401 (for runtime.serialize)

# --- 64-bit mode: laxarray's own, never the process's ----------------------------------------
#
# laxarray's dtypes are NumPy's (float64, int64 exact), which jax gives only in its 64-bit
# mode.  The mode is a thread-local jax setting, and laxarray never sets it for the process:
# it turns it on for its own work (its traces, compiles and calls, its conversions, its
# transformations) and puts back what the thread had, so the user's jax code keeps the mode
# the user chose (jax's default: 32-bit).  An executable compiled in 64-bit mode runs on jax
# arrays of any dtype whatever the mode (their dtype is theirs); Python scalars and NumPy
# arrays among a call's arguments are converted by jax in the mode in force, so such calls
# run in it.  Under a trace of the user's (jax.jit, grad, vmap ...) in 32-bit mode, what
# laxarray adds to the user's program is a *region* (:func:`region`): one equation whose
# body jax traces, differentiates, transposes, batches and lowers in 64-bit mode, whenever
# and wherever it does so.  ``docs/jax_interop.md`` says what this means for a user.

_X64 = jax.enable_x64           # jax's thread-local setting (a context manager and a State)
#: ``wide_on()`` turns the thread's 64-bit mode on and returns what it was; ``wide_off(p)``
#: puts ``p`` back.  The two C++ calls cost about 0.1 us together: the hot paths' form.
wide_on = functools.partial(_X64.swap_local, True)
wide_off = _X64.set_local
#: ``user``: the mode of the code that called laxarray, recorded by laxarray's outermost
#: entry in this thread (:func:`enter`); ``None`` outside laxarray
_CALLER = threading.local()


def is_wide() -> bool:
    """Whether jax's 64-bit mode is on in this thread now (the user's or laxarray's)."""
    return _X64.value


def caller_wide() -> bool:
    """Whether the code that called laxarray in this thread runs in 64-bit mode: the mode
    in force at laxarray's outermost entry (a region's body counts as 64-bit code)."""
    user = _CALLER.__dict__.get("user")
    return _X64.value if user is None else user


def enter():
    """Turn 64-bit mode on for laxarray's work, recording the caller's mode where this is
    laxarray's outermost entry in the thread; give the result to :func:`leave`."""
    state = _CALLER.__dict__
    first = state.get("user") is None
    if first:
        state["user"] = _X64.value
    return _X64.swap_local(True), first


def leave(token) -> None:
    prev, first = token
    _X64.set_local(prev)
    if first:
        _CALLER.__dict__["user"] = None


class _Wide:
    """``with wide():`` -- laxarray's work in 64-bit mode for the block (:func:`enter`)."""

    __slots__ = ("token",)

    def __enter__(self):
        self.token = enter()
        return self

    def __exit__(self, *exc):
        leave(self.token)
        return False


def wide():
    """A context in which jax runs in its 64-bit mode, in this thread only (see above)."""
    return _Wide()


def in_wide_mode(fn):
    """``fn`` run in 64-bit mode (:func:`wide`); its name, docstring and signature kept.
    Called from inside laxarray (64-bit mode already on), it is the function itself."""
    @functools.wraps(fn)
    def run_wide(*args, **kwargs):
        state = _CALLER.__dict__
        if state.get("user") is not None:       # inside laxarray: the mode is its own
            return fn(*args, **kwargs)
        state["user"] = _X64.value
        prev = _X64.swap_local(True)
        try:
            return fn(*args, **kwargs)
        finally:
            _X64.set_local(prev)
            state["user"] = None
    return run_wide


_HOLDERS = frozenset(("BatchTracer", "JVPTracer", "LinearizeTracer"))


def settle(args) -> None:
    """Turn the NumPy and Python values that jax's vmap and jvp tracers among ``args`` hold
    as they came (their abstract values read in the thread's mode, 32-bit by default) into
    device arrays of exactly those abstract values, as jax itself would before evaluating
    them -- in the thread's mode, before laxarray switches to its own: evaluated in 64-bit
    mode a NumPy float64 value held under a float32 abstract value would become a float64
    buffer the program does not expect.  Called by the kernel helper (``_traced``) where the
    thread's mode is 32-bit; the tracers of ``jax.jit`` hold no values (nothing to do)."""
    for a in args:
        if type(a).__name__ in _HOLDERS:
            _settle_tracer(a)


def _settle_tracer(t) -> None:
    for name in ("val", "primal", "tangent"):
        v = getattr(t, name, None)
        if isinstance(v, _jcore.Tracer):
            if type(v).__name__ in _HOLDERS:
                _settle_tracer(v)
        elif isinstance(v, (np.ndarray, np.generic, bool, int, float, complex)):
            setattr(t, name, jax.device_put(v))


Tracer = _jcore.Tracer
#: The type of a concrete (committed or not) jax array, as ``jax.device_put`` returns it.
ConcreteArray = type(jax.device_put(0))
ClosedJaxpr = _jex.core.ClosedJaxpr
Jaxpr = _jex.core.Jaxpr
Literal = _jex.core.Literal
Primitive = _jex.core.Primitive


def _fast_put_impl():
    """jaxlib's one-call host-to-device transfer (what ``jax.device_put`` ends in, without
    its ~40 us of Python layers), or ``None`` where this jaxlib lacks it."""
    try:
        from jaxlib import _jax     # local: a private module some jaxlib builds lack
        put = _jax.batched_device_put
        probe = np.zeros(2)
        target = jax.device_put(probe)
        out = put(_jcore.ShapedArray((2,), probe.dtype), target.sharding, [probe],
                  list(target.sharding.device_set), False)
        if type(out) is not ConcreteArray or out.shape != (2,):
            return None
        return put
    except Exception:  # noqa: BLE001  (any failure: use the public path)
        return None


with wide():     # (the probe is float64, as laxarray's puts are)
    _FAST_PUT = _fast_put_impl()


def device_put(value, device=None):
    """``jax.device_put(value, device)`` in 64-bit mode (:func:`wide`): a NumPy float64 or
    int64 value keeps its dtype whatever the thread's mode.  Every transfer of laxarray's
    goes through here or :func:`put_like` (``tests/test_house_rules.py``)."""
    prev = _X64.swap_local(True)
    try:
        return jax.device_put(value, device)
    finally:
        _X64.set_local(prev)


def eval_shape(fn, *args):
    """``jax.eval_shape(fn, *args)`` in 64-bit mode, as laxarray traces everything."""
    prev = _X64.swap_local(True)
    try:
        return jax.eval_shape(fn, *args)
    finally:
        _X64.set_local(prev)


def put_like(host, like):
    """A device array holding the NumPy array ``host`` (which the caller never writes
    again), placed and committed like the single-device jax array ``like``."""
    sharding = like.sharding
    if _FAST_PUT is None:
        return device_put(host, sharding if like._committed else None)
    prev = _X64.swap_local(True)   # (jaxlib converts the buffer in the thread's mode)
    try:
        return _FAST_PUT(_jcore.ShapedArray(host.shape, host.dtype), sharding, [host],
                         list(sharding.device_set), like._committed)
    finally:
        _X64.set_local(prev)


def is_tracer(value) -> bool:
    """Whether ``value`` is an abstract value of a jax trace (jit, vmap, grad, make_jaxpr)."""
    return isinstance(value, Tracer)


def mode_32_bit():
    """A context in which jax traces in its 32-bit mode (``linalg._matrix_ops.polar_svd``)."""
    return jax.enable_x64(False)


# --- compiled executables: placement, abstract values, the direct call ----------------------

def one_device(compiled) -> bool:
    """Whether ``compiled`` (a ``jax.stages.Compiled``) runs on one device: its inputs and
    outputs each placed on a single device (one compiled under an ambient mesh may span
    several even when no argument does)."""
    try:
        shardings = jax.tree_util.tree_leaves((compiled.input_shardings,
                                               compiled.output_shardings))
    except Exception:  # noqa: BLE001  (an executable jax cannot describe: not ours to keep)
        return False
    return all(len(s.device_set) == 1 for s in shardings)


def shaped(shape, dtype, weak_type=False):
    """The abstract value (``ShapedArray``) of an uncommitted array: a store signature."""
    return _jcore.ShapedArray(tuple(shape), np.dtype(dtype), weak_type=bool(weak_type))


def shape_struct(aval):
    """``aval`` as the ``jax.ShapeDtypeStruct`` that lowers a program as an uncommitted array
    of it would (on the default device), without the array."""
    return jax.ShapeDtypeStruct(aval.shape, aval.dtype, weak_type=aval.weak_type)


def fast_call(compiled):
    """The callable that runs ``compiled`` (a ``jax.stages.Compiled``): its C++ call
    (``Compiled.__call__`` is a Python frame before it), made here as that first call would
    make it where it has not run yet -- an executable loaded from the store had not, and
    kept the Python frame for every call (7.3 against 6.7 us a dependent add on the CPU)."""
    call = getattr(compiled, "_call", None)
    if call is None:
        create = getattr(getattr(compiled, "_executable", None), "create_cpp_call", None)
        params = getattr(compiled, "_params", None)
        if create is not None and params is not None:
            try:
                call = create(params)
            except Exception:  # noqa: BLE001  (then the Python frame it is)
                call = None
            if call is not None:
                compiled._call = call
    return compiled if call is None else call
