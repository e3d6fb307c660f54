"""The kernel pattern and laxarray's compilation policy: the one place that calls ``jax.jit``.

A public function validates its arguments in Python (static facts only), then runs one
*kernel*: a function over raw jax values whose keyword arguments are static (hashable).
``@kernel(static=(...))`` makes it a :class:`Kernel`; ``kern.bind(items)`` fixes the static
values and gives a :class:`Bound`, which owns the jitted callables for that binding.

The policy, stated once:

* **Static vs dynamic.**  Only shape-determining facts are static (axes, dtypes, result
  shapes, the structure of an index key); values -- integer indices, slice starts, index
  arrays -- are array arguments, so a loop over ``x[i]`` compiles once.
* **Eager vs traced.**  Every kernel is jitted with ``inline=True``: under an outer
  ``jax.jit``/``make_jaxpr`` the body is inlined, so traced programs show bare lax
  primitives (what ``sparsify``/``checkify`` interpret); eagerly it runs a cached executable.
* **Buckets.**  Small concrete arrays (at most :data:`BUCKET_LIMIT` elements once padded) are
  run on inputs padded to a *bucket* shape -- every axis longer than one rounded up to a power
  of two -- so 17x5 and 19x6 share one executable.  Results stay padded on the device (an
  ``Array`` knows its logical shape) and are cut to their exact shape only when a consumer
  needs that: a kernel without a bucket rule, NumPy, a ``jax.jit`` argument.  A bucketed
  kernel masks the padding of an input with the value its rule names (0 for a sum, -inf for
  a max ...) before the body runs, so whatever lies in the padding never reaches a result.
* **Compiler options.**  On CPU every kernel compiles with :data:`COMPILER_OPTIONS` (LLVM at
  ``-O1``, one LLVM module): about 35% shorter compiles, the same bits and speed.  A kernel
  whose traced program uses only :data:`EMITTER_NEUTRAL` primitives on real 32/64-bit and
  integer/bool values also turns off XLA's fusion emitters (:data:`NEUTRAL_OPTIONS`: half
  the compile time, the same bits, ``tests/core/test_compiler_options.py``); the rest keep
  them.  A program whose float max/min must keep NaN (:func:`reduce_extreme`) compiles
  without XLA's YNNPACK reduction (:data:`EXACT_EXTREMES`).  The choice is made per traced
  program, never by the input's size; the measurements and the rejected settings (``-O0``)
  are in ``docs/performance.md``.
* **Host paths.**  A kernel may declare a CPU host path (``@kernel(host=HostPath(...))``,
  ``_core/host.py``): its gate is asked before the XLA body runs, and nothing else chooses.
* **Bounded memory.**  Every executable is counted; beyond :func:`executable_limit`
  (``LAXARRAY_KERNEL_CACHE``, default 256; about 1.5 MB of code each) the least recently
  used bindings drop theirs, which the executable store brings back in about a millisecond.
"""

from __future__ import annotations

import functools
import math
import threading

import jax
import numpy as np
from jax import lax

from laxarray._core import backend as _backend
from laxarray._core import config as _config
from laxarray._core import dtypes as _dt
from laxarray._core.devices import check_devices
from laxarray._core import exec_store as _store
from laxarray._core import primitives as _primitives
from laxarray._core import record as _record
from laxarray._core.exec_store import load_count  # noqa: F401 (re-exported)
from laxarray._core.numerics import (exact_div, flush_subnormals,  # noqa: F401 (re-exported)
                                     keep_divisor, with_matmul_precision)
from laxarray._core import host as _host
from laxarray._core.call_keys import dtypes_key as _dtypes_key, static_key as _static_key
from laxarray._core import padding as _padding
from laxarray._core.jaxapi import (ConcreteArray, NotSerializable, Tracer,
                                   fast_call, one_device, program_contents, put_like,
                                   register_program_setting, serialize_compiled,
                                   traced_program)
from laxarray._core import settings as _settings

# ---- policy settings ---------------------------------------------------------------------

#: Largest padded element count that runs bucketed (``LAXARRAY_BUCKET_LIMIT``; 0 disables).
BUCKET_LIMIT = _settings.value("LAXARRAY_BUCKET_LIMIT")


