"""The only module that touches jax's tracing internals.

Everything the library needs from ``jax.core`` / ``jax.extend`` (tracer detection, jaxpr
types, primitives) is re-exported from here, so a jax upgrade changes one file.
"""

from __future__ import annotations

import functools
import threading

import jax
import jax.core as _jcore
import numpy as np
import jax.extend as _jex

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


# --- tracing internals used by the jaxpr interpreter (interpret.py, sparsify, checkify) -----

import jax.extend.core.primitives as _jprims  # noqa: E402
import jax.extend.linear_util  # noqa: E402,F401  (jax.extend does not import it)
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


# --- regions: laxarray's part of a 32-bit user's program, in 64-bit mode ------------------------
#
# jax lowers, differentiates and batches a program in the mode in force where it does so --
# for a user's ``jax.jit`` or ``jax.grad``, the user's -- and some of its rules trace new
# operations with the dtype they read: in 32-bit mode float64 becomes float32 there (a
# gather's transpose makes float32 zeros for float64 cotangents, an argmax's lowering a
# float32 initial value) and the program is refused.  A region is laxarray's call as one
# call equation (``laxarray``) of the user's program whose every rule runs in 64-bit mode:
# binding it (tracing the body, its JVP, linearization, partial evaluation, batching: jax
# does each inside the bind), transposing it (the body's linear part, transposed by
# ``jax.linear_transpose``, as a region again) and lowering it.  XLA inlines the call: the
# compiled program is the same.

class _RegionPrimitive(_jex.core.CallPrimitive):
    """A call primitive whose every binding runs in 64-bit mode."""

    def bind_with_trace(self, trace, args, avals, params):
        prev = _X64.swap_local(True)
        try:
            return super().bind_with_trace(trace, args, avals, params)
        finally:
            _X64.set_local(prev)


region_p = _RegionPrimitive("laxarray")
region_p.def_impl(_jex.core.call_impl)


def _region_lowering(ctx, *args, call_jaxpr, name="laxarray", **_):
    prev = _X64.swap_local(True)
    try:
        return _jmlir.core_call_lowering(ctx, *args, name=name, call_jaxpr=call_jaxpr)
    finally:
        _X64.set_local(prev)


def _region_partial_eval(*args, **kwargs):
    prev = _X64.swap_local(True)
    try:
        return _CALL_PARTIAL_EVAL(*args, **kwargs)
    finally:
        _X64.set_local(prev)


def _region_transpose(params, call_jaxpr, primals, cts, cts_avals):
    prev = _X64.swap_local(True)
    try:
        linear = [_jad.is_undefined_primal(p) for p in primals]
        known = [p for p, lin in zip(primals, linear) if not lin]
        structs = [jax.ShapeDtypeStruct(p.aval.shape, p.aval.dtype)
                   for p, lin in zip(primals, linear) if lin]
        cts = [_jad.instantiate_zeros(c) for c in cts]
        run = _jex.core.jaxpr_as_fun(ClosedJaxpr(call_jaxpr, ()))

        def transposed(*flat):
            values, cotangents = flat[:len(known)], flat[len(known):]

            def forward(*lins):
                vals, ins = iter(values), iter(lins)
                return run(*[next(ins) if lin else next(vals) for lin in linear])
            return list(jax.linear_transpose(forward, *structs)(list(cotangents)))
        outs = iter(region_p.bind(*known, *cts, subfuns=(_wrapped(transposed),)))
        return [next(outs) if lin else None for lin in linear]
    finally:
        _X64.set_local(prev)


def _wrapped(fn):
    return _jex.linear_util.wrap_init(fn, debug_info=_jex.core.DebugInfo(
        "laxarray", fn.__name__, None, None))


_CALL_PARTIAL_EVAL = _jpe.partial_eval_jaxpr_custom_rules[_jprims.call_p]
_jmlir.register_lowering(region_p, _region_lowering)
_jpe.dce_rules[region_p] = _jpe.dce_jaxpr_call_rule
_jpe.partial_eval_jaxpr_custom_rules[region_p] = _region_partial_eval
_jad.primitive_transposes[region_p] = _region_transpose


