"""pad(mode='linear_ramp') bit for bit against NumPy.

NumPy builds the ramp with ``linspace(end, edge, dtype=x.dtype)``; the end values reach it
as NumPy scalars (int64 for Python ints: strong, so a float32 or float16 ramp is computed in
float64 and rounded once) when ``end_values`` is one value or one pair, and as Python
scalars (weak: the data's own dtype) when it is given per axis.  Oracle: NumPy."""

import ml_dtypes
import numpy as np
import pytest

import laxarray as xp

_END_VALUES = [None, 0, (0, 1), (3, 7), (0.1, 2.5), (np.nan, 1), (np.inf, -2.0),
               (1, -np.inf)]


def _same_bits(got, want):
    got = np.asarray(got)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8),
                                  err_msg=f"got {got!r}, want {want!r}")


def _x(dt, shape):
    return (np.arange(1, np.prod(shape) + 1) / 7 - 0.5).reshape(shape).astype(dt)


@pytest.mark.parametrize("dt", [np.float16, np.float32, np.float64, ml_dtypes.bfloat16])
@pytest.mark.parametrize("width", [1, 3, (2, 5)])
@pytest.mark.parametrize("end_values", _END_VALUES)
def test_linear_ramp_matches_numpy(dt, width, end_values):
    kw = {} if end_values is None else {"end_values": end_values}
    for x in (np.zeros((1,), dt), np.array([np.nan], dt), _x(dt, (3,)), _x(dt, (2, 3))):
        with np.errstate(all="ignore"):
            want = np.pad(x, width, mode="linear_ramp", **kw)
        _same_bits(xp.pad(xp.asarray(x), width, mode="linear_ramp", **kw), want)


def test_linear_ramp_float32_one_third():
    """The reproduced failure: NumPy ramps 1 -> 0 in float64, then rounds to float32."""
    x = np.zeros((1,), np.float32)
    want = np.pad(x, 3, mode="linear_ramp", end_values=(0, 1))
    assert want[4] == np.float32(1 / 3)   # 0.33333334, not float32 arithmetic's 0.3333333
    _same_bits(xp.pad(xp.asarray(x), 3, mode="linear_ramp", end_values=(0, 1)), want)


@pytest.mark.parametrize("dt", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("end_values", [((0, 1), (2, 3)), ((0.5, np.nan), (np.inf, 3.0)),
                                        np.array([[1], [3]])])
def test_linear_ramp_per_axis_end_values_match_numpy(dt, end_values):
    """Per-axis end values reach NumPy's linspace as Python scalars: the data's dtype."""
    x = _x(dt, (2, 3))
    with np.errstate(all="ignore"):
        want = np.pad(x, (2, 3), mode="linear_ramp", end_values=end_values)
    _same_bits(xp.pad(xp.asarray(x), (2, 3), mode="linear_ramp", end_values=end_values),
               want)


@pytest.mark.parametrize("dt", [np.float32, np.float16])
@pytest.mark.parametrize("end_values", [np.array([1, 2], np.float32),
                                        np.array([1, 2], np.float16)])
def test_linear_ramp_end_values_dtype_promotes(dt, end_values):
    x = _x(dt, (3,))
    want = np.pad(x, 4, mode="linear_ramp", end_values=end_values)
    _same_bits(xp.pad(xp.asarray(x), 4, mode="linear_ramp", end_values=end_values), want)


@pytest.mark.parametrize("dt", [np.complex64, np.complex128])
@pytest.mark.parametrize("end_values", [None, (0, 1), np.array([1, 2], np.float32),
                                        (1 + 2j, 3)])
def test_linear_ramp_complex_matches_numpy(dt, end_values):
    """NumPy divides a complex step by the real width with Smith's algorithm."""
    kw = {} if end_values is None else {"end_values": end_values}
    x = (_x(np.float64, (3,)) + 1j * _x(np.float64, (3,))[::-1]).astype(dt)
    want = np.pad(x, (2, 5), mode="linear_ramp", **kw)
    _same_bits(xp.pad(xp.asarray(x), (2, 5), mode="linear_ramp", **kw), want)


def test_linear_ramp_complex_end_values_on_integers_is_type_error():
    with pytest.raises(TypeError, match="pad"):
        xp.pad(xp.asarray(np.arange(3)), 2, mode="linear_ramp", end_values=(1j, 2))
