"""The only module that touches jax's tracing internals.

Everything the library needs from ``jax.core`` / ``jax.extend`` (tracer detection, jaxpr
types, primitives) is re-exported from here, so a jax upgrade changes one file.
"""

from __future__ import annotations

import jax
import jax.core as _jcore
import jax.extend as _jex

Tracer = _jcore.Tracer
ClosedJaxpr = _jex.core.ClosedJaxpr
Jaxpr = _jex.core.Jaxpr
Literal = _jex.core.Literal
Primitive = _jex.core.Primitive


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