def region(fn, args):
    """``fn(*args)`` (a laxarray kernel's body, or a whole laxarray function, on traced
    values of a 32-bit caller's trace) as a region: one ``laxarray`` equation of the caller's
    program whose body is traced, differentiated, transposed, batched and lowered in 64-bit
    mode.  ``args``' leaves that are tracers are the equation's operands; everything else
    (Python scalars, NumPy constants, statics) is closed over, as operands they would be
    converted in the caller's mode.  Of ``fn``'s result, the jax values are the equation's
    results and the rest (Python values) is returned as it is.  ``fn`` runs as 64-bit code
    (:func:`caller_wide` is true inside: no region within a region)."""
    leaves, in_tree = jax.tree.flatten(args)
    moving = [i for i, x in enumerate(leaves) if isinstance(x, _jcore.Tracer)]
    shape = []        # (tree of the result, its Python leaves by position): one per trace

    def body(*xs):
        full = list(leaves)
        for i, x in zip(moving, xs):
            full[i] = x
        state = _CALLER.__dict__
        outer, state["user"] = state.get("user"), True
        try:
            outs, tree = jax.tree.flatten(fn(*jax.tree.unflatten(in_tree, full)))
        finally:
            state["user"] = outer
        fixed = {i: o for i, o in enumerate(outs) if not _is_value(o)}
        shape.append((tree, fixed))
        return [o for i, o in enumerate(outs) if i not in fixed]
    outs = iter(region_p.bind(*[leaves[i] for i in moving], subfuns=(_wrapped(body),)))
    tree, fixed = shape[0]
    return jax.tree.unflatten(tree, [fixed[i] if i in fixed else next(outs)
                                     for i in range(tree.num_leaves)])


def staged(fn, *args):
    """``fn(*args)`` on values an outer trace holds, in 64-bit mode: a :func:`region` where
    the caller is 32-bit (outside every laxarray call, or in one of a 32-bit caller's)."""
    if not caller_wide():
        return region(fn, args)
    token = enter()
    try:
        return fn(*args)
    finally:
        leave(token)


def _is_value(x) -> bool:
    return isinstance(x, (_jcore.Tracer, ConcreteArray, np.ndarray))


#: ``[Array]``: the Array type, set by its module (which imports this one): an Array
#: argument holding a tracer tells :func:`in_wide_region` that a caller traces it
ARRAY_TYPE = [None]


def _traced_argument(args, kwargs) -> bool:
    """Whether an argument (or an item of a list or tuple argument) is traced."""
    array = ARRAY_TYPE[0]
    for a in (*args, *kwargs.values()) if kwargs else args:
        t = type(a)
        if t is array:
            if a._is_traced():
                return True
        elif t is list or t is tuple:
            if _traced_argument(a, {}):
                return True
        elif isinstance(a, _jcore.Tracer):
            return True
    return False


def in_wide_region(fn):
    """:func:`in_wide_mode` for a function whose result is new arrays (no view of an argument,
    no argument written, no ``out=``): where a 32-bit caller traces it (an argument is
    traced), the whole call is one :func:`region` of the caller's program, whatever jax
    operations it runs outside kernels.  Called from inside laxarray (64-bit mode already
    on), it is the function itself."""
    @functools.wraps(fn)
    def run_wide(*args, **kwargs):
        state = _CALLER.__dict__
        if state.get("user") is not None:       # inside laxarray: the mode is its own
            return fn(*args, **kwargs)
        user = _X64.value
        if not user and _traced_argument(args, kwargs) and kwargs.get("out") is None:
            return region(lambda a, k: fn(*a, **k), (args, kwargs))
        state["user"] = user
        prev = _X64.swap_local(True)
        try:
            return fn(*args, **kwargs)
        finally:
            _X64.set_local(prev)
            state["user"] = None
    return run_wide


def as_64bit_code(fn):
    """``fn`` (a function a laxarray transformation made: checkify's, sparsify's, a jitted
    program's) run as 64-bit code: everything it traces is laxarray's own, in 64-bit mode,
    without regions -- its interpreters see jax's primitives --, and called on traced values
    of a 32-bit caller it is one region of the caller's program."""
    @functools.wraps(fn)
    def run_64(*args, **kwargs):
        if not caller_wide() and any(isinstance(x, _jcore.Tracer)
                                     for x in jax.tree.leaves((args, kwargs))):
            return region(lambda a, k: fn(*a, **k), (args, kwargs))
        state = _CALLER.__dict__
        outer, state["user"] = state.get("user"), True
        prev = _X64.swap_local(True)
        try:
            return fn(*args, **kwargs)
        finally:
            _X64.set_local(prev)
            state["user"] = outer
    return run_64


# --- tracing internals used by laxarray.sparse._sparsify (sparsify) --------------------------

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
    return [device_put(o, devices[0] if devices else None) for o in outs]


# A host call's 64-bit values cross between the program and the host as 32-bit words: jax
# converts what a callback returns to the dtypes of the mode in force in the thread that
# runs the program (``jax.pure_callback`` its operands too), and a user's program runs in the
# user's mode, 32-bit by default, where float64 would arrive as float32.  uint32 is the same
# in every mode; the program bitcasts the words back (free: the bits do not move).

