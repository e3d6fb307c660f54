"""``result_type`` of three or more dtypes of mixed kinds promotes all at once, as NumPy."""

import itertools

import numpy as np

import laxarray as xp

NAMES = ("bool", "int8", "uint16", "int32", "uint64", "float16", "float32", "float64",
         "complex64")


def test_nary_result_type_matches_numpy():
    for combo in itertools.combinations(NAMES, 3):
        got = xp.result_type(*[getattr(xp, n if n != "bool" else "bool") for n in combo])
        assert got == np.result_type(*combo), combo
    # the same promotion for concat and for Python scalars joining afterwards
    parts = [xp.asarray([1], dtype=xp.int8), xp.asarray([2], dtype=xp.uint16),
             xp.asarray([3.0], dtype=xp.float32)]
    assert xp.concat(parts).dtype == np.concatenate(
        [np.asarray(p) for p in parts]).dtype == np.float32
    assert xp.result_type(xp.int8, xp.uint16, xp.float32, 1.0) == np.float32
