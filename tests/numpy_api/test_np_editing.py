"""The editing family of the NumPy surface: jit equals eager, size= under jit, bad input,
and the edge cases the conformance specs do not draw (oracle: NumPy)."""

import jax
import numpy as np
import pytest

import laxarray as lx

A = np.arange(12, dtype=np.int64).reshape(3, 4)
B = np.arange(24, dtype=np.float64).reshape(2, 3, 4) - 7.5


def same(got, expected):
    got, expected = np.asarray(got), np.asarray(expected)
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    np.testing.assert_array_equal(got, expected)


# ---- jit equals eager (static output shapes) ---------------------------------------------------
JIT_CASES = [
    ("pad constant", lambda x: lx.pad(x, ((1, 2), (0, 3)), constant_values=((1, 2), (3, 4))),
     lambda x: np.pad(x, ((1, 2), (0, 3)), constant_values=((1, 2), (3, 4)))),
    ("pad reflect odd", lambda x: lx.pad(x, 9, mode="reflect", reflect_type="odd"),
     lambda x: np.pad(x, 9, mode="reflect", reflect_type="odd")),
    ("pad symmetric", lambda x: lx.pad(x, (5, 1), mode="symmetric"),
     lambda x: np.pad(x, (5, 1), mode="symmetric")),
    ("pad wrap", lambda x: lx.pad(x, 7, mode="wrap"), lambda x: np.pad(x, 7, mode="wrap")),
    ("pad median", lambda x: lx.pad(x, 2, mode="median", stat_length=2),
     lambda x: np.pad(x, 2, mode="median", stat_length=2)),
    ("pad ramp", lambda x: lx.pad(x, 3, mode="linear_ramp", end_values=(-4, 9)),
     lambda x: np.pad(x, 3, mode="linear_ramp", end_values=(-4, 9))),
    ("append", lambda x: lx.append(x, x, axis=1), lambda x: np.append(x, x, axis=1)),
    ("resize", lambda x: lx.resize(x, (5, 5)), lambda x: np.resize(x, (5, 5))),
    ("rot90", lambda x: lx.rot90(x, 3, (1, 0)), lambda x: np.rot90(x, 3, (1, 0))),
    ("fliplr", lx.fliplr, np.fliplr),
    ("flipud", lx.flipud, np.flipud),
    ("select", lambda x: lx.select([x < 3, x > 8], [x, -x], 5),
     lambda x: np.select([x < 3, x > 8], [x, -x], 5)),
    ("choose wrap", lambda x: lx.choose(x % 4 - 1, [x, -x, x * 2], mode="wrap"),
     lambda x: np.choose(x % 4 - 1, [x, -x, x * 2], mode="wrap")),
    ("piecewise", lambda x: lx.piecewise(x, [x < 3, x > 8], [lambda v: -v, 7, 1]),
     lambda x: np.piecewise(x, [x < 3, x > 8], [lambda v: -v, 7, 1])),
    ("apply_along_axis", lambda x: lx.apply_along_axis(lambda v: v[1:] - v[:-1], 1, x),
     lambda x: np.apply_along_axis(lambda v: v[1:] - v[:-1], 1, x)),
    ("vectorize", lambda x: lx.vectorize(lambda u: lx.sum(u * u), signature="(n)->()")(x),
     lambda x: np.sum(x * x, axis=-1)),
]


@pytest.mark.parametrize("name,ours,oracle", JIT_CASES, ids=[c[0] for c in JIT_CASES])
def test_jit_equals_eager_and_numpy(name, ours, oracle):
    x = lx.asarray(A)
    eager = ours(x)
    same(eager, oracle(A))
    same(jax.jit(ours)(x), eager)


