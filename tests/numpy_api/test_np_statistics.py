"""NumPy-surface statistics: jit parity, bad input, and edge cases the specs do not draw.

Oracle: NumPy.  Property specs live in ``laxarray.conformance.specs_numpy_statistics``.
"""

import warnings

import jax
import numpy as np
import pytest

import laxarray as la

RNG = np.random.default_rng(1234)
X = RNG.normal(size=(3, 5))
XN = X.copy()
XN[0, 1] = XN[2, 4] = np.nan


def _np(fn, *args, **kwargs):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


def _same(got, exp, rtol=1e-12):
    got, exp = np.asarray(got), np.asarray(exp)
    assert got.dtype == exp.dtype and got.shape == exp.shape
    np.testing.assert_allclose(got, exp, rtol=rtol, atol=1e-12, equal_nan=True)


# ---- jit parity: the function under jax.jit equals the eager call ------------------------------
JIT_CASES = [
    ("nansum", lambda x: la.nansum(x, axis=1)),
    ("nanmax", lambda x: la.nanmax(x, axis=0, keepdims=True)),
    ("nanargmin", lambda x: la.nanargmin(x, axis=1)),
    ("nanmean", lambda x: la.nanmean(x)),
    ("nanstd", lambda x: la.nanstd(x, axis=1, ddof=1)),
    ("nancumprod", lambda x: la.nancumprod(x, axis=1)),
    ("cumsum", lambda x: la.cumsum(x)),
    ("median", lambda x: la.median(x, axis=1)),
    ("nanmedian", lambda x: la.nanmedian(x, axis=0)),
    ("quantile", lambda x: la.quantile(x, la.asarray([0.1, 0.5, 0.9]), axis=1,
                                       method="hazen")),
    ("nanpercentile", lambda x: la.nanpercentile(x, 37.0, method="closest_observation")),
    ("ptp", lambda x: la.ptp(x, axis=1)),
    ("average", lambda x: la.average(x, axis=1, weights=la.abs(x[0]) + 1.0)),
    ("cov", lambda x: la.cov(x, aweights=la.abs(x[1]) + 1.0)),
    ("corrcoef", lambda x: la.corrcoef(x)),
    ("histogram", lambda x: la.histogram(x, bins=4)),
    ("histogramdd", lambda x: la.histogramdd(la.reshape(x, (5, 3)), bins=2)),
    ("digitize", lambda x: la.digitize(x, la.asarray([-1.0, 0.0, 1.0]))),
    ("interp", lambda x: la.interp(x, la.asarray([-1.0, 0.0, 2.0]),
                                   la.asarray([1.0, 3.0, -1.0]))),
    ("gradient", lambda x: la.gradient(x, la.asarray([0.0, 1.0, 3.0]), 0.5)),
    ("trapezoid", lambda x: la.trapezoid(x, x=la.cumsum(la.abs(x[0])))),
    ("ediff1d", lambda x: la.ediff1d(x, to_begin=la.asarray([7.0]))),
    ("partition", lambda x: la.partition(x, 2)),
    ("lexsort", lambda x: la.lexsort((x[0], x[1]))),
    ("sort_complex", lambda x: la.sort_complex(x)),
]


@pytest.mark.parametrize("name,f", JIT_CASES, ids=[c[0] for c in JIT_CASES])
def test_jit_matches_eager(name, f):
    x = la.asarray(XN if name.startswith("nan") else X)
    eager = f(x)
    traced = jax.jit(f)(x)
    flat_e = jax.tree_util.tree_leaves(eager)
    flat_t = jax.tree_util.tree_leaves(traced)
    assert len(flat_e) == len(flat_t)
    for e, t in zip(flat_e, flat_t):
        # XLA may fold constants differently under an outer jit: allow a few ulps
        np.testing.assert_allclose(np.asarray(t), np.asarray(e), rtol=1e-13, atol=1e-13)
        assert np.asarray(t).dtype == np.asarray(e).dtype


