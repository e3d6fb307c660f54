"""Error types and message builders: every message reads ``"{function}: expected {what}; got {actual}"``.

Functions pass their own name once (usually from ``__name__``); nothing retypes it by hand.
"""

from __future__ import annotations

import numpy as np


class StoreHintWarning(UserWarning):
    """laxarray's one-time hint that its executable store is empty (a fresh machine compiles
    each new kernel once): a category of its own, so that a program can filter it
    (``warnings.filterwarnings("ignore", category=laxarray.StoreHintWarning)``) or the
    environment can (``LAXARRAY_STORE_HINT=0``)."""


class AxisError(np.exceptions.AxisError):
    """An axis argument out of range for the array's rank: NumPy's ``AxisError`` (a
    ``ValueError`` and an ``IndexError``), so code catching NumPy's catches it."""


class LinAlgError(np.linalg.LinAlgError):
    """A matrix argument of the wrong shape for a linalg function: NumPy's ``LinAlgError``
    (a ``ValueError``)."""


class DtypeValueError(TypeError, ValueError):
    """A dtype outside a function's category where NumPy raises ``ValueError`` (finfo of an
    integer type, iinfo of a float)."""


# Where the standard's class and NumPy's differ, the error is both (NumPy code catching
# NumPy's class and array-API code catching the standard's both work).

class IndexTypeError(IndexError, TypeError):
    """A slice bound or step that is not an integer (NumPy raises ``TypeError``)."""


class IndexValueError(IndexError, ValueError):
    """A slice step of zero (NumPy raises ``ValueError``)."""


class ZeroStepError(ValueError, ZeroDivisionError):
    """``arange`` with a zero step (NumPy raises ``ZeroDivisionError``)."""


class OperandValueError(TypeError, ValueError):
    """A scalar operand where an array of rank >= 1 is needed (NumPy: ``ValueError``)."""


def slice_error(fn: str, key):
    """The error for a slice ``key`` that ``slice.indices`` refused (NumPy's classes)."""
    step = key.step
    if step is not None and not isinstance(step, bool) and _is_integer(step) and step == 0:
        raise IndexValueError(message(fn, "a slice with a nonzero step", key))
    raise IndexTypeError(message(fn, "a slice of integers or None (static under jax.jit)",
                                 key))


def _is_integer(v):
    try:
        return int(v) == v and not isinstance(v, float)
    except (TypeError, ValueError):
        return False


def _type_name(value) -> str:
    """The name of ``value``'s type as a user knows it: a concrete jax array (what an
    ``Array`` holds, and what functions validate once they unwrapped their arguments) is
    ``Array`` -- jax's own public name for it -- not jaxlib's ``ArrayImpl``."""
    name = type(value).__name__
    return "Array" if name == "ArrayImpl" else name


def describe(value) -> str:
    """A short description of ``value`` for error messages (type, dtype and shape, not data)."""
    if isinstance(value, np.dtype):
        return f"dtype {value}"
    if isinstance(value, type):
        return f"type {value.__name__}"
    shape, dtype = getattr(value, "shape", None), getattr(value, "dtype", None)
    if shape is not None and dtype is not None and not isinstance(value, np.generic):
        return f"{_type_name(value)} of dtype {dtype} and shape {tuple(shape)}"
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


def shape_text(shape) -> str:
    """A shape as NumPy's messages spell it: ``(2,3)``, ``(2,)``, ``()``."""
    dims = tuple(shape)
    return "(" + ",".join(str(d) for d in dims) + ("," if len(dims) == 1 else "") + ")"


def broadcast_error(fn: str, expected: str, got, numpy_text: str) -> ValueError:
    """The ``ValueError`` for shapes that do not broadcast: laxarray's message (function,
    what was expected, the shapes), then NumPy's own sentence for the same failure in
    parentheses, so code matching NumPy's wording ("operands could not be broadcast
    together", "shape mismatch: objects cannot be broadcast to a single shape") matches."""
    return ValueError(f"{message(fn, expected, got)} ({numpy_text})")


def fail_text(exc_type, fn: str, text: str):
    """Raise ``exc_type('{fn}: {text}')`` for errors that are not "expected X; got Y"."""
    raise exc_type(f"{fn}: {text}")


def _numpy_output_casting_class():
    """NumPy's class for a ufunc result that does not cast to ``out``'s dtype (a
    ``UFuncTypeError``, hence a ``TypeError``), found by making NumPy raise it: NumPy keeps
    it in a private module."""
    try:
        np.add(np.zeros(1, np.int8), np.zeros(1, np.float64), out=np.zeros(1, np.int8))
    except TypeError as exc:
        return type(exc)
    return TypeError  # pragma: no cover (NumPy raises it since 1.17)


class UFuncOutputCastingError(_numpy_output_casting_class()):
    """A result whose dtype does not cast back to the array updated in place (or to
    ``out=``) under NumPy's ``same_kind`` rule: NumPy's own class (``except TypeError`` and
    ``except numpy.exceptions``-style handlers for NumPy's ``UFuncTypeError`` catch it), with
    laxarray's message, which contains NumPy's wording ("Cannot cast ufunc 'add' output
    from dtype('float64') to dtype('int32') with casting rule 'same_kind'")."""

    def __init__(self, text, ufunc=None, from_=None, to=None, casting="same_kind"):
        TypeError.__init__(self, text)
        # NumPy's attributes (``ufunc`` is NumPy's ufunc of that name when it has one)
        self.ufunc = getattr(np, ufunc, None) if isinstance(ufunc, str) else ufunc
        self.casting, self.from_, self.to, self.out_i = casting, from_, to, 0

    def __str__(self):
        return str(self.args[0])


def output_casting_error(fn: str, ufunc: str, from_, to, what: str):
    """The :class:`UFuncOutputCastingError` for ``fn``: ``what`` the result must be (its
    dtype ``from_`` does not cast to ``to``), then NumPy's sentence for the same failure."""
    from_, to = np.dtype(from_), np.dtype(to)
    text = (f"{message(fn, what, from_)}. Cannot cast ufunc {ufunc!r} output from "
            f"{from_!r} to {to!r} with casting rule 'same_kind'")
    return UFuncOutputCastingError(text, ufunc, from_, to)


class TracerConversionError(TypeError):
    """A traced (abstract) array was used where a concrete Python value is needed."""


def tracer_conversion(op: str):
    """Raise the error for ``bool(x)``/``int(x)``... on a traced array, saying what to do instead."""
    raise TracerConversionError(
        f"{op}: cannot convert a traced array to a Python value inside jax.jit/vmap/grad, "
        "because its value is not known while tracing. Use laxarray.where(...) for a "
        "value choice, or jax.lax.cond / jax.lax.while_loop for control flow, or mark the "
        "argument static (the static_argnames= option of jax.jit).")
