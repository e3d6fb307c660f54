"""linalg_checks: the failures NumPy's linalg raises LinAlgError for, reported by checkify.

Eagerly, under jax.jit and under jax.vmap; NumPy's message, the primitive and the user's
line; no report where NumPy returns a value (det/slogdet/cond of a singular matrix, eigh of
NaN input, regular matrices); the checked function's values are the unchecked ones.
"""

import jax
import numpy as np
import pytest
from jax import lax

import laxarray as xp
from checkify_markers import marked_line
from laxarray import checkify as ck

# this module's own jax code (jax.jit/grad/vmap on NumPy float64 values, jax.numpy oracles)
# is a 64-bit jax program: see the jax_x64 fixture (tests/conftest.py)
pytestmark = pytest.mark.usefixtures("jax_x64")

HERE = __file__
L = xp.linalg
SINGULAR = np.array([[1.0, 2.0], [2.0, 4.0]])
REGULAR = np.array([[2.0, 1.0], [1.0, 3.0]])
NOT_PD = np.array([[1.0, 0.0], [3.0, 1.0]])       # lower triangle: 1 - 9 < 0
WITH_NAN = np.array([[np.nan, 1.0], [1.0, 1.0]])


def at(marker):
    return f"{HERE}:{marked_line(HERE, marker)}"


def solve(a):
    return L.solve(a, xp.ones(a.shape[-1]))  # MARK-solve


def inv(a):
    return L.inv(a)  # MARK-inv


def power(a):
    return L.matrix_power(a, -2)  # MARK-power


def cholesky(a):
    return L.cholesky(a)  # MARK-cholesky


def svdvals(a):
    return L.svdvals(a)  # MARK-svdvals


def eigvals(a):
    return L.eigvals(a)  # MARK-eigvals


FAILING = [
    (solve, SINGULAR, "Singular matrix", "triangular_solve", "MARK-solve"),
    (inv, SINGULAR, "Singular matrix", "triangular_solve", "MARK-inv"),
    (power, SINGULAR, "Singular matrix", "triangular_solve", "MARK-power"),
    (cholesky, NOT_PD, "Matrix is not positive definite", "cholesky", "MARK-cholesky"),
    (cholesky, -np.eye(1), "Matrix is not positive definite", "cholesky", "MARK-cholesky"),
    (svdvals, WITH_NAN, "SVD did not converge", "svd", "MARK-svdvals"),
    (eigvals, WITH_NAN, "Array must not contain infs or NaNs", "eig", "MARK-eigvals"),
]


def _numpy_message(fn, a):
    name = {solve: "solve", inv: "inv", power: "matrix_power", cholesky: "cholesky",
            svdvals: "svdvals", eigvals: "eigvals"}[fn]
    args = {"solve": (a, np.ones(a.shape[-1])), "matrix_power": (a, -2)}.get(name, (a,))
    with pytest.raises(np.linalg.LinAlgError) as info:
        getattr(np.linalg, name)(*args)
    return str(info.value)


def _expected(fn, a, message, prim, marker):
    assert _numpy_message(fn, a) == message          # the oracle: NumPy raises this
    return f"{message} in primitive {prim} at {at(marker)} ({fn.__name__})"


@pytest.mark.parametrize("fn, a, message, prim, marker", FAILING)
def test_reported_eagerly(fn, a, message, prim, marker):
    err, out = ck.checkify(fn, errors=ck.linalg_checks)(xp.asarray(a))
    assert err.get() == _expected(fn, a, message, prim, marker)
    assert isinstance(err.get_exception(), ck.LinAlgCheckError)
    # the value is the unchecked function's under jit (inf/NaN), not an exception
    np.testing.assert_array_equal(np.asarray(out), np.asarray(jax.jit(fn)(xp.asarray(a))))


@pytest.mark.parametrize("fn, a, message, prim, marker", FAILING)
def test_reported_under_jit(fn, a, message, prim, marker):
    err, _ = jax.jit(ck.checkify(fn, errors=ck.linalg_checks))(xp.asarray(a))
    assert err.get() == _expected(fn, a, message, prim, marker)


@pytest.mark.parametrize("fn, a, message, prim, marker", FAILING)
def test_reported_under_vmap_for_the_failing_lane(fn, a, message, prim, marker):
    good = np.eye(a.shape[-1]) * 2.0
    stack = xp.asarray(np.stack([good, a, good]))
    err, out = jax.vmap(ck.checkify(fn, errors=ck.linalg_checks))(stack)
    assert err.get() == "at mapped index 1: " + _expected(fn, a, message, prim, marker)
    err, _ = ck.checkify(jax.vmap(fn), errors=ck.linalg_checks)(stack)
    assert err.get() is not None and err.get().startswith(message + " in primitive " + prim)
    err, _ = jax.vmap(ck.checkify(fn, errors=ck.linalg_checks))(xp.asarray(np.stack([good,
                                                                                       good])))
    assert err.get() is None


