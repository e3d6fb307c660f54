"""linalg raises NumPy's LinAlgError where NumPy does, eagerly; under jax.jit/vmap it does not.

NumPy is the oracle: each case runs NumPy's function on the same input first; where NumPy
raises ``numpy.linalg.LinAlgError``, laxarray must raise it with the same message, and
where NumPy returns, laxarray must return.  Inputs: exactly singular matrices (an exact zero
pivot, what LAPACK reports), nearly singular ones (a tiny nonzero pivot: no error in
NumPy), matrices that are not positive definite (also through the lower triangle only, which
is all that is read), NaN input for the decompositions whose NaN handling NumPy defines
(SVD: LAPACK's NaN test; eig: NumPy's own finiteness check; eigh: returns NaN), stacks with
one bad matrix, float32/float64/complex64/complex128.  Inputs with infinities are left out
for the SVD/eigh family: NumPy's outcome there depends on the LAPACK driver (``eigvalsh``
raises where ``eigh`` returns on the same matrix).
"""

import jax
import numpy as np
import pytest

import laxarray as xp

L = xp.linalg
NAN = np.nan
DTYPES = [np.float64, np.float32, np.complex128, np.complex64]

SINGULAR = np.array([[1.0, 2.0], [2.0, 4.0]])
SINGULAR3 = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]])
REGULAR = np.array([[2.0, 1.0], [1.0, 3.0]])
NEARLY = np.array([[1.0, 1.0], [1.0, 1.0 + 1e-15]])         # pivot 1.1e-15: no error
TINY = np.array([[1.0, 0.0], [0.0, 1e-300]])                 # pivot 1e-300: no error
ZERO = np.zeros((2, 2))
NOT_PD = -np.eye(2)
SEMIDEFINITE = np.array([[1.0, 0.0], [0.0, 0.0]])
LOWER_NOT_PD = np.array([[1.0, 100.0], [2.0, 1.0]])          # lower triangle: 1 - 4 < 0
LOWER_PD = np.array([[4.0, -100.0], [2.0, 2.0]])             # lower triangle: [[4], [2, 2]]
ONE_NEGATIVE = np.array([[-1.0]])
WITH_NAN = np.array([[NAN, 1.0], [1.0, 1.0]])
WITH_INF = np.array([[np.inf, 1.0], [1.0, 1.0]])


def _stack(*mats):
    return np.stack(mats)


def _outcome(fn, args, kwargs):
    """``None`` if ``fn`` returns, else the LinAlgError's message."""
    try:
        fn(*args, **kwargs)
    except np.linalg.LinAlgError as exc:
        return str(exc)
    return None


def _lax_args(args):
    return [xp.asarray(a) if isinstance(a, np.ndarray) else a for a in args]


def _check_like_numpy(name, args, kwargs=None, np_name=None):
    kwargs = kwargs or {}
    expected = _outcome(getattr(np.linalg, np_name or name), args, kwargs)
    got = _outcome(getattr(L, name), _lax_args(args), kwargs)
    assert got == expected, (name, args, kwargs)
    return expected


RHS = np.array([1.0, 2.0])

# (function, args, kwargs): inputs whose NumPy outcome is a LinAlgError or a value
SQUARE_INPUTS = [SINGULAR, SINGULAR3, REGULAR, NEARLY, TINY, ZERO,
                 _stack(REGULAR, SINGULAR), _stack(SINGULAR, REGULAR), _stack(REGULAR, NEARLY),
                 np.zeros((0, 0)), np.zeros((3, 0, 0))]