def test_traced_index_arguments():
    x = lx.asarray(A)
    ins = jax.jit(lambda v, i: lx.insert(v, i, [[5], [6], [7]], axis=1))(x, lx.asarray([0, 4]))
    same(ins, np.insert(A, [0, 4], [[5], [6], [7]], axis=1))
    dele = jax.jit(lambda v, i: lx.delete(v, i, axis=1, assume_unique_indices=True))(
        x, lx.asarray([3, 0]))
    same(dele, np.delete(A, [3, 0], axis=1))
    cv = jax.jit(lambda v, c: lx.pad(v, 1, constant_values=c))(x, lx.asarray(-9))
    same(cv, np.pad(A, 1, constant_values=-9))
    mask = A % 3 == 0
    placed = jax.jit(lambda v, m: lx.place(v, m, [-1, -2], inplace=False))(x, lx.asarray(mask))
    expected = A.copy()
    np.place(expected, mask, [-1, -2])
    same(placed, expected)


def test_put_functions_under_jit_and_input_unchanged():
    x = lx.asarray(A)
    put = jax.jit(lambda v, i: lx.put(v, i, [7, 8, 9], inplace=False))(x, lx.asarray([1, 1, -1]))
    expected = A.copy()
    np.put(expected, [1, 1, -1], [7, 8, 9])  # repeated index: the last value wins
    same(put, expected)
    idx = np.array([[3], [0], [1]])
    pua = jax.jit(lambda v, i: lx.put_along_axis(v, i, 0, axis=1, inplace=False))(
        x, lx.asarray(idx))
    expected = A.copy()
    np.put_along_axis(expected, idx, 0, axis=1)
    same(pua, expected)
    same(x, A)  # the inputs are values: nothing was written into them


# ---- size= under jit (data-dependent lengths) --------------------------------------------------
X = np.array([3.0, np.nan, 1.0, 3.0, np.nan, -0.0, 0.0, 7.0])
Y = np.array([7.0, 2.0, 3.0, 3.0])


def test_unique_size_under_jit_matches_numpy_then_pads():
    values, index, inverse, counts = np.unique(X, return_index=True, return_inverse=True,
                                               return_counts=True)
    k = values.size
    f = jax.jit(lambda v: lx.unique(v, return_index=True, return_inverse=True,
                                    return_counts=True, size=k + 2, fill_value=-1.0))
    got = [np.asarray(a) for a in f(lx.asarray(X))]
    np.testing.assert_array_equal(got[0], np.concatenate([values, [-1.0, -1.0]]))
    np.testing.assert_array_equal(got[1], np.concatenate([index, [0, 0]]))
    np.testing.assert_array_equal(got[2], inverse)
    np.testing.assert_array_equal(got[3], np.concatenate([counts, [0, 0]]))
    # a smaller size keeps the first entries; the default fill is the smallest value
    short = jax.jit(lambda v: lx.unique(v, size=2))(lx.asarray(X))
    np.testing.assert_array_equal(np.asarray(short), values[:2])
    pad = jax.jit(lambda v: lx.unique(v, size=k + 1))(lx.asarray(X))
    np.testing.assert_array_equal(np.asarray(pad), np.concatenate([values, values[:1]]))


def test_unique_nan_handling_and_axis():
    same(lx.unique(X, equal_nan=False), np.unique(X, equal_nan=False))
    same(lx.unique(X), np.unique(X))
    m = np.array([[1, 0, 1], [2, 5, 2], [1, 0, 1]])
    for axis in (0, 1, -1):
        for got, exp in zip(lx.unique(m, True, True, True, axis=axis),
                            np.unique(m, True, True, True, axis=axis)):
            same(got, exp)
    got = jax.jit(lambda v: lx.unique(v, axis=1, return_counts=True, size=3, fill_value=9))(
        lx.asarray(m))
    exp = np.unique(m, axis=1, return_counts=True)
    np.testing.assert_array_equal(np.asarray(got[0])[:, :2], exp[0])
    np.testing.assert_array_equal(np.asarray(got[0])[:, 2], [9, 9, 9])
    np.testing.assert_array_equal(np.asarray(got[1]), [*exp[1], 0])


@pytest.mark.parametrize("dtype", ["complex64", "complex128", "float32"])
@pytest.mark.parametrize("shape", [(0,), (0, 3)])
def test_unique_of_an_empty_array_as_numpy(dtype, shape):
    # complex values take the lax body eagerly (no host sort for them)
    x = np.zeros(shape, dtype)
    got = lx.unique(lx.asarray(x), return_index=True, return_counts=True)
    want = np.unique(x, return_index=True, return_counts=True)
    for g, w in zip(got, want):
        assert g.shape == w.shape and g.dtype == w.dtype


