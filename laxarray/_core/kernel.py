"""The kernel pattern and laxarray's compilation policy: the one place that calls ``jax.jit``.

A public function validates its arguments in Python (static facts only), then runs one
*kernel*: a function over raw jax values whose keyword arguments are static (hashable).
``@kernel(static=(...))`` makes it a :class:`Kernel`; ``kern.bind(items)`` fixes the static
values and gives a :class:`Bound`, which owns that binding's executables: one table by call
signature, each entry built by the one compile step (:func:`compile_program`).

The policy, stated once:

* **Static vs dynamic.**  Only shape-determining facts are static (axes, dtypes, result
  shapes, the structure of an index key); values -- integer indices, slice starts, index
  arrays -- are array arguments, so a loop over ``x[i]`` compiles once.
* **Eager vs traced.**  Under an outer ``jax.jit``/``make_jaxpr`` (a tracer among the
  arguments) the body is inlined (``jax.jit(inline=True)``), so traced programs show bare
  lax primitives (what ``sparsify``/``checkify`` interpret).  Eagerly a call runs the
  binding's executable for its signature (a dict lookup by the arguments' abstract values,
  then the executable's C++ call); a signature it has none for gets one from the
  executable store (loaded, or compiled and written) or, where the store cannot key the
  call, from the compile step alone.
* **Buckets** (``_core/buckets.py``).  Small concrete arrays (at most ``BUCKET_LIMIT``
  elements once padded) are run on inputs padded to a *bucket* shape -- every axis longer
  than one rounded up to a power of two -- so 17x5 and 19x6 share one executable.  Results
  stay padded on the device (an ``Array`` knows its logical shape) and are cut to their
  exact shape only when a consumer needs that: a kernel without a bucket rule, NumPy, a
  ``jax.jit`` argument.  A kernel declares its buckets (:class:`Kernel`): the result shape,
  the statics it runs with there (its executables are the buckets'), the value masking an
  input's padding (0 for a sum, -inf for a max ...) before the body, so none reaches a result.
* **Compiler options** (``_core/compile_options.py``).  On CPU every kernel compiles with
  :data:`COMPILER_OPTIONS` (LLVM at ``-O1``, one LLVM module): about 35% shorter compiles,
  the same bits and speed.  A kernel whose traced program uses only :data:`EMITTER_NEUTRAL`
  primitives on real 32/64-bit and integer/bool values also turns off XLA's fusion emitters
  (:data:`NEUTRAL_OPTIONS`: half the compile time, the same bits,
  ``tests/core/test_compiler_options.py``); the rest keep them.  A program whose float
  max/min must keep NaN (:func:`reduce_extreme`: its NaN test is in the trace, under a name
  scope) compiles without XLA's YNNPACK reduction (:data:`EXACT_EXTREMES`) and without that
  test.  The compile step traces a program once, reads these options from its jaxpr
  (:func:`program_options`) and compiles with them: the choice is made per traced program,
  never by the input's size or by what the process ran before; the measurements and the
  rejected settings (``-O0``) are in ``docs/performance.md``.
* **Host paths.**  A kernel may declare a CPU host path (``@kernel(host=HostPath(...))``,
  ``_core/host.py``): its gate is asked before the XLA body runs, and nothing else chooses.
* **Bounded memory.**  Every executable is counted; beyond :func:`executable_limit`
  (``LAXARRAY_KERNEL_CACHE``, default 256; about 1.5 MB of code each) the least recently
  used bindings drop theirs, which the executable store brings back in about a millisecond.
"""

from __future__ import annotations

import functools
import threading

import jax

from laxarray._core import backend as _backend
from laxarray._core import config as _config
from laxarray._core.devices import check_devices
from laxarray._core import exec_store as _store
from laxarray._core import record as _record
from laxarray._core.exec_store import load_count  # noqa: F401 (re-exported)
from laxarray._core.numerics import (NAN_TEST, exact_div,  # noqa: F401 (re-exported)
                                     flush_subnormals, keep_divisor, reduce_extreme,
                                     with_matmul_precision)