def set_bucket_limit(n: int) -> int:
    """Set :data:`BUCKET_LIMIT` (0 turns bucketing off for arrays made from now on);
    returns the previous limit."""
    global BUCKET_LIMIT
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValueError(f"set_bucket_limit: expected an int >= 0 for 'n'; got {n!r}")
    previous, BUCKET_LIMIT = BUCKET_LIMIT, n
    bucket_shape.cache_clear()
    return previous

#: XLA options for every kernel on the CPU backend (see the module docstring).
COMPILER_OPTIONS = {"xla_backend_optimization_level": 1,
                    "xla_cpu_parallel_codegen_split_count": 1}

#: The options for kernels whose programs are emitter-neutral (see the module docstring).
NEUTRAL_OPTIONS = dict(COMPILER_OPTIONS, xla_cpu_use_fusion_emitters=False)
_NEUTRAL_ONLY = {"xla_cpu_use_fusion_emitters": False}  # added at compile to a traced program

#: Primitives whose CPU code gives the same bits with XLA's fusion emitters and without them
#: (the ``neutral`` rows of :mod:`.primitives`).
EMITTER_NEUTRAL = _primitives.names("neutral")


def _neutral_dtype(dtype) -> bool:
    return dtype is not None and (dtype.kind in "biu" or
                                  (dtype.kind == "f" and dtype.itemsize >= 4))


#: XLA:CPU's YNNPACK library fusion kept for matrix products, not reductions: from 4096
#: elements on, its float max/min drop NaN (jax.numpy's too); its sums differ from XLA's loop
#: only in rounding and run ~2x faster, so only programs that need NaN-exact extremes
#: (:func:`reduce_extreme`) take this option (audit: ``docs/performance.md``).
EXACT_EXTREMES = {"xla_cpu_experimental_ynn_fusion_type": "LIBRARY_FUSION_TYPE_DOT"}


@functools.lru_cache(maxsize=None)
def _options(neutral=False, extremes=False):
    if jax.default_backend() != "cpu":
        return None
    options = NEUTRAL_OPTIONS if neutral else COMPILER_OPTIONS
    return dict(options, **EXACT_EXTREMES) if extremes else options


class _FusionEmittersNeeded(Exception):
    """Raised while tracing a kernel compiled with :data:`NEUTRAL_OPTIONS` whose program is
    not emitter-neutral: the call is run again with :data:`COMPILER_OPTIONS`."""


class _ExactExtremesNeeded(Exception):
    """Raised while tracing a kernel's eager program that reduces floats with
    :func:`reduce_extreme` under options that keep YNNPACK's reductions: the binding
    switches to :data:`EXACT_EXTREMES` and the call runs again."""


#: Debugging aid for tests: fill host-side padding with NaN / the dtype's maximum instead of
#: zeros, so a bucket rule that forgets to mask shows up as a wrong value.
POISON = _settings.value("LAXARRAY_BUCKET_POISON")

_MAX_EXECUTABLES = [_settings.value("LAXARRAY_KERNEL_CACHE")]


def executable_limit() -> int:
    """How many compiled executables laxarray keeps before evicting the least recently used."""
    return _MAX_EXECUTABLES[0]


def set_executable_limit(n: int) -> None:
    """Set the executable bound (``LAXARRAY_KERNEL_CACHE`` at start-up); evicts at once."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"set_executable_limit: expected an int >= 1 for 'n'; got {n!r}")
    _MAX_EXECUTABLES[0] = n
    _evict()


# ---- buckets -----------------------------------------------------------------------------

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
    host = np.asarray(v)
    out = np.full(bshape, _fill_value(host.dtype), host.dtype)
    out[tuple(slice(0, n) for n in host.shape)] = host
    return put_like(out, v)


extents, mask_padding, unpad_raw = _padding.extents, _padding.mask_padding, _padding.unpad_raw


# ---- numerics policy: XLA-on-CPU workarounds, each one named here -----------------------

def reduce_extreme(x, axes, find_max):
    """``lax.reduce_max`` (``find_max``) or ``lax.reduce_min`` of ``x`` over ``axes``, NaN
    wherever a reduced NaN is, at every size.

    XLA:CPU's YNNPACK reduction drops NaN from 4096 elements on (:data:`EXACT_EXTREMES`).
    laxarray's own eager executables compile such a program without that fusion; inlined
    into a user's ``jax.jit`` (whose options laxarray cannot set) a second reduction finds
    the NaN and puts it back."""
    reduce = lax.reduce_max if find_max else lax.reduce_min
    if _dt.kind_of(x.dtype) != "f" or not axes or math.prod(x.shape[a] for a in axes) < 2:
        return reduce(x, axes)
    own = _THREAD.bound
    if own is not None:  # tracing one of laxarray's eager programs
        if not own._extremes and _options() is not None:
            raise _ExactExtremesNeeded
        return reduce(x, axes)
    y = reduce(x, axes)
    nan = lax.reduce_or(lax.ne(x, x), axes)
    return lax.select(nan, lax.full_like(y, np.nan), y)


# ---- executables: counting and eviction --------------------------------------------------

_LIVE: dict = {}        # jitted callable -> [Bound, executables]
_TOTAL = [0]
_COMPILES = [0]         # executables built by laxarray kernels since start-up
_SPY = [None]           # tests: a list that records (module, kernel name) of every run


class _ThreadState(threading.local):
    """What this thread's kernel calls are doing (each thread has its own: a trace in one
    thread never reads another's eager call)."""

    eager = None   # the Bound whose eager call is running (a trace then is a compile)
    bound = None   # the Bound whose eager program is being traced


