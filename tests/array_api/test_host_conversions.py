"""``bool``/``int``/``float``/``operator.index`` of 0-d Arrays against NumPy's 0-d arrays.

The conversions have a hot path for a concrete 0-d value (its host copy, kept by jax);
every dtype, a value read twice, a 0-d result of a kernel and a 0-d view must give NumPy's
Python value and type, and the same exception class where NumPy raises.
"""

import operator

import numpy as np
import pytest

import laxarray as xp

VALUES = {"bool": [True, False], "int8": [-3, 0], "uint8": [0, 200], "int64": [-(2**40), 7],
          "uint64": [2**63 + 5], "float16": [-0.0, 1.5], "float32": [np.inf, -2.25],
          "float64": [np.nan, 1e300, -3.7], "complex128": [1 - 2j, 0j]}
CONVERSIONS = {"bool": bool, "int": int, "float": float, "index": operator.index}


def _numpy(conv, a):
    """NumPy's answer on the 0-d array ``a``: ``(value, type)`` or the exception class."""
    try:
        out = conv(a)
    except (TypeError, ValueError, OverflowError) as exc:
        return type(exc)
    return out


def _check(conv, x, a):
    want = _numpy(conv, a)
    if isinstance(want, type) and issubclass(want, Exception):
        with pytest.raises(want):
            conv(x)
        return
    got = conv(x)
    assert type(got) is type(want)
    assert got == want or (got != got and want != want)


@pytest.mark.parametrize("dtype", list(VALUES))
@pytest.mark.parametrize("name", list(CONVERSIONS))
def test_conversions_of_0d_arrays_match_numpy(name, dtype):
    conv = CONVERSIONS[name]
    for v in VALUES[dtype]:
        a = np.asarray(v, dtype=dtype)
        x = xp.asarray(a)
        _check(conv, x, a)
        _check(conv, x, a)                    # read again: the kept host copy
        # a 0-d kernel result, and a 0-d view (a view of a reshape of a 1-element array)
        _check(conv, xp.reshape(xp.asarray(np.asarray([v], dtype=dtype)), ()), a)
        _check(conv, xp.asarray(np.asarray([[v]], dtype=dtype))[0, ...][0, ...], a)


@pytest.mark.parametrize("name", list(CONVERSIONS))
def test_conversions_of_arrays_with_axes_match_numpy(name):
    conv = CONVERSIONS[name]
    for a in (np.asarray([2.5]), np.asarray([[3]]), np.asarray([1, 2]), np.zeros((0,))):
        _check(conv, xp.asarray(a), a)