from laxarray._core import host as _host
from laxarray._core.kernel_id import KernelId, identify
from laxarray._core.call_keys import static_key as _static_key
from laxarray._core.buckets import mask_padding
from laxarray._core.compile_options import (COMPILER_OPTIONS,  # noqa: F401 (re-exported)
                                            EMITTER_NEUTRAL, EXACT_EXTREMES, NEUTRAL_OPTIONS,
                                            program_options)
from laxarray._core.fingerprint import register_program_setting
from laxarray._core.jaxapi import (NotSerializable, Tracer, as_64bit_code, caller_wide,
                                   enter, fast_call, leave, one_device, program_function,
                                   region, serialize_compiled, settle, under_trace)
from laxarray._core import settings as _settings

# ---- policy settings ---------------------------------------------------------------------

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


# ---- executables: counting and eviction --------------------------------------------------

_LIVE: dict = {}        # a Bound's table of executables (exec_store.Executables) -> [Bound, n]
_TOTAL = [0]
_COMPILES = [0]         # executables built by laxarray kernels since start-up
_SPY = [None]           # tests: a list that records the KernelId of every run
_LOCK = threading.RLock()  # the accounting above, shared by threads


def compile_count() -> int:
    """Executables laxarray's kernels have built in this process, or loaded from the
    executable store (:func:`load_count` of them); traces under an outer ``jax.jit`` are
    not counted: they compile nothing."""
    return _COMPILES[0]


def live_executables() -> int:
    """Executables currently kept (at most :func:`executable_limit`)."""
    return _TOTAL[0]


def _register(bound, table):
    with _LOCK:
        _COMPILES[0] += 1
        entry = _LIVE.get(table)
        if entry is None:
            _LIVE[table] = [bound, 1]
        else:
            entry[1] += 1
        _TOTAL[0] += 1
        if _TOTAL[0] > _MAX_EXECUTABLES[0]:
            _evict()


