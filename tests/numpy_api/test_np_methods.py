"""NumPy's ndarray methods on laxarray.Array, against NumPy's."""

import jax
import numpy as np
import pytest

import laxarray as la

X = np.random.default_rng(0).normal(size=(3, 4))

CASES = [
    ("sum", (), {}), ("sum", (1,), {"keepdims": True}), ("prod", (0,), {}),
    ("mean", (), {"axis": -1}), ("mean", (), {"dtype": "float32"}), ("std", (0,), {"ddof": 1}),
    ("var", (), {}), ("max", (1,), {}), ("min", (), {}), ("argmax", (), {}),
    ("argmin", (1,), {}), ("all", (), {}), ("any", (0,), {}), ("cumsum", (), {}),
    ("cumsum", (1,), {}), ("reshape", (4, 3), {}), ("reshape", ((2, 6),), {}),
    ("flatten", (), {}), ("ravel", ("F",), {}), ("transpose", (), {}),
    ("transpose", (1, 0), {}), ("swapaxes", (0, 1), {}), ("conj", (), {}),
    ("round", (2,), {}), ("clip", (-0.5, 0.5), {}), ("argsort", (), {}),
    ("astype", ("int32",), {}), ("copy", (), {}), ("dot", (X.T,), {}),
]


@pytest.mark.parametrize("name,args,kwargs", CASES)
def test_methods_match_numpy(name, args, kwargs):
    expected = getattr(X, name)(*args, **kwargs)
    got = getattr(la.asarray(X), name)(*args, **kwargs)
    assert np.asarray(got).dtype == np.asarray(expected).dtype
    if np.asarray(expected).dtype == np.float32:  # a float32 sum: its rounding error bound
        bound = X.size * np.finfo(np.float32).eps * np.abs(X).max()
        np.testing.assert_allclose(np.asarray(got), expected, rtol=0, atol=bound)
    else:
        np.testing.assert_allclose(np.asarray(got), expected, rtol=1e-12, atol=1e-12)


def test_python_value_methods_and_properties():
    a = la.asarray(X)
    assert a.tolist() == X.tolist()
    assert a[1, 2].item() == X[1, 2].item()
    z = la.asarray(X + 2j * X)
    np.testing.assert_array_equal(np.asarray(z.real), X)
    np.testing.assert_array_equal(np.asarray(z.imag), 2 * X)
    assert la.ones((1, 3, 1)).squeeze().shape == (3,)


def test_sort_is_in_place_like_numpy():
    a = la.asarray(X)
    alias = a
    assert a.sort(axis=0) is None
    np.testing.assert_array_equal(np.asarray(alias), np.sort(X, axis=0))


def test_methods_under_jit_and_out_as_numpy():
    got = jax.jit(lambda a: a.sum(axis=0) + a.mean())(la.asarray(X))
    np.testing.assert_allclose(np.asarray(got), X.sum(axis=0) + X.mean(), rtol=1e-12)
    with pytest.raises(ValueError, match="Array.sum.*out"):
        la.asarray(X).sum(out=np.empty(4))                 # NumPy: ValueError too
    with pytest.raises(TypeError, match="Array.sum.*out"):
        la.asarray(X).sum(axis=0, out=np.empty(4, np.int64))  # float into int: no
    out, expected = la.zeros(4), np.zeros(4)
    assert la.asarray(X).max(axis=0, out=out) is out
    X.max(axis=0, out=expected)
    np.testing.assert_array_equal(np.asarray(out), expected)
    host = np.zeros(3)
    assert la.asarray(X).mean(axis=1, out=host) is host
    np.testing.assert_allclose(host, X.mean(axis=1), rtol=1e-12)
