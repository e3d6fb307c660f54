"""The only module that touches jax's tracing internals.

Everything the library needs from ``jax.core`` / ``jax.extend`` (tracer detection, jaxpr
types, primitives) is re-exported from here, so a jax upgrade changes one file.
"""

from __future__ import annotations

import jax
import jax.core as _jcore
import numpy as np
import jax.extend as _jex

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


_FAST_PUT = _fast_put_impl()


def put_like(host, like):
    """A device array holding the NumPy array ``host`` (which the caller never writes
    again), placed and committed like the single-device jax array ``like``."""
    sharding = like.sharding
    if _FAST_PUT is not None:
        return _FAST_PUT(_jcore.ShapedArray(host.shape, host.dtype), sharding, [host],
                         list(sharding.device_set), like._committed)
    return jax.device_put(host, sharding if like._committed else None)


def is_tracer(value) -> bool:
    """Whether ``value`` is an abstract value of a jax trace (jit, vmap, grad, make_jaxpr)."""
    return isinstance(value, Tracer)


def enable_x64() -> None:
    """Turn on jax's 64-bit mode (laxarray's default dtypes are 64-bit, as in NumPy)."""
    jax.config.update("jax_enable_x64", True)


def mode_32_bit():
    """A context in which jax traces in its 32-bit mode (``linalg._matrix_ops.polar_svd``)."""
    return jax.enable_x64(False)


# --- tracing internals used by the jaxpr interpreter (interpret.py, sparsify, checkify) -----

import jax.extend.core.primitives as _jprims  # noqa: E402
import jax.extend.source_info_util as _jsrc  # noqa: E402
from jax.interpreters import ad as _jad  # noqa: E402
from jax.interpreters import batching as _jbatching  # noqa: E402
from jax.interpreters import mlir as _jmlir  # noqa: E402
from jax.interpreters import partial_eval as _jpe  # noqa: E402

JaxprEqn = _jex.core.JaxprEqn
jit_p = _jprims.jit_p
cond_p = _jprims.cond_p
while_p = _jprims.while_p
scan_p = _jprims.scan_p
remat_p = _jprims.remat_p
closed_call_p = _jprims.closed_call_p
call_p = _jprims.call_p
custom_jvp_call_p = _jprims.custom_jvp_call_p
custom_vjp_call_p = _jprims.custom_vjp_call_p
jaxprs_in_params = _jex.core.jaxprs_in_params


def body_and_consts(jaxpr):
    """``(Jaxpr, consts)`` of a sub-program held in an equation's params, closed or open:
    jax 0.10's ``ClosedJaxpr`` (``.jaxpr``, ``.consts``) and open ``Jaxpr`` (no consts), and
    jax 0.11's one ``Jaxpr`` class (``ClosedJaxpr`` is an alias; a jaxpr carries its consts
    and ``.jaxpr`` is itself).  Evaluate with ``env[constvars] = consts``."""
    consts = getattr(jaxpr, "consts", None)
    if consts is None:
        return jaxpr, []
    return jaxpr.jaxpr, list(consts)


def scan_counts(params):
    """``(num_consts, num_carry)`` of a ``scan`` equation's params: jax 0.10 names them;
    jax 0.11 keeps the operand groups as a flat tree ``ft_in`` = (consts, carry, xs)."""
    if "num_consts" in params:
        return params["num_consts"], params["num_carry"]
    consts, carry, _ = params["ft_in"].unpack()
    return len(consts), len(carry)


def shard_map_params(eqn):
    """For a ``jax.shard_map`` equation (jax exports no name for its primitive; it is known
    by its name): ``(body Jaxpr, mesh, in_specs, out_specs, manual axes, check_vma)`` in the
    mesh's axis order; ``None`` for any other equation."""
    if eqn.primitive.name != "shard_map":
        return None
    p = eqn.params
    manual = tuple(a for a in p["mesh"].axis_names if a in p["newly_manual_axes"])
    return p["jaxpr"], p["mesh"], p["in_specs"], p["out_specs"], manual, p["check_vma"]


def bind_eqn(eqn, invals):
    """Re-bind one jaxpr equation on ``invals`` (as ``jax.core.eval_jaxpr`` does); a list of outputs."""
    params = eqn.primitive.get_bind_params(eqn.params)
    with eqn_context(eqn), eqn.ctx.manager:
        out = eqn.primitive.bind(*invals, **params)
    return list(out) if eqn.primitive.multiple_results else [out]