@pytest.mark.parametrize("name", ["union1d", "intersect1d", "setdiff1d", "setxor1d"])
def test_set_routines_size_under_jit(name):
    expected = getattr(np, name)(X, Y)
    size = expected.size + 2
    got = np.asarray(jax.jit(lambda a, b: getattr(lx, name)(a, b, size=size, fill_value=42.0))(
        lx.asarray(X), lx.asarray(Y)))
    np.testing.assert_array_equal(got, np.concatenate([expected, [42.0, 42.0]]))


def test_intersect1d_indices_under_jit():
    e_vals, e1, e2 = np.intersect1d(X, Y, return_indices=True)
    k = e_vals.size
    got = jax.jit(lambda a, b: lx.intersect1d(a, b, return_indices=True, size=k))(
        lx.asarray(X), lx.asarray(Y))
    for g, e in zip(got, (e_vals, e1, e2)):
        np.testing.assert_array_equal(np.asarray(g), e)


def test_extract_and_compress_size_under_jit():
    cond = A % 5 == 1
    got = jax.jit(lambda c, a: lx.extract(c, a, size=5, fill_value=-1))(lx.asarray(cond),
                                                                        lx.asarray(A))
    exp = np.extract(cond, A)
    np.testing.assert_array_equal(np.asarray(got), np.concatenate([exp, [-1] * (5 - exp.size)]))
    c = np.array([False, True, True])
    got = jax.jit(lambda c, a: lx.compress(c, a, axis=0, size=3))(lx.asarray(c), lx.asarray(A))
    np.testing.assert_array_equal(np.asarray(got), np.concatenate(
        [np.compress(c, A, axis=0), np.zeros((1, 4), A.dtype)]))


# ---- edge cases ---------------------------------------------------------------------------------
def test_insert_numpy_value_rules():
    same(lx.insert(A, 1, [7, 8, 9], axis=1), np.insert(A, 1, [7, 8, 9], axis=1))
    same(lx.insert(A, [1], [[7], [8], [9]], axis=1), np.insert(A, [1], [[7], [8], [9]], axis=1))
    same(lx.insert(A, slice(None), 0, axis=0), np.insert(A, slice(None), 0, axis=0))
    same(lx.insert(A, 2, 1.9), np.insert(A, 2, 1.9))  # cast to arr's dtype
    same(lx.insert(A, np.array([True, False, True]), -1, axis=0),
         np.insert(A, np.array([True, False, True]), -1, axis=0))


def test_vectorize_excluded_otypes_and_multiple_outputs():
    f = lx.vectorize(lambda a, p: a ** p, excluded={1})
    same(f(lx.asarray([1.0, 2.0]), 3), np.array([1.0, 8.0]))
    g = lx.vectorize(lambda a: (a + 1, a * 2), otypes=[np.float32, np.int64])
    plus, times = g(lx.asarray(A))
    same(plus, (A + 1).astype(np.float32))
    same(times, A * 2)
    h = lx.vectorize(lambda m, v: m @ v, signature="(n,n),(n)->(n)")
    mats = np.arange(18.0).reshape(2, 3, 3)
    same(h(mats, np.ones(3)), np.vectorize(lambda m, v: m @ v, signature="(n,n),(n)->(n)")(
        mats, np.ones(3)))


def test_trim_zeros_eager():
    v = np.array([0, 0, 3, 0, 1, 0])
    for trim in ("f", "b", "fb"):
        same(lx.trim_zeros(v, trim), np.trim_zeros(v, trim))
    same(lx.trim_zeros(np.zeros(3)), np.trim_zeros(np.zeros(3)))


# ---- bad input -----------------------------------------------------------------------------------
def _traced(fn):
    return lambda: jax.jit(fn)(lx.asarray(A))