CASES = (
    [("inv", (a,), {}) for a in SQUARE_INPUTS]
    + [("solve", (a, np.ones(a.shape[-1])), {}) for a in SQUARE_INPUTS if a.ndim == 2]
    + [("solve", (a, np.ones(a.shape[:-1] + (1,))), {}) for a in SQUARE_INPUTS]
    + [("solve", (_stack(REGULAR, SINGULAR), np.ones((3, 1, 2, 1))), {})]   # broadcast batch
    + [("matrix_power", (a, n), {}) for a in (SINGULAR, REGULAR, ZERO, _stack(REGULAR, ZERO))
       for n in (-3, -1, 0, 2)]
    + [("cholesky", (a,), {"upper": upper})
       for a in (REGULAR, NOT_PD, SEMIDEFINITE, LOWER_NOT_PD, LOWER_PD, ONE_NEGATIVE,
                 np.array([[4.0]]), ZERO, _stack(REGULAR, NOT_PD), _stack(REGULAR, REGULAR),
                 np.zeros((0, 0)))
       for upper in (False, True)]
    + [("tensorinv", (a.reshape(2, 2, 4) if a.size == 16 else a, 2), {})
       for a in (np.eye(4) * 2, np.diag([1.0, 2.0, 0.0, 3.0]))]
    + [("tensorsolve", (np.eye(4).reshape(2, 2, 4) * d, np.ones((2, 2))), {})
       for d in (1.0, 0.0)]
    + [("tensorsolve", (np.diag([1.0, 2.0, 0.0, 3.0]).reshape(2, 2, 2, 2), np.ones((2, 2))), {})]
    + [(name, (a,), {}) for name in ("svdvals", "pinv", "matrix_rank", "cond", "det", "slogdet",
                                     "eig", "eigvals", "eigh", "eigvalsh", "qr")
       for a in (SINGULAR, REGULAR, WITH_NAN, _stack(REGULAR, WITH_NAN), ZERO)]
    + [("svd", (a,), {"full_matrices": full}) for a in (SINGULAR, WITH_NAN, np.ones((5, 3)),
                                                        np.full((5, 3), NAN))
       for full in (True, False)]
    + [("cond", (a, p), {}) for a in (SINGULAR, REGULAR, WITH_NAN) for p in (2, -2, 1, "fro")]
    + [("norm", (a, o), {}) for a in (SINGULAR, WITH_NAN) for o in (2, -2, "nuc", "fro", 1)]
    + [("matrix_norm", (a,), {"ord": o}) for a in (REGULAR, WITH_NAN, _stack(REGULAR, WITH_NAN))
       for o in (2, -2, "nuc", "fro")]
    + [("lstsq", (a, np.ones(a.shape[0])), {}) for a in (SINGULAR, REGULAR, WITH_NAN,
                                                         WITH_INF, np.ones((4, 2)))]
    + [(name, (a,), {}) for name in ("eig", "eigvals") for a in (WITH_INF, -WITH_INF)]
)


def _cast(args, dtype):
    return tuple(a.astype(dtype) if isinstance(a, np.ndarray) else a for a in args)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name, args, kwargs", CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_raises_exactly_where_numpy_raises(name, args, kwargs, dtype):
    _check_like_numpy(name, _cast(args, dtype), kwargs)


def test_the_cases_cover_both_outcomes_for_every_function():
    """The table is not vacuous: each function raises on some input and returns on another
    (NumPy's outcome; the test above requires laxarray's to be the same)."""
    outcomes = {}
    for name, args, kwargs in CASES:
        raised = _outcome(getattr(np.linalg, name), args, kwargs) is not None
        outcomes.setdefault(name, set()).add(raised)
    never = {"det", "slogdet", "qr", "eigh", "eigvalsh"}    # no LinAlgError on these inputs
    for name, seen in outcomes.items():
        assert seen == ({False} if name in never else {True, False}), name


@pytest.mark.parametrize("message, call", [
    ("Singular matrix", lambda: L.solve(xp.asarray(SINGULAR), xp.asarray(RHS))),
    ("Singular matrix", lambda: L.inv(xp.asarray(_stack(REGULAR, SINGULAR)))),
    ("Singular matrix", lambda: L.matrix_power(xp.asarray(SINGULAR), -1)),
    ("Singular matrix", lambda: L.tensorinv(xp.asarray(np.zeros((2, 2, 4))))),
    ("Singular matrix", lambda: L.tensorsolve(xp.asarray(np.zeros((2, 2, 4))), xp.ones((2, 2)))),
    ("Matrix is not positive definite", lambda: L.cholesky(xp.asarray(NOT_PD))),
    ("SVD did not converge", lambda: L.svd(xp.asarray(WITH_NAN))),
    ("Array must not contain infs or NaNs", lambda: L.eig(xp.asarray(WITH_NAN))),
])
def test_except_numpy_linalgerror_catches_it(message, call):
    try:
        call()
    except np.linalg.LinAlgError as exc:
        caught = exc
    else:
        raise AssertionError("no LinAlgError")
    assert str(caught) == message
    assert isinstance(caught, ValueError) and isinstance(caught, L.LinAlgError)