def eqn_context(eqn):
    """A context manager that attributes primitives bound inside it to ``eqn``'s source line."""
    return _jsrc.user_context(eqn.source_info.traceback,
                              name_stack=_jsrc.current_name_stack() + eqn.source_info.name_stack)


def source_frames(eqn):
    """``(file, line, function)`` for each Python frame that bound ``eqn``, innermost first."""
    tb = eqn.source_info.traceback
    if tb is None:
        return []
    return [(f.file_name, f.line_num, f.function_name) for f in tb.frames]


def define_batching_rule(prim, rule) -> None:
    """``rule(args, dims, **params) -> (outs, out_dims)``; unbatched dims are ``None``."""
    _jbatching.primitive_batchers[prim] = rule


def define_jvp_rule(prim, rule) -> None:
    """``rule(primals, tangents, **params) -> (primal_outs, tangent_outs)``."""
    _jad.primitive_jvps[prim] = rule


def keep_when_unused(prim) -> None:
    """Never dead-code-eliminate ``prim`` (a check with no outputs: jax's DCE, e.g. inside
    ``jax.checkpoint``, would otherwise drop it)."""
    _jpe.dce_rules[prim] = lambda used_outputs, eqn: ([True] * len(eqn.invars), eqn)


def define_lowering(prim, rule) -> None:
    """``rule(ctx, *args, **params) -> list of MLIR values`` (all platforms)."""
    _jmlir.register_lowering(prim, rule)


# --- tracing internals used by laxarray.sparse.transform (sparsify) --------------------------

add_any_p = _jad.add_jaxvals_p   # the sum of cotangents that jax.grad's jaxprs contain


# --- tracing internals used by the kernel helper (compiler options per program) --------------

def program_contents(closed):
    """``(names, dtypes)``: the primitive names and value dtypes of the closed jaxpr
    ``closed``, nested programs (``jit``, ``cond``, ``while`` ...) included."""
    names, dtypes = set(), set()

    def walk(jaxpr):
        for v in (*jaxpr.constvars, *jaxpr.invars):
            dtypes.add(getattr(v.aval, "dtype", None))
        for eqn in jaxpr.eqns:
            names.add(eqn.primitive.name)
            for v in eqn.outvars:
                dtypes.add(getattr(v.aval, "dtype", None))
            for sub in jaxprs_in_params(eqn.params):
                walk(sub)
    walk(closed.jaxpr)
    return names, dtypes


def _eval_trace_type():
    with jax.core.eval_context(), _jex.core.take_current_trace() as trace:
        return type(trace)


_EVAL_TRACE = _eval_trace_type()


def under_trace() -> bool:
    """Whether a trace (``jax.jit``, ``make_jaxpr``, ``grad`` ...) is open in this thread: a
    computation on concrete values is then part of that program."""
    with _jex.core.take_current_trace() as trace:
        return type(trace) is not _EVAL_TRACE


def _in_scope(eqn, scope) -> bool:
    return scope in str(eqn.source_info.name_stack).split("/")


def without_scope(closed, scope):
    """``(program, found)``: the closed jaxpr ``closed`` less the equations traced under the
    name scope ``scope`` (``jax.named_scope``) at its top level, where each such group ends
    in a ``select_n`` whose result stands for its second operand (``lax.select(test, other,
    value)``'s ``value``); ``program`` is ``closed`` itself where there are none there.
    ``found``: whether any equation, nested programs' included, is under ``scope``."""
    found = [False]

    def walk(jaxpr):
        for eqn in jaxpr.eqns:
            if found[0]:
                return
            if _in_scope(eqn, scope):
                found[0] = True
                return
            for sub in jaxprs_in_params(eqn.params):
                walk(sub)
    walk(closed.jaxpr)
    jaxpr = closed.jaxpr
    if not found[0] or not any(_in_scope(e, scope) for e in jaxpr.eqns):
        return closed, found[0]
    same = {}   # a select's result -> the value it stands for

    def read(v):
        while not isinstance(v, Literal) and v in same:
            v = same[v]
        return v
    eqns = []
    for eqn in jaxpr.eqns:
        if not _in_scope(eqn, scope):
            eqns.append(eqn.replace(invars=[read(v) for v in eqn.invars]))
        elif eqn.primitive.name == "select_n":
            same[eqn.outvars[0]] = eqn.invars[1]
    program = jaxpr.replace(eqns=eqns, outvars=[read(v) for v in jaxpr.outvars])
    return ClosedJaxpr(program, closed.consts), True


