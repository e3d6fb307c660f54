"""laxarray.optimize.minimize (L-BFGS, BFGS) and its line search, against SciPy and math."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import scipy.optimize as sopt
import scipy.sparse as sps
from hypothesis import given, settings
from hypothesis import strategies as st

import laxarray as xp
import laxarray.sparse as lsp
from laxarray.optimize import OptimizeResults, line_search, minimize

METHODS = ["L-BFGS", "BFGS"]


def quad(x, A, b):
    """0.5 x^T A x - b^T x: minimiser A^{-1} b, gradient A x - b."""
    return 0.5 * xp.sum(x * (A @ x)) - xp.sum(b * x)


X5 = [-1.2, 1.0, -0.5, 0.3, 0.9]     # one shape for the rosen tests: options don't recompile


def rosen(x):
    return xp.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1.0 - x[:-1]) ** 2)


def logreg(p, X, y):
    """Mean logistic loss + 1e-3/2 ||w||^2 (X dense or sparse)."""
    z = X @ p[1:] + p[0]
    return (xp.mean(xp.maximum(z, 0.0) + xp.log1p(xp.exp(xp.minimum(z, -z))) - y * z)
            + 5e-4 * xp.sum(p[1:] * p[1:]))


def logreg_np(a, y):
    n = a.shape[0]

    def f(p):
        z = a @ p[1:] + p[0]
        e = np.logaddexp(0.0, z)
        r = (np.exp(z - e) - y) / n
        g = np.concatenate([[r.sum()], a.T @ r + 1e-3 * p[1:]])
        return np.mean(e - y * z) + 5e-4 * p[1:] @ p[1:], g
    return f


def spd(rng, n):
    m = rng.standard_normal((n, n))
    return m @ m.T + n * np.eye(n)


@pytest.mark.parametrize("method", METHODS)
@settings(max_examples=8)
@given(seed=st.integers(0, 2**32 - 1))
def test_quadratic_minimiser_is_the_linear_solve(method, seed):
    rng = np.random.default_rng(seed)
    A, b = spd(rng, 6), rng.standard_normal(6)
    r = minimize(quad, xp.zeros(6), args=(xp.asarray(A), xp.asarray(b)), method=method,
                 options={"gtol": 1e-8, "ftol": 0.0})
    # A >= 6 I, so |x - x*| <= |grad| / 6 <= sqrt(6) * gtol / 6
    np.testing.assert_allclose(np.asarray(r.x), np.linalg.solve(A, b), rtol=0, atol=1e-8)
    np.testing.assert_allclose(np.asarray(r.jac), A @ np.asarray(r.x) - b, atol=1e-12)
    assert bool(r.success) and int(r.status) in (0, 2)
    assert int(r.nit) >= 1 and int(r.nfev) >= int(r.nit)


@pytest.mark.parametrize("method", METHODS)
def test_rosenbrock_reaches_the_known_minimum(method):
    x0 = np.array(X5)
    r = minimize(rosen, xp.asarray(x0), method=method, options={"gtol": 1e-8})
    ref = sopt.minimize(lambda v: float(rosen(xp.asarray(v))), x0,
                        method="L-BFGS-B" if method == "L-BFGS" else "BFGS")
    np.testing.assert_allclose(np.asarray(r.x), np.ones(5), atol=1e-5)
    assert float(r.fun) <= max(ref.fun, 1e-10)
    assert bool(r.success)


@pytest.fixture(scope="module")
def regression():
    rng = np.random.default_rng(7)
    a = sps.random_array((400, 60), density=0.05, rng=rng, format="csr",
                         data_sampler=rng.standard_normal)
    z = a @ rng.standard_normal(60)
    y = (rng.random(400) < 1 / (1 + np.exp(-z))).astype(float)
    f = logreg_np(a, y)
    ref = sopt.minimize(f, np.zeros(61), jac=True, method="L-BFGS-B",
                        options={"gtol": 1e-8})
    return a, y, f, ref


@pytest.mark.parametrize("fmt", ["bcoo", "bcsr"])
def test_regression_matches_scipy_lbfgsb(regression, fmt):
    a, y, f, ref = regression
    X = (lsp.BCOO if fmt == "bcoo" else lsp.BCSR).from_scipy_sparse(a)
    r = minimize(logreg, xp.zeros(61), args=(X, xp.asarray(y)), method="L-BFGS")
    default = sopt.minimize(f, np.zeros(61), jac=True, method="L-BFGS-B")
    # default tolerances on both sides: the same final loss to 1e-6
    assert abs(float(r.fun) - default.fun) <= 1e-6
    assert abs(float(r.fun) - f(np.asarray(r.x))[0]) <= 1e-12
    np.testing.assert_allclose(np.asarray(r.jac), f(np.asarray(r.x))[1], atol=1e-12)
    np.testing.assert_allclose(np.asarray(r.x), ref.x, atol=1e-2)
    assert bool(r.success)


def test_under_jit_and_vmap_match_eager():
    rng = np.random.default_rng(3)
    A = xp.asarray(spd(rng, 6))
    bs = rng.standard_normal((3, 6))

    def solve(b):
        return minimize(quad, xp.zeros(6), args=(A, b), method="L-BFGS",
                        options={"gtol": 1e-8, "ftol": 0.0}).x
    eager = np.stack([np.asarray(solve(xp.asarray(b))) for b in bs])
    batched = jax.jit(jax.vmap(solve))(xp.asarray(bs))
    np.testing.assert_allclose(np.asarray(batched), eager, atol=1e-8)
    np.testing.assert_allclose(eager, np.linalg.solve(np.asarray(A), bs.T).T, atol=1e-8)


def test_result_types_follow_x0_and_shape_is_kept():
    r = minimize(lambda x: jnp.sum((x - 2.0) ** 2), jnp.zeros((2, 3)), method="BFGS")
    assert isinstance(r, OptimizeResults) and isinstance(r.x, jax.Array)
    assert r.x.shape == (2, 3) and r.jac.shape == (2, 3) and r.hess_inv.shape == (6, 6)
    np.testing.assert_allclose(np.asarray(r.x), 2.0, atol=1e-6)
    r2 = minimize(lambda x: xp.sum((x - 2.0) ** 2), xp.zeros(3), method="L-BFGS")
    assert type(r2.x) is xp.asarray(0.0).__class__ and r2.hess_inv is None


def test_integer_x0_is_promoted():
    r = minimize(lambda x: jnp.sum((x - 0.5) ** 2), jnp.array([3, 4]), method="L-BFGS")
    assert r.x.dtype == np.float64
    np.testing.assert_allclose(np.asarray(r.x), 0.5, atol=1e-6)


def test_maxiter_reached_reports_status_1():
    r = minimize(rosen, xp.asarray(X5), method="L-BFGS", options={"maxiter": 2})
    assert int(r.nit) == 2 and int(r.status) == 1 and not bool(r.success)
    r0 = minimize(rosen, xp.asarray(X5), method="BFGS", options={"maxiter": 0})
    assert int(r0.nit) == 0 and int(r0.status) == 1


def test_starting_at_the_minimum_takes_no_step():
    r = minimize(rosen, xp.ones(5), method="L-BFGS")
    assert int(r.nit) == 0 and int(r.status) == 0 and float(r.fun) == 0.0


def test_nonfinite_objective_reports_status_4():
    r = minimize(lambda x: xp.sum(xp.log(x)), xp.asarray([-1.0, 1.0]), method="L-BFGS")
    assert int(r.status) == 4 and not bool(r.success)


def test_sparsified_fit_matches_dense(regression):
    a, y, _, _ = regression

    def fit(X, y):
        return minimize(logreg, xp.zeros(61), args=(X, y), method="L-BFGS",
                        options={"gtol": 1e-9}).x
    dense = fit(xp.asarray(a.toarray()), xp.asarray(y))
    try:
        sp_fit = lsp.sparsify(fit)(lsp.BCSR.from_scipy_sparse(a), xp.asarray(y))
    except NotImplementedError as e:
        pytest.skip(f"sparsify not available: {e}")
    np.testing.assert_allclose(np.asarray(sp_fit), np.asarray(dense), atol=1e-7)


def _quartic(x, c, shift):
    return jnp.sum(c * (x - shift) ** 2 + 0.1 * (x - shift) ** 4)


@jax.jit
def _search(c, shift, a0):
    vg = jax.value_and_grad(lambda x: _quartic(x, c, shift))
    x = jnp.zeros(4)
    f0, g0 = vg(x)
    return line_search(vg, x, -g0, f0, g0, a0)


@settings(max_examples=15)
@given(seed=st.integers(0, 2**32 - 1), a0=st.sampled_from([1e-3, 0.1, 1.0, 30.0]))
@pytest.mark.usefixtures("jax_x64")  # its own jax code builds float64 values
def test_line_search_step_satisfies_strong_wolfe(seed, a0):
    rng = np.random.default_rng(seed)
    c = jnp.asarray(rng.uniform(0.5, 5.0, 4))
    shift = jnp.asarray(rng.standard_normal(4))
    vg = jax.value_and_grad(lambda x: _quartic(x, c, shift))
    x = jnp.zeros(4)
    f0, g0 = vg(x)
    d = -g0
    r = _search(c, shift, jnp.asarray(a0, dtype=jnp.float64))
    a = float(r.step)
    fa, ga = vg(x + a * d)
    slope0 = float(g0 @ d)
    assert not bool(r.failed) and a > 0
    assert float(fa) <= float(f0) + 1e-4 * a * slope0
    assert abs(float(ga @ d)) <= 0.9 * abs(slope0) + 1e-12
    np.testing.assert_allclose(float(r.fun), float(fa), rtol=1e-12)


@pytest.mark.parametrize("kwargs, exc", [
    ({"method": "newton"}, ValueError),
    ({"method": 3}, TypeError),
    ({"method": "BFGS", "options": {"maxcor": 5}}, ValueError),
    ({"method": "L-BFGS", "options": {"c1": 0.95}}, ValueError),
    ({"method": "L-BFGS", "options": {"gtol": "small"}}, TypeError),
    ({"method": "L-BFGS", "options": {"maxiter": 2.5}}, TypeError),
    ({"method": "L-BFGS", "tol": -1.0}, ValueError),
    ({"method": "L-BFGS", "args": [1]}, TypeError),
    ({"method": "L-BFGS", "options": [("gtol", 1.0)]}, TypeError),
])
def test_bad_arguments_raise_naming_minimize(kwargs, exc):
    with pytest.raises(exc, match="minimize"):
        minimize(rosen, xp.zeros(3), **kwargs)


def test_bad_fun_and_x0_raise():
    with pytest.raises(TypeError, match="minimize.*callable"):
        minimize(3.0, xp.zeros(3), method="BFGS")
    with pytest.raises(TypeError, match="minimize.*scalar"):
        minimize(lambda x: x * 2.0, xp.zeros(3), method="BFGS")
    with pytest.raises(TypeError, match="minimize.*x0"):
        minimize(rosen, xp.zeros(3, dtype=xp.complex128), method="BFGS")
