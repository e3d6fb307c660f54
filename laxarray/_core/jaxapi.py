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
        from jaxlib import _jax
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


# --- tracing internals used by laxarray.checkify (jaxpr interpreter) -------------------------

import jax.extend.core.primitives as _jprims  # noqa: E402
import jax.extend.source_info_util as _jsrc  # noqa: E402
from jax.interpreters import ad as _jad  # noqa: E402
from jax.interpreters import batching as _jbatching  # noqa: E402
from jax.interpreters import mlir as _jmlir  # noqa: E402

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
    from jax.interpreters import partial_eval as _jpe
    _jpe.dce_rules[prim] = lambda used_outputs, eqn: ([True] * len(eqn.invars), eqn)


def define_lowering(prim, rule) -> None:
    """``rule(ctx, *args, **params) -> list of MLIR values`` (all platforms)."""
    _jmlir.register_lowering(prim, rule)


# --- tracing internals used by laxarray.sparse.transform (sparsify) --------------------------

add_any_p = _jad.add_jaxvals_p   # the sum of cotangents that jax.grad's jaxprs contain


# --- tracing internals used by the kernel helper (compiler options per program) --------------

def traced_program(fn, args):
    """Trace ``fn(*args)`` once: ``(names, dtypes, replay)`` -- the primitive names and the
    value dtypes of the program (nested programs -- ``jit``, ``cond``, ``while`` ... --
    included) and ``replay()``, which evaluates that program on ``args`` and returns what
    ``fn(*args)`` returns.  ``args`` may be tracers of an enclosing trace (then ``replay``
    binds the program's primitives into it)."""
    closed, out_shape = jax.make_jaxpr(fn, return_shape=True)(*args)
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

    def replay():
        flat = _jex.core.jaxpr_as_fun(closed)(*jax.tree.leaves(args))
        return jax.tree.unflatten(jax.tree.structure(out_shape), flat)
    return names, dtypes, replay
