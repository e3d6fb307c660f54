"""pad against NumPy, bit for bit: its modes, widths, callables and statistics (the editing
family's table in ``test_np_editing.py`` also runs each mode jitted against eager).

mode='linear_ramp': NumPy builds the ramp with ``linspace(end, edge, dtype=x.dtype)``; the
end values reach it as NumPy scalars (int64 for Python ints: strong, so a float32 or float16
ramp is computed in float64 and rounded once) when ``end_values`` is one value or one pair,
and as Python scalars (weak: the data's own dtype) when it is given per axis.

mode='median': NumPy's median is ``mean`` of the middle one or two sorted values, a sum
started at +0.0 (so the median of -0.0 is 0.0), in float32 for float16 data.

Oracle: NumPy."""

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


@pytest.mark.parametrize("dt", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("values", [[-0.0], [-0.0, -0.0], [-0.0, -0.0, -0.0], [-0.0, 0.0],
                                    [60000.0, 65000.0], [1.0, 1.0009765625], [np.nan, 1.0],
                                    [3.0, -3.0]])
@pytest.mark.parametrize("stat_length", [None, (1, 2), (2, 2)])
def test_median_mode_matches_numpy(dt, values, stat_length):
    x = np.array(values, dt)
    kw = {} if stat_length is None else {"stat_length": stat_length}
    with np.errstate(all="ignore"):
        want = np.pad(x, 2, mode="median", **kw)
    got = np.asarray(xp.pad(xp.asarray(x), 2, mode="median", **kw))
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8),
                                  err_msg=f"got {got!r}, want {want!r}")


# ---- the other modes, widths and callables (moved from test_np_editing.py) ------------

A = np.arange(12, dtype=np.int64).reshape(3, 4)


def same(got, expected):
    got, expected = np.asarray(got), np.asarray(expected)
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    np.testing.assert_array_equal(got, expected)


def test_pad_callable_mode_numpy_style_and_returning():
    def inplace(vector, width, iaxis, kwargs):
        vector[:width[0]] = kwargs.get("value", 10)
        if width[1]:
            vector[-width[1]:] = -iaxis - 1

    def returning(vector, width, iaxis, kwargs):
        v = xp.asarray(vector)
        v[:width[0]] = 10
        if width[1]:
            v[-width[1]:] = -iaxis - 1
        return v
    expected = np.pad(A, (2, 1), inplace)
    same(xp.pad(A, (2, 1), inplace), expected)
    same(xp.pad(A, (2, 1), returning), expected)
    same(xp.pad(A, 1, inplace, value=4), np.pad(A, 1, inplace, value=4))


def test_pad_dict_widths_large_reflections_and_empty():
    same(xp.pad(A, {1: (1, 3)}, mode="edge"), np.pad(A, {1: (1, 3)}, mode="edge"))
    for mode in ("reflect", "symmetric"):
        for rt in ("even", "odd"):
            v = np.array([2.0, -1.0, 5.0])
            same(xp.pad(v, (17, 11), mode=mode, reflect_type=rt),
                 np.pad(v, (17, 11), mode=mode, reflect_type=rt))
    same(xp.pad(np.array([True, False]), 5, mode="reflect", reflect_type="odd"),
         np.pad(np.array([True, False]), 5, mode="reflect", reflect_type="odd"))
    same(xp.pad(np.array([[4]]), 3, mode="reflect"), np.pad(np.array([[4]]), 3, mode="reflect"))
    empty = xp.pad(A, 2, mode="empty")
    assert empty.shape == (7, 8)
    same(np.asarray(empty)[2:5, 2:6], A)
    same(xp.pad(np.zeros((0, 2)), ((0, 0), (1, 1)), mode="edge"),
         np.pad(np.zeros((0, 2)), ((0, 0), (1, 1)), mode="edge"))


def test_pad_statistics_round_integers_and_propagate_nan():
    v = np.array([1, 2, 2, 5], dtype=np.int32)
    for mode in ("mean", "median", "maximum", "minimum"):
        same(xp.pad(v, (2, 3), mode=mode, stat_length=(3, 2)),
             np.pad(v, (2, 3), mode=mode, stat_length=(3, 2)))
    w = np.array([1.0, np.nan, 3.0])
    for mode in ("mean", "median", "maximum", "minimum"):
        same(xp.pad(w, 1, mode=mode), np.pad(w, 1, mode=mode))


@pytest.mark.parametrize("mode", ["maximum", "minimum"])
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_pad_statistic_of_complex_nan_is_the_nan_element(mode, dtype):
    # NumPy's maximum keeps its NaN operand, so the statistic is the first NaN element
    # itself (nan+infj stays nan+infj, nan-0j keeps its zero's sign)
    a = np.array([[1 + 1j, complex(np.nan, np.inf), complex(3, np.nan)],
                  [complex(np.nan, -0.0), 2j, 5.0],
                  [1.0, 2.0, 3.0]], dtype)
    want = np.pad(a, 1, mode=mode)
    got = np.asarray(xp.pad(xp.asarray(a), 1, mode=mode))
    real = np.float32 if dtype == "complex64" else np.float64
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(np.signbit(got.view(real)), np.signbit(want.view(real)))
    np.testing.assert_array_equal(got.view(real), want.view(real))
