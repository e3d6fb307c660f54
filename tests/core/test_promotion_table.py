"""laxarray's one promotion table (``_core.promotion_table.PROMOTION_TABLE``) against the standard:
every cell the standard defines is the standard's, the rest is NumPy 2's (mixed kinds,
float16) or jax's (bfloat16), and ``result_type`` of several dtypes is NumPy's.

The standard's four tables below are copied from its text (2025.12, "Type Promotion
Rules", ``type_promotion.rst``), cell for cell in its type codes; the repository never
reads the standard at test time.  The conformance oracle (``conformance/promotion.py``)
holds the same tables, copied independently, and is checked against them here too."""

import functools
import itertools

import jax.numpy as jnp
import numpy as np
import pytest

import laxarray as la
from laxarray._core import dtypes as D
from laxarray._core import promotion_table as P
from laxarray.conformance import promotion as oracle

# the standard's tables: the row type, then the result with each column type
STANDARD = """
      i1  i2  i4  i8
i1    i1  i2  i4  i8
i2    i2  i2  i4  i8
i4    i4  i4  i4  i8
i8    i8  i8  i8  i8

      u1  u2  u4  u8
u1    u1  u2  u4  u8
u2    u2  u2  u4  u8
u4    u4  u4  u4  u8
u8    u8  u8  u8  u8

      u1  u2  u4
i1    i2  i4  i8
i2    i2  i4  i8
i4    i4  i4  i8
i8    i8  i8  i8

      f4  f8  c8  c16
f4    f4  f8  c8  c16
f8    f8  f8  c16 c16
c8    c8  c16 c8  c16
c16   c16 c16 c16 c16
"""


def _standard():
    """``{(dtype, dtype): dtype}``: the four tables, the mixed one in both orders, and
    bool with bool (the lattice's lone node)."""
    cells = {(D.bool_, D.bool_): D.bool_}
    for block in STANDARD.strip().split("\n\n"):
        header, *rows = (line.split() for line in block.splitlines())
        for row in rows:
            for col, cell in zip(header, row[1:], strict=True):
                a, b, r = P.CODES[row[0]], P.CODES[col], P.CODES[cell]
                cells[a, b] = cells[b, a] = r
    return cells


STANDARD_CELLS = _standard()
NUMPY_DTYPES = [d for d in P.CODES.values() if d != D.bfloat16]


def test_the_table_has_every_pair_of_the_fifteen_dtypes_in_either_order():
    dtypes = set(D.DTYPES + D.EXTRA_FLOATING)
    assert set(P.CODES.values()) == dtypes
    assert set(D.PROMOTION_TABLE) == set(itertools.product(dtypes, dtypes))
    assert all(D.PROMOTION_TABLE[b, a] == r for (a, b), r in D.PROMOTION_TABLE.items())


def test_every_cell_the_standard_defines_is_the_standards():
    assert len(STANDARD_CELLS) == 1 + 16 + 16 + 2 * 12 + 16
    wrong = {k: (D.PROMOTION_TABLE[k], r) for k, r in STANDARD_CELLS.items()
             if D.PROMOTION_TABLE[k] != r}
    assert wrong == {}


def test_the_conformance_oracle_copied_the_same_tables():
    assert {(np.dtype(a), np.dtype(b)): np.dtype(r)
            for (a, b), r in oracle.PROMOTION_TABLE.items()} == STANDARD_CELLS


def test_the_cells_beyond_the_standard_are_numpys_and_jaxs():
    numpy_wrong = [(a, b) for a in NUMPY_DTYPES for b in NUMPY_DTYPES
                   if D.PROMOTION_TABLE[a, b] != np.promote_types(a, b)]
    jax_wrong = [d for d in P.CODES.values()
                 if D.PROMOTION_TABLE[d, D.bfloat16] != np.dtype(jnp.promote_types(d, D.bfloat16))]
    assert numpy_wrong == [] and jax_wrong == []


@pytest.mark.parametrize("n", [2, 3])
def test_result_type_of_several_dtypes_is_numpys(n):
    # the table folded from the highest kind down is NumPy's rule for mixed kinds
    # (int8, uint16, float32 -> float32; folded left to right it would be float64)
    wrong = [c for c in itertools.product(NUMPY_DTYPES, repeat=n)
             if la.result_type(*c) != D.on_device(np.result_type(*c))]
    assert wrong == []
    assert la.result_type(D.int8, D.uint16, D.float32) == D.float32
    assert functools.reduce(D.promote_types, (D.int8, D.uint16, D.float32)) == D.float64


def test_promote_types_reads_the_table():
    assert all(D.promote_types(a, b) == D.on_device(r) for (a, b), r in D.PROMOTION_TABLE.items())


def test_a_dtype_outside_the_table_is_a_type_error_and_the_numpy_surface_asks_numpy():
    with pytest.raises(TypeError, match="promote_types"):
        D.promote_types(np.dtype("S4"), D.float32)
    assert la.numpy_api.promote_types("S4", "S8") == np.dtype("S8")
    assert la.numpy_api.promote_types("int8", "uint8") == D.int16
