"""float16 (NumPy's half precision) works through the namespace with NumPy 2's promotion."""

import jax
import numpy as np
import pytest

import laxarray as la

RNG = np.random.default_rng(0)
X = RNG.uniform(-2, 2, (3, 4)).astype(np.float16)
Y = RNG.uniform(0.5, 2, (3, 4)).astype(np.float16)
TOL = dict(rtol=2e-3, atol=2e-3)


@pytest.mark.parametrize("other", ["int8", "uint8", "int16", "int64", "float32", "complex64",
                                   "bool"])
def test_promotion_matches_numpy(other):
    y = np.ones((3, 4), other)
    assert (la.asarray(X) + la.asarray(y)).dtype == (X + y).dtype
    assert la.result_type(la.float16, other) == np.result_type(np.float16, other)


@pytest.mark.parametrize("scalar", [2, 2.5, 1j, True])
def test_python_scalars_are_weak(scalar):
    assert (la.asarray(X) * scalar).dtype == (X * scalar).dtype


@pytest.mark.parametrize("name,fn", [
    ("sin", np.sin), ("exp", np.exp), ("tanh", np.tanh), ("floor", np.floor),
    ("abs", np.abs), ("sum", np.sum), ("max", np.max), ("mean", np.mean),
    ("cumulative_sum", lambda v: np.cumsum(v, axis=-1)), ("sort", np.sort),
    ("isnan", np.isnan)])
def test_functions_keep_float16_and_match_numpy(name, fn):
    kwargs = {"axis": -1} if name == "cumulative_sum" else {}
    got = getattr(la, name)(la.asarray(X), **kwargs)
    expected = fn(X)
    assert got.dtype == expected.dtype
    np.testing.assert_allclose(np.asarray(got, dtype=float), expected.astype(float), **TOL)


def test_matmul_creation_and_jit():
    got = jax.jit(lambda a, b: la.matmul(a, la.matrix_transpose(b)))(la.asarray(X), la.asarray(Y))
    assert got.dtype == np.float16
    np.testing.assert_allclose(np.asarray(got, dtype=float), (X @ Y.T).astype(float), rtol=1e-2)
    assert la.zeros(3, dtype="float16").dtype == np.float16
    assert la.isdtype(la.float16, "real floating")
    assert la.finfo(la.float16).eps == np.finfo(np.float16).eps


def test_lapack_functions_refuse_float16_like_numpy():
    with pytest.raises(TypeError, match="inv.*float16"):
        la.linalg.inv(la.eye(2, dtype=la.float16))
    with pytest.raises(TypeError):
        np.linalg.inv(np.eye(2, dtype=np.float16))
