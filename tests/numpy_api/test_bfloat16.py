"""bfloat16 (jax's brain float, ml_dtypes' type) works through the namespace with jax's promotion.

Oracle: compute in float32 with NumPy, then round through ``ml_dtypes.bfloat16``.  Promotion is
compared with ``jax.numpy.promote_types`` (bfloat16 is not a NumPy dtype).
"""

import jax
import ml_dtypes
import numpy as np
import pytest

import laxarray as la

jnp = pytest.importorskip("jax.numpy")

BF16 = np.dtype(ml_dtypes.bfloat16)
RNG = np.random.default_rng(0)
X = RNG.uniform(-2, 2, (3, 4)).astype(BF16)
Y = RNG.uniform(0.5, 2, (3, 4)).astype(BF16)
#: bfloat16 keeps 8 significant bits: one rounding is 2**-8 relative; allow a few.
TOL = dict(rtol=3e-2, atol=3e-2)


def _oracle(fn, *args):
    """``fn`` evaluated in float32 by NumPy, rounded to bfloat16."""
    out = fn(*(np.asarray(a, np.float32) for a in args))
    return np.asarray(out, np.float32).astype(BF16)


def _close(got, expected, **tol):
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    np.testing.assert_allclose(np.asarray(got).astype(np.float64),
                               np.asarray(expected).astype(np.float64), **(tol or TOL))


def test_dtype_object_and_predicates():
    assert la.bfloat16 == BF16 == jnp.bfloat16
    assert la.isdtype(la.bfloat16, "real floating")
    assert la.isdtype(la.bfloat16, "numeric")
    assert not la.isdtype(la.bfloat16, ("integral", "complex floating", "bool"))
    assert la.issubdtype(la.bfloat16, la.floating) == jnp.issubdtype(jnp.bfloat16, jnp.floating)
    info, ref = la.finfo(la.bfloat16), ml_dtypes.finfo(ml_dtypes.bfloat16)
    assert (info.bits, info.eps, info.max, info.min, info.smallest_normal) == (
        16, float(ref.eps), float(ref.max), float(ref.min), float(ref.smallest_normal))
    assert info.dtype == la.bfloat16


def test_creation_and_astype_round_like_ml_dtypes():
    got = la.asarray([1.5, 0.1, -3.14159], dtype=la.bfloat16)
    _close(got, np.asarray([1.5, 0.1, -3.14159], np.float32).astype(BF16), rtol=0, atol=0)
    assert la.asarray([1.5], dtype="bfloat16").dtype == BF16
    assert la.asarray(np.asarray([2.0], BF16)).dtype == BF16  # a NumPy bfloat16 array keeps it
    f = RNG.normal(size=7)
    _close(la.astype(la.asarray(f), la.bfloat16), f.astype(np.float32).astype(BF16),
           rtol=0, atol=0)
    _close(la.astype(la.asarray(X), la.float32), X.astype(np.float32), rtol=0, atol=0)
    _close(la.astype(la.asarray([1, -2, 300]), la.bfloat16),
           np.asarray([1, -2, 300], np.float32).astype(BF16), rtol=0, atol=0)
    assert la.zeros(3, dtype=la.bfloat16).dtype == BF16
    assert la.full((2,), 2.5, dtype=la.bfloat16).dtype == BF16


ALL = ["bool", "int8", "uint8", "int16", "int32", "int64", "uint64", "float16", "float32",
       "float64", "complex64", "complex128"]


@pytest.mark.parametrize("other", ALL)
def test_promotion_matches_jax(other):
    expected = np.dtype(jnp.promote_types(jnp.bfloat16, other))
    assert la.result_type(la.bfloat16, other) == expected
    assert la.result_type(other, la.bfloat16) == expected
    assert la.promote_types(la.bfloat16, other) == expected
    y = la.ones((3, 4), dtype=other)
    assert (la.asarray(X) + y).dtype == expected
    assert (y * la.asarray(X)).dtype == expected


@pytest.mark.parametrize("scalar", [2, 2.5, True, 1j])
def test_python_scalars_are_weak(scalar):
    expected = la.complex64 if isinstance(scalar, complex) else la.bfloat16
    assert (la.asarray(X) * scalar).dtype == expected
    assert la.result_type(la.bfloat16, scalar) == expected


UNARY = [("sin", np.sin), ("exp", np.exp), ("tanh", np.tanh), ("sqrt", lambda v: np.sqrt(
    np.abs(v))), ("floor", np.floor), ("round", np.round), ("abs", np.abs),
    ("negative", np.negative), ("sign", np.sign), ("square", np.square)]