_THREAD = _ThreadState()
_LOCK = threading.RLock()  # the accounting above, shared by threads


def compile_count() -> int:
    """Executables laxarray's kernels have built in this process, or loaded from the
    executable store (:func:`load_count` of them); traces under an outer ``jax.jit`` are
    not counted: they compile nothing."""
    return _COMPILES[0]


def live_executables() -> int:
    """Executables currently kept (at most :func:`executable_limit`)."""
    return _TOTAL[0]


def _register(bound, jitted):
    with _LOCK:
        _COMPILES[0] += 1
        entry = _LIVE.get(jitted)
        if entry is None:
            _LIVE[jitted] = [bound, 1]
        else:
            entry[1] += 1
        _TOTAL[0] += 1
        if _TOTAL[0] > _MAX_EXECUTABLES[0]:
            _evict()


def _unregister(jitted):
    with _LOCK:
        entry = _LIVE.get(jitted)
        if entry is not None and entry[1] > 0:
            entry[1] -= 1
            _TOTAL[0] -= 1
            _COMPILES[0] -= 1


def _forget(jitted):
    """Drop the executables of ``jitted`` from the accounting (they go with the callable)."""
    with _LOCK:
        entry = _LIVE.pop(jitted, None)
        if entry is not None:
            _TOTAL[0] -= entry[1]