@pytest.mark.parametrize("fn, a", [
    (solve, REGULAR), (inv, REGULAR), (power, REGULAR), (cholesky, REGULAR),
    (svdvals, SINGULAR), (eigvals, SINGULAR),
    (L.det, SINGULAR), (lambda a: L.slogdet(a)[1], SINGULAR),       # NumPy: 0 and -inf
    (lambda a: L.cond(a, 1), SINGULAR), (lambda a: L.cond(a, "fro"), SINGULAR),  # NumPy: inf
    (L.eigvalsh, WITH_NAN), (lambda a: L.eigh(a)[0], WITH_NAN),        # NumPy: NaN
    (L.svdvals, np.array([[np.inf, 1.0], [1.0, 1.0]])),               # NumPy: no error
    (L.qr, WITH_NAN), (L.det, WITH_NAN),
])
def test_no_report_where_numpy_returns(fn, a):
    err, _ = ck.checkify(fn, errors=ck.linalg_checks)(xp.asarray(a))
    assert err.get() is None
    err, _ = jax.jit(ck.checkify(fn, errors=ck.all_checks))(xp.asarray(a))
    assert err.get() is None or "primitive triangular_solve" not in err.get()


def test_category_is_in_all_checks_and_catchable_as_numpys():
    assert ck.linalg_checks <= ck.all_checks
    assert issubclass(ck.LinAlgCheckError, ck.JaxRuntimeError)
    assert issubclass(ck.LinAlgCheckError, np.linalg.LinAlgError)
    err, _ = jax.jit(ck.checkify(inv, errors=ck.all_checks))(xp.asarray(SINGULAR))
    assert err.get().startswith("Singular matrix in primitive triangular_solve")
    with pytest.raises(np.linalg.LinAlgError, match="^Singular matrix in primitive"):
        err.throw()


def test_without_the_category_nothing_is_reported():
    err, _ = ck.checkify(inv, errors=ck.nan_checks | ck.user_checks)(xp.asarray(np.ones((2,
                                                                                        2))))
    assert err.get() is None or "Singular" not in err.get()


def test_plain_jax_code_is_checked_too():
    def f(a):
        lu, _, perm = lax.linalg.lu(a)
        y = lax.linalg.triangular_solve(lu, a[perm], left_side=True, lower=True,
                                        unit_diagonal=True)       # unit diagonal: no report
        return lax.linalg.triangular_solve(lu, y, left_side=True, lower=False)  # MARK-tri
    err, _ = ck.checkify(f, errors=ck.linalg_checks)(SINGULAR)
    assert err.get() == f"Singular matrix in primitive triangular_solve at {at('MARK-tri')} (f)"
    err, _ = ck.checkify(f, errors=ck.linalg_checks)(REGULAR)
    assert err.get() is None

    def g(a):
        return lax.linalg.cholesky(a)  # MARK-jax-chol
    err, _ = ck.checkify(g, errors=ck.linalg_checks)(-np.eye(3))
    assert err.get() == (f"Matrix is not positive definite in primitive cholesky at "
                         f"{at('MARK-jax-chol')} (g)")
    err, _ = ck.checkify(g, errors=ck.linalg_checks)(np.eye(3))
    assert err.get() is None


def test_a_failure_with_nan_input_of_the_lower_triangle_is_still_seen():
    # a NaN below the diagonal (so in the upper triangle of the Hermitian matrix) must not
    # hide a failed first pivot, and must not be mistaken for a failure by itself
    a = np.array([[-1.0, 0.0, 0.0], [np.nan, 1.0, 0.0], [0.0, 0.0, 1.0]])
    with pytest.raises(np.linalg.LinAlgError, match="^Matrix is not positive definite$"):
        np.linalg.cholesky(a)
    err, _ = ck.checkify(cholesky, errors=ck.linalg_checks)(xp.asarray(a))
    assert err.get().startswith("Matrix is not positive definite")
    b = np.array([[1.0, 0.0], [np.nan, 1.0]])
    np.linalg.cholesky(b)      # NumPy: NaN in the factor, no error
    err, _ = ck.checkify(cholesky, errors=ck.linalg_checks)(xp.asarray(b))
    assert err.get() is None
