"""The CPU host path of sorting, selection and counting (``_host_order``).

Oracles: NumPy's stable sort and its quantile/partition/nonzero, and, where NumPy has no
counterpart (descending order, the standard's unique_* with distinct NaNs), the lax path,
which is separate code (``lax.sort`` with its own keys): the two paths must agree bit for
bit.  Inputs carry NaN, +-inf, signed zeros and ties.
"""

import jax
import numpy as np
import pytest

import laxarray as lx

DTYPES = [np.float64, np.float32, np.int64, np.int32, np.uint8, np.bool_]


def _data(dtype, shape, seed=0):
    rng = np.random.default_rng(seed)
    x = np.round(rng.standard_normal(shape) * 3, 0)
    if np.dtype(dtype).kind == "f" and x.size >= 6:
        flat = x.reshape(-1)
        flat[0], flat[1], flat[2], flat[3] = np.nan, -0.0, np.inf, -np.inf
        flat[4], flat[5] = 0.0, np.nan
        flat[-1] = -0.0
    if np.dtype(dtype).kind == "u":
        x = np.abs(x)
    return x.astype(dtype)


def _both(fn):
    """``fn()`` on the host path and on the lax path, as NumPy arrays."""
    def host(v):
        return [np.asarray(t) for t in (v if isinstance(v, tuple) else (v,))]
    with lx.host_sort(True):
        a = host(fn())
    with lx.host_sort(False):
        b = host(fn())
    return a, b


def _run(jit, fn, *args):
    """``fn(*args)`` eagerly (the host path without a kernel) or under ``jax.jit`` (the
    kernel's host callback), as a NumPy array."""
    return np.asarray(jax.jit(fn)(*args) if jit else fn(*args))


def _same_bits(a, b):
    assert len(a) == len(b)
    for u, v in zip(a, b):
        assert u.dtype == v.dtype and u.shape == v.shape
        assert u.tobytes() == v.tobytes(), (u, v)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,axis", [((17,), -1), ((5, 7), 0), ((5, 7), 1),
                                        ((3, 4, 6), 1), ((0,), 0), ((4, 0), 1)])
@pytest.mark.parametrize("jit", [False, True])
def test_sort_is_numpys_stable_sort(dtype, shape, axis, jit):
    x = _data(dtype, shape)
    got = _run(jit, lambda v: lx.sort(v, axis=axis), lx.asarray(x))
    want = np.sort(x, axis=axis, kind="stable")
    assert got.dtype == want.dtype and got.tobytes() == want.tobytes()
    idx = _run(jit, lambda v: lx.argsort(v, axis=axis), lx.asarray(x))
    assert idx.dtype == np.int64
    np.testing.assert_array_equal(idx, np.argsort(x, axis=axis, kind="stable"))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("axis", [0, -1])
def test_host_and_lax_paths_agree(dtype, descending, axis):
    x = lx.asarray(_data(dtype, (9, 8), seed=1))
    _same_bits(*_both(lambda: lx.sort(x, axis=axis, descending=descending)))
    _same_bits(*_both(lambda: lx.argsort(x, axis=axis, descending=descending)))


def test_signed_zeros_and_nan_payloads_keep_input_order():
    # equal keys whose bits differ: a stable sort leaves them in input order
    nan2 = np.frombuffer(np.array([0x7FF8000000000001], np.uint64).tobytes(), np.float64)[0]
    x = np.array([0.0, np.nan, -0.0, 1.0, nan2, -0.0, 0.0, -np.nan])
    for descending in (False, True):
        a, b = _both(lambda: lx.sort(lx.asarray(x), descending=descending))
        _same_bits(a, b)
    got = np.asarray(lx.sort(lx.asarray(x)))
    assert got.tobytes() == np.sort(x, kind="stable").tobytes()


