"""The standard's type promotion table, written out as data: the conformance oracle of
result dtypes.

The tables below are the four of the standard's "Type Promotion Rules" section (2025.12),
copied cell for cell in its type codes, plus the one pair its lattice diagram adds
(``bool`` with ``bool``).  Nothing here is computed by a library: NumPy's
``promote_types`` is what implementations (laxarray included) use, so an oracle that
called it would share their mistakes (``tests/conformance/test_promotion.py`` checks the
table against the standard's rules and against NumPy where both define a pair).

What the standard leaves undefined, and what the runner expects there:

- **bool with a number, integers with floating types** ("mixed-kind promotion is
  undefined"), **uint64 with a signed integer** (no integer type holds both): the
  standard's specs never draw these pairs (:func:`defined`), and :func:`result_type`
  raises :class:`UndefinedPromotion` for them.  The NumPy-surface specs (extension
  ``"numpy"``) take NumPy's promotion as their oracle, mixed kinds included: NumPy *is*
  the specification of those functions, and they say so where they call
  :func:`numpy_result_type`.
- **Python scalars** are not in the table: the standard converts a scalar to the array's
  dtype (``float`` with ``float32`` is ``float32``); ``spec.binary`` draws scalars of the
  array's own kind only.
"""

from __future__ import annotations

import functools

import numpy as np

#: the standard's type codes
CODES = {"i1": "int8", "i2": "int16", "i4": "int32", "i8": "int64",
         "u1": "uint8", "u2": "uint16", "u4": "uint32", "u8": "uint64",
         "f4": "float32", "f8": "float64", "c8": "complex64", "c16": "complex128"}

# the standard's tables, row by row (row type, then the result with each column type)
_SIGNED = """
          i1  i2  i4  i8
    i1    i1  i2  i4  i8
    i2    i2  i2  i4  i8
    i4    i4  i4  i4  i8
    i8    i8  i8  i8  i8
"""
_UNSIGNED = """
          u1  u2  u4  u8
    u1    u1  u2  u4  u8
    u2    u2  u2  u4  u8
    u4    u4  u4  u4  u8
    u8    u8  u8  u8  u8
"""
_MIXED = """
          u1  u2  u4
    i1    i2  i4  i8
    i2    i2  i4  i8
    i4    i4  i4  i8
    i8    i8  i8  i8
"""
_FLOATING = """
          f4  f8  c8  c16
    f4    f4  f8  c8  c16
    f8    f8  f8  c16 c16
    c8    c8  c16 c8  c16
    c16   c16 c16 c16 c16
"""


def _read(text):
    """``{(row, column): result}`` (dtype names) of one table."""
    header, *rows = [line.split() for line in text.strip().splitlines()]
    out = {}
    for row in rows:
        for col, cell in zip(header, row[1:], strict=True):
            out[(CODES[row[0]], CODES[col])] = CODES[cell]
    return out


def _symmetric(table):
    """``table`` with each pair also in the other order (the mixed table lists i x u)."""
    return {**table, **{(b, a): r for (a, b), r in table.items()}}


#: ``(dtype name, dtype name) -> result dtype name`` for every pair the standard defines
#: (both orders); ``bool`` promotes with ``bool`` only (the lattice's lone node).
PROMOTION_TABLE: dict[tuple[str, str], str] = {
    ("bool", "bool"): "bool",
    **_read(_SIGNED), **_read(_UNSIGNED), **_symmetric(_read(_MIXED)), **_read(_FLOATING),
}

#: every dtype the table knows
DTYPES = ("bool",) + tuple(CODES.values())

#: the real floating dtype of each complex one (``real``, ``abs``, ``linalg.svdvals`` ...)
REAL_OF = {"complex64": "float32", "complex128": "float64"}
#: the complex dtype of each real floating one (``linalg.eig``, ``fft.rfft`` ...)
COMPLEX_OF = {"float32": "complex64", "float64": "complex128"}


class UndefinedPromotion(TypeError):
    """The standard defines no result type for these dtypes."""


def defined(a, b):
    """Whether the standard's table defines the promotion of dtype names ``a`` and ``b``."""
    return (str(a), str(b)) in PROMOTION_TABLE


def promote(a, b):
    """The standard's result dtype name of ``a`` and ``b`` (dtype names or objects)."""
    key = (np.dtype(a).name, np.dtype(b).name)
    if key not in PROMOTION_TABLE:
        raise UndefinedPromotion(f"promote: the standard defines no promotion of {key[0]} "
                                 f"and {key[1]}")
    return PROMOTION_TABLE[key]


def result_type(*dtypes):
    """The standard's result dtype name of one or more dtypes (the table is associative)."""
    if not dtypes:
        raise ValueError("result_type: expected at least one dtype; got none")
    return functools.reduce(promote, dtypes[1:], np.dtype(dtypes[0]).name)


def real_of(dtype):
    """``dtype``'s name, or its real counterpart's for a complex dtype."""
    name = np.dtype(dtype).name
    return REAL_OF.get(name, name)


def numpy_result_type(*dtypes):
    """NumPy's result dtype name, for the NumPy-surface specs only (extension "numpy"):
    NumPy is the specification of those functions, mixed kinds included.  The standard's
    specs use :func:`result_type`."""
    return np.result_type(*[np.dtype(d) for d in dtypes]).name


__all__ = ["PROMOTION_TABLE", "CODES", "DTYPES", "REAL_OF", "COMPLEX_OF",
           "UndefinedPromotion", "defined", "promote", "result_type", "real_of",
           "numpy_result_type"]
