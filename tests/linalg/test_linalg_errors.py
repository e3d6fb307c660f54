"""linalg: bad input raises TypeError/ValueError naming the function before any kernel runs;
behaviour that the specs do not reach (jit, integer promotion, batched lstsq, namedtuples)."""

import math

import jax
import numpy as np
import pytest
from checks import raises_before_kernels

import laxarray as xp

L = xp.linalg
SQ = xp.asarray(np.array([[2.0, 1.0], [1.0, 3.0]]))
RECT = xp.asarray(np.ones((2, 3)))
VEC = xp.asarray(np.ones(3))
C3 = xp.asarray(np.ones((2, 3)) + 1j)

BAD_CALLS = [
    ("inv", ValueError, lambda: L.inv(RECT)),
    ("inv", ValueError, lambda: L.inv(VEC)),
    ("det", ValueError, lambda: L.det(RECT)),
    ("slogdet", ValueError, lambda: L.slogdet(RECT)),
    ("cholesky", ValueError, lambda: L.cholesky(RECT)),
    ("cholesky", TypeError, lambda: L.cholesky(SQ, upper="yes")),
    ("eigh", ValueError, lambda: L.eigh(RECT)),
    ("eig", ValueError, lambda: L.eig(VEC)),
    ("solve", ValueError, lambda: L.solve(SQ, VEC)),
    ("solve", ValueError, lambda: L.solve(SQ, xp.ones((3, 1)))),
    ("solve", ValueError, lambda: L.solve(xp.ones((2, 2, 2)), xp.ones((3, 2, 1)))),
    ("solve", ValueError, lambda: L.solve(RECT, VEC)),
    ("solve", TypeError, lambda: L.solve(SQ, "ab")),
    ("qr", ValueError, lambda: L.qr(RECT, mode="raw")),
    ("svd", TypeError, lambda: L.svd(RECT, full_matrices=None)),
    ("matrix_norm", ValueError, lambda: L.matrix_norm(SQ, ord="bad")),
    ("matrix_norm", ValueError, lambda: L.matrix_norm(SQ, ord=3)),
    ("matrix_norm", ValueError, lambda: L.matrix_norm(VEC)),
    ("vector_norm", ValueError, lambda: L.vector_norm(SQ, ord="fro")),
    ("vector_norm", TypeError, lambda: L.vector_norm(SQ, ord=None)),
    ("vector_norm", ValueError, lambda: L.vector_norm(SQ, axis=(0, 0))),
    ("vector_norm", ValueError, lambda: L.vector_norm(xp.ones((0,)), ord=-math.inf)),
    ("norm", ValueError, lambda: L.norm(SQ, ord="bad")),
    ("norm", ValueError, lambda: L.norm(VEC, ord="fro", axis=0)),
    ("norm", ValueError, lambda: L.norm(SQ, axis=(0, 0))),
    ("norm", ValueError, lambda: L.norm(xp.ones((2, 2, 2)), ord=2)),
    ("cond", ValueError, lambda: L.cond(RECT, 1)),
    ("cond", ValueError, lambda: L.cond(xp.ones((0, 0)))),
    ("cond", ValueError, lambda: L.cond(SQ, "bad")),
    ("matrix_power", TypeError, lambda: L.matrix_power(SQ, 1.5)),
    ("matrix_power", ValueError, lambda: L.matrix_power(RECT, 2)),
    ("matrix_rank", ValueError, lambda: L.matrix_rank(SQ, tol=0.1, rtol=0.1)),
    ("matrix_rank", ValueError, lambda: L.matrix_rank(xp.ones((2, 2, 2)), rtol=xp.ones(3))),
    ("pinv", ValueError, lambda: L.pinv(SQ, rcond=0.1, rtol=0.1)),
    ("pinv", TypeError, lambda: L.pinv(SQ, rtol="x")),
    ("lstsq", ValueError, lambda: L.lstsq(RECT, xp.ones(3))),
    ("lstsq", TypeError, lambda: L.lstsq(RECT, xp.ones(2), rcond="x")),
    ("tensorinv", ValueError, lambda: L.tensorinv(xp.ones((2, 3)), ind=1)),
    ("tensorinv", ValueError, lambda: L.tensorinv(SQ, ind=0)),
    ("tensorsolve", ValueError, lambda: L.tensorsolve(xp.ones((2, 3)), xp.ones(2))),
    ("multi_dot", ValueError, lambda: L.multi_dot([SQ])),
    ("multi_dot", ValueError, lambda: L.multi_dot([SQ, RECT, SQ])),
    ("multi_dot", TypeError, lambda: L.multi_dot(SQ)),
    ("cross", ValueError, lambda: L.cross(SQ, SQ)),
    ("cross", ValueError, lambda: L.cross(xp.ones(3), xp.ones(3), axis=-2)),
    ("cross", TypeError, lambda: L.cross(xp.ones(3, dtype=xp.bool), xp.ones(3, dtype=xp.bool))),
    ("outer", ValueError, lambda: L.outer(SQ, VEC)),
    ("diagonal", ValueError, lambda: L.diagonal(VEC)),
    ("diagonal", TypeError, lambda: L.diagonal(SQ, offset=0.5)),
    ("trace", ValueError, lambda: L.trace(VEC)),
    ("trace", TypeError, lambda: L.trace(xp.ones((2, 2), dtype=xp.bool))),
]


