"""laxarray.grad through the linalg functions, against central finite differences.

Inputs are well conditioned (diagonally dominant, distinct eigen/singular values), float64;
each check differentiates a scalar that does not depend on the sign/phase freedom of the
factors (or, for qr, a matrix with a safely non-zero pivot sign).
"""

import numpy as np
import pytest
from checks import fd_grad

import laxarray as xp

RNG = np.random.default_rng(1234)
A = RNG.uniform(-1, 1, (3, 3)) + 4 * np.eye(3)          # well conditioned
SPD = A @ A.T + np.eye(3)
SYM = (A + A.T) / 2
RECT = RNG.uniform(-1, 1, (4, 3)) + np.vstack([3 * np.eye(3), np.zeros((1, 3))])
B = RNG.uniform(-1, 1, (3, 2))
W33, W43, W34, W3, W32, B42 = (RNG.uniform(-1, 1, s) for s in
                               [(3, 3), (4, 3), (3, 4), (3,), (3, 2), (4, 2)])


def check(scalar, x):
    """``laxarray.grad(scalar)`` at ``x`` equals the finite-difference gradient."""
    got = np.asarray(xp.grad(scalar)(xp.asarray(x)))
    expected = fd_grad(lambda v: float(scalar(xp.asarray(v))), x)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-7)


L = xp.linalg
CASES = {
    "det": (lambda x: L.det(x), A),
    "slogdet": (lambda x: L.slogdet(x).logabsdet, A),
    "inv": (lambda x: xp.sum(L.inv(x) * W33), A),
    "solve x1": (lambda x: xp.sum(L.solve(x, xp.asarray(B)) * W32), A),
    "solve x2": (lambda x: xp.sum(L.solve(xp.asarray(A), x) * W32), B),
    "solve vector": (lambda x: xp.sum(L.solve(x, xp.asarray(W3)) * W3), A),
    "cholesky": (lambda x: xp.sum(L.cholesky(x) * W33), SPD),
    "cholesky upper": (lambda x: xp.sum(L.cholesky(x, upper=True) * W33), SPD),
    "eigh values": (lambda x: xp.sum(L.eigh(x).eigenvalues * W3), SYM),
    # v diag(w^2) v^T does not depend on the eigenvectors' signs
    "eigh vectors": (lambda x: xp.sum((L.eigh(x).eigenvectors * L.eigh(x).eigenvalues ** 2)
                                      @ xp.matrix_transpose(L.eigh(x).eigenvectors) * W33), SYM),
    "eigvalsh": (lambda x: xp.sum(L.eigvalsh(x) * W3), SYM),
    "svd values": (lambda x: xp.sum(L.svd(x, full_matrices=False).S * W3), RECT),
    "svd vectors": (lambda x: xp.sum(L.svd(x, full_matrices=False).U[:, :2]
                                     @ xp.matrix_transpose(L.svd(x, full_matrices=False).U[:, :2])
                                     * xp.asarray(np.eye(4))), RECT),
    "svdvals": (lambda x: xp.sum(L.svdvals(x) * W3), RECT),
    "qr": (lambda x: xp.sum(L.qr(x).Q * W43) + xp.sum(L.qr(x).R * W33), RECT),
    "pinv": (lambda x: xp.sum(L.pinv(x) * W34), RECT),
    "norm fro": (lambda x: L.norm(x), A),
    "norm 2": (lambda x: L.norm(x, 2), RECT),
    "norm nuc": (lambda x: L.norm(x, "nuc"), RECT),
    "norm vector 3": (lambda x: L.norm(x, 3, axis=0)[1], A),
    "vector_norm": (lambda x: L.vector_norm(x, ord=2), A),
    "matrix_norm 1": (lambda x: L.matrix_norm(x, ord=1), A),
    "matrix_power -2": (lambda x: xp.sum(L.matrix_power(x, -2) * W33), A),
    "cond": (lambda x: L.cond(x), A),
    "lstsq": (lambda x: xp.sum(L.lstsq(x, xp.asarray(B42)).x * W32), RECT),
    "tensorsolve": (lambda x: xp.sum(L.tensorsolve(x, xp.asarray(W3)) * W3), A),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_grad_matches_finite_differences(name):
    scalar, x = CASES[name]
    check(scalar, x)


def test_grad_is_batched():
    xs = np.stack([A, A.T + np.eye(3)])
    got = np.asarray(xp.grad(lambda x: xp.sum(L.det(x)))(xp.asarray(xs)))
    for i in range(2):  # d det / dA = det(A) inv(A)^T
        np.testing.assert_allclose(got[i], np.linalg.det(xs[i]) * np.linalg.inv(xs[i]).T,
                                   rtol=1e-10)


def test_grad_of_complex_input_det():
    z = A + 0.5j * np.eye(3)
    # d|det|^2 / d(real part), with the real part as the variable
    f = lambda re: xp.abs(L.det(re + xp.asarray(0.5j * np.eye(3)))) ** 2  # noqa: E731
    check(f, z.real.copy())
