"""SciPy's array-API-aware functions on laxarray arrays (SCIPY_ARRAY_API=1, see conftest.py).

Oracle: the same SciPy function on the NumPy copy of the input. Each case checks that SciPy
dispatched to laxarray (the result is a laxarray array) and that it matches NumPy's answer
in value, shape and dtype.
"""

import numpy as np
import pytest

import array_api_compat
import scipy.differentiate
import scipy.fft
import scipy.interpolate
import scipy.special
import scipy.stats
from scipy.optimize import elementwise
from scipy._lib import _array_api as scipy_array_api

import laxarray as la

DTYPES = ["float32", "float64"]
TOL = {"float32": dict(rtol=1e-4, atol=1e-5), "float64": dict(rtol=1e-10, atol=1e-12)}


def _positive(x):
    return x * x + 0.5


CASES = {
    # scipy.special
    "special.erf": lambda x: scipy.special.erf(x),
    "special.gammaln": lambda x: scipy.special.gammaln(_positive(x)),
    "special.expit": lambda x: scipy.special.expit(x),
    "special.ndtr": lambda x: scipy.special.ndtr(x),
    "special.xlogy": lambda x: scipy.special.xlogy(x, _positive(x)),
    "special.entr": lambda x: scipy.special.entr(_positive(x)),
    "special.logsumexp": lambda x: scipy.special.logsumexp(x, axis=1),
    "special.softmax": lambda x: scipy.special.softmax(x, axis=0),
    "special.log_softmax": lambda x: scipy.special.log_softmax(x, axis=-1),
    # scipy.stats
    "stats.zscore": lambda x: scipy.stats.zscore(x, axis=1),
    "stats.skew": lambda x: scipy.stats.skew(x, axis=1),
    "stats.kurtosis": lambda x: scipy.stats.kurtosis(x, axis=0),
    "stats.moment": lambda x: scipy.stats.moment(x, 3, axis=1),
    "stats.sem": lambda x: scipy.stats.sem(x, axis=1),
    "stats.gmean": lambda x: scipy.stats.gmean(_positive(x), axis=1),
    "stats.variation": lambda x: scipy.stats.variation(_positive(x), axis=1),
    "stats.pearsonr": lambda x: scipy.stats.pearsonr(x[0], x[1]).statistic,
    "stats.ttest_ind.pvalue": lambda x: scipy.stats.ttest_ind(x[:3], x[3:], axis=0).pvalue,
    # scipy.fft
    "fft.fft": lambda x: scipy.fft.fft(x, axis=1),
    "fft.rfft": lambda x: scipy.fft.rfft(x),
    "fft.irfft": lambda x: scipy.fft.irfft(x, n=10),
    "fft.fftn": lambda x: scipy.fft.fftn(x),
    "fft.ifft": lambda x: scipy.fft.ifft(x, norm="ortho"),
    "fft.fftshift": lambda x: scipy.fft.fftshift(x, axes=1),
    "fft.dct": lambda x: scipy.fft.dct(x, type=2),
    # NumPy behaviour SciPy relies on: Array.view (RBFInterpolator), an in-place
    # put_along_axis (false_discovery_control), bool() of one-element arrays (find_root),
    # + and * of bool arrays (derivative)
    "interpolate.RBFInterpolator": lambda x: scipy.interpolate.RBFInterpolator(
        x[:, :2], x[:, 2])(x[:3, :2] * 0.5),
    "stats.false_discovery_control": lambda x: scipy.stats.false_discovery_control(
        scipy.special.expit(x[0])),
    "optimize.find_root": lambda x: elementwise.find_root(
        lambda t, c: t * t * t - c, (x[0] * 0 - 100, x[0] * 0 + 100), args=(x[0],)).x,
    "differentiate.derivative": lambda x: scipy.differentiate.derivative(
        lambda t: t * t * t, x[0]).df,
}


def _data(dtype):
    return np.random.default_rng(99).normal(size=(6, 7)).astype(dtype)


def test_scipy_array_api_is_enabled():
    # If this fails, SciPy was imported before SCIPY_ARRAY_API=1 was set and every case below
    # silently round-trips through NumPy instead of dispatching to laxarray.
    assert scipy_array_api.SCIPY_ARRAY_API
    assert scipy_array_api.array_namespace(la.asarray(_data("float64"))) is la


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", sorted(CASES))
def test_scipy_function(name, dtype):
    x = _data(dtype)
    expected = np.asarray(CASES[name](x))
    got = CASES[name](la.asarray(x))
    assert array_api_compat.array_namespace(got) is la, type(got)
    got = np.asarray(got)
    assert got.shape == expected.shape
    assert got.dtype == expected.dtype
    np.testing.assert_allclose(got, expected, **TOL[dtype])


def test_scipy_fftfreq_with_laxarray_namespace():
    got = scipy.fft.fftfreq(9, d=0.25, xp=la)
    assert array_api_compat.array_namespace(got) is la
    assert np.asarray(got).dtype == np.float64
    np.testing.assert_allclose(np.asarray(got), np.fft.fftfreq(9, d=0.25), **TOL["float64"])