BAD = [
    ("pad", ValueError, lambda: lx.pad(A, 1, mode="nope")),
    ("pad", ValueError, lambda: lx.pad(A, 1, mode="edge", constant_values=1)),
    ("pad", ValueError, lambda: lx.pad(A, -1)),
    ("pad", TypeError, lambda: lx.pad(A, 1.5)),
    ("pad", ValueError, lambda: lx.pad(A, ((1, 2), (3, 4), (5, 6)))),
    ("pad", ValueError, lambda: lx.pad(np.zeros((0, 2)), 1, mode="edge")),
    ("pad", ValueError, lambda: lx.pad(A, 1, mode="maximum", stat_length=0)),
    ("pad", ValueError, lambda: lx.pad(A, 1, mode="reflect", reflect_type="sideways")),
    ("insert", IndexError, lambda: lx.insert(A, 13, 0)),
    ("insert", ValueError, lambda: lx.insert(A, [[1]], 0, axis=0)),
    ("insert", ValueError, lambda: lx.insert(A, 1, [1, 2], axis=0)),
    ("delete", IndexError, lambda: lx.delete(A, 4, axis=1)),
    ("delete", ValueError, lambda: lx.delete(A, np.array([True]), axis=1)),
    ("delete", ValueError, _traced(lambda x: lx.delete(x, x[0, :2], axis=1))),
    ("append", ValueError, lambda: lx.append(A, [1, 2], axis=0)),
    ("resize", ValueError, lambda: lx.resize(A, (-1, 2))),
    ("rot90", ValueError, lambda: lx.rot90(A, axes=(1, 1))),
    ("rot90", ValueError, lambda: lx.rot90(np.arange(3))),
    ("rot90", TypeError, lambda: lx.rot90(A, k=1.5)),
    ("fliplr", ValueError, lambda: lx.fliplr(np.arange(3))),
    ("flipud", ValueError, lambda: lx.flipud(np.float64(1))),
    ("trim_zeros", ValueError, lambda: lx.trim_zeros(np.arange(3), "x")),
    ("trim_zeros", ValueError, _traced(lambda x: lx.trim_zeros(x[0]))),
    ("unique", ValueError, _traced(lambda x: lx.unique(x))),
    ("unique", TypeError, lambda: lx.unique(A, return_counts=1)),
    ("unique", ValueError, lambda: lx.unique(A, fill_value=0)),
    ("union1d", ValueError, _traced(lambda x: lx.union1d(x, x))),
    ("setdiff1d", ValueError, _traced(lambda x: lx.setdiff1d(x, x))),
    ("apply_along_axis", TypeError, lambda: lx.apply_along_axis(3, 0, A)),
    ("apply_over_axes", ValueError, lambda: lx.apply_over_axes(
        lambda v, ax: lx.sum(v), A, [0])),
    ("vectorize", ValueError, lambda: lx.vectorize(abs, signature="(n)->")),
    ("vectorize", TypeError, lambda: lx.vectorize(3)),
    ("select", TypeError, lambda: lx.select([A], [A])),
    ("select", ValueError, lambda: lx.select([A > 1], [A, A])),
    ("select", ValueError, lambda: lx.select([], [])),
    ("choose", ValueError, lambda: lx.choose(np.array([0, 3]), [A[0, :2], A[1, :2]])),
    ("choose", ValueError, lambda: lx.choose(np.array([0]), [A], mode="bad")),
    ("choose", TypeError, lambda: lx.choose(np.array([0.5]), [A])),
    ("piecewise", ValueError, lambda: lx.piecewise(A, [A > 1], [1, 2, 3])),
    ("place", ValueError, lambda: lx.place(jax.device_put(A), A > 1, [1])),  # immutable
    ("place", ValueError, lambda: lx.place(A, A > 1, [], inplace=False)),
    ("place", ValueError, lambda: lx.place(A, np.ones(3, bool), [1], inplace=False)),
    ("put", ValueError, lambda: lx.put(jax.device_put(A), [0], [1])),
    ("put", IndexError, lambda: lx.put(A, [12], [1], inplace=False)),
    ("put", ValueError, lambda: lx.put(A, [0], [1], mode="nope", inplace=False)),
    ("put_along_axis", TypeError, lambda: lx.put_along_axis(
        A, np.zeros((3, 1)), 1, axis=1, inplace=False)),
    ("put_along_axis", IndexError, lambda: lx.put_along_axis(
        A, np.full((3, 1), 4), 1, axis=1, inplace=False)),
    ("put_along_axis", ValueError, lambda: lx.put_along_axis(
        jax.device_put(A), np.zeros((3, 1), int), 1, 1)),
    ("putmask", ValueError, lambda: lx.putmask(jax.device_put(A), A > 1, 1)),
    ("putmask", ValueError, lambda: lx.putmask(lx.asarray(A), np.ones(3, bool), 1)),
    ("copyto", TypeError, lambda: lx.copyto(lx.asarray(A), np.ones(4))),  # float -> int
    ("copyto", ValueError, lambda: lx.copyto(lx.asarray(A), np.ones(5, np.int64))),
    ("copyto", ValueError, lambda: lx.copyto(lx.asarray(A), 1, casting="nope")),
    ("extract", ValueError, _traced(lambda x: lx.extract(x > 1, x))),
    ("extract", IndexError, lambda: lx.extract(np.ones(13, bool), A)),
    ("compress", ValueError, lambda: lx.compress(A > 1, A)),
    ("compress", IndexError, lambda: lx.compress([0, 0, 0, 1], A, axis=0)),
]