def test_jit_vmap_and_grad_through_the_host_sort():
    x = _data(np.float64, (4, 6), seed=2)
    x = np.where(np.isnan(x), 1.5, x) + np.arange(24).reshape(4, 6) * 1e-3  # no ties
    w = lx.asarray(np.arange(6.0))

    def loss(v):
        return lx.sum(lx.sort(v, axis=-1, descending=True) * w)

    with lx.host_sort(True):
        jitted = np.asarray(jax.jit(lambda v: lx.sort(v, axis=0))(lx.asarray(x)))
        vmapped = np.asarray(lx.vmap(lambda r: lx.argsort(r))(lx.asarray(x)))
        g_host = np.asarray(lx.grad(loss)(lx.asarray(x)))
    np.testing.assert_array_equal(jitted, np.sort(x, axis=0))
    np.testing.assert_array_equal(vmapped, np.argsort(x, axis=-1, kind="stable"))
    # d/dx sum(sort_desc(x) * w): each element gets the weight of the place it sorts to
    order = np.argsort(-x, axis=-1, kind="stable")
    want = np.zeros_like(x)
    np.put_along_axis(want, order, np.broadcast_to(np.arange(6.0), x.shape), axis=-1)
    np.testing.assert_array_equal(g_host, want)


def test_gradient_flows_past_argsort_indices():
    x = lx.asarray(np.array([3.0, 1.0, 2.0, 0.5]))

    def top2(v):
        return lx.sum(lx.take(v, lx.argsort(v)[2:]))

    np.testing.assert_array_equal(np.asarray(lx.grad(top2)(x)), [1.0, 0.0, 1.0, 0.0])


@pytest.mark.parametrize("method", ["linear", "lower", "higher", "midpoint", "nearest",
                                    "inverted_cdf", "averaged_inverted_cdf", "hazen",
                                    "weibull", "median_unbiased", "normal_unbiased",
                                    "closest_observation", "interpolated_inverted_cdf"])
@pytest.mark.parametrize("axis", [None, 0, 1])
@pytest.mark.parametrize("jit", [False, True])
def test_quantile_selection_matches_numpy(method, axis, jit):
    x = np.random.default_rng(3).standard_normal((11, 8))
    q = np.array([0.0, 0.1, 0.5, 0.77, 1.0])
    got = _run(jit, lambda v, p: lx.quantile(v, p, axis=axis, method=method), lx.asarray(x),
               lx.asarray(q))
    np.testing.assert_array_equal(got, np.quantile(x, q, axis=axis, method=method))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64])
@pytest.mark.parametrize("axis", [None, 0, (0, 1)])
@pytest.mark.parametrize("jit", [False, True])
def test_median_and_nan_forms_match_numpy(dtype, axis, jit):
    x = _data(dtype, (7, 6, 2), seed=4)
    a = lx.asarray(x)
    for ours, theirs in ((lx.median, np.median), (lx.nanmedian, np.nanmedian)):
        want = theirs(x, axis=axis)
        got = _run(jit, lambda v: ours(v, axis=axis), a)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)
    if np.dtype(dtype).kind == "f":
        q = np.array([0.25, 0.5])
        got = _run(jit, lambda v, p: lx.nanquantile(v, p, axis=axis), a, lx.asarray(q))
        np.testing.assert_array_equal(got, np.nanquantile(x, q, axis=axis))


def test_quantile_gradient_on_the_host_path():
    x = np.array([4.0, 1.0, 3.0, 2.0, 5.0])
    with lx.host_sort(True):
        g = np.asarray(lx.grad(lambda v: lx.quantile(v, 0.3))(lx.asarray(x)))
    # linear method: index (n-1)*q = 1.2 between the 2nd and 3rd smallest (2.0 and 3.0)
    want = np.zeros(5)
    want[3], want[2] = 0.8, 0.2
    np.testing.assert_allclose(g, want, rtol=1e-12)


