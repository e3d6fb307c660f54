"""laxarray.grad (and jax.jit / jax.vmap of it) against central finite differences.

Each case is a pair (laxarray function, NumPy function) computing the same array. The scalar
differentiated is ``sum(f(x) * w)`` for fixed random weights ``w``; the oracle is the central
finite-difference gradient of the *NumPy* version, so nothing is taken from laxarray.
Inputs are float64 with distinct entries at least 0.1 apart and at least 0.05 from zero, so
sort/max/min are away from ties and prod away from zeros (where the derivative is smooth).
"""

import jax
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from checks import fd_grad

import array_api_compat
import laxarray as la

H = 1e-6
TOL = dict(rtol=1e-5, atol=1e-6)


def _mask(shape):
    return np.arange(int(np.prod(shape))).reshape(shape) % 3 == 1


def _setitem(x, key, value):
    y = x * 1.0
    y[key] = value
    return y


def _np_setitem(x, key, value):
    y = x.copy()
    y[key] = value
    return y


def _b(n):
    return np.linspace(-1.0, 1.0, 2 * n).reshape(n, 2)


# name -> (laxarray function, NumPy function); x is 2-D, (2, 3) or (3, 2)
CASES = {
    "sort": (lambda x: la.sort(x, axis=-1), lambda x: np.sort(x, axis=-1)),
    "sort descending axis 0": (lambda x: la.sort(x, axis=0, descending=True),
                               lambda x: -np.sort(-x, axis=0)),
    "cumulative_sum": (lambda x: la.cumulative_sum(x, axis=1), lambda x: np.cumsum(x, axis=1)),
    "cumulative_prod": (lambda x: la.cumulative_prod(x, axis=0), lambda x: np.cumprod(x, axis=0)),
    "cumulative_prod include_initial": (
        lambda x: la.cumulative_prod(x, axis=1, include_initial=True),
        lambda x: np.cumulative_prod(x, axis=1, include_initial=True)),
    "sum": (lambda x: la.sum(x, axis=0), lambda x: np.sum(x, axis=0)),
    "log10": (lambda x: la.log10(la.abs(x)), lambda x: np.log10(np.abs(x))),
    "log2": (lambda x: la.log2(la.abs(x)), lambda x: np.log2(np.abs(x))),
    "prod": (lambda x: la.prod(x, axis=-1), lambda x: np.prod(x, axis=-1)),
    "mean": (lambda x: la.mean(x, axis=1, keepdims=True),
             lambda x: np.mean(x, axis=1, keepdims=True)),
    "var": (lambda x: la.var(x, axis=0, correction=1), lambda x: np.var(x, axis=0, ddof=1)),
    "std": (lambda x: la.std(x, axis=-1), lambda x: np.std(x, axis=-1)),
    "max": (lambda x: la.max(x, axis=-1), lambda x: np.max(x, axis=-1)),
    "min": (lambda x: la.min(x, axis=0), lambda x: np.min(x, axis=0)),
    "basic index": (lambda x: x[1:, ::-1], lambda x: x[1:, ::-1]),
    "integer array index (repeats) + slice": (lambda x: x[la.asarray([0, -1, 0]), 1:],
                                              lambda x: x[[0, -1, 0], 1:]),
    "mask set from x": (lambda x: _setitem(x, la.asarray(_mask(x.shape)),
                                           x[_mask(x.shape)] ** 2),
                        lambda x: _np_setitem(x, _mask(x.shape), x[_mask(x.shape)] ** 2)),
    "integer set from x": (lambda x: _setitem(x, (la.asarray([0, 1]), la.asarray([1, 0])),
                                              la.sin(x[0, :2])),
                           lambda x: _np_setitem(x, ([0, 1], [1, 0]), np.sin(x[0, :2]))),
    "where": (lambda x: la.where(la.asarray(_mask(x.shape)), x * x, la.sin(x)),
              lambda x: np.where(_mask(x.shape), x * x, np.sin(x))),
    "take": (lambda x: la.take(x, la.asarray([1, 0, 1, 1]), axis=1),
             lambda x: np.take(x, [1, 0, 1, 1], axis=1)),
    "matmul": (lambda x: x @ la.asarray(_b(x.shape[1])), lambda x: x @ _b(x.shape[1])),
    "matmul x x.T": (lambda x: la.matmul(x, la.matrix_transpose(x)), lambda x: x @ x.T),
}


def _weights(shape):
    return np.random.default_rng(7).uniform(-1.0, 1.0, shape)


def _fd_grad(f, x):
    return fd_grad(f, x, H)


_TRANSFORMED = {}


def _transformed(name):
    """(grad, jit(grad), jit(vmap(grad))) of ``sum(f(x) * w)``, built once per case so that
    hypothesis examples reuse jax's compilation caches (this keeps the file fast)."""
    if name not in _TRANSFORMED:
        la_fn = CASES[name][0]
        grad = la.grad(lambda v, w: la.sum(la_fn(v) * w))
        _TRANSFORMED[name] = grad, jax.jit(grad), jax.jit(jax.vmap(grad, in_axes=(0, None)))
    return _TRANSFORMED[name]


def _shape(name):
    # one shape per case (alternating by case) keeps compilations to one per case
    return (2, 3) if sorted(CASES).index(name) % 2 else (3, 2)


@st.composite
def distinct_matrices(draw, shape):
    ints = draw(hnp.arrays(np.int64, shape, elements=st.integers(-30, 29), unique=True))
    return ints / 10.0 + 0.05  # distinct, gaps >= 0.1, |x| >= 0.05


@pytest.mark.parametrize("name", sorted(CASES))
def test_grad_matches_finite_differences(name):
    la_fn, np_fn = CASES[name]
    grad, jit_grad, vmap_grad = _transformed(name)

    @settings(max_examples=4)
    @given(x=distinct_matrices(_shape(name)))
    def check(x):
        expected_value = np.asarray(np_fn(x))
        w = _weights(expected_value.shape)
        np.testing.assert_allclose(np.asarray(la_fn(la.asarray(x))), expected_value,
                                   rtol=1e-12, atol=1e-12)
        expected = _fd_grad(lambda v: float(np.sum(np_fn(v) * w)), x)
        for transformed in (grad, jit_grad):
            got = transformed(la.asarray(x), la.asarray(w))
            assert array_api_compat.array_namespace(got) is la
            np.testing.assert_allclose(np.asarray(got), expected, **TOL)
        # a batch of two inputs; -x keeps the entries distinct and away from zero
        got = vmap_grad(la.asarray(np.stack([x, -x])), la.asarray(w))
        expected_neg = _fd_grad(lambda v: float(np.sum(np_fn(v) * w)), -x)
        assert got.shape == (2,) + x.shape
        np.testing.assert_allclose(np.asarray(got), np.stack([expected, expected_neg]), **TOL)

    check()


def test_logaddexp_gradient_is_half_each_where_the_arguments_are_equal():
    # d/dz log(e^a + e^z) = e^z / (e^a + e^z): 1/2 at z == a (a select branch must keep it)
    import laxarray as la
    for a in (0.0, -3.0, 25.0):
        g = la.grad(lambda z: la.logaddexp(la.asarray(a), z))(la.asarray(a))
        assert abs(float(g) - 0.5) < 1e-12
    big = la.asarray([1e308, -np.inf, np.inf])
    np.testing.assert_array_equal(np.asarray(la.logaddexp(big, big)),
                                  np.logaddexp(np.asarray(big), np.asarray(big)))
