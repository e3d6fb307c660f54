"""ufunc methods and NumPy's aliases/wrappers, against NumPy."""

import inspect
import operator
import pickle
import sys

import jax
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import laxarray as la
from laxarray.array_api._method_bodies import UFUNC_METHODS

UFUNCS = ["add", "subtract", "multiply", "maximum", "minimum", "divide", "hypot"]
NP_NAME = {"pow": "power"}


def _data(seed, shape=(3, 4)):
    return np.random.default_rng(seed).uniform(0.5, 2.0, size=shape)


@settings(max_examples=10)
@given(name=st.sampled_from(UFUNCS), axis=st.sampled_from([0, 1, -1]), seed=st.integers(0, 99),
       keepdims=st.booleans())
def test_reduce_and_accumulate_match_numpy(name, axis, seed, keepdims):
    x = _data(seed)
    ours, theirs = getattr(la, name), getattr(np, name)
    np.testing.assert_allclose(np.asarray(ours.reduce(x, axis=axis, keepdims=keepdims)),
                               theirs.reduce(x, axis=axis, keepdims=keepdims), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(ours.accumulate(x, axis=axis)),
                               theirs.accumulate(x, axis=axis), rtol=1e-12)


@pytest.mark.parametrize("name", UFUNCS)
def test_outer_matches_numpy(name):
    a, b = _data(1, (3,)), _data(2, (2, 2))
    np.testing.assert_allclose(np.asarray(getattr(la, name).outer(a, b)),
                               getattr(np, name).outer(a, b), rtol=1e-12)


@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "maximum", "minimum"])
def test_at_applies_repeated_indices_unbuffered(name):
    a = _data(3, (5,))
    idx = np.array([0, 0, 3, 4, 3])
    expected = a.copy()
    getattr(np, name).at(expected, idx, 1.5)
    got = getattr(la, name).at(la.asarray(a), la.asarray(idx), 1.5, inplace=False)
    np.testing.assert_allclose(np.asarray(got), expected, rtol=1e-12)
    x = la.asarray(a)
    assert getattr(la, name).at(x, la.asarray(idx), 1.5) is None   # NumPy's: in place
    np.testing.assert_allclose(np.asarray(x), expected, rtol=1e-12)


def test_reduce_empty_and_initial_follow_numpy():
    e = np.zeros((0, 3))
    np.testing.assert_array_equal(np.asarray(la.add.reduce(e, axis=0)), np.add.reduce(e, axis=0))
    np.testing.assert_array_equal(np.asarray(la.maximum.reduce(e, axis=0, initial=-1.0)),
                                  np.maximum.reduce(e, axis=0, initial=-1.0))
    with pytest.raises(ValueError, match="maximum.reduce"):
        la.maximum.reduce(e, axis=0)
    with pytest.raises(ValueError, match="add.at.*immutable"):
        la.add.at(jax.device_put(np.zeros(3)), la.asarray([0]), 1.0)  # a jax array


def test_reduce_axes_follow_numpy():
    x = _data(5, (2, 3, 2))
    for name in ["add", "maximum", "hypot", "logaddexp"]:
        for axis, keepdims in [((0, 2), False), (None, True), ((), False)]:
            np.testing.assert_allclose(
                np.asarray(getattr(la, name).reduce(x, axis=axis, keepdims=keepdims)),
                getattr(np, name).reduce(x, axis=axis, keepdims=keepdims), rtol=1e-12)
    with pytest.raises(ValueError):
        np.subtract.reduce(x, axis=(0, 1))
    with pytest.raises(ValueError, match="subtract.reduce.*reorderable"):
        la.subtract.reduce(x, axis=(0, 1))
    # a fold with an identity starts from it, as NumPy's: hypot.reduce([-1.]) is 1
    np.testing.assert_array_equal(np.asarray(la.hypot.reduce(la.asarray([-1.0]))),
                                  np.hypot.reduce(np.asarray([-1.0])))


def test_divide_reduce_of_integers_and_subtract_at_of_int8():
    v = np.asarray([64, 2, 4])
    np.testing.assert_array_equal(np.asarray(la.divide.reduce(v)), np.divide.reduce(v))
    a = np.asarray([-4, 5], np.int8)
    expected = a.copy()
    np.subtract.at(expected, [0, 0, 1], np.int8(3))
    got = la.asarray(a)
    assert la.subtract.at(got, la.asarray([0, 0, 1]), 3) is None
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(np.asarray(got), expected)


def test_ufunc_identity_and_isinstance():
    for name in ["add", "multiply", "maximum", "logical_or"]:
        assert isinstance(getattr(la, name), la.ufunc)
        assert getattr(la, name).identity == getattr(np, name).identity
    assert not isinstance(la.sin, la.ufunc)


#: laxarray's ufuncs: the binary functions whose definition declares their ufunc facts
UFUNC_NAMES = {"add", "subtract", "multiply", "divide", "pow", "maximum", "minimum",
               "floor_divide", "remainder", "bitwise_and", "bitwise_or", "bitwise_xor",
               "logical_and", "logical_or", "logical_xor", "hypot", "logaddexp", "copysign",
               "atan2"}