@pytest.mark.parametrize("name,fn", UNARY, ids=[u[0] for u in UNARY])
def test_unary_functions_match_float32_rounded(name, fn):
    arg = la.abs(la.asarray(X)) if name == "sqrt" else la.asarray(X)
    _close(getattr(la, name)(arg), _oracle(fn, X))


BINARY = [("add", np.add), ("subtract", np.subtract), ("multiply", np.multiply),
          ("divide", np.divide), ("maximum", np.maximum), ("pow", np.power),
          ("floor_divide", np.floor_divide), ("remainder", np.remainder),
          ("atan2", np.arctan2), ("copysign", np.copysign)]


@pytest.mark.parametrize("name,fn", BINARY, ids=[b[0] for b in BINARY])
def test_binary_functions_match_float32_rounded(name, fn):
    a = np.abs(X) if name == "pow" else X  # real powers of negative bases are NaN
    _close(getattr(la, name)(la.asarray(a), la.asarray(Y)), _oracle(fn, a, Y))


def test_comparisons_and_predicates():
    x = la.asarray(X)
    np.testing.assert_array_equal(np.asarray(x < la.asarray(Y)), X.astype(np.float32)
                                  < Y.astype(np.float32))
    nan = la.asarray([np.nan, np.inf, 1.0], dtype=la.bfloat16)
    np.testing.assert_array_equal(np.asarray(la.isnan(nan)), [True, False, False])
    np.testing.assert_array_equal(np.asarray(la.isfinite(nan)), [False, False, True])
    np.testing.assert_array_equal(np.asarray(la.signbit(la.asarray([-0.0, 0.0, -1.0],
                                                                   dtype=la.bfloat16))),
                                  [True, False, True])


REDUCTIONS = [("sum", np.sum), ("prod", np.prod), ("mean", np.mean), ("max", np.max),
              ("min", np.min), ("std", np.std), ("var", np.var)]


@pytest.mark.parametrize("axis", [None, 0, -1])
@pytest.mark.parametrize("name,fn", REDUCTIONS, ids=[r[0] for r in REDUCTIONS])
def test_reductions_keep_bfloat16_and_match(name, fn, axis):
    got = getattr(la, name)(la.asarray(X), axis=axis)
    _close(got, _oracle(lambda v: fn(v, axis=axis), X))


def test_cumulative_sort_and_search():
    x = la.asarray(X)
    _close(la.cumulative_sum(x, axis=1), _oracle(lambda v: np.cumsum(v, axis=1), X))
    _close(la.sort(x, axis=-1), np.sort(X.astype(np.float32), axis=-1).astype(BF16),
           rtol=0, atol=0)
    np.testing.assert_array_equal(np.asarray(la.argmax(x, axis=0)),
                                  np.argmax(X.astype(np.float32), axis=0))


def test_numpy_surface_functions():
    x = la.asarray(X)
    _close(la.nansum(x), _oracle(np.nansum, X))
    _close(la.median(x, axis=1), _oracle(lambda v: np.median(v, axis=1), X))
    _close(la.nan_to_num(la.asarray([np.nan, np.inf], dtype=la.bfloat16)),
           np.nan_to_num(np.asarray([np.nan, np.inf], BF16).astype(np.float32),
                         posinf=float(ml_dtypes.finfo(BF16).max)).astype(BF16), rtol=0)
    _close(la.add.reduce(x, axis=0), _oracle(lambda v: np.add.reduce(v, axis=0), X))
    assert la.iscomplexobj(x) is False and la.isrealobj(x) is True


def test_matmul_and_jit():
    got = jax.jit(lambda a, b: la.matmul(a, la.matrix_transpose(b)))(la.asarray(X), la.asarray(Y))
    _close(got, _oracle(lambda a, b: a @ b.T, X, Y), rtol=5e-2, atol=5e-2)


def test_lapack_functions_refuse_bfloat16_with_a_clear_error():
    with pytest.raises(TypeError, match=r"inv.*'x'.*bfloat16"):
        la.linalg.inv(la.eye(2, dtype=la.bfloat16))
    with pytest.raises(TypeError, match=r"solve.*bfloat16"):
        la.linalg.solve(la.eye(2, dtype=la.bfloat16), la.ones(2, dtype=la.bfloat16))


def test_bad_dtype_arguments_still_raise():
    with pytest.raises(TypeError, match="finfo"):
        la.finfo(la.int8)
    with pytest.raises(TypeError, match="iinfo"):
        la.iinfo(la.bfloat16)
