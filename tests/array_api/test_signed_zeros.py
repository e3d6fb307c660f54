"""Signs of zero and NaN in ``clip`` and ``arange``, against NumPy.

The conformance specs draw these cases rarely (a random seed found both); here every
combination of signed zeros, NaN and ordinary values is compared with NumPy's result.
"""

import itertools

import numpy as np
import pytest

import laxarray as xp

VALUES = (0.0, -0.0, np.nan, 1.0, -1.0)


def _same(got, expected):
    got, expected = np.asarray(got), np.asarray(expected)
    assert got.dtype == expected.dtype
    assert np.array_equal(got, expected, equal_nan=True)
    assert np.array_equal(np.signbit(got), np.signbit(expected))


def _standard_clip(x, lo, hi):
    """The standard's ``maximum(minimum(x, max), min)`` with NumPy's functions; for
    ``min > max`` (unspecified there) NumPy's ``clip``."""
    out = x
    if hi is not None:
        out = np.minimum(out, hi)
    if lo is not None:
        out = np.maximum(out, lo)
    if lo is not None and hi is not None and lo > hi:
        out = np.clip(x, lo, hi)
    return out


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_clip_signed_zeros_and_nan(dtype):
    for x, lo, hi in itertools.product(VALUES, VALUES + (None,), VALUES + (None,)):
        xs = np.asarray([x, x], dtype)
        expected = _standard_clip(xs, lo, hi)
        _same(xp.clip(xp.asarray(xs), lo, hi), expected)
        # array bounds take the same path as Python scalars
        lo_a = None if lo is None else xp.asarray(np.asarray(lo, dtype))
        hi_a = None if hi is None else xp.asarray(np.asarray(hi, dtype))
        _same(xp.clip(xp.asarray(xs), lo_a, hi_a), expected)


def test_clip_integer_min_above_max_gives_max_as_numpy():
    x = np.arange(-3, 10)
    _same(xp.clip(xp.asarray(x), 6, 2), np.clip(x, 6, 2))


@pytest.mark.parametrize("start", [-0.0, 0.0, -2.5])
def test_arange_first_value_is_start(start):
    _same(xp.arange(start, 3.0, 1.0), np.arange(start, 3.0, 1.0))
    _same(xp.arange(start, 3.0, 0.5, dtype=xp.float32),
          np.arange(start, 3.0, 0.5, dtype=np.float32))


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.complex128])
@pytest.mark.parametrize("shape,axis", [((1,), None), ((3, 1), 1), ((1, 1), None), ((2, 3), 1)])
def test_sums_of_negative_zeros_are_numpys(dtype, shape, axis):
    # NumPy adds the elements to +0.0: a sum (and mean) of one -0.0 is 0.0; XLA reduces a
    # single element to itself, and the conformance spec of pad(mode="mean") found it
    import jax

    x = np.full(shape, -0.0, dtype)
    if np.dtype(dtype).kind == "c":
        x = x + np.array(-0.0j, dtype)
    a = xp.asarray(x)

    def parts(v):
        v = np.asarray(v)
        return (v.real, v.imag) if v.dtype.kind == "c" else (v,)

    for ours, theirs in ((xp.sum, np.sum), (xp.mean, np.mean)):
        want = theirs(x, axis=axis)
        for got in (ours(a, axis=axis), jax.jit(lambda v, f=ours: f(v, axis=axis))(a)):
            assert np.asarray(got).dtype == want.dtype
            for g, w in zip(parts(got), parts(want)):
                _same(g, w)
    if np.dtype(dtype).kind == "f" and len(shape) == 1:
        _same(xp.pad(a, 1, mode="mean"), np.pad(x, 1, mode="mean"))