def test_bincount_under_jit_needs_static_length():
    x = la.asarray([0, 3, 3, 1])
    got = jax.jit(lambda v: la.bincount(v, length=6))(x)
    _same(got, np.bincount([0, 3, 3, 1], minlength=6))
    with pytest.raises(ValueError, match="bincount.*length"):
        jax.jit(lambda v: la.bincount(v))(x)
    # values outside [0, length) are dropped under jit
    _same(jax.jit(lambda v: la.bincount(v, length=2))(la.asarray([0, 1, 5, -1])), [1, 1])


def test_nanargmax_all_nan_slice():
    x = np.array([[np.nan, np.nan], [1.0, np.nan]])
    with pytest.raises(ValueError, match="nanargmax: All-NaN slice"):
        la.nanargmax(x, axis=1)
    with pytest.raises(ValueError):
        np.nanargmax(x, axis=1)
    got = jax.jit(lambda v: la.nanargmax(v, axis=1))(la.asarray(x))
    _same(got, np.array([-1, 0]))
    y = np.array([[np.nan, 2.0], [1.0, np.nan]])
    _same(la.nanargmin(y, axis=0), np.nanargmin(y, axis=0))


def test_quantile_q_traced_and_scalar_dtypes():
    x32 = X.astype(np.float32)
    _same(la.quantile(x32, 0.3), np.quantile(x32, 0.3), rtol=1e-6)          # float32 kept
    _same(la.quantile(x32, [0.3]), np.quantile(x32, [0.3]), rtol=1e-6)      # float64
    _same(la.quantile(np.arange(7, dtype=np.int8), 1), np.quantile(np.arange(7, dtype=np.int8),
                                                                   1))
    f = jax.jit(lambda q: la.quantile(la.asarray(X), q, axis=0, method="weibull"))
    _same(f(la.asarray([0.0, 0.5, 1.0])), np.quantile(X, [0.0, 0.5, 1.0], axis=0,
                                                       method="weibull"))


@pytest.mark.parametrize("method", ["linear", "lower", "higher", "midpoint", "nearest",
                                    "inverted_cdf", "averaged_inverted_cdf",
                                    "closest_observation", "interpolated_inverted_cdf",
                                    "hazen", "weibull", "median_unbiased",
                                    "normal_unbiased"])
def test_quantile_methods_at_ties(method):
    # q on the exact grid points k/n and (k+0.5)/n hits every tie rule of each method
    a = np.array([5.0, 1.0, 4.0, 2.0, 3.0, 8.0, 7.0, 6.0, 10.0, 9.0])
    q = np.arange(21) / 20
    _same(la.quantile(a, q, method=method), np.quantile(a, q, method=method))
    _same(la.nanquantile(np.append(a, np.nan), q, method=method),
          np.nanquantile(np.append(a, np.nan), q, method=method))
    for qs in (0.3, 0.7, 0.05):
        _same(la.quantile(a, qs, method=method), np.quantile(a, qs, method=method))


def test_median_and_quantile_nan_and_empty():
    _same(la.median(XN, axis=1), _np(np.median, XN, axis=1))
    _same(la.nanmedian(np.full((2, 3), np.nan), axis=1), _np(np.nanmedian,
                                                              np.full((2, 3), np.nan), axis=1))
    _same(la.median(np.zeros((0,))), _np(np.median, np.zeros((0,))))
    _same(la.nanquantile(np.zeros((0,)), 0.5), _np(np.nanquantile, np.zeros((0,)), 0.5))
    _same(la.median([True, False, True]), np.median([True, False, True]))


