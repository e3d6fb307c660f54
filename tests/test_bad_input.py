"""Bad calls raise TypeError / ValueError naming the function, before any kernel runs.

Each row: the function name the message must start with, the exception type, and the
call.  Kinds and dtypes give ``TypeError``, values and shapes ``ValueError`` (``AxisError``
is a ``ValueError``).
"""

import numpy as np
import pytest

import laxarray as xp

F = xp.asarray(np.array([[1.0, 2.0], [3.0, 4.0]]))
I = xp.asarray(np.array([1, 2, 3], dtype=np.int32))
C = xp.asarray(np.array([1 + 1j]))
I8 = xp.asarray(np.array([1], dtype=np.int8))
ONES3 = xp.ones(3)
DEV = xp.__array_namespace_info__().default_device()
MASK = F > 2.0
BOOLS = xp.asarray([True, False])
TRUE1 = xp.asarray([True])
F1 = xp.asarray([1.5])

BAD_CALLS = [
    # wrong dtype category
    ("bitwise_and", TypeError, lambda: xp.bitwise_and(F, F)),
    ("bitwise_left_shift", TypeError, lambda: xp.bitwise_left_shift(F, 1)),
    ("bitwise_invert", TypeError, lambda: xp.bitwise_invert(F)),
    ("floor_divide", TypeError, lambda: xp.floor_divide(C, C)),
    ("less", TypeError, lambda: xp.less(C, C)),
    # (an integer dtype is NumPy's and array_api_strict's too: values floored)
    ("linspace", TypeError, lambda: xp.linspace(1j, 2, 5, dtype=xp.float64)),
    ("finfo", TypeError, lambda: xp.finfo(xp.int32)),
    ("iinfo", TypeError, lambda: xp.iinfo(xp.float64)),
    ("arange", TypeError, lambda: xp.arange(3, dtype=xp.bool)),
    # unknown / unsupported dtypes
    ("zeros", TypeError, lambda: xp.zeros(3, dtype="datetime64[s]")),
    ("asarray", TypeError, lambda: xp.asarray([1, 2], dtype=object)),
    ("astype", TypeError, lambda: xp.astype(I, "not-a-dtype")),
    ("isdtype", TypeError, lambda: xp.isdtype(np.dtype("longdouble"), "real floating")),
    ("isdtype", ValueError, lambda: xp.isdtype(xp.float64, "floating")),
    ("result_type", TypeError, lambda: xp.result_type(xp.float64, "x")),
    ("can_cast", TypeError, lambda: xp.can_cast(xp.int8, None)),
    ("asarray", TypeError, lambda: xp.asarray(np.array(["a", "b"]))),
    # non-array arguments
    ("sin", TypeError, lambda: xp.sin("abc")),
    ("add", TypeError, lambda: xp.add(F, {"a": 1})),
    ("tril", TypeError, lambda: xp.tril(object())),
    ("from_dlpack", TypeError, lambda: xp.from_dlpack([1, 2, 3])),
    ("meshgrid", TypeError, lambda: xp.meshgrid(I, "xy")),
    # out-of-range / bad axes and shapes
    ("permute_dims", ValueError, lambda: xp.permute_dims(F, (0, 2))),
    ("permute_dims", ValueError, lambda: xp.permute_dims(F, (0, 0))),
    ("add", ValueError, lambda: xp.add(F, I)),
    ("matmul", ValueError, lambda: xp.matmul(F, I)),
    ("zeros", ValueError, lambda: xp.zeros((2, -1))),
    ("ones", TypeError, lambda: xp.ones((2, 1.5))),
    ("full", TypeError, lambda: xp.full((2,), "x")),
    ("full", TypeError, lambda: xp.full((2,), 1j, dtype=xp.float64)),
    ("tril", ValueError, lambda: xp.tril(I)),
    ("triu", TypeError, lambda: xp.triu(F, k=1.5)),
    ("meshgrid", ValueError, lambda: xp.meshgrid(F)),
    ("meshgrid", ValueError, lambda: xp.meshgrid(I, indexing="yx")),
    ("eye", ValueError, lambda: xp.eye(-1)),
    ("eye", TypeError, lambda: xp.eye(2.5)),
    ("linspace", ValueError, lambda: xp.linspace(0, 1, -2)),
    ("linspace", TypeError, lambda: xp.linspace(0, 1, 2, endpoint="yes")),
    ("arange", ValueError, lambda: xp.arange(0, 10, 0)),
    ("arange", TypeError, lambda: xp.arange(1j)),
    # wrong device
    ("zeros", ValueError, lambda: xp.zeros(2, device="no-such-device")),
    ("asarray", ValueError, lambda: xp.asarray([1], device=object())),
    ("astype", ValueError, lambda: xp.astype(I, xp.int64, device="tpu9")),
    ("full_like", ValueError, lambda: xp.full_like(I, 1, device="nowhere")),
    # bad flags and copy requests
    ("asarray", ValueError, lambda: xp.asarray([1, 2], copy=False)),
    ("asarray", TypeError, lambda: xp.asarray(I, copy="no")),
    ("astype", TypeError, lambda: xp.astype(I, xp.int64, copy=None)),
    ("astype", TypeError, lambda: xp.astype(C, xp.float64)),
    ("result_type", ValueError, lambda: xp.result_type()),
    # scalar operands that do not fit
    ("add", ValueError, lambda: xp.add(I8, 1000)),
    ("Array.__setitem__", TypeError, lambda: F.__setitem__(0, 1j)),
    ("Array.__setitem__", ValueError, lambda: F.__setitem__(0, ONES3)),
    ("Array.__iadd__", TypeError, lambda: I.__iadd__(0.5)),
    ("Array.to_device", ValueError, lambda: F.to_device("elsewhere")),
    # indexing keys, values and .at options
    ("Array.__getitem__", IndexError, lambda: F[np.array([0.5])]),
    ("Array.__getitem__", IndexError, lambda: F[[0, 5]]),
    ("Array.__getitem__", IndexError, lambda: F[TRUE1]),
    ("Array.__getitem__", IndexError, lambda: F[[0, 1], [0, 1, 0]]),
    ("Array.__setitem__", TypeError, lambda: F.__setitem__([0], C)),
    ("Array.__setitem__", TypeError, lambda: I.__setitem__([0], F1)),
    ("Array.__setitem__", ValueError, lambda: F.__setitem__(MASK, ONES3)),
    ("Array.at.set", ValueError, lambda: F.at[0].set(1.0, mode="wrap")),
    ("Array.at.divide", TypeError, lambda: I.at[0].divide(2)),
    # bool += bool is NumPy's logical or (allowed); bool - bool is refused, as NumPy does
    ("Array.at.subtract", TypeError, lambda: BOOLS.at[0].subtract(True)),
    ("Array.at.add", TypeError, lambda: BOOLS.at[0].add(1.5)),  # float64 -> bool: no
    ("Array.at.get", ValueError, lambda: F.at[0].get(size=2)),
    # set functions
    ("unique_values", ValueError, lambda: xp.unique_values(I, size=-1)),
    ("unique_all", ValueError, lambda: xp.unique_all(I, fill_value=0)),
    ("isin", TypeError, lambda: xp.isin(1, 2)),
    ("isin", TypeError, lambda: xp.isin(I, I, invert=1)),
]


@pytest.mark.parametrize("fn,exc,call", BAD_CALLS,
                         ids=[f"{i}-{row[0]}" for i, row in enumerate(BAD_CALLS)])
def test_bad_call_raises_naming_the_function(fn, exc, call, kernels_run):
    with pytest.raises(exc) as info:
        call()
    assert str(info.value).startswith(f"{fn}: "), str(info.value)
    assert not kernels_run(), f"{fn}: kernels ran before the error: {kernels_run()}"


def test_the_table_is_large_and_the_inputs_are_unchanged():
    assert len(BAD_CALLS) >= 30
    np.testing.assert_array_equal(np.asarray(F), [[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_array_equal(np.asarray(I), [1, 2, 3])
    assert I.dtype == xp.int32


@pytest.mark.parametrize("call", [
    lambda: xp.linalg.outer(F, F),
    lambda: xp.convolve(F, F),
    lambda: xp.geomspace(xp.asarray([0.0]), 1.0),
])
def test_messages_name_the_users_type_not_jaxlibs(call):
    # the value is unwrapped before it is checked; the message still says "Array"
    with pytest.raises(ValueError, match=r"got Array of dtype float64") as exc:
        call()
    assert "ArrayImpl" not in str(exc.value)