def test_ufuncs_are_built_where_their_function_is_defined():
    found = {name: getattr(la, name) for name in dir(la)
             if isinstance(getattr(la, name), la.ufunc)}
    assert {u.__name__ for u in found.values()} == UFUNC_NAMES   # aliases: the same objects
    assert la.power is la.pow and la.arctan2 is la.atan2
    for u in found.values():
        assert type(u) is la.ufunc and (u.nin, u.nout) == (2, 1)
        # the object the defining module holds under its name, built there (only its facts
        # are declared afterwards, by array_api._ufunc_facts)
        assert getattr(sys.modules[u.__module__], u.__qualname__) is u
        assert u.__module__.startswith("laxarray.array_api.")
        assert u.__doc__ and u.__doc__ == u.__wrapped__.__doc__
        assert inspect.signature(u) == inspect.signature(u.__wrapped__)
        assert pickle.loads(pickle.dumps(u)) is u
        assert u.reduce.__func__ is UFUNC_METHODS["reduce"]
    x, y = la.asarray(_data(7, (4,))), la.asarray(_data(8, (4,)))
    np.testing.assert_array_equal(np.asarray(jax.jit(la.add)(x, y)),
                                  np.asarray(la.add(x, y)))
    assert repr(la.add) == "<laxarray.ufunc 'add'>"


def test_the_ufunc_facts_are_the_functions_themselves():
    """A ufunc's reduce/accumulate/at facts are the standard's functions and x.at's update
    methods (not their names), each declared once."""
    from laxarray.array_api._indexing_at import IndexUpdateRef
    from laxarray.array_api._ufunc import UfuncFacts, declare
    assert la.add._facts.reduce is la.sum and la.add._facts.accumulate is la.cumulative_sum
    assert la.multiply._facts.reduce is la.prod and la.logical_or._facts.reduce is la.any
    assert la.maximum._facts.at is IndexUpdateRef.max
    assert la.subtract._facts.at is IndexUpdateRef.subtract
    assert la.divide._facts == UfuncFacts() and la.divide.identity is None
    with pytest.raises(RuntimeError, match="declared twice"):
        declare(la.add, UfuncFacts())
    with pytest.raises(RuntimeError, match="not laxarray's ufunc"):
        declare(la.frompyfunc(lambda a, b: a, 2, 1), UfuncFacts())


def test_a_frompyfunc_ufunc_pickles_with_its_function():
    f = la.frompyfunc(operator.mul, 2, 1, identity=1)
    g = pickle.loads(pickle.dumps(f))
    assert (g.__name__, g.nin, g.nout, g.identity) == ("mul", 2, 1, 1)
    np.testing.assert_allclose(np.asarray(g.reduce(_data(9, (4,)))),
                               np.multiply.reduce(_data(9, (4,))), rtol=1e-12)


def test_frompyfunc_reduce_folds_in_order_under_jit():
    f = la.frompyfunc(lambda a, b: a * b + 1, 2, 1)
    g = np.frompyfunc(lambda a, b: a * b + 1, 2, 1)
    x = _data(4)
    got = jax.jit(lambda v: f.reduce(v, axis=1))(la.asarray(x))
    np.testing.assert_allclose(np.asarray(got), g.reduce(x, axis=1).astype(float), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(f.accumulate(x, axis=0)),
                               g.accumulate(x, axis=0).astype(float), rtol=1e-12)


@pytest.mark.parametrize("alias,args", [
    ("amax", dict(axis=1, keepdims=True)), ("amin", dict(axis=0, initial=0.7)),
    ("transpose", dict(axes=(1, 0))), ("ravel", dict(order="F")),
    ("rollaxis", dict(axis=1)), ("swapaxes", dict(axis1=0, axis2=1))])
def test_numpy_signature_wrappers_match_numpy(alias, args):
    x = _data(5)
    np.testing.assert_array_equal(np.asarray(getattr(la, alias)(x, **args)),
                                  getattr(np, alias)(x, **args))


def test_concatenate_axis_none_and_dtype():
    a, b = np.arange(4).reshape(2, 2), np.arange(3)
    np.testing.assert_array_equal(np.asarray(la.concatenate([a, b], axis=None)),
                                  np.concatenate([a, b], axis=None))
    got = la.concatenate([a, a], axis=1, dtype="float32")
    assert got.dtype == np.float32
    with pytest.raises(ValueError, match="concatenate.*out"):
        la.concatenate([a], out=np.empty(4))
    out = la.zeros((2, 4), dtype=la.int64)
    assert la.concatenate([a, a], axis=1, out=out) is out
    np.testing.assert_array_equal(np.asarray(out), np.concatenate([a, a], axis=1))
    with pytest.raises(TypeError, match="add.*out"):
        la.add(a, a, out=jax.device_put(np.zeros((2, 2), np.int64)))  # jax: immutable


def test_save_load_round_trip(tmp_path):
    x = la.asarray(_data(6))
    la.save(tmp_path / "x.npy", x)
    y = la.load(tmp_path / "x.npy")
    assert isinstance(y, la.Array)
    np.testing.assert_array_equal(np.asarray(y), np.asarray(x))
