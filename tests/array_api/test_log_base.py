"""log10 and log2 against NumPy's own functions in extended precision (``np.longdouble``,
64 fraction bits here), rounded once to the array's dtype (``tests/rounding.py``: NumPy's own
longdouble -> float16 conversion rounds twice, through float32): the correctly rounded answer.

XLA's ``log(x) / log(b)`` is off by one or two ulps, so ``log10(0.1)`` was not ``-1`` (SciPy's
``signal.freqz`` tests read decades this way).  Powers of the base must come out exact, float16
and float32 correctly rounded everywhere, float64 within one ulp (fdlibm's algorithm); the
arrays are longer than 4096 elements (where XLA:CPU switches code paths) and include subnormals, zeros of both signs,
negatives, infinities and NaN.
"""

import numpy as np
import pytest

import laxarray as la
from rounding import assert_correctly_rounded, correctly_rounded

pytestmark = pytest.mark.skipif(np.finfo(np.longdouble).nmant < 63,
                                reason="np.longdouble is no wider than float64 here")

FUNCS = {"log10": (la.log10, np.log10, 10.0), "log2": (la.log2, np.log2, 2.0)}
DTYPES = [np.float16, np.float32, np.float64]


def _inputs(dt, base):
    info = np.finfo(dt)
    rng = np.random.default_rng(0)
    powers = base ** np.arange(np.floor(np.log(info.smallest_subnormal) / np.log(base)),
                               np.ceil(np.log(info.max) / np.log(base)))
    edges = [info.tiny, info.smallest_subnormal, info.smallest_subnormal * 3, info.tiny * 0.7,
             info.max, 0.0, -0.0, -1.0, np.inf, -np.inf, np.nan, 1.0]
    with np.errstate(over="ignore"):
        x = np.concatenate([rng.lognormal(0.0, 6.0, 6000), powers, edges]).astype(dt)
        return x, powers.astype(dt)


def _extended(np_fn, x):
    with np.errstate(divide="ignore", invalid="ignore"):
        return np_fn(x.astype(np.longdouble))


def _correctly_rounded(np_fn, x, dt):
    return correctly_rounded(_extended(np_fn, x), dt)[0]


@pytest.mark.parametrize("dt", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", FUNCS)
def test_log_base_is_correctly_rounded_where_the_dtype_allows(name, dt):
    la_fn, np_fn, base = FUNCS[name]
    x, _ = _inputs(dt, base)
    got = np.asarray(la_fn(la.asarray(x)))
    want = _correctly_rounded(np_fn, x, dt)
    assert got.dtype == want.dtype
    special = ~np.isfinite(want)
    np.testing.assert_array_equal(got[special], want[special])
    if dt != np.float64:
        assert_correctly_rounded(got, _extended(np_fn, x), err_msg=f"{name} {np.dtype(dt)}")
        return
    exact = _extended(np_fn, x)[~special]
    ulps = np.abs(got[~special] - exact) / np.spacing(np.abs(want[~special]))
    assert ulps.max() < 1, x[~special][np.argmax(ulps)]


@pytest.mark.parametrize("dt", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", FUNCS)
def test_powers_of_the_base_are_exact_eager_and_jitted(name, dt):
    la_fn, np_fn, base = FUNCS[name]
    _, powers = _inputs(dt, base)
    want = _correctly_rounded(np_fn, powers, dt)
    np.testing.assert_array_equal(np.asarray(la_fn(la.asarray(powers))), want)
    np.testing.assert_array_equal(np.asarray(la.jit(la_fn)(la.asarray(powers))), want)
