"""Advanced indexing (integer arrays, boolean masks), the tracing rule and ``x.at[...]``.

Oracle: NumPy (``x[key]``, ``x[key] = v``, ``np.add.at`` ...).  The property spec over
drawn keys lives in ``laxarray.conformance.specs_indexing``; these are the cases it cannot
draw: traced indices, checkify, the out-of-range modes, gradients and errors.
"""

import jax
import numpy as np
import pytest
from hypothesis import given, strategies as st

import laxarray as xp
from laxarray import checkify as ck
from laxarray.conformance.specs_indexing import index_keys

A = np.arange(24.0).reshape(2, 3, 4)


def same(actual, expected):
    got = np.asarray(actual)
    expected = np.asarray(expected)
    assert got.dtype == expected.dtype and got.shape == expected.shape, (got, expected)
    np.testing.assert_array_equal(got, expected)


KEYS = [
    ([0, 1],), (slice(None), [0, 2]), ([0, 1], slice(None), [1, 2]),     # separated: B first
    (0, slice(None), [1, 2]), (slice(None), [[0], [2]], [1, -1]),         # adjacent: in place
    (A > 5,), (slice(None), A[0] > 5), (Ellipsis, A[0, 0] > 1), (None, [1], Ellipsis, [-1]),
    (True,), (False,), (slice(None), True, [0, 1]), (np.array(1), [0, 1]),
    (slice(None, None, -1), [2, 0]), ([],), (slice(1, None, 2), slice(None, None, -2), [3, -4]),
    ([[0, 1], [1, 0]], [[2], [0]], slice(1, 3)), (1, A[0] > 3),
]


@pytest.mark.parametrize("key", KEYS, ids=[str(i) for i in range(len(KEYS))])
def test_getitem_and_setitem_match_numpy(key):
    x = xp.asarray(A)
    expected = A[key]
    same(x[key], expected)
    same(x[tuple(xp.asarray(k) if isinstance(k, np.ndarray) else k for k in key)], expected)
    value = -1.0 - np.arange(expected.size).reshape(expected.shape)
    for v in (value, 7.0, value[:1] if value.ndim else value):
        want = A.copy()
        want[key] = v
        y = xp.asarray(A)
        y[key] = xp.asarray(v) if isinstance(v, np.ndarray) else v
        same(y, want)
    same(x, A)


@given(data=st.data())
def test_jit_getitem_with_traced_integer_arrays_matches_numpy(data):
    shape = data.draw(st.sampled_from([(3,), (2, 3), (2, 3, 4)]), label="shape")
    a = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    key = data.draw(index_keys(shape), label="key")
    key = key if isinstance(key, tuple) else (key,)
    if any(isinstance(k, np.ndarray) and k.dtype == bool for k in key):
        return                                   # masks: see the size= tests
    arrays = [i for i, k in enumerate(key) if isinstance(k, np.ndarray)]
    try:
        expected = a[key]
    except IndexError:
        return

    def f(x, *idx):
        k = list(key)
        for i, v in zip(arrays, idx):
            k[i] = v
        return x[tuple(k)]
    got = jax.jit(f)(xp.asarray(a), *[xp.asarray(key[i]) for i in arrays])
    same(got, expected)


def test_traced_out_of_range_rule_wraps_negatives_once_then_clamps_get_drops_set():
    x = xp.asarray(np.arange(5.0))
    get = jax.jit(lambda x, i: x[i])
    assert float(get(x, xp.asarray(-1))) == 4.0       # wrapped
    assert float(get(x, xp.asarray(7))) == 4.0        # clamped
    assert float(get(x, xp.asarray(-9))) == 0.0       # wrapped once to -4, then clamped

    def put(x, i):
        x = x + 0.0
        x[i] = -1.0
        return x
    same(jax.jit(put)(x, xp.asarray([1, 9, -9])), [0.0, -1.0, 2.0, 3.0, 4.0])  # dropped
    same(x, np.arange(5.0))


def test_eager_out_of_range_integer_arrays_raise_index_error():
    x = xp.asarray(A)
    for key in ([2], (0, [3]), (slice(None), [0, -4]), xp.asarray([5]), (0, 0, [4])):
        with pytest.raises(IndexError, match="__getitem__"):
            x[key]
        with pytest.raises(IndexError, match="__setitem__"):
            x[key] = 0.0
    same(x, A)