def program_function(closed, out_tree, name):
    """The function named ``name`` that evaluates ``closed`` on the leaves of its arguments
    and returns its results in the pytree structure ``out_tree``."""
    run = _jex.core.jaxpr_as_fun(closed)

    def program(*args):
        return jax.tree.unflatten(out_tree, run(*jax.tree.leaves(args)))
    program.__name__ = program.__qualname__ = name
    return program


# --- host calls (laxarray.array_api._host_order) ----------------------------------------------

_host_call_p = Primitive("host_callback")
_host_call_p.multiple_results = True
host_call_p = _host_call_p  # for jaxpr interpreters that tell a host call apart (sparsify)


def host_call(fn, results, *args, vmap_method="broadcast_all"):
    """``fn(*args)`` run by NumPy on the host, inside or outside a trace: what
    ``jax.pure_callback`` does, with one copy of each operand less.

    ``fn`` takes NumPy arrays and returns one of the shape and dtype of ``results`` (a
    ``jax.ShapeDtypeStruct``), or a tuple of them for a tuple of those -- and ``host_call``
    returns the same structure, as ``jax.pure_callback`` does.  ``vmap_method`` is
    ``jax.pure_callback``'s: ``"broadcast_all"`` (``fn`` takes the batch as a leading axis
    of every operand) or ``"sequential"`` (one call per batch element).

    Why not ``jax.pure_callback``: jaxlib hands a callback its operands already copied
    out of XLA's buffers, and ``pure_callback`` then ``device_put``s each one into a fresh
    jax array -- a second copy, 50 ms per 80 MB measured on CPU.  This primitive lowers
    to the same host call and gives ``fn`` jaxlib's NumPy arrays as they come.  In a
    program that XLA partitions over several devices it lowers through
    ``jax.pure_callback`` itself (which places the call on one device).  No derivative
    rule: callers differentiate around it (``stop_gradient``, ``custom_jvp``)."""
    if type(results) is not tuple:
        return host_call(lambda *a: (fn(*a),), (results,), *args, vmap_method=vmap_method)[0]
    avals = tuple(_jcore.ShapedArray(r.shape, np.dtype(r.dtype)) for r in results)
    return tuple(_host_call_p.bind(*args, fn=fn, avals=avals, vmap_method=vmap_method))


def _host_call_run(fn, args, avals):
    outs = fn(*(np.asarray(a) for a in args))
    if len(outs) != len(avals):
        raise RuntimeError(f"host_call: {fn} returned {len(outs)} results, not {len(avals)}")
    outs = [np.asarray(o) for o in outs]
    for o, aval in zip(outs, avals):
        if o.shape != aval.shape or o.dtype != aval.dtype:
            raise RuntimeError(f"host_call: {fn} returned {o.dtype}{list(o.shape)}, "
                               f"not {aval.dtype}{list(aval.shape)}")
    return outs


def _host_call_impl(*args, fn, avals, vmap_method):
    del vmap_method
    outs = _host_call_run(fn, args, avals)
    devices = [next(iter(a.sharding.device_set)) for a in args
               if isinstance(a, ConcreteArray) and len(a.sharding.device_set) == 1]
    return [jax.device_put(o, devices[0] if devices else None) for o in outs]


def _host_call_lowering(ctx, *args, fn, avals, vmap_method):
    if any(0 in a.shape for a in (*ctx.avals_in, *avals)):
        return _jmlir.lower_fun(_without_empty(fn, ctx.avals_in, avals, vmap_method),
                                multiple_results=True)(ctx, *args)
    if _one_device(ctx):
        def call(*xs):
            return tuple(_host_call_run(fn, xs, avals))
        outs, _, _ = _jmlir.emit_python_callback(
            ctx, call, None, list(args), ctx.avals_in, ctx.avals_out,
            has_side_effect=False, returns_token=False)
        return outs

    def through_jax(*xs):
        shapes = tuple(jax.ShapeDtypeStruct(a.shape, a.dtype) for a in avals)
        run = lambda *ys: tuple(_host_call_run(fn, ys, avals))  # noqa: E731
        return jax.pure_callback(run, shapes, *xs, vmap_method=vmap_method)
    return _jmlir.lower_fun(through_jax, multiple_results=True)(ctx, *args)


