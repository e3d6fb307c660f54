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