def test_histogram_edge_cases():
    a = np.array([1.0, 1.0, 1.0])      # zero range widens by +-0.5
    for got, exp in zip(la.histogram(a, bins=3), np.histogram(a, bins=3)):
        _same(got, exp)
    for got, exp in zip(la.histogram([], bins=2), np.histogram([], bins=2)):
        _same(got, exp)
    a = np.array([0.0, 1.0, 2.0, 3.0, 3.0])   # the last edge is inclusive
    _same(la.histogram(a, bins=[0, 1, 2, 3])[0], np.histogram(a, bins=[0, 1, 2, 3])[0])
    h, e = la.histogram(np.array([0.5, 2.5, np.nan]), bins=2, range=(0, 3))
    _same(h, np.histogram(np.array([0.5, 2.5, np.nan]), bins=2, range=(0, 3))[0])
    hist, xe, ye = la.histogram2d([0.0, 1.0], [1.0, 2.0], bins=[[0, 0.5, 1], [1, 2]])
    exp = np.histogram2d([0.0, 1.0], [1.0, 2.0], bins=[[0, 0.5, 1], [1, 2]])
    for g, e in zip((hist, xe, ye), exp):
        _same(g, e)


@pytest.mark.parametrize("est", ["auto", "fd", "sturges"])
def test_histogram_string_estimators_eagerly(est):
    a = RNG.normal(size=40)
    for got, exp in zip(la.histogram(a, bins=est, range=(-1, 2)),
                        np.histogram(a, bins=est, range=(-1, 2))):
        _same(got, exp)


def test_histogram_string_estimator_under_jit_is_refused():
    with pytest.raises(ValueError, match="histogram.*jax.jit"):
        jax.jit(lambda v: la.histogram(v, bins="auto"))(la.asarray(X))


def test_cov_corrcoef_edge_cases():
    _same(la.cov([1.0, 2.0, 4.0]), np.cov([1.0, 2.0, 4.0]))
    _same(la.corrcoef([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0]]),
          np.corrcoef([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0]]))
    _same(la.cov(X, ddof=5), _np(np.cov, X, ddof=5))   # ddof >= n: NumPy's inf/nan
    c = X[:2] + 1j * X[1:]
    _same(la.cov(c), np.cov(c))
    _same(la.corrcoef(c), np.corrcoef(c))


def test_interp_complex_and_period():
    x = np.linspace(-2, 12, 29)
    xp, fp = np.array([0.0, 2.0, 5.0, 9.0]), np.array([1.0, -1.0, 3.0, 0.0])
    _same(la.interp(x, xp, fp + 2j * fp), np.interp(x, xp, fp + 2j * fp))
    _same(la.interp(x, xp[::-1] * 1.0, fp, period=10), np.interp(x, xp[::-1], fp, period=10))
    _same(la.interp(x, xp, fp, left=np.nan, right=-7), np.interp(x, xp, fp, left=np.nan,
                                                                 right=-7))


def test_gradient_variants():
    f = np.arange(12.0).reshape(3, 4) ** 2
    for got, exp in zip(la.gradient(f, 2.0, edge_order=2), np.gradient(f, 2.0, edge_order=2)):
        _same(got, exp)
    coords = np.array([0.0, 1.0, 1.5, 4.0])
    _same(la.gradient(f, coords, axis=1, edge_order=2),
          np.gradient(f, coords, axis=1, edge_order=2))
    _same(la.gradient(f, axis=-1), np.gradient(f, axis=-1))
    assert isinstance(la.gradient(f), tuple)


def test_partition_property_and_argpartition():
    x = RNG.normal(size=(4, 9))
    for k in (0, 4, -1, (2, 6)):
        p = np.asarray(la.partition(x, k, axis=1))
        for kk in (k if isinstance(k, tuple) else (k,)):
            np.testing.assert_array_equal(p[:, kk], np.sort(x, axis=1)[:, kk])
        idx = np.asarray(la.argpartition(x, k, axis=1))
        np.testing.assert_array_equal(np.take_along_axis(x, idx, 1), p)