def _evict():
    """Drop executables until a quarter of the bound is free: bindings not used since the
    previous sweep go first (oldest registration first), then the rest in that order.

    A binding drops its table (the next call starts a new one); the executables go with the
    table once no thread is still running one -- clearing jax's cache instead would pull
    them from under a concurrent call."""
    limit = _MAX_EXECUTABLES[0]
    with _LOCK:
        if _TOTAL[0] <= limit:
            return
        target = limit - max(limit // 4, 1) if limit > 1 else 0
        entries = list(_LIVE.items())  # registration order
        for pass_ in (0, 1):
            for table, (bound, count) in entries:
                if _TOTAL[0] <= target:
                    break
                if table not in _LIVE or (pass_ == 0 and bound.used):
                    continue
                if bound._exes is table:
                    bound._exes = None
                del _LIVE[table]
                _TOTAL[0] -= count
        for bound, _ in _LIVE.values():
            bound.used = False


# ---- the compile step: trace once, read the options from the program, compile ------------

def compile_program(jitted, args):
    """The compile step of every executable a kernel builds: ``jitted`` (a kernel body under
    ``jax.jit``, without options) traced once on ``args`` (arrays, or
    ``jax.ShapeDtypeStruct`` stand-ins), its options read from that trace
    (:func:`program_options`), lowered and compiled with them."""
    traced = jitted.trace(*args)
    program, options = program_options(traced.jaxpr)
    if program is not traced.jaxpr:   # lowered without the NaN tests it dropped
        traced = jax.jit(program_function(program, traced.out_tree, traced.fun_name),
                         keep_unused=True).trace(*args)
    return traced.lower().compile(options)


def _jit_body(body, name):
    """``body`` under ``jax.jit`` (named ``name``, without options) for the compile step, and
    for the calls it cannot serve (inlined into an outer trace: ``inline``)."""
    def entry(*args):
        return body(*args)
    entry.__name__ = entry.__qualname__ = name
    # keep_unused: a result that does not depend on the arguments (isfinite of integers,
    # argsort of an empty array) still goes to their device; jax would drop the unused
    # committed arguments and place it on the default device
    return jax.jit(entry, inline=True, keep_unused=True)


# ---- the executable store (exec_store): a kernel call's executable, built once per machine

_STORE = []             # [the process's ExecutableStore or None], resolved on first use
_NO = object()          # "no executable of the table ran": the caller takes the next way


def _open_store():
    """The store, where the compiling platform's record keeps one (``Backend.store``: the
    CPU, the TPU); none in a cluster (executables name one process's devices)."""
    if not _STORE:
        _STORE.append(_store.default_store() if _backend.compiling().store
                      and jax.process_count() == 1 else None)
    return _STORE[0]


def _local_key(args):
    """The table key of a call that the store cannot key (arrays committed to a device or a
    sharding, say): each argument's abstract value with its sharding and whether it is
    committed, and the ambient meshes; ``None`` for a tracer or an argument of another kind
    (then ``jax.jit`` serves the call)."""
    sig = _store.signature_of(args, _placed)
    if sig is None:
        return None
    return ("local", sig, jax.sharding.get_abstract_mesh(), jax.sharding.get_mesh())


def _placed(a):
    sharding = getattr(a, "sharding", None)
    return None if sharding is None else (a.aval, sharding, bool(getattr(a, "committed", False)))


# ---- kernels -----------------------------------------------------------------------------

class Bound:
    """One kernel with its static arguments fixed: its table of executables by call
    signature (``_exes``: one for the plain body and the masked variant alike, each built by
    :func:`compile_program`, through the executable store where the call can be keyed
    there), the ``jax.jit`` callables the compile step traces (``_jit``; the masked body's
    ``jitted``) and calls inside an outer trace inline (``_inline``; ``inline``), and
    whether it ran since the last eviction sweep (``used``: a second-chance LRU, cheaper
    than a clock per call)."""

    __slots__ = ("kernel", "items", "_fn", "_jit", "_masked", "_inline", "_exes",
                 "_identity", "used")

    def __init__(self, kern, items):
        self.kernel = kern
        self.items = items
        self._fn = with_matmul_precision(  # traced under the binding's precision (its table's)
            functools.partial(kern.fn, **dict(items)) if items else kern.fn)
        self._jit = self._masked = self._inline = None
        self._exes = self._identity = None
        self.used = True

    def __call__(self, *args):
        host = self.kernel.host
        if host is not None:  # a declared host path decides first (_core/host.py)
            out = host.run(self, args)
            if out is not _host.DECLINED:
                return out
        for a in args:
            if isinstance(a, Tracer):  # inlined into an outer trace: compiles nothing
                return self._traced(args)
        return self.run_eager(args)

    def run_xla(self, *args):
        """The kernel's own body (the XLA program) on ``args``, whatever its host path."""
        for a in args:
            if isinstance(a, Tracer):
                return self._traced(args)
        return self.run_eager(args)

    def run_eager(self, args):
        """Run on concrete ``args``: exact ones, or bucket-shaped ones whose padding needs no
        masking (elementwise).  The eager hot path: the table's executable for the call's
        signature (``exec_store.call_signature``: the arguments' abstract values), by its
        C++ call.  Only a call whose arguments are all jax arrays runs in the thread's own
        mode (an executable takes jax arrays of any dtype in any mode); the rest, and every
        trace and compile, run in 64-bit mode (``jaxapi.wide``)."""
        try:
            sig = tuple([a.aval for a in args if not a._committed])
        except (AttributeError, TypeError):  # Python scalars, NumPy arrays, tracers
            token = enter()
            try:
                return self._run_other(args)
            finally:
                leave(token)
        exes = self._exes
        if sig is not None and exes is not None:
            run = exes.get(sig)
            if run is not None:
                try:
                    out = run(*args)
                except (TypeError, ValueError):  # placed elsewhere than it was built for
                    out = _NO
                if out is not _NO:
                    self.used = True
                    if _SPY[0] is not None:
                        self._spy()
                    return out
                sig = None   # built for another placement: the local key names theirs
        token = enter()
        try:
            return self._run_new(self._fn, args, sig)
        finally:
            leave(token)

    def _run_other(self, args):
        """:meth:`run_eager` of arguments that are not all jax arrays, in 64-bit mode."""
        sig = _store.call_signature(args)
        exes = self._exes
        if sig is not None and exes is not None:
            run = exes.get(sig)
            if run is not None:
                out = self._call(run, args)
                if out is not _NO:
                    return out
                sig = None
        return self._run_new(self._fn, args, sig)

    def run_masked(self, args, exts):
        """Run on bucket-shaped ``args`` after masking the padding of each input ``i`` whose
        fill (``kernel.fills[i]``) is not ``None``; ``exts`` are their true extents (passed
        on to the body as its last argument if the kernel takes ``extents``).  The table
        first, as :meth:`run_eager` (its masked executables are keyed ``(True,
        signature)``)."""
        args = tuple(args) + tuple(exts)
        token = enter()   # (a 0-d input may be a Python scalar: see run_eager)
        try:
            sig = _store.call_signature(args)
            exes = self._exes
            if sig is not None and exes is not None:
                run = exes.get((True, sig))
                if run is not None:
                    out = self._call(run, args)
                    if out is not _NO:
                        return out
                    sig = None
            return self._run_new(self._masked_body(), args, sig)
        finally:
            leave(token)

    def prepare(self, masked, sig, args, device) -> bool:
        """Load or build (and store) the executable of an eager call of signature ``sig``
        (``exec_store.call_signature``) placed on ``device`` (``exec_store.placement``)
        without running it: ``args`` stand for the inputs (``jax.ShapeDtypeStruct`` for
        arrays). A replay."""
        token = enter()
        try:
            return self._prepare(masked, sig, args, device)
        finally:
            leave(token)

    def _prepare(self, masked, sig, args, device) -> bool:
        body = self._masked_body() if masked else self._fn
        name = self._store_key(body, args, sig, device)
        if name is None:
            return False
        try:
            exe = self._executable(body, args, name)
        except Exception:  # noqa: BLE001  (a call of it would say what fails)
            return False
        if one_device(exe):
            self._keep((True, sig) if masked else sig, exe)
        return True

    def _spy(self):
        _SPY[0].append(self.kernel.id)

    def _traced(self, args, body=None):
        """Inlined into an outer trace; ``body``: the masked variant's body instead of the
        kernel's."""
        if body is None or body is self._fn:
            jitted = self._inline
            if jitted is None:
                jitted = self._inline = jax.jit(self._fn, inline=True)
        else:
            jitted = body.inline
        if not caller_wide():   # in a 32-bit caller's trace: a region (see jaxapi)
            settle(args)
            token = enter()
            try:
                out = region(jitted, args)
            finally:
                leave(token)
        else:
            token = enter()
            try:
                out = jitted(*args)
            finally:
                leave(token)
        if _SPY[0] is not None:
            self._spy()
        return out

    def _run_new(self, body, args, sig):
        """Run ``body`` on ``args``, whose signature ``sig`` the table had no executable for
        (``None``: none the store can key), by one loaded or built first: keyed by ``sig``
        where the arguments are placed by default and the executable spans one device (the
        hot path's key), else by :func:`_local_key`.  ``jax.jit`` serves a call neither
        keys (inlined under an outer trace) and one whose executable cannot be built (its
        call says what fails)."""
        if under_trace():  # concrete values under an outer trace: part of its program
            return self._traced(args, body)
        masked = body is not self._fn
        if sig is not None and len(sig) != len(args):
            sig = None
        exes = self._exes
        local = _local_key(args)
        if local is not None:
            local = (masked, local)
            run = None if exes is None else exes.get(local)
            if run is not None:
                out = self._call(run, args)
                if out is not _NO:
                    return out
        if sig is not None or local is not None:
            name = None if sig is None else self._store_key(body, args, sig)
            try:
                exe = self._executable(body, args, name)
            except Exception:  # noqa: BLE001  (jax.jit's call below says what failed)
                exe = None
            if exe is not None:
                key = ((True, sig) if masked else sig) if sig is not None and one_device(
                    exe) else local   # (spread by an ambient mesh: the local key names it)
                if key is not None:
                    out = self._call(self._keep(key, exe), args)
                    if out is not _NO:
                        return out
        try:
            out = self._jitted(body)(*args)
        except ValueError as exc:
            check_devices(self.kernel.__name__, exc, args)
            raise
        self.used = True
        if _SPY[0] is not None:
            self._spy()
        return out

    def _call(self, run, args):
        """``run(*args)`` (a table's executable), or ``_NO`` where it refuses ``args``."""
        try:
            out = run(*args)
        except (TypeError, ValueError):  # placed elsewhere than it was built for
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

    def _store_key(self, body, args, sig, device=None):
        """The store's key of ``body`` on ``args`` (signature ``sig``; on ``device``, default:
        theirs), the lookup recorded (``LAXARRAY_RECORD``); ``None`` where the store is off
        or cannot key the call (a kernel or statics naming process objects, committed or
        spread arguments)."""
        store = _open_store()
        if store is None:
            return None
        if self._identity is None:   # the kernel's store text (its KernelId), the statics'
            text, items = self.kernel.id.store, _store.describe(tuple(self.items))
            self._identity = False if text is None or items is None else (text, items)
        device = _store.placement(args) if device is None else device
        if self._identity is False or device is None or len(sig) != len(args) or True in [
                getattr(a, "committed", False) for a in args]:
            return None
        masked = body is not self._fn
        if _record.PATH:
            _record.note(self, masked, sig, device)
        return _store.key_for((*self._identity, masked, repr(sig), device))

    def _executable(self, body, args, name):
        """``body``'s executable for ``args``: loaded from the store by the key ``name``, else
        built by the compile step and written there (``name`` ``None``: built only)."""
        if name is None:
            return compile_program(self._jitted(body), args)
        store = _STORE[0]
        exe = store.load(name)   # (loaded on the default device alone: jaxapi.load_compiled)
        if exe is None:
            exe = compile_program(self._jitted(body), args)
            if one_device(exe):   # the key has no ambient mesh in it
                try:
                    store.put(name, serialize_compiled(exe))
                except NotSerializable:
                    pass  # kept for this process (a host callback: nothing to write)
        return exe

    def _jitted(self, body):
        """The ``jax.jit`` of ``body`` (the kernel's or the masked variant's)."""
        if body is not self._fn:
            return body.jitted
        jitted = self._jit
        if jitted is None:
            jitted = self._jit = _jit_body(body, self.kernel.__name__)
        return jitted

    def _masked_body(self):
        """The masked variant's body: each input's padding set to its fill, then the
        kernel's body (``jitted``, ``inline``: its ``jax.jit`` callables)."""
        body = self._masked
        if body is None:
            kern, statics, fn = self.kernel, dict(self.items), self._fn
            fills = kern.fills or ()

            def body(*flat):
                n = len(flat) // 2
                xs = []
                for i, (x, e) in enumerate(zip(flat[:n], flat[n:])):
                    f = fills[i] if i < len(fills) else None
                    xs.append(x if f is None else mask_padding(x, e, f(x.dtype, statics)))
                return fn(*xs, flat[n:]) if kern.extents else fn(*xs)
            body.jitted = _jit_body(body, kern.__name__)
            body.inline = jax.jit(body, inline=True)
            self._masked = body
        return body


class Kernel:
    """A lax function with static (hashable) keyword arguments; see the module docstring.

    A kernel with a ``shape`` rule may run bucketed: ``shape(*in_shapes, **static)`` gives
    the logical result shape (a tuple of shapes for several results; ``None`` where these
    inputs must run exact) and validates the logical input shapes.  ``bucket(*in_shapes,
    **static)``: a dict of the statics that change on the buckets (a shape replaced by its
    bucket, a plan by the bucket's), so the binding is the buckets'.  ``fills``: per array
    argument ``None`` (its padding never reaches the result) or ``fill(dtype, static)``
    (``static``: the dict of statics), the value its padding is set to before the body
    runs.  ``unpadded``: positions of arguments passed as they are (index parameters).
    ``extents``: the body takes one more argument, the inputs' true extents (int32 vectors;
    ``None`` when exact), to mask intermediate values itself.  ``_bound``: the bindings of
    the process' matmul precision (``config.MATMUL_PRECISION``); ``_bounds``: per precision.

    Its identity (:attr:`id`) is said here, once: ``factory=(path, args)`` for a kernel a
    function at ``path`` returns from ``args``; ``owner``, the kernel whose host path's
    traced body this is (``on_host``, made here); neither for a module's kernel.
    """

    __slots__ = ("fn", "static", "_bound", "_bounds", "fills", "shape", "bucket", "unpadded",
                 "extents", "host", "on_host", "_factory", "_owner", "_id", "__name__", "__dict__")

    def __init__(self, fn, static, fills=None, shape=None, extents=False, host=None,
                 factory=None, owner=None, bucket=None, unpadded=()):
        self.fn = fn
        self._factory, self._owner, self._id = factory, owner, None
        self.host = host    # a host.HostPath; its traced body is a kernel of its own
        self.on_host = None if host is None or host.traced is None else Kernel(
            host.traced, static, fills, shape, extents, owner=self, bucket=bucket, unpadded=unpadded)
        if host is not None:
            host.kernel = self
        self.static = frozenset(static)
        self._bounds = {}
        self._bound = self._bounds.setdefault(_config.MATMUL_PRECISION, {})
        self.fills, self.shape, self.bucket = fills, shape, bucket
        self.unpadded, self.extents = tuple(unpadded), extents
        self.__name__, self.__doc__ = fn.__name__, fn.__doc__
        _KERNELS.append(self)

    @property
    def id(self) -> KernelId:
        """This kernel's identity (``kernel_id.KernelId``: what the store's key, the
        recorder and the test spy name it by), computed on first use and kept."""
        kid = self._id
        if kid is None:
            kid = self._id = identify(self, self._factory, self._owner)
        return kid

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

    def on_buckets(self, static, items, shapes):
        """``(logical result shape, Bound of the buckets' statics)`` of a call (statics
        ``static``, as ``items`` too) on inputs of logical ``shapes``; ``(None, None)``:
        exact.  The rules are pure: their answers are kept (4096 per precision)."""
        table = self._bound if not _PRECISION.open else self._bounds.setdefault(
            _config.get_matmul_precision(), {})
        said, key = table.get(_BUCKETS), (_static_key(items), *shapes)
        if said is None or len(said) >= 4096:
            said = table[_BUCKETS] = {}
        out = said.get(key)
        if out is None:
            shape = self.shape(*shapes, **static)
            if shape is not None and self.bucket is not None:
                static.update(self.bucket(*shapes, **static))
            out = said[key] = (shape, None if shape is None else self.bind(tuple(static.items())))
        return out

    def __call__(self, *args, **static):
        return self.bind(tuple(static.items()))(*args)

    def run_xla(self, *args, **static):
        """The XLA body alone (:meth:`Bound.run_xla`), for a caller that must not take the
        host path (a kernel body that only needs a lax sort, say)."""
        return self.bind(tuple(static.items())).run_xla(*args)

    def __repr__(self):
        return f"<kernel {self.__name__} static={sorted(self.static)}>"


_KERNELS = []   # every Kernel: a change of precision switches each to that precision's table
_BUCKETS = "buckets"   # a table's entry of the bucket rules' answers (Kernel.on_buckets)
_PRECISION = _config.PRECISION


def _precision_changed(precision):
    for kern in _KERNELS:
        kern._bound = kern._bounds.setdefault(precision, {})


_config.on_matmul_precision(_precision_changed)
# a program traced under another platform's record (LAXARRAY_PLATFORM) is another program
register_program_setting("laxarray_backend", lambda: _backend.current().platform)


def kernel(static=(), fills=None, shape=None, extents=False, host=None, bucket=None,
           unpadded=()):
    """Decorator: make ``fn(*arrays, **static)`` a :class:`Kernel` with ``static`` names;
    with a ``shape`` rule it may run bucketed (see :class:`Kernel`); with ``host`` (a
    ``host.HostPath``) it takes that CPU host path where the path's gate lets it."""
    def deco(fn):
        return Kernel(fn, static, fills, shape, extents, host, bucket=bucket, unpadded=unpadded)
    return deco


def jit_function(fn, **jit_kwargs):
    """``jax.jit(fn, **jit_kwargs)`` for whole programs that are not kernels (solver loops,
    checkify's checked function, ``laxarray.jit``).  No compiler options: jax refuses them on
    a jit nested in another, and these may be.  Traced and called as 64-bit code
    (``jaxapi.as_64bit_code``): a region where a 32-bit caller traces it."""
    return as_64bit_code(jax.jit(fn, **jit_kwargs))


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
