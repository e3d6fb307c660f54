"""The eager fast paths of ``take`` and ``clip`` against NumPy: arrays above the bucket
limit (exact, unpadded values), NaN and signed-zero bounds, integer bounds beyond the
dtype's range, small index dtypes, and NumPy's IndexError for out-of-range indices."""

import itertools

import numpy as np
import pytest

import laxarray as xp

N = 40_000  # above the bucket limit (2**15 elements): the exact, unpadded path


def _same(got, expected):
    got, expected = np.asarray(got), np.asarray(expected)
    assert got.dtype == expected.dtype
    assert np.array_equal(got, expected, equal_nan=True)
    assert np.array_equal(np.signbit(got), np.signbit(expected))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_clip_large_float_between_scalars(dtype):
    rng = np.random.default_rng(1)
    x = rng.standard_normal(N).astype(dtype)
    x[::7] = 0.0
    x[1::7] = -0.0
    x[2::11] = np.nan
    bounds = (None, 0.0, -0.0, 0.5, -1.5, np.nan, 2)
    for lo, hi in itertools.product(bounds, bounds):
        if lo is None and hi is None:
            continue
        got = xp.clip(xp.asarray(x), lo, hi)
        # the standard's maximum(minimum(x, max), min) with NumPy's functions; min > max:
        # NumPy's clip (as tests/array_api/test_signed_zeros.py states it)
        out = x
        if hi is not None:
            out = np.minimum(out, np.asarray(hi, dtype))
        if lo is not None:
            out = np.maximum(out, np.asarray(lo, dtype))
        if lo is not None and hi is not None and lo > hi:
            out = np.clip(x, np.asarray(lo, dtype), np.asarray(hi, dtype))
        _same(got, out)


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int32, np.int64, np.uint64])
def test_clip_large_integer_bounds_beyond_range(dtype):
    info = np.iinfo(dtype)
    x = np.random.default_rng(2).integers(info.min, info.max, N, dtype=dtype,
                                          endpoint=True)
    for lo, hi in [(1, 100), (None, 3), (-10**30, 10**30), (7, None), (100, 1),
                   (int(info.min) - 1, int(info.max) + 1)]:
        # a bound beyond the range clips as the range's end would
        lo_np = None if lo is None else np.asarray(min(max(lo, int(info.min)), int(info.max)),
                                                   dtype)
        hi_np = None if hi is None else np.asarray(min(max(hi, int(info.min)), int(info.max)),
                                                   dtype)
        _same(xp.clip(xp.asarray(x), lo, hi), np.clip(x, lo_np, hi_np))


def test_clip_large_integer_rejects_float_bound():
    with pytest.raises(TypeError, match="clip"):
        xp.clip(xp.asarray(np.arange(N)), 0.5, 10)


@pytest.mark.parametrize("n", [10, N])
@pytest.mark.parametrize("idx_dtype", [np.int8, np.uint8, np.int16, np.int64, np.uint64])
def test_take_index_dtypes_in_and_out_of_range(n, idx_dtype):
    x = np.arange(n, dtype=np.float64) * 0.5
    info = np.iinfo(idx_dtype)
    lo, hi = max(int(info.min), -n), min(int(info.max), n - 1)
    idx = np.random.default_rng(3).integers(lo, hi, 500, endpoint=True).astype(idx_dtype)
    _same(xp.take(xp.asarray(x), xp.asarray(idx)), np.take(x, idx))
    for bad in (n, -n - 1):
        if not int(info.min) <= bad <= int(info.max):
            continue  # not representable: every index of the dtype is in range
        wrong = idx.copy()
        wrong[-1] = bad
        with pytest.raises(IndexError):
            np.take(x, wrong)
        with pytest.raises(IndexError, match="take"):
            xp.take(xp.asarray(x), xp.asarray(wrong))


@pytest.mark.parametrize("n", [10, N])
@pytest.mark.parametrize("signs", ["nonnegative", "mixed"])
def test_gathers_wrap_negative_indices_eagerly_and_traced(n, signs):
    """Concrete indices with no negative entry skip the kernel's wrap; negative ones are
    wrapped (on the host for ``x[idx]``, in the kernel otherwise) and traced ones in the
    kernel: every path agrees with NumPy."""
    import jax

    rng = np.random.default_rng(5)
    x = rng.standard_normal(n)
    x2 = rng.standard_normal((4, n))
    low = 0 if signs == "nonnegative" else -n
    idx = rng.integers(low, n, 300)
    idx2 = rng.integers(low, n, (4, 7))
    rows = rng.integers(-4 if low else 0, 4, (4, 1))
    a, a2, i, i2 = xp.asarray(x), xp.asarray(x2), xp.asarray(idx), xp.asarray(idx2)
    _same(xp.take(a, i), np.take(x, idx))
    _same(jax.jit(lambda v, j: xp.take(v, j))(a, i), np.take(x, idx))
    _same(xp.take_along_axis(a2, i2, axis=1), np.take_along_axis(x2, idx2, axis=1))
    _same(jax.jit(lambda v, j: xp.take_along_axis(v, j, axis=1))(a2, i2),
          np.take_along_axis(x2, idx2, axis=1))
    _same(a[i], x[idx])
    _same(a[idx], x[idx])
    _same(jax.jit(lambda v, j: v[j])(a, i), x[idx])
    _same(a2[-1, i], x2[-1, idx])
    _same(a2[xp.asarray(rows), i2], x2[rows, idx2])
    expected = x.copy()
    np.add.at(expected, idx, 1.0)
    _same(a.at[i].add(1.0), expected)
    _same(jax.jit(lambda v, j: v.at[j].add(1.0))(a, i), expected)
    # unsigned indices under jit take the no-wrap path (they cannot be negative)
    u = np.abs(idx).astype(np.uint32) % n
    _same(jax.jit(lambda v, j: xp.take(v, j))(a, xp.asarray(u)), np.take(x, u))
    # traced indices past the end are clamped (the documented rule), uint64 ones past 2**63
    # too
    huge = np.array([2**64 - 1, 2**63, n, 1], np.uint64)
    _same(jax.jit(lambda v, j: xp.take(v, j))(a, xp.asarray(huge)), x[[n - 1, n - 1, n - 1, 1]])