BAD = [
    ("nanmax", TypeError, lambda: la.nanmax(np.array([1 + 1j]))),
    ("nanmax", ValueError, lambda: la.nanmax(np.zeros((0, 2)), axis=0)),
    ("nanvar", TypeError, lambda: la.nanvar(X, dtype=np.int32)),
    ("nanvar", ValueError, lambda: la.nanvar(X, ddof=1, correction=1)),
    ("nanargmax", ValueError, lambda: la.nanargmax(np.zeros((0,)))),
    ("nansum", ValueError, lambda: la.nansum(X, axis=2)),
    ("ptp", TypeError, lambda: la.ptp(np.array([True, False]))),
    ("quantile", ValueError, lambda: la.quantile(X, 1.5)),
    ("percentile", ValueError, lambda: la.percentile(X, [-1, 50])),
    ("quantile", ValueError, lambda: la.quantile(X, 0.5, method="bogus")),
    ("quantile", TypeError, lambda: la.quantile(X + 0j, 0.5)),
    ("quantile", TypeError, lambda: la.quantile(np.array([True]), 0.5)),
    ("quantile", ValueError, lambda: la.quantile(np.zeros((0,)), 0.5)),
    ("median", TypeError, lambda: la.median(np.array([1j]))),
    ("partition", ValueError, lambda: la.partition(X, 5)),
    ("partition", TypeError, lambda: la.partition(X, 1.5)),
    ("lexsort", ValueError, lambda: la.lexsort([[1, 2], [1, 2, 3]])),
    ("average", TypeError, lambda: la.average(X, weights=[1.0, 2.0, 3.0])),
    ("average", ValueError, lambda: la.average(X, axis=1, weights=[1.0, 2.0])),
    ("cov", ValueError, lambda: la.cov(np.zeros((2, 2, 2)))),
    ("cov", ValueError, lambda: la.cov(X, ddof=1.5)),
    ("cov", TypeError, lambda: la.cov(X, fweights=[1.5, 1, 1, 1, 1])),
    ("cov", ValueError, lambda: la.cov(X, aweights=[-1.0, 1, 1, 1, 1])),
    ("histogram", ValueError, lambda: la.histogram(X, bins=0)),
    ("histogram", ValueError, lambda: la.histogram(X, bins=[3, 1, 2])),
    ("histogram", ValueError, lambda: la.histogram(X, range=(2, 1))),
    ("histogram", ValueError, lambda: la.histogram(np.array([1.0, np.inf]))),
    ("histogram", ValueError, lambda: la.histogram(X, bins="bogus")),
    ("histogram", TypeError, lambda: la.histogram(X, bins="auto", weights=X)),
    ("histogram", TypeError, lambda: la.histogram(np.array([1j]))),
    ("histogramdd", ValueError, lambda: la.histogramdd(X.T, bins=[2, 2])),
    ("bincount", TypeError, lambda: la.bincount([1.5, 2.0])),
    ("bincount", ValueError, lambda: la.bincount([1, -2])),
    ("bincount", ValueError, lambda: la.bincount([[1, 2]])),
    ("digitize", ValueError, lambda: la.digitize([1.0], [1.0, 3.0, 2.0])),
    ("digitize", TypeError, lambda: la.digitize([1j], [1.0, 2.0])),
    ("interp", ValueError, lambda: la.interp([1.0], [1.0, 2.0], [1.0])),
    ("interp", ValueError, lambda: la.interp([1.0], [], [])),
    ("interp", ValueError, lambda: la.interp([1.0], [1.0, 2.0], [1.0, 2.0], period=0)),
    ("gradient", ValueError, lambda: la.gradient(np.array([1.0]))),
    ("gradient", ValueError, lambda: la.gradient(X, edge_order=3)),
    ("gradient", TypeError, lambda: la.gradient(X, 1.0, 2.0, 3.0)),
    ("gradient", TypeError, lambda: la.gradient(np.array([True, False, True]))),
    ("trapezoid", ValueError, lambda: la.trapezoid(X, x=[1.0, 2.0])),
    ("ediff1d", TypeError, lambda: la.ediff1d(np.array([1, 2], np.int8), to_begin=1.5)),
    ("sort_complex", ValueError, lambda: la.sort_complex(1.0)),
]