def test_checkify_index_checks_reports_out_of_range_traced_indices():
    x = xp.asarray(np.arange(5.0))
    err, _ = ck.checkify(lambda x, i: x[i], errors=ck.index_checks)(x, xp.asarray(7))
    assert err.get().startswith("out-of-bounds index 7 for axis 0 with size 5 in primitive "
                                "gather")
    err, _ = ck.checkify(lambda x, i: x[i], errors=ck.index_checks)(x, xp.asarray([-2, 1]))
    assert err.get() is None                           # negatives are in range after wrapping

    def put(x, i):
        x = x + 0.0
        x[i] = 1.0
        return x
    err, _ = ck.checkify(put, errors=ck.index_checks)(x, xp.asarray([1, 9]))
    assert err.get().startswith("out-of-bounds index 9 for axis 0 with size 5 in primitive "
                                "scatter")
    err, _ = ck.checkify(lambda x, i: x.at[i].add(1.0), errors=ck.index_checks)(
        x, xp.asarray([-6]))
    assert err.get().startswith("out-of-bounds index -1 for axis 0")
    # clip / fill / drop are out-of-range behaviour by design: not reported
    for mode in ("clip", "fill", "drop"):
        err, _ = ck.checkify(lambda x, i: x.at[i].get(mode=mode), errors=ck.index_checks)(
            x, xp.asarray(7))
        assert err.get() is None


def test_boolean_mask_get_under_jit_needs_size():
    x = xp.asarray(A)
    mask = xp.asarray(A % 3 == 0)
    with pytest.raises(ValueError, match=r"__getitem__.*size="):
        jax.jit(lambda x, m: x[m])(x, mask)
    got = jax.jit(lambda x, m: x.at[m].get(size=10, fill_value=-1.0))(x, mask)
    same(got, np.concatenate([A[A % 3 == 0], [-1.0, -1.0]]))
    got = jax.jit(lambda x, m: x.at[m].get(size=3))(x, mask)
    same(got, A[A % 3 == 0][:3])
    m2 = xp.asarray(A[0] > 6)
    got = jax.jit(lambda x, m: x.at[:, m].get(size=6, fill_value=0.0))(x, m2)
    want = np.zeros((2, 6))
    want[:, :5] = A[:, A[0] > 6]
    same(got, want)


@pytest.mark.parametrize("key_fn,vshape", [
    (lambda m: m, ()), (lambda m: (m,), (12,)), (lambda m: (1, m[0]), ()),
    (lambda m: (1, m[0]), (6,)), (lambda m: (slice(None), m[0]), (2, 6)),
    (lambda m: (slice(None), m[0], None), (1, 1)), (lambda m: (m[:, :, 0], Ellipsis, 2), (1,)),
])
def test_boolean_mask_set_under_jit_matches_numpy(key_fn, vshape):
    mask = np.zeros((2, 3, 4), bool)
    mask.flat[::2] = True
    value = 100.0 + np.arange(int(np.prod(vshape))).reshape(vshape)
    want = A.copy()
    want[key_fn(mask)] = value

    def f(x, m, v):
        x = x + 0.0
        x[key_fn(m)] = v
        return x
    same(jax.jit(f)(xp.asarray(A), xp.asarray(mask), xp.asarray(value)), want)
    same(f(xp.asarray(A), xp.asarray(mask), xp.asarray(value)), want)


def test_traced_zero_d_bool_and_index():
    x = xp.asarray(A)

    def f(x, b, v):
        x = x + v
        x[b] = v
        return x
    zero = xp.asarray(0.0)
    same(jax.jit(f)(x, xp.asarray(True), zero), np.zeros_like(A))
    same(jax.jit(f)(x, xp.asarray(False), zero), A)
    same(jax.jit(lambda x, i: x[i, :, 1])(x, xp.asarray(-1)), A[-1, :, 1])


def test_setitem_value_casting_rule_and_no_change_on_error():
    x = xp.asarray(np.arange(4, dtype=np.float32))
    with pytest.raises(TypeError, match="__setitem__"):
        x[[0, 1]] = xp.asarray(np.array([1j, 2.0]))          # complex -> float32: no
    with pytest.raises(ValueError, match="__setitem__"):
        x[[0, 1]] = xp.asarray(np.ones(3, np.float32))
    same(x, np.arange(4, dtype=np.float32))
    wide = np.array([1.1, 2.2])                                # float64 -> float32: cast,
    x[[0, 1]] = xp.asarray(wide)                               # as NumPy casts
    x[2:] = xp.asarray(np.array([3, 4], dtype=np.int64))       # int64 -> float32 too
    expected = np.arange(4, dtype=np.float32)
    expected[[0, 1]] = wide
    expected[2:] = np.array([3, 4], dtype=np.int64)
    same(x, expected)
    x = xp.asarray(np.arange(4, dtype=np.float32))
    x[[0, 1]] = xp.asarray(np.array([7, 8], dtype=np.int8))  # int8 promotes to float32
    x[x > 2.5] = 1                                             # Python scalars are weak
    x[[3]] = [2.5]                                             # so are lists of them
    same(x, np.array([1.0, 1.0, 2.0, 2.5], np.float32))
    i = xp.asarray(np.arange(3, dtype=np.int16))
    i[[0]] = xp.asarray(np.array([5], np.uint8))              # uint8 -> int16 promotes
    same(i, np.array([5, 1, 2], np.int16))
    with pytest.raises(TypeError, match="__setitem__"):
        i[[0]] = [1.5]
    with pytest.raises(TypeError, match="__setitem__"):
        i[:1] = xp.asarray(np.array([1.5]))                   # float -> int16: no
    same(i, np.array([5, 1, 2], np.int16))
    i[1] = np.float64(7.9)                                     # a NumPy scalar is weak
    same(i, np.array([5, 7, 2], np.int16))


