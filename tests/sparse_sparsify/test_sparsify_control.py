"""sparsify through higher-order primitives (jit, cond/switch, while, scan with per-step
sparse xs, custom_jvp/custom_vjp, remat), jax transformations of sparsified functions,
errors, and the seed's sparse logistic regression."""

import functools

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax

import laxarray as la
import laxarray.sparse as sp
from sparsify_cases import FORMATS, assert_matches, check, random_dense, to_sparse

# this module's own jax code (jax.jit/grad/vmap on NumPy float64 values, jax.numpy oracles)
# is a 64-bit jax program: see the jax_x64 fixture (tests/conftest.py)
pytestmark = pytest.mark.usefixtures("jax_x64")

SHAPE = (5, 4)


@pytest.mark.parametrize("fmt", FORMATS)
def test_jit_cond_switch(fmt):
    rng = np.random.default_rng(30)
    x, v = random_dense(rng, SHAPE), rng.standard_normal(4)

    @jax.jit
    def inner(x, v):
        return jnp.sin(x) @ v, 2 * x

    def f(x, v, i):
        a = lax.cond(i > 0, lambda x: x * 2.0, lambda x: x + x, x)            # both sparse
        c = lax.switch(i, [lambda x: x @ v, lambda x: jnp.ones(SHAPE) @ v + x @ v,
                           lambda x: (-x) @ v], x)
        d = lax.cond(i > 0, lambda x: x * x, lambda x: x + jnp.flip(x, 0), x)  # nse differ
        e = lax.cond(i > 0, lambda x: x * 3.0, lambda x: jnp.ones(SHAPE), x)  # made dense
        return inner(x, v), a, c, d, e
    for i in (0, 1, 2):
        got = check(f, [x, v, i], {0}, fmt, rng)
    assert hasattr(got[1], "todense") and hasattr(got[3], "todense")


@pytest.mark.parametrize("fmt", FORMATS)
def test_while_fori(fmt):
    rng = np.random.default_rng(31)
    x, v = random_dense(rng, SHAPE), rng.standard_normal(4)

    def f(x, v):
        w = lax.fori_loop(0, 3, lambda i, w: w + x.T @ (x @ w) * 0.1, v)     # x a constant
        y = lax.fori_loop(0, 3, lambda i, y: y * 0.5, x)                      # sparse carry
        z = lax.while_loop(lambda c: c[0] < 2, lambda c: (c[0] + 1, jnp.sin(c[1]) * 2.0), (0, x))
        return w, y, z
    got = check(f, [x, v], {0}, fmt, rng)
    assert hasattr(got[1], "todense")
    with pytest.raises(NotImplementedError, match="body changes the structure"):
        sp.sparsify(lambda x: lax.fori_loop(0, 2, lambda i, y: y + y.T, x))(
            to_sparse(random_dense(rng, (4, 4)), fmt))


@pytest.mark.parametrize("fmt", FORMATS)
def test_scan(fmt):
    rng = np.random.default_rng(32)
    x, v = random_dense(rng, (3, 5, 4)), rng.standard_normal(4)

    def f(x, v):
        def step(c, xi):                     # xi: one (5, 4) sparse slice per step
            return c + xi.sum(0), (xi @ v, xi * 2.0)
        return lax.scan(step, jnp.zeros(4), x)
    for n_batch in (0, 1):
        got = check(f, [x, v], {0}, fmt, rng, n_batch=n_batch if fmt == "bcoo" else 1)
    assert hasattr(got[1][1], "todense")
    m = random_dense(rng, SHAPE)
    check(lambda m, v: lax.scan(lambda c, _: (m @ (m.T @ c) * 0.1, c.sum()), jnp.ones(5),
                                None, length=3), [m, v], {0}, fmt, rng)


@jax.custom_vjp
def _scaled(x):
    return 3.0 * x


_scaled.defvjp(lambda x: (3.0 * x, None), lambda _, g: (3.0 * g,))


@pytest.mark.parametrize("fmt", FORMATS)
def test_custom_jvp_vjp_remat(fmt):
    rng = np.random.default_rng(33)
    x, v = random_dense(rng, SHAPE), rng.standard_normal(4)

    def f(x, v):
        return (jax.nn.relu(x), _scaled(x), jax.checkpoint(lambda x: jnp.sin(x) @ v)(x),
                jax.nn.relu(x) @ v)
    got = check(f, [x, v], {0}, fmt, rng)
    assert hasattr(got[0], "todense") and hasattr(got[1], "todense")
    xs = to_sparse(x, fmt)
    g = jax.grad(lambda v: sp.sparsify(f)(xs, v)[3].sum())(v)
    np.testing.assert_allclose(g, jax.grad(lambda v: f(x, v)[3].sum())(v), rtol=1e-10)


