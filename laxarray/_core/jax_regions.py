"""Regions: laxarray's part of a 32-bit user's program, traced, differentiated, batched and
lowered in 64-bit mode (the module's first comment says why), and the decorators that put
a call in one (:func:`in_wide_region`, :func:`as_64bit_code`).
"""

from __future__ import annotations

import functools

import jax
import numpy as np

from laxarray._core.jaxapi import (_CALLER, _X64, ClosedJaxpr, ConcreteArray, _jad, _jcore, _jex,
                                   _jmlir, _jpe, _jprims, caller_wide, enter, in_wide_mode,
                                   leave)

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
    wide_fn = in_wide_mode(fn)

    @functools.wraps(fn)
    def run_wide(*args, **kwargs):
        if (_CALLER.__dict__.get("user") is None and not _X64.value
                and _traced_argument(args, kwargs) and kwargs.get("out") is None):
            return region(lambda a, k: fn(*a, **k), (args, kwargs))
        return wide_fn(*args, **kwargs)       # (inside laxarray: fn itself)
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


