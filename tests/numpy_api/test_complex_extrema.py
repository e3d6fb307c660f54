"""max/min/amax/amin and maximum/minimum/fmax/fmin of complex arrays against NumPy, bit
for bit: lexicographic order, NaN parts, signed zeros, every axis, eagerly and jitted."""

import jax
import numpy as np
import pytest
from hypothesis import settings

import laxarray as la

VALUES = np.array([0.0, -0.0, 1.0, -1.0, 2.0, np.nan, np.inf, -np.inf])
#: random shapes per case: 3 under the ci hypothesis profile, 10 under dev and deep
SHAPES = min(10, max(2, settings.default.max_examples // 2))


def _same(expected, got):
    got = np.asarray(got)
    pe = np.stack([np.real(expected), np.imag(expected)])
    pg = np.stack([np.real(got), np.imag(got)])
    return (got.dtype == np.asarray(expected).dtype and got.shape == np.shape(expected)
            and np.array_equal(pe, pg, equal_nan=True)
            and np.array_equal(np.signbit(pe), np.signbit(pg)))


def _draw(rng, shape, dtype):
    x = np.empty(shape, dtype)
    x.real = rng.choice(VALUES, size=shape)
    x.imag = rng.choice(VALUES, size=shape)
    return x


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("seed", range(4))
def test_reductions_match_numpy(dtype, seed):
    rng = np.random.default_rng(seed)
    for _ in range(SHAPES):
        shape = tuple(int(n) for n in rng.integers(1, 6, size=rng.integers(1, 4)))
        x = _draw(rng, shape, dtype)
        axes = [None, *range(-len(shape), len(shape))]
        if len(shape) > 1:
            axes.append((0, len(shape) - 1))
        for axis in axes:
            for name in ("max", "min", "amax", "amin"):
                expected = getattr(np, name)(x, axis=axis)
                got = getattr(la, name)(la.asarray(x), axis=axis)
                assert _same(expected, got), (name, axis, x.tolist())


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("name", ["maximum", "minimum", "fmax", "fmin"])
def test_elementwise_match_numpy(dtype, name):
    rng = np.random.default_rng(1)
    x, y = _draw(rng, (9, 8), dtype), _draw(rng, (9, 8), dtype)
    y[::3] = x[::3]                       # ties, signed zeros among them
    assert _same(getattr(np, name)(x, y), getattr(la, name)(la.asarray(x), la.asarray(y)))


def test_first_nan_wins_and_jit_agrees():
    x = np.array([[1 + 1j, complex(np.nan, 2), complex(3, np.nan)],
                  [complex(-np.inf, -np.inf), complex(np.nan, -0.0), 5 + 0j]])
    f = jax.jit(lambda a, ax: la.max(a, axis=ax), static_argnums=1)
    for axis in (None, 0, 1):
        assert _same(np.max(x, axis=axis), la.max(la.asarray(x), axis=axis))
        assert _same(np.max(x, axis=axis), f(la.asarray(x), axis))
    # all at the bottom of the order: the padding of a bucketed reduction must not win
    low = np.full((5,), complex(-np.inf, -np.inf))
    low[3] = complex(-np.inf, -1.0)
    assert _same(np.max(low), la.max(la.asarray(low)))
    assert _same(np.min(-low), la.min(la.asarray(-low)))


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_argmax_argmin_match_numpy(dtype):
    rng = np.random.default_rng(2)
    for _ in range(SHAPES * 3 // 2):
        shape = tuple(int(n) for n in rng.integers(1, 6, size=rng.integers(1, 4)))
        x = _draw(rng, shape, dtype)
        for axis in (None, *range(-len(shape), len(shape))):
            for name in ("argmax", "argmin"):
                for keepdims in (False, True):
                    expected = getattr(np, name)(x, axis=axis, keepdims=keepdims)
                    got = np.asarray(getattr(la, name)(la.asarray(x), axis=axis,
                                                       keepdims=keepdims))
                    assert got.shape == expected.shape and np.array_equal(got, expected), (
                        name, axis, x.tolist())
