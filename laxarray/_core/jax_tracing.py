"""Tracing internals for the jaxpr interpreter (``interpret.py``: sparsify, checkify) and
for the kernel helper: the primitives a walk of a jaxpr meets, version-tolerant readers of
their params, rules to define on a primitive, and what a traced program contains (the
kernel helper picks compiler options by it).
"""

from __future__ import annotations

import jax

from laxarray._core.jaxapi import (ClosedJaxpr, Literal, _jad, _jbatching, _jex, _jmlir, _jpe,
                                   _jprims, _jsrc)

# --- tracing internals used by the jaxpr interpreter (interpret.py, sparsify, checkify) -----


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