def _loss(w, x, y):
    z = jnp.dot(x, w[1:]) + w[0]
    return jnp.mean(jnp.logaddexp(0.0, z) - y * z) + 0.01 * jnp.sum(w * w)


@pytest.mark.parametrize("fmt", FORMATS)
def test_grad_jit_vmap(fmt):
    rng = np.random.default_rng(34)
    x = random_dense(rng, (8, 4))
    y = (rng.random(8) < 0.5).astype(float)
    w = rng.standard_normal(5)
    xs = to_sparse(x, fmt)
    want_g = jax.grad(_loss)(w, x, y)
    g1 = jax.jit(jax.grad(sp.sparsify(_loss)))(w, xs, y)        # grad of the sparsified loss
    g2 = jax.jit(sp.sparsify(jax.grad(_loss)))(w, xs, y)        # sparsified grad
    for g in (g1, g2):
        np.testing.assert_allclose(g, want_g, rtol=1e-10)
    ws = rng.standard_normal((3, 5))
    got = jax.jit(jax.vmap(sp.sparsify(_loss), in_axes=(0, None, None)))(ws, xs, y)
    np.testing.assert_allclose(got, [_loss(wi, x, y) for wi in ws], rtol=1e-10)


def test_vmap_over_sparse_batch():
    rng = np.random.default_rng(35)
    x = random_dense(rng, (3, 5, 4))
    v = rng.standard_normal(4)
    xs = sp.BCOO.fromdense(x, n_batch=1)
    got = jax.vmap(sp.sparsify(lambda m, v: jnp.sin(m) @ v), in_axes=(0, None))(xs, v)
    np.testing.assert_allclose(got, np.sin(x) @ v, rtol=1e-12)


@pytest.mark.parametrize("fmt", FORMATS)
def test_laxarray_function_and_output_types(fmt):
    rng = np.random.default_rng(36)
    x, v = random_dense(rng, SHAPE), rng.standard_normal(4)
    xs = to_sparse(x, fmt)
    out = sp.sparsify(lambda m, v: {"a": la.matmul(m, v), "b": la.sin(m)})(xs, la.asarray(v))
    assert isinstance(out["a"], la.Array)
    assert type(out["b"]) is type(xs)
    assert_matches(out, {"a": x @ v, "b": np.sin(x)})
    # sparse inputs anywhere in the argument pytree; keyword arguments
    out = sp.sparsify(lambda d, *, k: d["m"].T @ k)({"m": xs}, k=rng.standard_normal(5))
    assert out.shape == (4,)


@pytest.mark.parametrize("fmt", FORMATS)
def test_missing_rule_and_densify(fmt):
    rng = np.random.default_rng(37)
    x = random_dense(rng, SHAPE)
    xs = to_sparse(x, fmt)
    with pytest.raises(NotImplementedError, match=r"'exp'.*todense\(\)"):
        sp.sparsify(jnp.exp)(xs)
    with pytest.raises(NotImplementedError, match=r"'cumsum'.*todense\(\)"):
        sp.sparsify(lambda m: jnp.cumsum(m, 0))(xs)
    got = sp.sparsify(lambda m: (jnp.exp(m), jnp.cumsum(m, 0), 1.0 / (m + 2.0)),
                      densify=True)(xs)
    assert_matches(got, (np.exp(x), np.cumsum(x, 0), 1.0 / (x + 2.0)))
    with pytest.raises(TypeError, match="sparsify"):
        sp.sparsify(3)
    with pytest.raises(TypeError, match="densify"):
        sp.sparsify(jnp.sin, densify="yes")


def _sigmoid(x):
    return 0.5 * (jnp.tanh(x / 2) + 1)


def _y_model(params, X):
    return _sigmoid(jnp.dot(X, params[1:]) + params[0])


def _seed_loss(params, X, y):
    y_hat = _y_model(params, X)
    return -jnp.mean(y * jnp.log(y_hat) + (1 - y) * jnp.log(1 - y_hat))


def _fit_logreg(X, y):
    from jax.scipy import optimize
    params = jnp.zeros(X.shape[1] + 1)
    result = optimize.minimize(functools.partial(_seed_loss, X=X, y=y), x0=params,
                               method="BFGS")
    return result.x


def test_seed_sparse_logistic_regression():
    """The seed's example (jax.numpy + jax.scipy BFGS), unchanged, on BCOO data (BCSR:
    the same loss and gradient in test_grad_jit_vmap)."""
    from sklearn.datasets import make_classification
    X, y = make_classification(n_classes=2, random_state=1701)
    X[np.abs(X) < 0.5] = 0.0                       # make the data actually sparse
    params_dense = jax.jit(_fit_logreg)(X, y)
    params_sparse = jax.jit(sp.sparsify(_fit_logreg))(sp.BCOO.fromdense(X), y)
    np.testing.assert_allclose(params_sparse, params_dense, rtol=0, atol=1e-5)