@pytest.mark.parametrize("name,exc,call", BAD_CALLS, ids=[f"{n}-{i}" for i, (n, _, _) in
                                                           enumerate(BAD_CALLS)])
def test_bad_input_raises_before_any_kernel(name, exc, call, kernels_run):
    raises_before_kernels(name, exc, call, kernels_run, "laxarray.linalg")


def test_integer_input_is_promoted_to_float64():
    a = xp.asarray(np.array([[2, 1], [1, 3]], dtype=np.int32))
    assert L.inv(a).dtype == xp.float64
    assert L.det(a).dtype == xp.float64
    assert L.eigvalsh(a).dtype == xp.float64
    assert L.vector_norm(a).dtype == xp.float64
    np.testing.assert_allclose(np.asarray(L.det(a)), 5.0)
    # matrix_power keeps integers for n >= 0, as NumPy does
    p = L.matrix_power(a, 3)
    assert p.dtype == xp.int32
    np.testing.assert_array_equal(np.asarray(p), np.linalg.matrix_power(np.asarray(a), 3))
    assert L.matrix_power(a, -1).dtype == xp.float64


def test_results_are_named_tuples():
    r = L.eigh(SQ)
    assert r.eigenvalues.shape == (2,) and r.eigenvectors.shape == (2, 2)
    q = L.qr(RECT)
    assert q.Q.shape == (2, 2) and q.R.shape == (2, 3)
    s = L.svd(RECT, full_matrices=False)
    assert (s.U.shape, s.S.shape, s.Vh.shape) == ((2, 2), (2,), (2, 3))
    d = L.slogdet(SQ)
    np.testing.assert_allclose(float(d.sign) * math.exp(float(d.logabsdet)), 5.0)
    assert L.qr(RECT, mode="r").shape == (2, 3)
    assert L.svd(RECT, compute_uv=False).shape == (2,)


def test_jit_traces_each_function():
    f = jax.jit(lambda a, b: (L.solve(a, b), L.det(a), L.eigh(a).eigenvalues,
                              L.svd(a).S, L.matrix_norm(a, ord=2), L.pinv(a)))
    a = np.array([[2.0, 1.0], [1.0, 3.0]])
    out = f(xp.asarray(a), xp.asarray(np.ones(2)))
    np.testing.assert_allclose(np.asarray(out[0]), np.linalg.solve(a, np.ones(2)))
    np.testing.assert_allclose(np.asarray(out[5]), np.linalg.pinv(a))


def test_traced_program_has_no_pjit_of_our_kernels():
    jaxpr = jax.make_jaxpr(lambda a: L.inv(a)._value)(np.eye(3))
    assert "lu" in str(jaxpr)


