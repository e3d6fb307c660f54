"""Set functions: exact eager results against NumPy's unique_*/isin, size= under jax.jit.

The drawn-input property specs live in ``laxarray.conformance.specs_sets``; these cover
the special values, the traced path and the errors.
"""

import jax
import numpy as np
import pytest

import laxarray as xp
from laxarray._core import backend
from laxarray._core.runtime import kernel

SPECIAL = np.array([3.0, np.nan, 1.0, -0.0, 0.0, 3.0, np.nan, -np.inf])


def same(actual, expected):
    got, expected = np.asarray(actual), np.asarray(expected)
    assert got.dtype == expected.dtype and got.shape == expected.shape, (got, expected)
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("a", [
    SPECIAL, np.array([[2, 1], [2, 5]], np.int8), np.array([True, False, True]),
    np.array([1 + 1j, complex(np.nan, 0), 1 + 1j, 0j]), np.zeros((0, 3)), np.array(5.0),
    np.array([7, 7, 7], np.uint64),
], ids=["special", "int8-2d", "bool", "complex-nan", "empty", "0-d", "uint64"])
def test_unique_matches_numpy(a):
    # laxarray's values are sorted (NaN last); NumPy's unique_all is sorted too (its
    # unique_values need not be, so that one is compared after sorting)
    x = xp.asarray(a)
    got, want = xp.unique_all(x), np.unique_all(a)
    for field in ("values", "indices", "inverse_indices", "counts"):
        same(getattr(got, field), getattr(want, field))
    same(xp.unique_counts(x).counts, np.unique_counts(a).counts)
    same(xp.unique_inverse(x).inverse_indices, np.unique_inverse(a).inverse_indices)
    same(xp.unique_values(x), np.sort(np.unique_values(a)))
    assert got._fields == ("values", "indices", "inverse_indices", "counts")


def test_unique_of_complex_nans_rebuilds_x():
    a = np.array([complex(0, np.nan), 1 + 1j, complex(np.nan, 0), 1 + 1j])
    got = xp.unique_all(xp.asarray(a))
    values = np.asarray(got.values)
    assert values.shape == (3,) and np.asarray(got.counts).tolist()[0] == 2
    np.testing.assert_array_equal(values[np.asarray(got.inverse_indices)], a)
    np.testing.assert_array_equal(a[np.asarray(got.indices)], values)


def test_nan_is_distinct_and_signed_zeros_are_one_value():
    got = xp.unique_counts(xp.asarray(SPECIAL))
    values, counts = np.asarray(got.values), np.asarray(got.counts)
    assert np.isnan(values).sum() == 2 and counts[np.isnan(values)].tolist() == [1, 1]
    assert counts[values == 0].tolist() == [2]


def test_unique_under_jit_needs_size():
    x = xp.asarray(np.array([3, 1, 3, 2, 1]))
    with pytest.raises(ValueError, match=r"unique_values: .*size="):
        jax.jit(xp.unique_values)(x)
    got = jax.jit(lambda x: xp.unique_all(x, size=5, fill_value=-1))(x)
    same(got.values, [1, 2, 3, -1, -1])
    same(got.counts, [2, 1, 2, 0, 0])
    same(got.indices, [1, 3, 0, 0, 0])
    same(got.inverse_indices, [2, 0, 2, 1, 0])
    same(jax.jit(lambda x: xp.unique_values(x, size=4))(x), [1, 2, 3, 1])   # fill: smallest
    same(jax.jit(lambda x: xp.unique_counts(x, size=2))(x).counts, [2, 1])  # truncated
    same(xp.unique_values(x, size=4, fill_value=0), [1, 2, 3, 0])             # eager too


def test_unique_vmap_with_size():
    rows = xp.asarray(np.array([[1.0, 1.0, 2.0], [np.nan, 0.0, -0.0]]))
    got = jax.vmap(lambda r: xp.unique_counts(r, size=3, fill_value=9.0))(rows)
    same(got.counts, [[2, 1, 0], [2, 1, 0]])
    same(got.values, [[1.0, 2.0, 9.0], [0.0, np.nan, 9.0]])


def test_isin_matches_numpy_with_special_values_and_scalars():
    a = np.array([1.0, np.nan, -0.0, 2.0, np.inf])
    b = np.array([0.0, np.nan, 1.0, np.inf])
    same(xp.isin(xp.asarray(a), xp.asarray(b)), np.isin(a, b))
    same(xp.isin(xp.asarray(a), xp.asarray(b), invert=True), np.isin(a, b, invert=True))
    same(xp.isin(xp.asarray([1, 2, 3]), 2), [False, True, False])
    same(xp.isin(2, xp.asarray([1, 2, 3])), np.bool_(True))
    same(xp.isin(xp.asarray([1, 2]), xp.asarray(np.zeros(0, np.int64)), invert=True),
         [True, True])
    same(xp.isin(xp.asarray([1j, 2]), xp.asarray([1j])), [True, False])
    i8 = np.array([-1, 5, 100], np.int8)
    u8 = np.array([255, 5], np.uint8)
    same(xp.isin(xp.asarray(i8), xp.asarray(u8)), np.isin(i8, u8))
    same(jax.jit(xp.isin)(xp.asarray([1, 4]), xp.asarray([4, 4, 0])), [False, True])


def test_bad_input():
    x = xp.asarray([1, 2])
    with pytest.raises(TypeError, match="isin"):
        xp.isin(1, 2)
    with pytest.raises(ValueError, match="unique_all"):
        xp.unique_all(x, fill_value=0)
    with pytest.raises(ValueError, match="unique_counts"):
        xp.unique_counts(x, size=-1)
    with pytest.raises(TypeError, match="unique_values"):
        xp.unique_values(x, size=2.0)


def test_without_host_paths_the_unique_functions_share_one_program(monkeypatch):
    # the TPU's record: one sort compiled for the four functions (it dominated LDA's first
    # run on the chip), each result still the function's own
    monkeypatch.setattr(backend, "current", lambda: backend.for_platform("tpu"))
    x = np.random.default_rng(5).integers(0, 7, 3001).astype(np.int32)   # a new shape
    before = kernel.compile_count()
    got = [xp.unique_values(xp.asarray(x)), xp.unique_counts(xp.asarray(x)),
           xp.unique_inverse(xp.asarray(x)), xp.unique_all(xp.asarray(x))]
    values, index, inverse, counts = np.unique(x, return_index=True, return_inverse=True,
                                               return_counts=True)
    np.testing.assert_array_equal(np.asarray(got[0]), values)
    np.testing.assert_array_equal(np.asarray(got[1].counts), counts)
    np.testing.assert_array_equal(np.asarray(got[2].inverse_indices), inverse)
    np.testing.assert_array_equal(np.asarray(got[3].indices), index)
    assert kernel.compile_count() - before == 1
