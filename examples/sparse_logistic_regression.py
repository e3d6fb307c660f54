"""Sparse logistic regression: the jax.experimental.sparse tutorial example, on laxarray.sparse.

The model and the fit below are the tutorial's code, written with ``jax.numpy`` and
``jax.scipy.optimize`` and unaware of sparsity; the only change is ``from laxarray import
sparse``.  ``sparse.sparsify(fit_logreg)`` runs the same fit on a BCOO and on a BCSR copy of
the data, and the sparse parameters must match the dense ones to 1e-5 (float64).  A second
part fits the same model with ``laxarray.optimize.minimize(method="L-BFGS")`` written with
laxarray itself, densely and on the sparse matrices directly.

Run: ``.venv/bin/python examples/sparse_logistic_regression.py``.
"""

import functools

import jax.numpy as jnp
import numpy as np
from jax.scipy import optimize
from sklearn.datasets import make_classification

import laxarray as xp
from laxarray import sparse
from laxarray.optimize import minimize


# ---- the tutorial, unchanged ------------------------------------------------------------
def sigmoid(x):
    return 0.5 * (jnp.tanh(x / 2) + 1)


def y_model(params, X):
    return sigmoid(jnp.dot(X, params[1:]) + params[0])


def loss(params, X, y):
    y_hat = y_model(params, X)
    return -jnp.mean(y * jnp.log(y_hat) + (1 - y) * jnp.log(1 - y_hat))


def fit_logreg(X, y):
    params = jnp.zeros(X.shape[1] + 1)
    result = optimize.minimize(functools.partial(loss, X=X, y=y),
                               x0=params, method='BFGS')
    return result.x


# ---- the same model written with laxarray, fitted with laxarray.optimize (L-BFGS) -------
def xp_loss(params, X, y):
    z = X @ params[1:] + params[0]          # X: dense Array, BCOO or BCSR
    y_hat = 0.5 * (xp.tanh(z / 2) + 1)
    return -xp.mean(y * xp.log(y_hat) + (1 - y) * xp.log(1 - y_hat))


def xp_fit_logreg(X, y):
    params = xp.zeros(X.shape[1] + 1)
    return minimize(xp_loss, params, args=(X, y), method="L-BFGS",
                    options={"gtol": 1e-9}).x


def report(name, params, reference, tol=1e-5):
    """Print and return whether ``params`` matches ``reference`` to ``tol``."""
    err = float(np.max(np.abs(np.asarray(params) - np.asarray(reference))))
    ok = err <= tol
    print(f"{name:40s} max |sparse - dense| = {err:.2e}  ({'<=' if ok else '>'} {tol:g})")
    return ok


def main():
    X, y = make_classification(n_classes=2, random_state=1701)
    params_dense = fit_logreg(X, y)
    print("dense fit (jax.scipy BFGS):")
    print(np.asarray(params_dense))

    Xsp = sparse.BCOO.fromdense(X)                 # Sparse version of the input
    fit_logreg_sp = sparse.sparsify(fit_logreg)    # Sparse-transformed fit function
    params_sparse = fit_logreg_sp(Xsp, y)
    print("sparsify(fit_logreg) on", Xsp)
    print(np.asarray(params_sparse))
    ok = report("sparsify(fit_logreg), BCOO", params_sparse, params_dense)
    Xcsr = sparse.BCSR.fromdense(X)
    ok &= report("sparsify(fit_logreg), BCSR", fit_logreg_sp(Xcsr, y), params_dense)

    print("\nlaxarray.optimize.minimize(method='L-BFGS') on laxarray arrays:")
    Xd, yd = xp.asarray(X), xp.asarray(y)
    params_lbfgs = xp_fit_logreg(Xd, yd)
    gap = float(np.max(np.abs(np.asarray(params_lbfgs) - np.asarray(params_dense))))
    print(f"{'(L-BFGS gtol=1e-9 vs jax BFGS gtol=1e-5)':40s} max difference = {gap:.2e}")
    ok &= report("L-BFGS on BCOO (direct)", xp_fit_logreg(Xsp, yd), params_lbfgs)
    ok &= report("L-BFGS on BCSR (direct)", xp_fit_logreg(Xcsr, yd), params_lbfgs)
    ok &= report("sparsify(L-BFGS fit) on BCSR", sparse.sparsify(xp_fit_logreg)(Xcsr, yd),
                 params_lbfgs)
    print("\nall sparse fits match the dense fit to 1e-5:", bool(ok))
    return ok


if __name__ == "__main__":
    raise SystemExit(0 if main() else 1)