def _without_empty(fn, avals_in, avals, vmap_method):
    """A host call with its empty operands and results taken out of the program: an empty
    operand is handed to ``fn`` as an empty NumPy array made on the host, an empty result
    is a constant, and with no result left no call is made.  (On a TPU a host call that
    moves a zero-byte buffer aborts the process, asynchronously, in libtpu's host-command
    dispatcher: "HostCommand byte_offset -1 is not aligned to 512", ``linalg.eig`` of a
    0x0 matrix on the chip; the rule holds on every backend.)"""
    empty_in = [0 in a.shape for a in avals_in]
    empty_out = [0 in a.shape for a in avals]
    blanks = [(i, np.empty(a.shape, a.dtype)) for i, (a, e) in enumerate(zip(avals_in, empty_in))
              if e]
    wanted = tuple(a for a, e in zip(avals, empty_out) if not e)

    def inner(*kept):
        full = list(kept)
        for i, blank in blanks:          # ascending positions: each insert lands in place
            full.insert(i, blank)
        outs = fn(*full)
        return tuple(o for o, e in zip(outs, empty_out) if not e)

    def body(*xs):
        kept = [x for x, e in zip(xs, empty_in) if not e]
        got = iter(_host_call_p.bind(*kept, fn=inner, avals=wanted, vmap_method=vmap_method)
                   if wanted else ())
        return [jax.lax.full(a.shape, 0, a.dtype) if e else next(got)
                for a, e in zip(avals, empty_out)]
    return body


def _one_device(ctx) -> bool:
    """Whether the program being lowered runs on one device, unpartitioned (where a host
    call needs no sharding annotation)."""
    try:
        axis = ctx.module_context.axis_context
        return type(axis).__name__ == "ShardingContext" and axis.num_devices == 1
    except AttributeError:
        return False


def _host_call_batch(args, dims, *, fn, avals, vmap_method):
    size = next(a.shape[d] for a, d in zip(args, dims) if d is not None)
    front = [a if d is None else _to_front(a, d) for a, d in zip(args, dims)]
    if vmap_method == "sequential":
        batched = [d is not None for d in dims]

        def one(rows):
            it = iter(rows)
            xs = [next(it) if b else a for a, b in zip(front, batched)]
            return tuple(_host_call_p.bind(*xs, fn=fn, avals=avals, vmap_method=vmap_method))
        outs = jax.lax.map(one, tuple(a for a, b in zip(front, batched) if b))
    else:
        front = [jax.lax.broadcast(a, (size,)) if d is None else a
                 for a, d in zip(front, dims)]
        big = tuple(_jcore.ShapedArray((size, *a.shape), a.dtype) for a in avals)
        outs = _host_call_p.bind(*front, fn=fn, avals=big, vmap_method=vmap_method)
    return list(outs), [0] * len(avals)


def _to_front(a, d):
    if d == 0:
        return a
    perm = (d, *(i for i in range(a.ndim) if i != d))
    return jax.lax.transpose(a, perm)


_host_call_p.def_impl(_host_call_impl)
_host_call_p.def_abstract_eval(lambda *args, fn, avals, vmap_method: list(avals))
_jmlir.register_lowering(_host_call_p, _host_call_lowering, cacheable=False)
_jbatching.primitive_batchers[_host_call_p] = _host_call_batch


# --- serialized executables (laxarray._core.exec_store) --------------------------------------
#
# ``jax.experimental.serialize_executable`` is the one module of ``jax.experimental`` the
# library may use, and only here (tests/test_house_rules.py allows exactly this import).

from jax.experimental import serialize_executable as _serialize  # noqa: E402
import pickle as _pickle  # noqa: E402
import re as _re  # noqa: E402
import threading as _threading  # noqa: E402
import weakref as _weakref  # noqa: E402

import jax.monitoring  # noqa: E402

from laxarray._core.hlo_text import (has_object_code, needs_no_code, platform_of,  # noqa: E402
                                     program_text)

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
    ``benchmarks/store_check.py``), so only the CPU's are checked."""
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
                                                   execution_devices=[_default_device()])
    except Exception as err:  # noqa: BLE001  (unpickling and XLA raise many kinds)
        raise NotLoadable(f"load_compiled: expected a blob from serialize_compiled in this "
                          f"environment; got one that does not load "
                          f"({type(err).__name__}: {err})") from err
    _LOADED.add(compiled)
    return compiled


def _default_device():
    """The device an uncommitted array lands on (``jax_default_device``, else the first)."""
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
