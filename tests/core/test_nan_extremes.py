"""NaN reaches every extreme-value reduction at every size (``kernel.reduce_extreme``).

XLA:CPU hands float reductions of 4096 elements and more to YNNPACK, whose max/min drop
NaN; small arrays are bucketed, so a (2, 17, 40) array already runs as 4096 elements.  Each
function is compared with NumPy (the oracle) on arrays across that line, with NaN at the
first, a middle and the last position and an infinity of each sign beside it, eagerly and
under ``jax.jit`` (where the kernel is inlined into a program laxarray compiles without its
own options).
"""

import numpy as np
import pytest

import jax

import laxarray as xp
import laxarray.sparse as sparse

SIZES = [1, 4095, 4096, 10**5]
FLOATS = [np.float16, np.float32, np.float64]
COMPLEX = [np.complex64, np.complex128]


def _data(n, dtype, pos, seed=0):
    """``n`` values of ``dtype`` with NaN at ``pos`` and -inf, +inf beside it."""
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(n).astype(dtype)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal(n).astype(dtype)
    if n > 2:
        a[(pos + 1) % n] = np.inf
        a[(pos - 1) % n] = -np.inf
    a[pos] = np.nan if np.dtype(dtype).kind == "f" else complex(np.nan, 1.0)
    return a


def _positions(n):
    return sorted({0, n // 2, n - 1})


def _same(got, want):
    got = np.asarray(got)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == np.shape(want)
    np.testing.assert_array_equal(got, want)  # NaN matches NaN, in the same places


# name -> (laxarray function, NumPy function)
REDUCTIONS = {
    "max": (xp.max, np.max),
    "min": (xp.min, np.min),
    "amax": (xp.amax, np.amax),
    "amin": (xp.amin, np.amin),
    "ptp": (xp.ptp, np.ptp),
    "argmax": (xp.argmax, np.argmax),
    "argmin": (xp.argmin, np.argmin),
    "maximum.reduce": (xp.maximum.reduce, np.maximum.reduce),
    "minimum.reduce": (xp.minimum.reduce, np.minimum.reduce),
}


@pytest.mark.parametrize("name", sorted(REDUCTIONS))
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("n", SIZES)
def test_reductions_keep_nan_across_the_threshold(name, dtype, n):
    ours, numpy = REDUCTIONS[name]
    jitted = jax.jit(ours)
    for pos in _positions(n):
        a = _data(n, dtype, pos)
        want = numpy(a)
        _same(ours(xp.asarray(a)), want)
        _same(jitted(xp.asarray(a)), want)


@pytest.mark.parametrize("name", ["max", "min", "argmax", "argmin"])
@pytest.mark.parametrize("dtype", COMPLEX)
@pytest.mark.parametrize("n", [4095, 4096, 10**5])
def test_complex_extremes_keep_nan(name, dtype, n):
    ours, numpy = REDUCTIONS[name]
    jitted = jax.jit(ours)
    for pos in _positions(n):
        a = _data(n, dtype, pos)
        _same(ours(xp.asarray(a)), numpy(a))
        _same(jitted(xp.asarray(a)), numpy(a))


@pytest.mark.parametrize("name", ["max", "min"])
def test_ten_million_elements(name):
    ours, numpy = REDUCTIONS[name]
    n = 10**7
    a = _data(n, np.float32, n - 1)
    _same(ours(xp.asarray(a)), numpy(a))
    _same(jax.jit(ours)(xp.asarray(a)), numpy(a))


@pytest.mark.parametrize("name", ["max", "min", "ptp", "argmax", "argmin"])
@pytest.mark.parametrize("axis", [0, 1, 2, -1, None])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_bucketed_shape_along_each_axis(name, axis, dtype):
    """(2, 17, 40) runs padded to (2, 32, 64): 4096 elements."""
    ours, numpy = REDUCTIONS[name]
    jitted = jax.jit(lambda z: ours(z, axis=axis))  # one program for the three positions
    for pos in [(0, 0, 0), (1, 8, 20), (1, 16, 39)]:
        a = np.random.default_rng(1).standard_normal((2, 17, 40)).astype(dtype)
        a[pos] = np.nan
        a[pos[0], pos[1], (pos[2] + 1) % 40] = np.inf
        want = numpy(a, axis=axis)
        _same(ours(xp.asarray(a), axis=axis), want)
        _same(jitted(xp.asarray(a)), want)


@pytest.mark.parametrize("axis", [0, 1])
def test_long_axes_of_a_matrix(axis):
    a = np.random.default_rng(2).standard_normal((3, 5000))
    a = a if axis == 1 else a.T.copy()
    a[(1, 2500) if axis == 1 else (2500, 1)] = np.nan
    for ours, numpy in (REDUCTIONS["max"], REDUCTIONS["min"], REDUCTIONS["ptp"]):
        _same(ours(xp.asarray(a), axis=axis), numpy(a, axis=axis))
        _same(jax.jit(lambda z: ours(z, axis=axis))(xp.asarray(a)), numpy(a, axis=axis))


@pytest.mark.parametrize("ord", [np.inf, -np.inf])
@pytest.mark.parametrize("n", [4096, 10**5])
def test_vector_norm_keeps_nan(ord, n):
    a = _data(n, np.float64, n // 2)
    want = np.linalg.norm(a, ord=ord)
    _same(xp.linalg.vector_norm(xp.asarray(a), ord=ord), want)
    _same(jax.jit(lambda z: xp.linalg.vector_norm(z, ord=ord))(xp.asarray(a)), want)


@pytest.mark.parametrize("ord", [1, -1, np.inf, -np.inf])
def test_matrix_norm_keeps_nan(ord):
    a = np.random.default_rng(3).standard_normal((80, 80))
    a[40, 7] = np.nan
    got = xp.linalg.matrix_norm(xp.asarray(a), ord=ord)
    assert np.isnan(float(got)) and np.isnan(np.linalg.norm(a, ord=ord))


@pytest.mark.parametrize("find_max", [True, False])
def test_sparse_extremes_keep_nan(find_max):
    d = np.zeros((3, 5000))
    d[1] = _data(5000, np.float64, 2500)
    mat = sparse.BCOO.fromdense(xp.asarray(d))
    got = mat.max(axis=1) if find_max else mat.min(axis=1)
    want = d.max(axis=1) if find_max else d.min(axis=1)
    _same(got.todense() if hasattr(got, "todense") else got, want)


def test_one_binding_serves_small_and_large_inputs():
    """The kernel's binding switches its options once it sees a NaN-exact reduction; a
    program compiled before that (one element: no reduction) must not be reused wrongly."""
    for n in (1, 5000, 1, 70000):
        a = _data(n, np.float64, n - 1)
        _same(xp.max(xp.asarray(a)), np.max(a))
        _same(jax.jit(xp.max)(xp.asarray(a)), np.max(a))