_U32 = np.dtype(np.uint32)


#: the dtypes jax's 32-bit mode would narrow (complex128's two parts are float64 each)
_NARROWED = frozenset(map(np.dtype, ("int64", "uint64", "float64", "complex128")))


def _wire_aval(aval):
    """The aval ``aval``'s values cross as: uint32 words for a dtype 32-bit mode narrows."""
    dtype = np.dtype(aval.dtype)
    if dtype not in _NARROWED:
        return aval
    return _jcore.ShapedArray((*aval.shape, dtype.itemsize // 4), _U32)


def _to_wire_host(value, aval):
    """The NumPy ``value`` (of ``aval``) as the words :func:`_wire_aval` says (a view)."""
    wire = _wire_aval(aval)
    if wire is aval:
        return value
    return np.ascontiguousarray(value).view(_U32).reshape(wire.shape)


def _from_wire_host(value, aval):
    value = np.asarray(value)
    if _wire_aval(aval) is aval:
        return value
    return np.ascontiguousarray(value).view(np.dtype(aval.dtype)).reshape(aval.shape)


def _to_wire(x, aval):
    """The traced ``x`` (of ``aval``) as its words, in the program."""
    dtype = np.dtype(aval.dtype)
    if _wire_aval(aval) is aval:
        return x
    if dtype.kind == "c":   # (no bitcast of complex values: their two parts, then words)
        parts = jax.lax.concatenate([jax.lax.expand_dims(jax.lax.real(x), (-1,)),
                                     jax.lax.expand_dims(jax.lax.imag(x), (-1,))], x.ndim)
        words = jax.lax.bitcast_convert_type(parts, _U32)    # (..., 2 parts, 2 words)
        return jax.lax.reshape(words, (*aval.shape, 4))
    return jax.lax.bitcast_convert_type(x, _U32)


def _from_wire(w, aval):
    dtype = np.dtype(aval.dtype)
    if _wire_aval(aval) is aval:
        return w
    if dtype.kind == "c":
        parts = jax.lax.bitcast_convert_type(jax.lax.reshape(w, (*aval.shape, 2, 2)),
                                             np.dtype(np.float64))
        n = len(aval.shape)
        return jax.lax.complex(jax.lax.index_in_dim(parts, 0, n, keepdims=False),
                               jax.lax.index_in_dim(parts, 1, n, keepdims=False))
    return jax.lax.bitcast_convert_type(w, dtype)


def _host_call_lowering(ctx, *args, fn, avals, vmap_method):
    with wide():   # (what lower_fun traces here keeps its float64: see wide)
        return _host_call_lowering_wide(ctx, *args, fn=fn, avals=avals,
                                        vmap_method=vmap_method)


def _host_call_lowering_wide(ctx, *args, fn, avals, vmap_method):
    if any(0 in a.shape for a in (*ctx.avals_in, *avals)):
        return _jmlir.lower_fun(_without_empty(fn, ctx.avals_in, avals, vmap_method),
                                multiple_results=True)(ctx, *args)
    wires = [_wire_aval(a) for a in avals]
    if _one_device(ctx):
        def call(*xs):
            return tuple(_to_wire_host(o, a)
                         for o, a in zip(_host_call_run(fn, xs, avals), avals))
        outs, _, _ = _jmlir.emit_python_callback(
            ctx.replace(avals_out=wires), call, None, list(args), ctx.avals_in, wires,
            has_side_effect=False, returns_token=False)
        if all(w is a for w, a in zip(wires, avals)):
            return outs

        def decode(*ws):
            return [_from_wire(w, a) for w, a in zip(ws, avals)]
        return _jmlir.lower_fun(decode, multiple_results=True)(
            ctx.replace(avals_in=wires, avals_out=list(avals)), *outs)

    avals_in = list(ctx.avals_in)

    def through_jax(*xs):
        shapes = tuple(jax.ShapeDtypeStruct(w.shape, w.dtype) for w in wires)

        def run(*ys):
            ys = [_from_wire_host(y, a) for y, a in zip(ys, avals_in)]
            return tuple(_to_wire_host(o, a)
                         for o, a in zip(_host_call_run(fn, ys, avals), avals))
        outs = jax.pure_callback(run, shapes, *(_to_wire(x, a) for x, a in zip(xs, avals_in)),
                                 vmap_method=vmap_method)
        return [_from_wire(w, a) for w, a in zip(outs, avals)]
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