def test_lstsq_batched_and_rank_deficient():
    rng = np.random.default_rng(0)
    a = rng.uniform(-1, 1, (2, 5, 3))
    b = rng.uniform(-1, 1, (2, 5, 2))
    x, res, rank, s = L.lstsq(xp.asarray(a), xp.asarray(b))
    for i in range(2):
        ex, eres, erank, es = np.linalg.lstsq(a[i], b[i])
        np.testing.assert_allclose(np.asarray(x)[i], ex, rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(np.asarray(res)[i], eres, rtol=1e-10)
        assert int(np.asarray(rank)[i]) == erank
    deficient = np.ones((4, 2))
    x, res, rank, s = L.lstsq(xp.asarray(deficient), xp.asarray(np.arange(4.0)))
    ex, eres, erank, _ = np.linalg.lstsq(deficient, np.arange(4.0))
    np.testing.assert_allclose(np.asarray(x), ex, rtol=1e-10)
    assert res.shape == eres.shape == (0,) and int(rank) == erank == 1


def test_singular_input_is_a_value_for_det_slogdet_cond_and_under_jit():
    # NumPy: det 0, slogdet (0, -inf), cond inf (no error); inv and cholesky raise eagerly
    # (tests/linalg/test_linalg_raises.py) and give inf/NaN under jax.jit
    sing = xp.asarray(np.ones((2, 2)))
    assert float(L.det(sing)) == 0.0
    sign, logabs = L.slogdet(sing)
    assert float(sign) == 0.0 and float(logabs) == -math.inf
    assert float(L.cond(sing, 1)) == math.inf == np.linalg.cond(np.ones((2, 2)), 1)
    assert not np.all(np.isfinite(np.asarray(jax.jit(L.inv)(sing))))
    assert np.isnan(np.asarray(jax.jit(L.cholesky)(xp.asarray(-np.eye(2))))).any()


def test_solve_vector_rhs_broadcasts_over_batch():
    a = np.stack([np.eye(2) * 2, np.eye(2) * 4])
    out = L.solve(xp.asarray(a), xp.asarray(np.array([2.0, 4.0])))
    np.testing.assert_allclose(np.asarray(out), [[1.0, 2.0], [0.5, 1.0]])


def test_matrix_rank_of_vectors_and_tol():
    assert int(L.matrix_rank(xp.asarray(np.zeros(3)))) == 0
    assert int(L.matrix_rank(xp.asarray(np.ones(3)))) == 1
    d = xp.asarray(np.diag([1.0, 1e-3, 0.0]))
    assert int(L.matrix_rank(d)) == 2
    assert int(L.matrix_rank(d, tol=1e-2)) == 1
    assert int(L.matrix_rank(d, rtol=1e-2)) == 1


def test_a_0d_rtol_array_broadcasts_against_the_batch():
    # rtol "must be compatible with the shape of x": a 0-d array broadcasts against a batch
    # of matrices (pinv and matrix_rank raised a lax shape error; the conformance runner
    # found it once it passed rtol as an array, issue 74)
    a = np.random.default_rng(0).normal(size=(2, 2, 3))
    got = np.asarray(xp.linalg.pinv(xp.asarray(a), rtol=xp.asarray(1e-3)))
    np.testing.assert_allclose(got, np.linalg.pinv(a, rtol=1e-3), rtol=1e-10, atol=1e-12)
    assert np.asarray(xp.linalg.matrix_rank(xp.asarray(a), rtol=xp.asarray(1e-3))).tolist() \
        == np.linalg.matrix_rank(a, rtol=1e-3).tolist()
    assert np.asarray(xp.linalg.matrix_rank(xp.asarray(a), tol=xp.asarray(0.5))).tolist() \
        == np.linalg.matrix_rank(a, tol=0.5).tolist()


def test_complex_qr_has_real_nonnegative_diagonal():
    rng = np.random.default_rng(1)
    a = rng.uniform(-1, 1, (2, 4, 3)) + 1j * rng.uniform(-1, 1, (2, 4, 3))
    q, r = L.qr(xp.asarray(a.astype(np.complex64)))
    d = np.diagonal(np.asarray(r), axis1=-2, axis2=-1)
    assert np.all(d.imag == 0) and np.all(d.real >= 0)
    np.testing.assert_allclose(np.asarray(q) @ np.asarray(r), a, atol=1e-5)