@pytest.mark.parametrize("dtype", [np.float64, np.int64])
@pytest.mark.parametrize("kth", [0, 5, -1, (2, 9)])
@pytest.mark.parametrize("jit", [False, True])
def test_partition_is_numpys(dtype, kth, jit):
    x = _data(dtype, (3, 12), seed=5)
    got = _run(jit, lambda v: lx.partition(v, kth, axis=1), lx.asarray(x))
    np.testing.assert_array_equal(got, np.partition(x, kth, axis=1))
    idx = _run(jit, lambda v: lx.argpartition(v, kth, axis=1), lx.asarray(x))
    part = np.take_along_axis(x, idx, axis=1)
    srt = np.sort(x, axis=1)
    for k in np.atleast_1d(kth):
        np.testing.assert_array_equal(part[:, k], srt[:, k])
        assert np.all((part[:, :k % 12] <= part[:, [k]]) | np.isnan(part[:, [k]]))


@pytest.mark.parametrize("dtype", DTYPES + [np.complex128, np.float16])
@pytest.mark.parametrize("shape", [(0,), (1,), (13,), (3, 5)])
def test_unique_family_host_and_lax_agree(dtype, shape):
    x = lx.asarray(_data(dtype, shape, seed=6))
    n = int(np.prod(shape))

    def every():
        out = (lx.unique_values(x),) + tuple(lx.unique_counts(x)) + \
            tuple(lx.unique_inverse(x)) + tuple(lx.unique_all(x))
        if n:
            out += tuple(lx.unique_all(x, size=n + 2, fill_value=0)) + \
                tuple(lx.unique_counts(x, size=max(n // 2, 1)))
        return out
    _same_bits(*_both(every))


def test_eager_host_path_compiles_nothing():
    # eagerly on CPU the sort family runs NumPy directly: a new shape costs no executable
    from laxarray._core.runtime.kernel import compile_count
    x = lx.asarray(_data(np.float64, (3, 41), seed=10))
    q = lx.asarray(np.array([0.2, 0.9]))
    before = compile_count()
    lx.sort(x, axis=0), lx.argsort(x, descending=True), lx.median(x, axis=1)
    lx.nanquantile(x, q, axis=0), lx.partition(x, 3), lx.argpartition(x, (1, 2), axis=0)
    lx.unique_all(x), lx.unique_counts(x), lx.unique_inverse(x), lx.unique_values(x)
    assert compile_count() == before


def test_unique_values_counts_match_numpy_without_nan():
    x = _data(np.int64, (50,), seed=7)
    vals, counts = lx.unique_counts(lx.asarray(x))
    want_v, want_c = np.unique(x, return_counts=True)
    np.testing.assert_array_equal(np.asarray(vals), want_v)
    np.testing.assert_array_equal(np.asarray(counts), want_c)


@pytest.mark.parametrize("shape", [(0,), (9,), (3, 4), (2, 0), (2, 3, 4)])
@pytest.mark.parametrize("size", [None, 0, 3, 40])
def test_nonzero_host_and_lax_agree_and_match_numpy(shape, size):
    x = (np.random.default_rng(8).random(shape) > 0.5).astype(np.int64)
    a = lx.asarray(x)
    if size is None:
        got = [np.asarray(t) for t in lx.nonzero(a)] if x.ndim else None
        for g, w in zip(got, np.nonzero(x)):
            np.testing.assert_array_equal(g, w)
        return
    _same_bits(*_both(lambda: lx.nonzero(a, size=size, fill_value=-1)))


def test_the_switch_picks_the_program():
    x = lx.asarray(np.arange(5.0))
    with lx.host_sort(False):
        off = str(jax.make_jaxpr(lambda v: lx.sort(v))(x))
    with lx.host_sort(True):
        on = str(jax.make_jaxpr(lambda v: lx.sort(v))(x))
    assert "callback" not in off and "sort" in off    # exportable: no host callback
    assert "callback" in on
    assert lx.get_host_sort() is True
    with pytest.raises(TypeError, match="set_host_sort"):
        lx.set_host_sort("yes")
    assert lx.get_host_sort() is True


def test_partition_gradient_lands_on_the_kth_element():
    x = np.array([4.0, 1.0, 3.0, 2.0, 5.0])
    with lx.host_sort(True):
        g = np.asarray(lx.grad(lambda v: lx.partition(v, 3)[3])(lx.asarray(x)))
    np.testing.assert_array_equal(g, (x == np.sort(x)[3]).astype(float))


@pytest.mark.parametrize("dtype", [np.int64, np.int8, np.uint16, np.bool_])
def test_bincount_and_isin_on_the_host_are_numpys(dtype):
    rng = np.random.default_rng(9)
    x = rng.integers(0, 7, 40).astype(dtype)
    w = rng.standard_normal(40)
    a = lx.asarray(x)
    np.testing.assert_array_equal(np.asarray(lx.bincount(a)), np.bincount(x))
    np.testing.assert_array_equal(np.asarray(lx.bincount(a, lx.asarray(w), minlength=9)),
                                  np.bincount(x, w, minlength=9))
    b = rng.integers(0, 4, (2, 3)).astype(dtype)
    for invert in (False, True):
        np.testing.assert_array_equal(
            np.asarray(lx.isin(lx.asarray(x.reshape(5, 8)), lx.asarray(b), invert=invert)),
            np.isin(x.reshape(5, 8), b, invert=invert))


def test_bincount_under_jit_drops_out_of_range_and_differentiates_weights():
    x = np.array([0, 3, 3, 9, 1, 3])
    w = np.array([0.5, 1.0, 2.0, 4.0, 8.0, 16.0])
    got = jax.jit(lambda v, ww: lx.bincount(v, ww, length=4))(lx.asarray(x), lx.asarray(w))
    np.testing.assert_array_equal(np.asarray(got), np.bincount(x[x < 4], w[x < 4], minlength=4))
    g = lx.grad(lambda ww: lx.sum(lx.bincount(lx.asarray(x), ww) ** 2))(lx.asarray(w))
    np.testing.assert_allclose(np.asarray(g), 2 * np.bincount(x, w)[x], rtol=1e-15)
    rows = np.array([[0, 1, 1], [2, 2, 2]])
    np.testing.assert_array_equal(
        np.asarray(lx.vmap(lambda r: lx.bincount(r, length=3))(lx.asarray(rows))),
        [np.bincount(r, minlength=3) for r in rows])


def test_round_takes_numpys_decimals():
    x = np.array([1.25, -2.55, 3.5, 2.5, 1234.5, -0.04])
    for d in (0, 1, 2, -1, -2):
        np.testing.assert_array_equal(np.asarray(lx.round(lx.asarray(x), d)), np.round(x, d))
    # a large array (unbucketed) and a jitted call too: XLA must not divide by the scale
    # through its inexact reciprocal (1.25 -> 1.2000000000000002)
    big = np.tile(np.concatenate([x, [0.35, 2.675, 0.285]]), 5000)
    for d in (1, 2, -1):
        np.testing.assert_array_equal(np.asarray(lx.round(lx.asarray(big), d)), np.round(big, d))
        np.testing.assert_array_equal(
            np.asarray(lx.jit(lambda v, d=d: lx.round(v, d))(lx.asarray(big))), np.round(big, d))
    assert lx.round(lx.asarray(x)).dtype == lx.float64
    with pytest.raises(TypeError, match="round"):
        lx.round(lx.asarray(x), 1.5)


def test_eager_bincount_with_a_short_length_drops_the_rest():
    x = np.array([0, 5, 1, 1, 7])
    np.testing.assert_array_equal(np.asarray(lx.bincount(lx.asarray(x), length=3)),
                                  np.bincount(x[x < 3], minlength=3))


def test_weighted_bincount_of_nothing_is_float64():
    out = lx.bincount(lx.asarray(np.array([], np.int64)), lx.asarray(np.array([])))
    assert out.dtype == lx.float64 and out.shape == (0,)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("shape", [(), (7,), (3, 4)])
@pytest.mark.parametrize("jit", [False, True])
def test_float_isin_eager_and_jitted_is_numpys(dtype, shape, jit):
    # NaN is in nothing (not even a NaN), -0.0 is in [0.0]; 0-d operands too
    x = _data(dtype, (max(int(np.prod(shape)), 1),), seed=11)[:int(np.prod(shape))]
    x = x.reshape(shape)
    pool = np.array([0.0, np.nan, np.inf, 1.0, -3.0], dtype)
    for invert in (False, True):
        got = _run(jit, lambda a, b: lx.isin(a, b, invert=invert), lx.asarray(x),
                   lx.asarray(pool))
        want = np.isin(x, pool, invert=invert)
        assert got.shape == want.shape and got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("length", [4, 300])
def test_jitted_bincount_drops_values_past_int32_instead_of_wrapping(length):
    # the unweighted kernel counts in int32 (and, for few bins, codes values in 16 bits):
    # out-of-range values are found before the narrowing
    x = np.array([0, 3, 2**32, 2**32 + 1, -1, 2**31, 3, -(2**32), 2**16, 2**16 + 3])
    got = jax.jit(lambda v: lx.bincount(v, length=length))(lx.asarray(x))
    keep = (x >= 0) & (x < length)
    assert got.dtype == lx.int64
    np.testing.assert_array_equal(np.asarray(got), np.bincount(x[keep], minlength=length))


@pytest.mark.parametrize("length", [0, 1, 2, 6, 16, 255, 256])
@pytest.mark.parametrize("n", [0, 7, 2**18 + 1, 2**18 + 2, 2**18 + 3])
def test_jitted_bincount_of_few_bins_is_numpys(length, n):
    # from 2**18 values on, few bins: runs of k values coded as one index into
    # (length + 1)**k bins, for each tuple width k, with a remainder of n % k values, and
    # values out of range; under vmap too
    x = np.random.default_rng(n + length).integers(-2, length + 3, n)
    got = jax.jit(lambda v: lx.bincount(v, length=length))(lx.asarray(x))
    keep = (x >= 0) & (x < length)
    assert got.dtype == lx.int64
    np.testing.assert_array_equal(np.asarray(got), np.bincount(x[keep], minlength=length))
    rows = np.stack([x, x[::-1]])
    np.testing.assert_array_equal(
        np.asarray(jax.jit(lx.vmap(lambda r: lx.bincount(r, length=length)))(lx.asarray(rows))),
        [np.bincount(r[(r >= 0) & (r < length)], minlength=length) for r in rows])


def test_eager_bincount_reads_the_array_without_changing_it():
    x = np.array([2, 0, 2, 5, 2])
    a = lx.asarray(x)
    np.testing.assert_array_equal(np.asarray(lx.bincount(a, minlength=8)),
                                  np.bincount(x, minlength=8))
    np.testing.assert_array_equal(np.asarray(a), x)


def test_jitted_nan_quantiles_of_a_large_input_are_numpys():
    # NumPy's own functions in a host call, reordering the callback's copy in place
    x = np.round(np.random.default_rng(5).standard_normal(2**22 + 3), 3)
    x[::997] = np.nan
    x = x.reshape(2, -1) if x.size % 2 == 0 else x
    a = lx.asarray(x)
    np.testing.assert_array_equal(np.asarray(jax.jit(lx.nanmedian)(a)), np.nanmedian(x))
    np.testing.assert_array_equal(
        np.asarray(jax.jit(lambda v: lx.nanquantile(v, 0.3, method="weibull"))(a)),
        np.nanquantile(x, 0.3, method="weibull"))


@pytest.mark.parametrize("method", ["linear", "lower", "nearest", "midpoint", "inverted_cdf",
                                    "closest_observation", "hazen", "median_unbiased"])
def test_traced_quantiles_numpys_own_and_the_lax_formulation_agree(method):
    # jitted on CPU a quantile is NumPy's own function in a host call; under
    # differentiation its primal comes from the lax formulation around a host selection,
    # and without host sorts (GPU, jax.export) from one around lax.sort: all NumPy's values
    rng = np.random.default_rng(8)
    x = np.round(rng.standard_normal((6, 9)) * 4, 0)
    x[0, [1, 4]] = np.nan
    x[3, 0] = np.nan
    q = np.array([0.0, 0.2, 0.5, 0.93, 1.0])
    a, ones = lx.asarray(x), lx.asarray(np.ones_like(x))
    cases = [(lambda v: lx.nanquantile(v, lx.asarray(q), axis=1, method=method),
              np.nanquantile(x, q, axis=1, method=method)),
             (lambda v: lx.quantile(v, 0.3, axis=1, method=method),
              np.quantile(x, 0.3, axis=1, method=method)),
             (lambda v: lx.nanmedian(v, axis=1), np.nanmedian(x, axis=1)),
             (lambda v: lx.median(v, axis=1), np.median(x, axis=1))]
    for f, want in cases:
        with lx.host_sort(True):
            program = str(jax.make_jaxpr(f)(a))
            got = np.asarray(jax.jit(f)(a))
            primal, tangent = jax.jvp(jax.jit(f), (a,), (ones,))
            rows = np.asarray(lx.vmap(jax.jit(f))(lx.asarray(np.stack([x, x[::-1]]))))
        with lx.host_sort(False):
            lax_only = np.asarray(jax.jit(f)(a))
        assert "host_callback" in program
        for g in (got, np.asarray(primal), lax_only, rows[0]):
            np.testing.assert_array_equal(g, want)
        np.testing.assert_array_equal(rows[1], want[..., ::-1])
        # every value shifted by t shifts each quantile by t (NaN results: no such rule)
        np.testing.assert_array_equal(np.asarray(tangent)[~np.isnan(want)], 1.0)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.bool_])
def test_cumulative_sums_are_numpys_bits_eagerly_and_jitted(dtype):
    # on CPU NumPy's own scan, eagerly and in a host call under jit (XLA's scan adds in
    # another order: float32 sums of 10**4 values differ in their last bits)
    x = np.random.default_rng(9).standard_normal((3, 10_000)) * 3
    x = (x > 0) if dtype is np.bool_ else x.astype(dtype)
    a = lx.asarray(x)
    for f, g in ((lx.cumulative_sum, np.cumsum), (lx.cumulative_prod, np.cumprod)):
        want = g(x[:, :40] if f is lx.cumulative_prod else x, axis=1,
                 dtype=np.int64 if dtype is np.bool_ else None)
        v = a[:, :40] if f is lx.cumulative_prod else a
        for got in (f(v, axis=1), jax.jit(lambda t, f=f: f(t, axis=1))(v),
                    lx.vmap(lambda r, f=f: f(r))(v)):
            assert got.dtype == want.dtype
            np.testing.assert_array_equal(np.asarray(got), want)
        init = jax.jit(lambda t, f=f: f(t, axis=0, include_initial=True))(v)
        np.testing.assert_array_equal(
            np.asarray(init), np.concatenate([np.full((1, v.shape[1]), f is lx.cumulative_prod),
                                              g(np.asarray(v), axis=0)]).astype(want.dtype))
    assert "host_callback" in str(jax.make_jaxpr(lx.cumulative_sum)(a[0]))
    if dtype is np.float64:  # derivatives through lax.cumsum: d/dx_i sum(w * cumsum(x))
        w = np.arange(x.shape[1], dtype=np.float64)
        g_ = lx.grad(lambda t: lx.sum(lx.cumulative_sum(t) * lx.asarray(w)))(a[0])
        np.testing.assert_allclose(np.asarray(g_), np.cumsum(w[::-1])[::-1], rtol=1e-12)
