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
* **Compiler options** (``_core/runtime/compile_options.py``).  On CPU every kernel compiles with
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
  ``_core/runtime/host_path.py``): its gate is asked before the XLA body runs, and nothing else chooses.
* **Bounded memory.**  Every executable is counted; beyond :func:`executable_limit`
  (``LAXARRAY_KERNEL_CACHE``, default 256; about 1.5 MB of code each) the least recently
  used bindings drop theirs, which the executable store brings back in about a millisecond.
"""

from __future__ import annotations

import contextlib
import functools

import jax

from laxarray._core import backend as _backend
from laxarray._core import modes as _modes
from laxarray._core.devices import check_devices
from laxarray._core.runtime import exec_store as _store
from laxarray._core.runtime import executables as _exes
from laxarray._core.runtime.executables import (compile_count, executable_limit,  # noqa: F401
                                           live_executables, set_executable_limit, spy)
from laxarray._core.runtime import lookup_log as _lookup_log
from laxarray._core.runtime.exec_store import load_count  # noqa: F401 (re-exported)
from laxarray._core.numerics import (NAN_TEST, exact_div,  # noqa: F401 (re-exported)
                                     flush_subnormals, keep_divisor, reduce_extreme,
                                     with_matmul_precision)
from laxarray._core.runtime import host_path as _host
from laxarray._core.runtime.kernel_id import KernelId, identify
from laxarray._core.runtime.call_key import (array_signature, describe, placement, signature, spread,
                                        static_key as _static_key, storable, store_key)
from laxarray._core.buckets import mask_padding
from laxarray._core.runtime.compile_options import (COMPILER_OPTIONS,  # noqa: F401 (re-exported)
                                               EMITTER_NEUTRAL, EXACT_EXTREMES, NEUTRAL_OPTIONS,
                                               program_options)
from laxarray._core.runtime.fingerprint import register_program_setting
from laxarray._core.jaxapi import Tracer, caller_wide, enter, fast_call, leave, one_device, settle
from laxarray._core.jax_regions import as_64bit_code, region
from laxarray._core.jax_tracing import program_function, under_trace
from laxarray._core.runtime.serialize import NotSerializable, serialize_compiled

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


# ---- the executable store: a kernel call's executable, built once per machine ----------------

_STORE = []             # [the process's ExecutableStore or None], resolved on first use


def _open_store():
    """The store, where the compiling platform's record keeps one (``Backend.store``: the
    CPU, the TPU); none in a cluster (executables name one process's devices)."""
    if not _STORE:
        _STORE.append(_store.default_store() if _backend.compiling().store
                      and jax.process_count() == 1 else None)
    return _STORE[0]


@contextlib.contextmanager
def writing_to(store):
    """Inside the block kernels look up and write their executables in ``store`` rather
    than the process's (``precompile --portable`` on a TPU builds the tier in its own
    process, whose store opened at import)."""
    _open_store()
    saved, _STORE[0] = _STORE[0], store
    try:
        yield
    finally:
        _STORE[0] = saved


# ---- kernels -----------------------------------------------------------------------------

class _Variant:
    """One body of a binding -- the kernel's own, or its masked form, which sets the
    padding of bucket-shaped inputs to their fills first -- with its ``jax.jit`` callables
    (``jitted`` for the compile step, ``inline`` for an outer trace) and its table of
    executables by call key (``exes``)."""

    __slots__ = ("body", "masked", "name", "_jitted", "_inline", "exes")

    def __init__(self, body, masked, name):
        self.body, self.masked, self.name = body, masked, name
        self._jitted = self._inline = None   # made on first use: a binding whose
        self.exes = None                      # executables come from the store needs neither

    @property
    def jitted(self):
        """The body under ``jax.jit`` for the compile step."""
        if self._jitted is None:
            self._jitted = _jit_body(self.body, self.name)
        return self._jitted

    @property
    def inline(self):
        """The body under ``jax.jit(inline=True)``, for a call inside an outer trace."""
        if self._inline is None:
            self._inline = jax.jit(self.body, inline=True)
        return self._inline


class Bound:
    """One kernel with its static arguments fixed: its variants (the plain body, built at
    once, and the masked one, on first use), each with its table of executables by call key,
    and whether it ran since the last eviction sweep (``used``: a second-chance LRU, cheaper
    than a clock per call).

    A call runs: its key (``call_key.signature``) -> the variant's table -> the executable
    store (``_store_key``, where the call can be kept there) -> the compile step
    (:func:`compile_program`); inside an outer trace the body is inlined instead
    (:meth:`_traced`)."""

    __slots__ = ("kernel", "items", "_fn", "_plain", "_masked", "_identity", "used")

    def __init__(self, kern, items):
        self.kernel = kern
        self.items = items
        self._fn = with_matmul_precision(  # traced under the binding's precision (its table's)
            functools.partial(kern.fn, **dict(items)) if items else kern.fn)
        self._plain = _Variant(self._fn, False, kern.__name__)
        self._masked = self._identity = None
        self.used = True

    def __call__(self, *args):
        host = self.kernel.host
        if host is not None:  # a declared host path decides first (_core/runtime/host_path.py)
            out = host.run(self, args)
            if out is not _host.DECLINED:
                return out
        for a in args:
            if isinstance(a, Tracer):  # inlined into an outer trace: compiles nothing
                return self._traced(self._plain, args)
        return self.run_eager(args)

    def run_xla(self, *args):
        """The kernel's own body (the XLA program) on ``args``, whatever its host path."""
        for a in args:
            if isinstance(a, Tracer):
                return self._traced(self._plain, args)
        return self.run_eager(args)

    def run_eager(self, args):
        """Run on concrete ``args``: exact ones, or bucket-shaped ones whose padding needs no
        masking (elementwise).  The eager hot path: the key of arguments that are all jax
        arrays, the table's executable, its C++ call -- in the thread's own mode (an
        executable takes jax arrays of any dtype in any mode); any other call, and every
        trace, load and compile, in 64-bit mode (``jaxapi.enter``)."""
        plain = self._plain
        try:
            sig = array_signature(args)
        except (AttributeError, TypeError):  # Python scalars, NumPy arrays, tracers
            return self._run_wide(plain, args)
        exes = plain.exes
        if exes is not None:
            run = exes.get(sig)
            if run is not None:
                self.used = True
                return run(*args)
        token = enter()
        try:
            return self._run_new(plain, args, sig)
        finally:
            leave(token)

    def run_masked(self, args, exts):
        """Run on bucket-shaped ``args`` after masking the padding of each input ``i`` whose
        fill (``kernel.fills[i]``) is not ``None``; ``exts`` are their true extents (passed
        on to the body as its last argument if the kernel takes ``extents``).  The masked
        variant's table first, as :meth:`run_eager`."""
        return self._run_wide(self._masked_variant(), tuple(args) + tuple(exts))

    def _run_wide(self, variant, args):
        """A call of ``variant`` on ``args`` of any kind, in 64-bit mode."""
        token = enter()
        try:
            sig = signature(args)
            exes = variant.exes
            if sig is not None and exes is not None:
                run = exes.get(sig)
                if run is not None:
                    self.used = True
                    return run(*args)
            return self._run_new(variant, args, sig)
        finally:
            leave(token)

    def prepare(self, masked, sig, args, device) -> bool:
        """Load or build (and store) the executable of an eager call of signature ``sig``
        (``call_key.signature``) placed on ``device`` (``call_key.placement``) without
        running it: ``args`` stand for the inputs (``jax.ShapeDtypeStruct`` for arrays).
        A replay."""
        token = enter()
        try:
            variant = self._masked_variant() if masked else self._plain
            name = self._store_key(variant, sig, device)
            if name is None:
                return False
            try:
                exe = self._executable(variant, args, name)
            except Exception:  # noqa: BLE001  (a call of it would say what fails)
                return False
            if one_device(exe):
                self._keep(variant, sig, exe)
            return True
        finally:
            leave(token)

    def _traced(self, variant, args):
        """``variant``'s body inlined into an outer trace: in a 32-bit caller's trace a
        region (``jax_regions.region``), else the body's primitives themselves."""
        wide = caller_wide()
        token = enter()
        try:
            if wide:
                out = variant.inline(*args)
            else:
                settle(args)    # (NumPy values vmap/jvp tracers hold: in the caller's mode)
                out = region(variant.inline, args)
        finally:
            leave(token)
        _exes.ran(self)
        return out

    def _run_new(self, variant, args, sig):
        """Run ``variant`` on ``args``, whose key ``sig`` its table had no executable for
        (``None``: no key), by one loaded from the store or built first, kept under ``sig``
        -- or, where an ambient mesh spread it over several devices, under
        ``call_key.spread(sig)``.  ``jax.jit`` serves a call under an outer trace (inlined)
        and one whose executable cannot be built (its call says what fails)."""
        if under_trace():  # concrete values under an outer trace: part of its program
            return self._traced(variant, args)
        exe = None
        if sig is not None:
            exes = variant.exes
            run = None if exes is None else exes.get(spread(sig))
            if run is not None:
                self.used = True
                return run(*args)
            name = self._store_key(variant, sig, placement(args)) if storable(args) else None
            try:
                exe = self._executable(variant, args, name)
            except Exception:  # noqa: BLE001  (jax.jit's call below says what failed)
                exe = None
        if exe is not None:
            out = self._keep(variant, sig, exe)(*args)
        else:
            try:
                out = variant.jitted(*args)
            except ValueError as exc:
                check_devices(self.kernel.__name__, exc, args)
                raise
            self.used = True
        _exes.ran(self)
        return out

    def _keep(self, variant, sig, exe):
        """Hold ``exe`` in ``variant``'s table under ``sig`` (under ``spread(sig)`` where it
        spans several devices), counted among the live executables (a sweep that this
        registration sets off may drop the table, never the executable returned)."""
        exes = variant.exes
        if exes is None:
            exes = variant.exes = _exes.new_table(self)
        exes[sig if one_device(exe) else spread(sig)] = run = fast_call(exe)
        self.used = True
        _exes.register(variant, exes)
        return run

    def _store_key(self, variant, sig, device):
        """The store's key of ``variant`` on a call of key ``sig`` placed on ``device``, the
        lookup recorded (``LAXARRAY_RECORD``); ``None`` where the store is off or cannot key
        the call (a kernel or statics naming process objects; several devices)."""
        store = _open_store()
        if store is None or device is None:
            return None
        name = self.key(variant.masked, sig, device)
        if name is not None and _lookup_log.PATH:
            _lookup_log.note(self, variant.masked, sig, device)
        return name

    def key(self, masked, sig, device):
        """The store key of this binding's call (its ``masked`` variant or not) of signature
        ``sig`` placed on ``device``, the store open or not; ``None`` where the kernel or
        its statics name objects of this process alone."""
        if self._identity is None:   # the kernel's store text (its KernelId), the statics'
            text, items = self.kernel.id.store, describe(tuple(self.items))
            self._identity = False if text is None or items is None else (text, items)
        if self._identity is False:
            return None
        return store_key(*self._identity, masked, sig, device)

    def _executable(self, variant, args, name):
        """``variant``'s executable for ``args``: loaded from the store by the key ``name``,
        else from a portable tier (``exec_store.load_portable``), else built by the compile step and written there (``name`` ``None``: built only)."""
        if name is None:
            return compile_program(variant.jitted, args)
        store = _STORE[0]
        exe = store.load(name)   # (loaded on the default device alone: serialize.load_compiled)
        if exe is None:          # the portable tier: the class's baseline-ISA programs
            exe = _store.load_portable(name)
        if exe is None:
            exe = compile_program(variant.jitted, args)
            if one_device(exe):   # the key has no ambient mesh in it
                try:
                    store.put(name, serialize_compiled(exe))
                except NotSerializable:
                    pass  # kept for this process (a host callback: nothing to write)
        return exe

    def _masked_variant(self):
        """The masked variant: each input's padding set to its fill, then the kernel's
        body."""
        variant = self._masked
        if variant is None:
            kern, statics, fn = self.kernel, dict(self.items), self._fn
            fills = kern.fills or ()

            def body(*flat):
                n = len(flat) // 2
                xs = []
                for i, (x, e) in enumerate(zip(flat[:n], flat[n:])):
                    f = fills[i] if i < len(fills) else None
                    xs.append(x if f is None else mask_padding(x, e, f(x.dtype, statics)))
                return fn(*xs, flat[n:]) if kern.extents else fn(*xs)
            variant = self._masked = _Variant(body, True, kern.__name__)
        return variant


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
    the process' matmul precision (``modes.MATMUL_PRECISION``, a :class:`_Bindings`);
    ``_bounds``: per precision.  ``pointwise`` (a :class:`Pointwise`): an elementwise
    kernel -- no statics, its result of the inputs' broadcast shape, a body that needs no
    masking of padding -- which ``_calls.call`` runs on padded inputs at once.

    Its identity (:attr:`id`) is said here, once: ``factory=(path, args)`` for a kernel a
    function at ``path`` returns from ``args``; ``owner``, the kernel whose host path's
    traced body this is (``on_host``, made here); neither for a module's kernel.
    """

    __slots__ = ("fn", "static", "_bound", "_bounds", "fills", "shape", "bucket", "unpadded",
                 "extents", "host", "on_host", "pointwise", "_factory", "_owner", "_id", "__name__",
                 "__dict__")

    def __init__(self, fn, static, fills=None, shape=None, extents=False, host=None,
                 factory=None, owner=None, bucket=None, unpadded=(), pointwise=None):
        self.fn = fn
        self._factory, self._owner, self._id = factory, owner, None
        self.host = host    # a host_path.HostPath; its traced body is a kernel of its own
        self.on_host = None if host is None or host.traced is None else Kernel(
            host.traced, static, fills, shape, extents, owner=self, bucket=bucket, unpadded=unpadded)
        if host is not None:
            host.kernel = self
        self.static = frozenset(static)
        self._bounds = {}
        self._bound = self._bounds.setdefault(_modes.MATMUL_PRECISION, _Bindings())
        self.fills, self.shape, self.bucket = fills, shape, bucket
        self.unpadded, self.extents = tuple(unpadded), extents
        self.__name__, self.__doc__ = fn.__name__, fn.__doc__
        self.pointwise = pointwise
        if pointwise is not None:
            pointwise.bound = self.bind(())
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
        table = (self._bound if not _PRECISION.open else self._bounds.setdefault(
            _modes.get_matmul_precision(), _Bindings())).by_statics
        try:
            return table[key]
        except KeyError:
            pass
        names = {k for k, _ in static_items}
        if names != self.static:
            raise TypeError(f"{self.__name__}: static arguments {sorted(self.static)} "
                            f"expected; got {sorted(names)}")
        # setdefault: threads binding the same statics at once all get the first binding
        return table.setdefault(key, Bound(self, static_items))

    def on_buckets(self, static, items, shapes):
        """``(logical result shape, Bound of the buckets' statics)`` of a call (statics
        ``static``, as ``items`` too) on inputs of logical ``shapes``; ``(None, None)``:
        exact.  The rules are pure: their answers are kept (4096 per precision)."""
        bindings = self._bound if not _PRECISION.open else self._bounds.setdefault(
            _modes.get_matmul_precision(), _Bindings())
        said, key = bindings.said, (_static_key(items), *shapes)
        if len(said) >= 4096:
            said = bindings.said = {}
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


class Pointwise:
    """What an elementwise kernel declares (``Kernel(pointwise=...)``): ``name``, its public
    function's (errors name it); ``cast_first(p1, p2)``, for two padded operands of
    different dtypes, returns them cast to the dtype the body computes in (one cast program
    per dtype pair shared by every function, the function's own program then serving equal
    dtypes only), or ``None`` where the kernel promotes them itself.  ``bound``: the
    kernel's one binding (it has no statics), set by the kernel."""

    __slots__ = ("name", "cast_first", "bound")

    def __init__(self, name, cast_first=None):
        self.name, self.cast_first, self.bound = name, cast_first, None


class _Bindings:
    """A kernel's bindings under one matmul precision: by their static items
    (``by_statics``), and the bucket rules' answers (``said``: ``(static key, *input
    shapes)`` -> ``(logical result shape, Bound)``, :meth:`Kernel.on_buckets`)."""

    __slots__ = ("by_statics", "said")

    def __init__(self):
        self.by_statics, self.said = {}, {}


_KERNELS = []   # every Kernel: a change of precision switches each to that precision's table
_PRECISION = _modes.PRECISION


def _precision_changed(precision):
    for kern in _KERNELS:
        kern._bound = kern._bounds.setdefault(precision, _Bindings())


_modes.on_matmul_precision(_precision_changed)
# the matrix-product precision (numerics.under_precision) and the platform's record
# (LAXARRAY_PLATFORM) change the programs laxarray compiles: part of every store key
register_program_setting("laxarray_matmul_precision", _modes.get_matmul_precision)
register_program_setting("laxarray_backend", lambda: _backend.current().platform)


def kernel(static=(), fills=None, shape=None, extents=False, host=None, bucket=None,
           unpadded=()):
    """Decorator: make ``fn(*arrays, **static)`` a :class:`Kernel` with ``static`` names;
    with a ``shape`` rule it may run bucketed (see :class:`Kernel`); with ``host`` (a
    ``host_path.HostPath``) it takes that CPU host path where the path's gate lets it."""
    def deco(fn):
        return Kernel(fn, static, fills, shape, extents, host, bucket=bucket, unpadded=unpadded)
    return deco


def jit_function(fn, **jit_kwargs):
    """``jax.jit(fn, **jit_kwargs)`` for whole programs that are not kernels (solver loops,
    checkify's checked function, ``laxarray.jit``).  No compiler options: jax refuses them on
    a jit nested in another, and these may be.  Traced and called as 64-bit code
    (``jax_regions.as_64bit_code``): a region where a 32-bit caller traces it."""
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
