"""The promotion of two array operands as one literal table: a row and a column a dtype,
read by ``dtypes.promote_types`` (and ``result_type``); ``tests/core/test_promotion_table.py``
checks it against the standard's tables.  Plain data, no laxarray import: the table is the
whole of what it holds.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np

#: The promotion of two array operands: row dtype with column dtype, in the standard's type
#: codes (``i1`` int8 ... ``c16`` complex128) and ``b`` bool, ``f2`` float16, ``bf`` bfloat16.
#: Where the standard defines a result (``tests/core/test_promotion_table.py`` checks every
#: such cell against the standard's tables) it is the standard's; mixed kinds are NumPy 2's
#: (``i8`` with ``u8`` is ``f8``, ``i4`` with ``f4`` is ``f8``, ``b`` joins any number);
#: bfloat16 is jax's (it absorbs bool and every integer, meets float16 at float32, yields to
#: float32/float64 and the complex types).  A new dtype is a row and a column here.
_PROMOTION = """
     b   i1  i2  i4  i8  u1  u2  u4  u8  f2  bf  f4  f8  c8  c16
b    b   i1  i2  i4  i8  u1  u2  u4  u8  f2  bf  f4  f8  c8  c16
i1   i1  i1  i2  i4  i8  i2  i4  i8  f8  f2  bf  f4  f8  c8  c16
i2   i2  i2  i2  i4  i8  i2  i4  i8  f8  f4  bf  f4  f8  c8  c16
i4   i4  i4  i4  i4  i8  i4  i4  i8  f8  f8  bf  f8  f8  c16 c16
i8   i8  i8  i8  i8  i8  i8  i8  i8  f8  f8  bf  f8  f8  c16 c16
u1   u1  i2  i2  i4  i8  u1  u2  u4  u8  f2  bf  f4  f8  c8  c16
u2   u2  i4  i4  i4  i8  u2  u2  u4  u8  f4  bf  f4  f8  c8  c16
u4   u4  i8  i8  i8  i8  u4  u4  u4  u8  f8  bf  f8  f8  c16 c16
u8   u8  f8  f8  f8  f8  u8  u8  u8  u8  f8  bf  f8  f8  c16 c16
f2   f2  f2  f4  f8  f8  f2  f4  f8  f8  f2  f4  f4  f8  c8  c16
bf   bf  bf  bf  bf  bf  bf  bf  bf  bf  f4  bf  f4  f8  c8  c16
f4   f4  f4  f4  f8  f8  f4  f4  f8  f8  f4  f4  f4  f8  c8  c16
f8   f8  f8  f8  f8  f8  f8  f8  f8  f8  f8  f8  f8  f8  c16 c16
c8   c8  c8  c8  c16 c16 c8  c8  c16 c16 c8  c8  c8  c16 c8  c16
c16  c16 c16 c16 c16 c16 c16 c16 c16 c16 c16 c16 c16 c16 c16 c16
"""
#: the table's codes
CODES = {code: np.dtype(name) for code, name in (
    ("b", "bool"), ("i1", "int8"), ("i2", "int16"), ("i4", "int32"), ("i8", "int64"),
    ("u1", "uint8"), ("u2", "uint16"), ("u4", "uint32"), ("u8", "uint64"),
    ("f2", "float16"), ("f4", "float32"), ("f8", "float64"), ("c8", "complex64"),
    ("c16", "complex128"))}
CODES["bf"] = np.dtype(ml_dtypes.bfloat16)


def _read_promotion(text):
    header, *rows = (line.split() for line in text.strip().splitlines())
    return {(CODES[row[0]], CODES[col]): CODES[cell]
            for row in rows for col, cell in zip(header, row[1:], strict=True)}


#: ``(dtype, dtype) -> result dtype`` for every pair of the fifteen (both orders)
PROMOTION_TABLE = _read_promotion(_PROMOTION)