def test_nearly_singular_solves_like_numpy():
    for a in (NEARLY, TINY):
        got = np.asarray(L.solve(xp.asarray(a), xp.asarray(RHS)))
        np.testing.assert_allclose(got, np.linalg.solve(a, RHS), rtol=1e-6)


def test_integer_input_raises_too():
    a = np.array([[1, 2], [2, 4]])
    with pytest.raises(np.linalg.LinAlgError, match="^Singular matrix$"):
        np.linalg.inv(a)
    with pytest.raises(np.linalg.LinAlgError, match="^Singular matrix$"):
        L.inv(xp.asarray(a))


# --- traced: nothing is raised, the values are what they were -------------------------------

TRACED = [
    (lambda a: L.inv(a), SINGULAR, "nonfinite"),
    (lambda a: L.solve(a, xp.ones(2)), SINGULAR, "nonfinite"),
    (lambda a: L.matrix_power(a, -2), SINGULAR, "nonfinite"),
    (lambda a: L.cholesky(a), NOT_PD, "nan"),
    (lambda a: L.svdvals(a), WITH_NAN, "nan"),
    (lambda a: L.eigvals(a), WITH_NAN, "nan"),
    (lambda a: L.pinv(a), WITH_NAN, "nan"),
]


@pytest.mark.parametrize("fn, a, kind", TRACED)
def test_under_jit_nothing_is_raised(fn, a, kind):
    with pytest.raises(np.linalg.LinAlgError):
        fn(xp.asarray(a))
    out = np.asarray(jax.jit(fn)(xp.asarray(a)))
    assert (np.isnan(out).any() if kind == "nan" else not np.isfinite(out).all())


@pytest.mark.parametrize("fn, a, kind", TRACED)
def test_under_vmap_nothing_is_raised(fn, a, kind):
    stack = xp.asarray(_stack(REGULAR if kind != "nan" or a is NOT_PD else np.eye(2), a))
    out = np.asarray(jax.vmap(fn)(stack))
    assert np.isfinite(out[0]).all()
    assert (np.isnan(out[1]).any() if kind == "nan" else not np.isfinite(out[1]).all())


def test_grad_raises_eagerly_and_not_under_jit():
    # outside jit, grad computes the primal values: the error is known and raised
    f = xp.grad(lambda a: xp.sum(L.inv(a)))
    with pytest.raises(np.linalg.LinAlgError) as info:   # jax adds a note on its frames
        f(xp.asarray(SINGULAR))
    assert str(info.value) == "Singular matrix"
    g = jax.jit(f)(xp.asarray(SINGULAR))
    assert not np.isfinite(np.asarray(g)).all()
    np.testing.assert_allclose(np.asarray(f(xp.asarray(REGULAR))),
                               -np.linalg.inv(REGULAR).T @ np.ones((2, 2))
                               @ np.linalg.inv(REGULAR).T, rtol=1e-12)


@pytest.mark.parametrize("m", [[[1, 2], [2, 4]], [[2, 4], [1, 2]], [[0, 0], [0, 0]],
                               [[1, 2, 3], [4, 5, 6], [7, 8, 9]], [[0, 1], [0, 1]]])
def test_det_of_a_singular_matrix_is_positive_zero_as_numpy(m):
    for dt in (np.int64, np.float64):
        want = np.linalg.det(np.asarray(m, dt))
        got = np.asarray(L.det(xp.asarray(np.asarray(m, dt))))
        assert want == 0.0 and got == 0.0
        assert np.signbit(got) == np.signbit(want)   # NumPy prints 0.0, never -0.0


def test_trace_with_a_bool_dtype_is_the_house_typeerror():
    # NumPy sums in bool (np.trace(..., dtype=bool) is True); laxarray refuses a bool
    # accumulator, in its own words, not jax's "reduce_sum does not accept dtype bool"
    assert np.trace(np.ones((2, 2)), dtype=bool)
    for f in (lambda x: L.trace(x, dtype=bool), lambda x: xp.trace(x, dtype=bool),
              lambda x: xp.sum(x, dtype=bool)):
        with pytest.raises(TypeError, match=r"^(trace|sum): expected a numeric 'dtype'"):
            f(xp.ones((2, 2)))
