"""Error types and message builders: every message reads ``"{function}: expected {what}; got {actual}"``.

Functions pass their own name once (usually from ``__name__``); nothing retypes it by hand.
"""

from __future__ import annotations

import numpy as np


class AxisError(ValueError, IndexError):
    """An axis argument out of range for the array's rank (NumPy's ``AxisError``)."""


def describe(value) -> str:
    """A short description of ``value`` for error messages (type, dtype and shape, not data)."""
    if isinstance(value, np.dtype):
        return f"dtype {value}"
    if isinstance(value, type):
        return f"type {value.__name__}"
    shape, dtype = getattr(value, "shape", None), getattr(value, "dtype", None)
    if shape is not None and dtype is not None and not isinstance(value, np.generic):
        return f"{type(value).__name__} of dtype {dtype} and shape {tuple(shape)}"
    text = repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"{text} (type {type(value).__name__})"


def message(fn: str, expected: str, got) -> str:
    """The standard message; ``got`` is an object, described by :func:`describe`."""
    return f"{fn}: expected {expected}; got {describe(got)}"


def fail(exc_type, fn: str, expected: str, got):
    """Raise ``exc_type`` with the standard message. Never returns."""
    raise exc_type(message(fn, expected, got))


def fail_text(exc_type, fn: str, text: str):
    """Raise ``exc_type('{fn}: {text}')`` for errors that are not "expected X; got Y"."""
    raise exc_type(f"{fn}: {text}")


class TracerConversionError(TypeError):
    """A traced (abstract) array was used where a concrete Python value is needed."""


def tracer_conversion(op: str):
    """Raise the error for ``bool(x)``/``int(x)``... on a traced array, saying what to do instead."""
    raise TracerConversionError(
        f"{op}: cannot convert a traced array to a Python value inside jax.jit/vmap/grad, "
        "because its value is not known while tracing. Use laxarray.where(...) for a "
        "value choice, or jax.lax.cond / jax.lax.while_loop for control flow, or mark the "
        "argument static (jax.jit(..., static_argnames=...)).")