def _evict():
    """Drop executables until a quarter of the bound is free: bindings not used since the
    previous sweep go first (oldest registration first), then the rest in that order.

    A binding drops its jitted callable (the next call makes a new one); the executables go
    with the callable once no thread is still running it -- clearing jax's cache instead
    would pull it from under a concurrent call."""
    limit = _MAX_EXECUTABLES[0]
    with _LOCK:
        if _TOTAL[0] <= limit:
            return
        target = limit - max(limit // 4, 1) if limit > 1 else 0
        entries = list(_LIVE.items())  # registration order
        for pass_ in (0, 1):
            for jitted, (bound, count) in entries:
                if _TOTAL[0] <= target:
                    break
                if jitted not in _LIVE or (pass_ == 0 and bound.used):
                    continue
                for slot in _SLOTS:
                    if getattr(bound, slot) is jitted:
                        setattr(bound, slot, None)
                del _LIVE[jitted]
                _TOTAL[0] -= count
        for bound, _ in _LIVE.values():
            bound.used = False


# ---- kernels -----------------------------------------------------------------------------

_SLOTS = ("_plain", "_masked", "_plain_f", "_masked_f", "_exes")  # a Bound's executables


# ---- the executable store (exec_store): a kernel call's executable, built once per machine

_STORE = []             # [the process's ExecutableStore or None], resolved on first use
_NO = object()          # "not served from the store": the call goes through jax.jit


def _open_store():
    """The store, where the compiling platform's record keeps one (``Backend.store``: the
    CPU, the TPU); none in a cluster (executables name one process's devices)."""
    if not _STORE:
        _STORE.append(_store.default_store() if _backend.compiling().store
                      and jax.process_count() == 1 else None)
    return _STORE[0]


class Bound:
    """One kernel with its static arguments fixed: its jitted callables (exact and padded
    inputs alike; the masked variant for bucketed inputs; each compiled with
    :data:`NEUTRAL_OPTIONS` where the program allows and with :data:`COMPILER_OPTIONS`
    where not), and whether it ran since the last eviction sweep (``used``: a second-chance
    LRU, cheaper than a clock per call).  ``_fused``: the argument dtypes whose programs
    needed the fusion emitters (``None`` while there are none), sent straight there.
    ``_extremes``: its programs reduce floats with :func:`reduce_extreme`, so they compile
    with :data:`EXACT_EXTREMES` (found at the first such trace)."""

    __slots__ = ("kernel", "items", "_fn", "_plain", "_masked", "_plain_f", "_masked_f",
                 "_fused", "_inline", "_extremes", "_exes", "_identity", "used")

    def __init__(self, kern, items):
        self.kernel = kern
        self.items = items
        self._fn = with_matmul_precision(  # traced under the binding's precision (its table's)
            functools.partial(kern.fn, **dict(items)) if items else kern.fn)
        self._plain = self._masked = self._plain_f = self._masked_f = None
        self._fused = self._inline = None
        self._extremes = False
        self._exes = self._identity = None
        self.used = True

    def _jit(self, body, neutral=True):
        """``body`` jitted for eager calls.  ``neutral``: with :data:`NEUTRAL_OPTIONS`; then
        each new program is traced once, checked and replayed, and one that is not
        emitter-neutral raises :class:`_FusionEmittersNeeded` before anything compiles."""
        bound = self
        options = _options(neutral, self._extremes)
        check = neutral and options is not None

        def entry(*args):
            if _THREAD.eager is not bound:
                return body(*args)
            _THREAD.eager = None  # traced for an eager call: a new executable
            _THREAD.bound = bound
            try:
                if check:  # a fresh callable: jax must not share this trace with the
                    # inlined one, which reduces differently (reduce_extreme)
                    names, dtypes, replay = traced_program(functools.partial(body), args)
                    if not (names <= EMITTER_NEUTRAL and all(map(_neutral_dtype, dtypes))):
                        raise _FusionEmittersNeeded
                    _register(bound, jitted)
                    return replay()
                out = body(*args)
            finally:
                _THREAD.bound = None
            _register(bound, jitted)
            return out
        entry.__name__ = self.kernel.__name__
        entry.__qualname__ = self.kernel.__name__
        # keep_unused: a result that does not depend on the arguments (isfinite of integers,
        # argsort of an empty array) still goes to their device; jax would drop the unused
        # committed arguments and place it on the default device
        jitted = jax.jit(entry, inline=True, compiler_options=options, keep_unused=True)
        jitted.neutral = neutral
        return jitted

    def _traced(self, args, body=None):
        """Inlined into an outer trace (jax refuses compiler options there); ``body``: the
        masked variant's body instead of the kernel's."""
        if body is None:
            jitted = self._inline
            if jitted is None:
                jitted = self._inline = jax.jit(self._fn, inline=True)
        else:
            jitted = body.inline
        out = jitted(*args)
        if _SPY[0] is not None:
            self._spy()
        return out

    def _run(self, jitted, body, args):
        """``jitted(*args)``; concrete ``args`` under an outer trace (a kernel applied to
        constants inside ``jax.jit``) are staged there too, where jax refuses compiler
        options: then the same body runs inlined without them."""
        self.used = True
        _THREAD.eager = self
        try:
            out = jitted(*args)
        except ValueError as exc:
            if "compiler_options" not in str(exc):
                check_devices(self.kernel.__name__, exc, args)
                raise
            _unregister(jitted)
            return self._traced(args, None if body is self._fn else body)
        except _FusionEmittersNeeded:
            return self._first_fused(body, args)
        except _ExactExtremesNeeded:
            self._exact_extremes()
            if not jitted.neutral:
                return self._run_fused(body, args)
            if body is self._fn:
                return self.padded(args)
            jitted = self._masked = self._jit(body)
            jitted.body = body
            return self._run(jitted, body, args)
        if _SPY[0] is not None:  # recorded once it ran: a check at trace time runs nothing
            self._spy()
        return out

    def _stored(self, body, args):
        """Run ``body`` on ``args`` by an executable held here, loaded from the store or
        compiled and written there; ``_NO`` where the call stays with ``jax.jit``."""
        sig = _store.call_signature(args)
        if sig is None:
            return _NO
        key = sig if body is self._fn else (True, sig)
        exes = self._exes
        run = None if exes is None else exes.get(key)
        if run is None:
            exe = self._executable(body, args, sig)
            if exe is None:
                return _NO
            run = self._keep(key, exe)
        try:
            out = run(*args)
        except (TypeError, ValueError):  # placed elsewhere than it was built for: jax.jit's
            self._identity = False       # call decides (and says what is wrong, if anything)
            return _NO
        self.used = True
        if _SPY[0] is not None:
            self._spy()
        return out

    def _keep(self, key, exe):
        """Hold ``exe`` for calls of ``key`` (counted among the live executables; a sweep
        that this registration sets off may drop the table, never the executable returned)."""
        exes = self._exes
        if exes is None:
            exes = self._exes = _store.Executables()
        exes[key] = run = fast_call(exe)
        self.used = True
        _register(self, exes)
        return run

    def _executable(self, body, args, sig, device=None):
        """The executable for ``args`` (signature ``sig``; on ``device``, default: theirs)
        loaded or compiled and written."""
        store = _open_store()
        if self._identity is None:
            kern = self.kernel
            name = _store.describe((kern.__name__, kern.fn, kern.fills, kern.shape,
                                    kern.extents, tuple(self.items)))
            self._identity = False if store is None or name is None else (name,)
        device = _store.placement(args) if device is None else device
        if self._identity is False or store is None or device is None or len(sig) != len(
                args) or True in [getattr(a, "committed", False) for a in args]:
            return None
        # (not the binding's option state, _extremes or _fused: it depends on what the
        # process ran before, and a program traced to any of them compiles with the options
        # it needs, so the key's executable is right whichever process wrote it)
        name = _store.key_for((*self._identity, body is not self._fn, repr(sig), device))
        if _record.PATH:
            _record.note(self, body is not self._fn, sig, device)
        exe = store.load(name)   # (loaded on the default device alone: jaxapi.load_compiled)
        if exe is None:
            exe = self._compile(body, args)
            if exe is None or not one_device(exe):   # the key has no ambient mesh in it
                return None
            try:
                store.put(name, serialize_compiled(exe))
            except NotSerializable:
                pass  # kept for this process (a host callback: nothing to write)
        return exe

    def _compile(self, body, args):
        """``body``'s executable for ``args``, compiled as an eager call would be: traced
        once, and compiled with :data:`NEUTRAL_OPTIONS` if that trace is emitter-neutral
        (the check reads the trace; nothing is traced twice)."""
        dtypes_key = _dtypes_key(args)
        for _ in range(2):
            slot = ("_plain" if body is self._fn else "_masked") + "_f"
            jitted = getattr(self, slot)
            if jitted is None:
                jitted = self._jit(body, neutral=False)
                if body is not self._fn:
                    jitted.body = body
                setattr(self, slot, jitted)
            _THREAD.eager = self
            try:
                traced = jitted.trace(*args)
            except _ExactExtremesNeeded:
                self._exact_extremes()
                continue
            except Exception:  # noqa: BLE001  (jax.jit's call says what failed)
                return None
            finally:
                _THREAD.eager = None
            _unregister(jitted)  # counted again once it is one of self._exes
            options = None
            if _options(True) is not None and not (self._fused and dtypes_key in self._fused):
                names, dtypes = program_contents(traced.jaxpr)
                if names <= EMITTER_NEUTRAL and all(map(_neutral_dtype, dtypes)):
                    options = _NEUTRAL_ONLY
                else:
                    self._fused = (self._fused or set()) | {dtypes_key}
            try:
                return traced.lower().compile(options)
            except Exception:  # noqa: BLE001
                return None
        return None

    def _exact_extremes(self):
        """Compile this binding's programs with :data:`EXACT_EXTREMES` from now on."""
        self._extremes = True
        for slot in _SLOTS[:4]:
            jitted = getattr(self, slot)
            if jitted is not None:
                _forget(jitted)
                setattr(self, slot, None)

    def _first_fused(self, body, args):
        """A program that needs the fusion emitters: send later calls on these argument
        dtypes straight there, and run this one there."""
        self._fused = (self._fused or set()) | {_dtypes_key(args)}
        return self._run_fused(body, args)

    def _run_fused(self, body, args):
        """Run ``body`` (the kernel's or the masked variant's) with the fusion emitters."""
        if body is self._fn:
            jitted = self._plain_f
            if jitted is None:
                jitted = self._plain_f = self._jit(body, neutral=False)
        else:
            jitted = self._masked_f
            if jitted is None:
                jitted = self._masked_f = self._jit(body, neutral=False)
        return self._run(jitted, body, args)

    def _spy(self):
        _SPY[0].append((self.kernel.fn.__module__, self.kernel.__name__))

    def __call__(self, *args):
        host = self.kernel.host
        if host is not None:  # a declared host path decides first (_core/host.py)
            out = host.run(self, args)
            if out is not _host.DECLINED:
                return out
        for a in args:
            if isinstance(a, Tracer):  # inlined into an outer trace: compiles nothing
                return self._traced(args)
        return self.padded(args)

    def lax(self, *args):
        """The kernel's own body (the XLA program) on ``args``, whatever its host path."""
        for a in args:
            if isinstance(a, Tracer):
                return self._traced(args)
        return self.padded(args)

    def padded(self, args):
        """Run eagerly on concrete ``args``: exact ones, or bucket-shaped ones whose padding
        needs no masking (elementwise).  (The store's warm call inlined: the eager hot
        path.)"""
        exes = self._exes
        if exes is not None:  # the warm path through the store, inlined
            try:
                run = exes.get(tuple([a.aval for a in args if not a._committed]))
            except (AttributeError, TypeError):  # a scalar; a tracer refuses _committed
                run = None
            if run is not None:
                try:
                    out = run(*args)
                except (TypeError, ValueError):
                    out = _NO
                if out is not _NO:
                    self.used = True
                    if _SPY[0] is not None:
                        self._spy()
                    return out
        if self._identity is not False:
            out = self._stored(self._fn, args)
            if out is not _NO:
                return out
        if self._fused is not None and _dtypes_key(args) in self._fused:
            return self._run_fused(self._fn, args)
        jitted = self._plain
        if jitted is None:
            jitted = self._plain = self._jit(self._fn)
        return self._run(jitted, self._fn, args)

    def masked(self, args, exts):
        """Run on bucket-shaped ``args`` after masking the padding of each input ``i`` whose
        fill (``kernel.fills[i]``) is not ``None``; ``exts`` are their true extents (passed
        on to the body as its last argument if the kernel takes ``extents``)."""
        jitted = self._masked_jit()
        args = tuple(args) + tuple(exts)
        if self._identity is not False:
            out = self._stored(jitted.body, args)
            if out is not _NO:
                return out
        if self._fused is not None and _dtypes_key(args) in self._fused:
            return self._run_fused(jitted.body, args)
        return self._run(jitted, jitted.body, args)

    def prepare(self, masked, sig, args, device) -> bool:
        """Load or build (and store) the executable of an eager call of signature ``sig``
        (``exec_store.call_signature``) placed on ``device`` (``exec_store.placement``)
        without running it: ``args`` stand for the inputs (``jax.ShapeDtypeStruct`` for
        arrays). A replay."""
        body = self._masked_jit().body if masked else self._fn
        exe = self._executable(body, args, sig, device)
        if exe is not None:
            self._keep((True, sig) if masked else sig, exe)
        return exe is not None

    def _masked_jit(self):
        jitted = self._masked
        if jitted is None:
            kern, statics, fn = self.kernel, dict(self.items), self._fn
            fills = kern.fills or ()

            def body(*flat):
                n = len(flat) // 2
                xs = []
                for i, (x, e) in enumerate(zip(flat[:n], flat[n:])):
                    f = fills[i] if i < len(fills) else None
                    xs.append(x if f is None else mask_padding(x, e, f(x.dtype, statics)))
                return fn(*xs, flat[n:]) if kern.extents else fn(*xs)
            jitted = self._masked = self._jit(body)
            body.inline = jax.jit(body, inline=True)
            jitted.body = body
        return jitted


class Kernel:
    """A lax function with static (hashable) keyword arguments; see the module docstring.

    A kernel with a ``shape`` rule may run bucketed: ``shape(*in_shapes, **static)`` gives
    the logical result shape (a tuple of shapes for several results; ``None`` where these
    inputs must run exact) and validates the logical input shapes.  ``fills``: one entry per
    array argument -- ``None`` (its padding never reaches the result) or ``fill(dtype,
    static)`` (``static``: the dict of static arguments), the value its padding is set to
    before the body runs.  ``extents``: the body takes one more positional argument, the
    tuple of the inputs' true extents (int32 vectors) when bucketed and ``None`` when not,
    for bodies that must mask intermediate values themselves.  ``_bound``: the bindings
    of the process' matrix-product precision (``config.MATMUL_PRECISION``); ``_bounds``:
    one table per precision (a ``matmul_precision`` block uses its own).
    """

    __slots__ = ("fn", "static", "_bound", "_bounds", "fills", "shape", "extents", "host",
                 "on_host", "__name__", "__dict__")

    def __init__(self, fn, static, fills=None, shape=None, extents=False, host=None):
        self.fn = fn
        self.host = host    # a host.HostPath; its traced body is a kernel of its own
        self.on_host = None if host is None or host.traced is None else Kernel(
            host.traced, static, fills, shape, extents)
        if host is not None:
            host.kernel = self
            if self.on_host is not None:
                self.on_host.host_of = self     # (how a record names it)
        self.static = frozenset(static)
        self._bounds = {}
        self._bound = self._bounds.setdefault(_config.MATMUL_PRECISION, {})
        self.fills = fills
        self.shape = shape
        self.extents = extents
        self.__name__ = fn.__name__
        self.__doc__ = fn.__doc__
        _KERNELS.append(self)

    def bind(self, static_items) -> Bound:
        """The :class:`Bound` kernel for one tuple of ``(name, value)`` static items."""
        key = _static_key(static_items)
        # the bindings of the precision in force: the process' table unless a
        # matmul_precision block is open somewhere (then this context's)
        table = self._bound if not _PRECISION.open else self._bounds.setdefault(
            _config.get_matmul_precision(), {})
        try:
            return table[key]
        except KeyError:
            pass
        names = {k for k, _ in static_items}
        if names != self.static:
            raise TypeError(f"{self.__name__}: static arguments {sorted(self.static)} "
                            f"expected; got {sorted(names)}")
        bound = table[key] = Bound(self, static_items)
        return bound

    def __call__(self, *args, **static):
        return self.bind(tuple(static.items()))(*args)

    def lax(self, *args, **static):
        """The XLA body alone (:meth:`Bound.lax`), for a caller that must not take the
        host path (a kernel body that only needs a lax sort, say)."""
        return self.bind(tuple(static.items())).lax(*args)

    def __repr__(self):
        return f"<kernel {self.__name__} static={sorted(self.static)}>"


_KERNELS = []   # every Kernel: a change of precision switches each to that precision's table
_PRECISION = _config.PRECISION


def _precision_changed(precision):
    for kern in _KERNELS:
        kern._bound = kern._bounds.setdefault(precision, {})


_config.on_matmul_precision(_precision_changed)
# a program traced under another platform's record (LAXARRAY_PLATFORM) is another program
register_program_setting("laxarray_backend", lambda: _backend.current().platform)


def kernel(static=(), fills=None, shape=None, extents=False, host=None):
    """Decorator: make ``fn(*arrays, **static)`` a :class:`Kernel` with ``static`` names;
    with a ``shape`` rule it may run bucketed (see :class:`Kernel`); with ``host`` (a
    ``host.HostPath``) it takes that CPU host path where the path's gate lets it."""
    def deco(fn):
        return Kernel(fn, static, fills, shape, extents, host)
    return deco


def jit_function(fn, **jit_kwargs):
    """``jax.jit(fn, **jit_kwargs)`` for whole programs that are not kernels (solver loops,
    checkify's checked function, ``laxarray.jit``).  No compiler options: jax refuses them on
    a jit nested in another, and these may be."""
    return jax.jit(fn, **jit_kwargs)


def jit_static(fn, static_argnames):
    """``jit_function(fn, static_argnames=...)`` for solver loops whose static arguments
    (operators, callables) may be unhashable: such a call runs ``fn`` unjitted instead of
    letting jax raise."""
    jitted = jit_function(fn, static_argnames=static_argnames)

    def run(*args, **kwargs):
        try:
            hash(tuple(kwargs[k] for k in static_argnames))
        except TypeError:
            return fn(*args, **kwargs)
        return jitted(*args, **kwargs)
    return run
