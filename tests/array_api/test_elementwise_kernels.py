"""One kernel per elementwise function (``array_api._ufunc``): arrays, Python scalars and
other operands, bucketed or exact, all run the function's one kernel, which promotes,
checks the category and broadcasts inside."""

import jax
import numpy as np
import pytest

import laxarray as lx
from checks import kernels_ran
from laxarray.array_api._ufunc import family_kernel

_X = np.array([3.0, -1.0, 2.5, 0.0, 7.0])


def test_every_kind_of_operand_runs_the_one_kernel():
    x, i = lx.asarray(_X), lx.asarray(np.arange(5))             # bucketed
    big = lx.asarray(np.linspace(0.0, 1.0, 40000))              # exact
    calls = [lambda: lx.add(x, x), lambda: x + 1.5, lambda: 2 + x, lambda: i + 1.5,
             lambda: lx.add(_X, 2), lambda: lx.add(big, big), lambda: big + 1,
             lambda: lx.add(1, 2.5), lambda: lx.add(x, np.float32(2.0)),
             lambda: jax.jit(lambda a: a + 1.5)(x)]
    kernel = family_kernel("laxarray.array_api.elementwise", "add")
    for call in calls:
        ran = [kid for kid in kernels_ran(call) if kid.name == "_add_kernel"]
        assert ran == [kernel.id], call


def test_bucketed_operands_of_two_dtypes_are_cast_first():
    # the measured choice (elementwise_binary's docstring): astype's program per dtype pair,
    # the function's program shared by every pair
    x, i = lx.asarray(_X), lx.asarray(np.arange(5))
    assert [kid.name for kid in kernels_ran(lambda: lx.multiply(i, x))] == [
        "_astype_kernel", "_multiply_kernel"]
    # a floating function of integers converts in its own kernel
    i32 = lx.asarray(np.arange(5, dtype=np.int32))
    assert [kid.name for kid in kernels_ran(lambda: lx.atan2(i, i32))] == ["_atan2_kernel"]
    np.testing.assert_array_equal(np.asarray(lx.multiply(i, x)), np.arange(5) * _X)


@pytest.mark.parametrize("dtype", ["int8", "uint8", "bool", "float32", "float64",
                                   "complex64"])
@pytest.mark.parametrize("scalar", [True, 3, -2.5, 1.5 + 2j])
def test_a_python_scalar_promotes_as_nep_50_says(dtype, scalar):
    a = np.ones(4, dtype=dtype)
    expected = a * scalar
    for got in (lx.asarray(a) * scalar, scalar * lx.asarray(a),
                lx.multiply(lx.asarray(np.ones(40000, dtype=dtype)), scalar)[:4]):
        assert got.dtype == expected.dtype
        np.testing.assert_array_equal(np.asarray(got), expected)


def test_the_category_and_broadcast_checks_name_the_function():
    x, i = lx.asarray(_X), lx.asarray(np.arange(5))
    with pytest.raises(TypeError, match="bitwise_and: expected an integer or boolean"):
        lx.bitwise_and(x, 1)
    with pytest.raises(TypeError, match="bitwise_and: expected an integer or boolean"):
        lx.bitwise_and(i, 1.5)
    with pytest.raises(TypeError, match="bitwise_and: expected an integer or boolean"):
        lx.bitwise_and(i, x)
    with pytest.raises(ValueError, match="add"):
        lx.add(x, lx.asarray(np.arange(3.0)))