@pytest.mark.parametrize("name,exc,call", BAD, ids=[f"{b[0]}-{i}" for i, b in enumerate(BAD)])
def test_bad_input_names_the_function(name, exc, call):
    with pytest.raises(exc, match=rf"^{name}: "):
        call()


@pytest.mark.parametrize("name", ["place", "put", "put_along_axis", "putmask", "copyto",
                                  "fill_diagonal"])
def test_in_place_functions_update_arrays_and_views_as_numpy(name):
    """NumPy's in-place functions change their first argument (a laxarray Array, a view of
    one -- then its base too --, or a NumPy array) and return None."""
    calls = {
        "place": lambda a, m: (lx if m else np).place(a, a > 4, [-1, -2]),
        "put": lambda a, m: (lx if m else np).put(a, [0, 5, -1], [7, 8, 9]),
        "put_along_axis": lambda a, m: (lx if m else np).put_along_axis(
            a, np.array([[1], [0], [3]]), -5, axis=1),
        "putmask": lambda a, m: (lx if m else np).putmask(a, a % 3 == 0, [10, 20]),
        "copyto": lambda a, m: (lx if m else np).copyto(a, np.array([1, 2, 3, 4]),
                                                        where=np.array([True, False, True,
                                                                        False])),
        "fill_diagonal": lambda a, m: (lx if m else np).fill_diagonal(a, [6, 7]),
    }
    expected = A.copy()
    assert calls[name](expected, False) is None
    got = lx.asarray(A)
    assert calls[name](got, True) is None
    np.testing.assert_array_equal(np.asarray(got), expected)
    base = lx.asarray(np.arange(24, dtype=np.int64).reshape(2, 3, 4))
    view = base[1]                                   # a view: writes reach the base
    assert calls[name](view, True) is None
    whole = np.arange(24, dtype=np.int64).reshape(2, 3, 4)
    calls[name](whole[1], False)
    np.testing.assert_array_equal(np.asarray(base), whole)
    host = A.copy()
    assert calls[name](host, True) is None          # a NumPy array is written into
    np.testing.assert_array_equal(host, expected)




def test_ix_of_float_arrays_returns_them_as_numpy():
    # NumPy's ix_ checks only rank and bool (it raises no IndexError for floats: indexing
    # with the result does); laxarray returns the same open mesh
    want = np.ix_(np.asarray([1.0, 2.0]), np.asarray([0.5]))
    got = lx.ix_(lx.asarray([1.0, 2.0]), lx.asarray([0.5]))
    for g, w in zip(got, want):
        assert g.shape == w.shape and g.dtype == w.dtype
        np.testing.assert_array_equal(np.asarray(g), w)
    with pytest.raises(IndexError):
        np.arange(6.0).reshape(2, 3)[want]