UFUNCS = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply,
          "min": np.minimum, "max": np.maximum}


@pytest.mark.parametrize("op", sorted(UFUNCS))
def test_at_updates_accumulate_repeated_indices_like_ufunc_at(op):
    a = np.arange(1.0, 13.0).reshape(3, 4)
    idx = ([0, 2, 0, 0], slice(1, 3))
    value = np.arange(8.0).reshape(4, 2) - 3.0
    want = a.copy()
    UFUNCS[op].at(want, idx, value)
    x = xp.asarray(a)
    same(getattr(x.at[[0, 2, 0, 0], 1:3], op)(xp.asarray(value)), want)
    same(x, a)                                                 # x itself is unchanged


def test_at_set_divide_power_get_and_basic_keys():
    a = np.arange(1.0, 7.0)
    x = xp.asarray(a)
    same(x.at[[1, 3]].set(0.0), np.array([1.0, 0, 3, 0, 5, 6]))
    same(x.at[[1, 3]].divide(2.0), np.array([1.0, 1, 3, 2, 5, 6]))
    same(x.at[[1, 3]].power(2), np.array([1.0, 4, 3, 16, 5, 6]))
    same(x.at[1:3].add(1.0), np.array([1.0, 3, 4, 4, 5, 6]))
    same(x.at[::-2].multiply(10.0), np.array([1.0, 20, 3, 40, 5, 60]))
    same(x.at[x > 3].subtract(1.0), np.array([1.0, 2, 3, 3, 4, 5]))
    same(x.at[[4, 0]].get(), a[[4, 0]])
    same(x.at[2].get(), a[2])
    same(x, a)


def test_at_modes():
    x = xp.asarray(np.arange(5.0))
    with pytest.raises(IndexError, match="at.get"):
        x.at[[7]].get()
    same(x.at[[7, -1]].get(mode="clip"), [4.0, 4.0])
    same(x.at[[7, 1]].get(mode="fill"), [np.nan, 1.0])
    same(x.at[7].get(mode="fill", fill_value=-3), np.float64(-3.0))
    same(x.at[[-6, 1]].get(mode="drop", fill_value=9.0), [9.0, 1.0])
    same(x.at[[7, 1]].set(-1.0, mode="drop"), [0.0, -1.0, 2.0, 3.0, 4.0])
    same(x.at[[7, 1]].set(-1.0, mode="clip"), [0.0, -1.0, 2.0, 3.0, -1.0])
    same(x.at[[1, 2]].add(1.0, indices_are_sorted=True, unique_indices=True,
                          mode="promise_in_bounds"), [0.0, 2.0, 3.0, 3.0, 4.0])
    i = xp.asarray(np.arange(3, dtype=np.int32))
    same(i.at[[5]].get(mode="fill"), np.array([np.iinfo(np.int32).min], np.int32))
    with pytest.raises(ValueError, match="Array.at.set"):
        x.at[0].set(1.0, mode="wrap")
    with pytest.raises(TypeError, match="Array.at.divide"):
        i.at[0].divide(2)
    with pytest.raises(TypeError, match="Array.at.add"):
        x.at[0].add(1.0, unique_indices=1)


def test_grad_and_vmap_through_advanced_indexing():
    a = np.arange(6.0)
    idx = np.array([0, 2, 2, 5])
    g = xp.grad(lambda x: xp.sum(x[xp.asarray(idx)] ** 2))(xp.asarray(a))
    want = np.zeros(6)
    np.add.at(want, idx, 2 * a[idx])
    same(g, want)
    rows = np.array([[0, 1], [1, 0], [1, 1]])
    same(jax.vmap(lambda i: xp.asarray(A)[i, :, i])(xp.asarray(rows)),
         np.stack([A[r, :, r] for r in rows]))