@pytest.mark.parametrize("fn,exc,call", BAD, ids=[f"{b[0]}-{i}" for i, b in enumerate(BAD)])
def test_bad_input_names_the_function(fn, exc, call):
    with pytest.raises(exc, match=f"^{fn}"):
        call()


def test_average_zero_weights_and_returned():
    with pytest.raises(ZeroDivisionError):
        la.average([1.0, 2.0], weights=[0.0, 0.0])
    avg, scl = la.average(X, axis=0, returned=True)
    eavg, escl = np.average(X, axis=0, returned=True)
    _same(avg, eavg)
    _same(scl, escl)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64])
def test_histogram_equal_bins_on_edges_and_outside(dtype):
    # the equal-bin path computes the bin arithmetically and corrects it against the
    # edges: values exactly on every edge, just beside them, outside the range and NaN
    for bins, rng in [(10, (0.0, 1.0)), (7, (-3.0, 4.0)), (3, (0, 9)), (100, None)]:
        lo, hi = rng if rng is not None else (-2.0, 3.0)
        edges = np.linspace(lo, hi, bins + 1)
        x = np.concatenate([edges, np.nextafter(edges, np.inf), np.nextafter(edges, -np.inf),
                            [lo - 1, hi + 1], np.linspace(lo, hi, 997)])
        if np.dtype(dtype).kind == "f":
            x = x.astype(dtype)
            # XLA on CPU compares subnormals as zero (nextafter(0, -inf) would count as 0)
            x = x[(x == 0) | ~(np.abs(x) < np.finfo(dtype).tiny)]
            if rng is not None:
                x = np.concatenate([x, np.array([np.nan], dtype)])
        else:
            x = np.round(x).astype(dtype)
        h, e = np.histogram(x, bins, rng)
        got, got_e = la.histogram(la.asarray(x), bins, rng)
        np.testing.assert_array_equal(np.asarray(got), h)
        np.testing.assert_allclose(np.asarray(got_e), e, rtol=1e-6 if dtype == np.float32 else 0)
        hd, _ = np.histogramdd(x[:, None], bins, None if rng is None else [rng])
        got_d, _ = la.histogramdd(la.asarray(x[:, None]), bins, None if rng is None else [rng])
        np.testing.assert_array_equal(np.asarray(got_d), hd)


@pytest.mark.parametrize("name", ["amax", "amin"])
@pytest.mark.parametrize("shape, dtype, axis, initial, keepdims", [
    ((0,), np.float32, None, 5.0, False),
    ((0,), np.int64, None, 5.5, False),          # initial cast to a's dtype, as NumPy
    ((0, 3), np.float32, 0, 2, False),
    ((2, 0), np.float64, 1, 1, True),
    ((2, 0), np.float64, -1, -3.0, False),
    ((0, 3), np.int8, 1, 2, False),              # nothing reduced: an empty result
    ((0, 3), np.float64, (0, 1), 7.0, True),
])
def test_empty_reduction_with_initial_gives_initial_as_numpy(name, shape, dtype, axis,
                                                              initial, keepdims):
    a = np.zeros(shape, dtype)
    want = getattr(np, name)(a, axis=axis, initial=initial, keepdims=keepdims)
    got = getattr(la, name)(la.asarray(a), axis=axis, initial=initial, keepdims=keepdims)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(np.asarray(got), want)


def test_empty_reduction_without_initial_still_raises_as_numpy():
    with pytest.raises(ValueError):
        np.amax(np.zeros((0,)))
    with pytest.raises(ValueError, match="^a?max: "):
        la.amax(la.zeros((0,)))
