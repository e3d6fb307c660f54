"""sparsify rules for elementwise primitives: zero-preserving unary, mul, add/sub, div,
max/min, comparisons and select_n — each against the dense function, BCOO and BCSR."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax

import laxarray as la
import laxarray.sparse as sp
from sparsify_cases import FORMATS, check, random_dense, to_sparse

# this module's own jax code (jax.jit/grad/vmap on NumPy float64 values, jax.numpy oracles)
# is a 64-bit jax program: see the jax_x64 fixture (tests/conftest.py)
pytestmark = pytest.mark.usefixtures("jax_x64")

SHAPE = (5, 4)

UNARY_REAL = [jnp.negative, jnp.abs, jnp.sign, jnp.floor, jnp.ceil, jnp.round, jnp.sin,
              jnp.tan, jnp.arcsin, jnp.arctan, jnp.sinh, jnp.tanh, jnp.arcsinh, jnp.arctanh,
              lambda x: jnp.sqrt(jnp.abs(x)), jnp.cbrt, jnp.expm1, jnp.log1p,
              lambda x: x ** 3, jnp.square, lambda x: x.astype(np.float32),
              lambda x: x.astype(np.int64), jnp.copy, jax.scipy.special.erf,
              lambda x: jnp.abs(x) ** 2.5, lambda x: lax.reduce_precision(x, 8, 23)]


@pytest.mark.parametrize("fmt", FORMATS)
def test_zero_preserving_unary(fmt):
    rng = np.random.default_rng(0)
    x = random_dense(rng, SHAPE, low=-0.9, high=0.9) * 3
    x = np.clip(x, -0.95, 0.95)

    def f(x):
        return [g(x) for g in UNARY_REAL]
    got = check(f, [x], {0}, fmt, rng, messy=True, rtol=2e-6, atol=1e-6)
    assert all(hasattr(o, "todense") for o in got)     # every result stays sparse


@pytest.mark.parametrize("fmt", FORMATS)
def test_complex_unary(fmt):
    rng = np.random.default_rng(1)
    x = random_dense(rng, SHAPE, dtype=np.complex128)
    got = check(lambda x: (jnp.real(x), jnp.imag(x), jnp.conj(x), -x), [x], {0}, fmt, rng,
                messy=True)
    assert all(hasattr(o, "todense") for o in got)


@pytest.mark.parametrize("fmt", FORMATS)
def test_unary_written_with_laxarray(fmt):
    rng = np.random.default_rng(2)
    x = random_dense(rng, SHAPE, low=-0.9, high=0.9)
    check(lambda x: la.sin(la.asarray(x)) * 2 + la.tanh(x), [x], {0}, fmt, rng, messy=True)


@pytest.mark.parametrize("fmt", FORMATS)
def test_mul(fmt):
    rng = np.random.default_rng(3)
    x, y = random_dense(rng, SHAPE), random_dense(rng, SHAPE)
    d = rng.standard_normal(SHAPE)
    row, col = rng.standard_normal(SHAPE[1]), rng.standard_normal(SHAPE[0])

    def f(x, y, d, row, col):
        return (x * d, d * x, x * row[None, :], x * col[:, None], 3.0 * x, x * y, x * x,
                jnp.sin(x) * x)
    got = check(f, [x, y, d, row, col], {0, 1}, fmt, rng)
    assert all(hasattr(o, "todense") for o in got)


@pytest.mark.parametrize("fmt", FORMATS)
def test_mul_shared_pattern_keeps_entries(fmt):
    rng = np.random.default_rng(4)
    x = to_sparse(random_dense(rng, SHAPE), fmt)
    out = sp.sparsify(lambda x: jnp.sin(x) * x + x * x)(x)
    assert out.nse == x.nse and out.indices is x.indices     # no union, no re-sort
    xd = np.asarray(x.todense())
    np.testing.assert_allclose(np.asarray(out.todense()), np.sin(xd) * xd + xd ** 2)
    row = rng.standard_normal(SHAPE[1])
    out = sp.sparsify(lambda x, r: x * r)(x, row)
    assert out.nse == x.nse
    np.testing.assert_allclose(np.asarray(out.todense()), xd * row)


@pytest.mark.parametrize("fmt", FORMATS)
def test_add_sub(fmt):
    rng = np.random.default_rng(5)
    x, y = random_dense(rng, SHAPE), random_dense(rng, SHAPE)
    d = rng.standard_normal(SHAPE)

    def f(x, y, d):
        return (x + y, x - y, x + 2 * x, x - jnp.sin(x), x + d, d - x, x + 1.0, x + 0.0)
    got = check(f, [x, y, d], {0, 1}, fmt, rng, messy=True)
    kinds = [hasattr(o, "todense") for o in got]
    assert kinds == [True, True, True, True, False, False, False, True]


@pytest.mark.parametrize("fmt", FORMATS)
def test_div(fmt):
    rng = np.random.default_rng(6)
    x = random_dense(rng, SHAPE)
    d = rng.uniform(0.5, 2.0, SHAPE)
    row = rng.uniform(0.5, 2.0, SHAPE[1])
    got = check(lambda x, d, row: (x / d, x / 4.0, x / row), [x, d, row], {0}, fmt, rng,
                messy=True)
    assert all(hasattr(o, "todense") for o in got)


@pytest.mark.parametrize("fmt", FORMATS)
def test_max_min_compare_where(fmt):
    rng = np.random.default_rng(7)
    x, y = random_dense(rng, SHAPE), random_dense(rng, SHAPE)
    mask = rng.random(SHAPE) < 0.5

    def f(x, y, mask):
        return (jax.nn.relu(x), jnp.minimum(x, 0.0), jnp.maximum(x, y),
                jnp.where(x > 0, x, 0.0), jnp.where(mask, x, 0.0), jnp.where(x < 0, 0.0, x),
                x != 0, x > 0.5)
    got = check(f, [x, y, mask], {0, 1}, fmt, rng)
    assert all(hasattr(o, "todense") for o in got)


@pytest.mark.parametrize("fmt", FORMATS)
def test_integer_and_bool_values(fmt):
    rng = np.random.default_rng(8)
    x = (random_dense(rng, SHAPE) * 10).astype(np.int64)
    check(lambda x: (x * 3, -x, jnp.abs(x), x ** 2, x > 2), [x], {0}, fmt, rng)


def test_a_zero_captured_as_a_constant_keeps_where_sparse():
    # an eager where(..., 0.0) first makes the scalar a cached device array, which a later
    # trace captures as a constant rather than a literal: it is still a known zero
    xp = la
    m = np.array([[1.0, 0.0, 2.0], [0.0, 0.0, 3.0], [4.0, 0.0, 0.0]])
    xp.where(xp.asarray([True, False]), xp.asarray([1.0, 2.0]), 0.0)
    out = sp.sparsify(lambda a: xp.where(a > 1.0, a, 0.0))(sp.BCOO.fromdense(xp.asarray(m)))
    assert isinstance(out, sp.BCOO)
    np.testing.assert_array_equal(np.asarray(out.todense()), np.where(m > 1.0, m, 0.0))
