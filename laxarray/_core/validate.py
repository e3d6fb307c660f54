"""Argument checks shared by all functions: axes, shapes, devices, flags.

Each helper takes the public function's name first so messages name it, and returns a
hashable, normalised value ready to be a static kernel argument.
"""

from __future__ import annotations

import operator

from laxarray._core.dtypes import kind_of
from laxarray._core.errors import AxisError, fail, message, output_casting_error


def _as_int(fn, value, argname):
    if isinstance(value, bool):
        fail(TypeError, fn, f"an integer for '{argname}'", value)
    try:
        return operator.index(value)
    except TypeError:
        fail(TypeError, fn, f"an integer for '{argname}'", value)


def normalize_axis(fn: str, axis, ndim: int, argname: str = "axis") -> int:
    """One axis in ``[-ndim, ndim)`` -> a non-negative int; ``AxisError`` if out of range."""
    ax = _as_int(fn, axis, argname)
    if not -ndim <= ax < ndim:
        # NumPy's wording too ("axis 3 is out of bounds for array of dimension 2"): SciPy's
        # and scikit-learn's tests match it
        raise AxisError(message(fn, f"'{argname}' in [{-ndim}, {ndim}) for an array of "
                                f"rank {ndim}", ax)
                        + f" (axis {ax} is out of bounds for array of dimension {ndim})")
    return ax + ndim if ax < 0 else ax


def normalize_axes(fn: str, axis, ndim: int, argname: str = "axis") -> tuple:
    """``None`` (all axes), an int or a sequence of ints -> a sorted tuple of unique axes."""
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, (tuple, list)):
        axes = tuple(normalize_axis(fn, a, ndim, argname) for a in axis)
        if len(set(axes)) != len(axes):
            fail(ValueError, fn, f"unique axes for '{argname}'", axis)
        return tuple(sorted(axes))
    return (normalize_axis(fn, axis, ndim, argname),)


def normalize_shape(fn: str, shape, argname: str = "shape") -> tuple:
    """An int or a sequence of non-negative ints -> a tuple of ints."""
    if isinstance(shape, (tuple, list)):
        dims = tuple(_as_int(fn, d, argname) for d in shape)
    else:
        dims = (_as_int(fn, shape, argname),)
    if any(d < 0 for d in dims):
        fail(ValueError, fn, f"non-negative dimensions for '{argname}'", shape)
    return dims


def check_int(fn: str, value, argname: str, minimum=None) -> int:
    """A Python integer (not bool), optionally ``>= minimum``."""
    v = _as_int(fn, value, argname)
    if minimum is not None and v < minimum:
        fail(ValueError, fn, f"'{argname}' >= {minimum}", value)
    return v


def check_bool(fn: str, value, argname: str) -> bool:
    """A Python bool flag (``keepdims``, ``endpoint`` ...)."""
    if not isinstance(value, bool):
        fail(TypeError, fn, f"a bool for '{argname}'", value)
    return value


def check_choice(fn: str, value, argname: str, choices) -> str:
    """One of a fixed set of strings (``indexing='xy'``...)."""
    if not isinstance(value, str) or value not in choices:
        fail(ValueError, fn, f"'{argname}' to be one of {tuple(choices)}", value)
    return value


#: NumPy's order of kinds for its ``same_kind`` casting rule: a cast is allowed within a
#: kind and towards a later one (``uint -> int`` is, ``int -> uint`` is not).
_CAST_ORDER = {"b": 0, "u": 1, "i": 2, "f": 3, "c": 4}

#: The standard's function names that NumPy's ufuncs (and so NumPy's messages) spell otherwise.
NUMPY_UFUNC_NAMES = {
    "pow": "power", "bitwise_left_shift": "left_shift", "bitwise_right_shift": "right_shift",
    "bitwise_invert": "invert", "acos": "arccos", "acosh": "arccosh", "asin": "arcsin",
    "asinh": "arcsinh", "atan": "arctan", "atan2": "arctan2", "atanh": "arctanh",
    "min": "minimum", "max": "maximum",
}


def casts_same_kind(src, dst) -> bool:
    """Whether dtype ``src`` casts to ``dst`` under NumPy's ``same_kind`` rule (bfloat16 is
    a real floating dtype)."""
    return src == dst or _CAST_ORDER[kind_of(src)] <= _CAST_ORDER[kind_of(dst)]


def check_output_cast(fn: str, ufunc: str, src, dst, what: str | None = None):
    """NumPy's ``UFuncTypeError`` (a ``TypeError``) naming ``fn`` unless a result of dtype
    ``src`` casts back to ``dst`` by ``same_kind``; ``ufunc`` is the standard's name of the
    function computing it (NumPy's name goes in the message)."""
    if not casts_same_kind(src, dst):
        what = what or (f"a result that casts to {dst} by NumPy's 'same_kind' rule "
                        "(in-place operations keep the dtype)")
        raise output_casting_error(fn, NUMPY_UFUNC_NAMES.get(ufunc, ufunc), src, dst, what)
