"""Writes through views run one kernel, and keep NumPy's semantics.

``view[key] = value`` on a view writes through to the view's root in one program
(``_views.update_view``): the root, every other view of it and the written view itself
must then read as NumPy's arrays do after the same writes; the value's checks and errors
are ``__setitem__``'s.  Basic keys pass their index params as device arrays
(``_index_plan.placed_params``): repeated keys, several placements and traced calls must
give NumPy's values.
"""

import jax
import numpy as np
import pytest

import laxarray as xp
from laxarray._core.runtime.executables import spy
from laxarray.array_api._views import root_of


def _same(got, want):
    got = np.asarray(got)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


def _views_of(base):
    """The same chain of views of ``base`` (a NumPy array or an Array): a block of a
    transposed reshape, and a row of that block."""
    block = base.reshape((2, 3, 4)) if isinstance(base, np.ndarray) else xp.reshape(
        base, (2, 3, 4))
    block = block[1, :, ::-1]                 # (3, 4), negative step
    t = block.T                               # (4, 3)
    row = t[2, :]                             # (3,)
    return block, t, row


@pytest.mark.parametrize("value", [7.5, 3, "array0d", "array", "list"])
def test_a_write_through_a_view_is_one_kernel_and_coherent(value):
    n = np.arange(24.0)
    a = xp.asarray(n)
    nviews, views = _views_of(n), _views_of(a)
    src = np.array([10.0, 20.0, 30.0, 40.0])
    for i, (nv, v) in enumerate(zip(nviews, views)):
        key = (slice(None, 2),) if nv.ndim == 1 else (1, slice(None))
        width = nv[key].shape
        if value == "array0d":
            w, nw = xp.asarray(src)[i % 3], src[i % 3]
        elif value == "array":
            w, nw = xp.asarray(src[:width[-1]] + i), src[:width[-1]] + i
        elif value == "list":
            w = nw = [float(k + i) for k in range(width[-1])]
        else:
            w = nw = value + i
        if value == "array0d":
            w.block_until_ready()             # its own kernel ran before the spy opens
        with spy() as ran:
            v[key] = w
        assert len(ran) == 1, ran
        nv[key] = nw
        _same(a, n)
        for nother, other in zip(nviews, views):
            _same(other, nother)
            assert root_of(other) is a


def test_sklearn_diagonal_loop_on_a_view():
    """scikit-learn's ``_add_to_diagonal`` (array-API branch) on ``cov[k, :, :]``."""
    rng = np.random.default_rng(0)
    n = rng.standard_normal((2, 5, 5))
    cov = xp.asarray(n)
    for k in range(2):
        block, nblock = cov[k, :, :], n[k]
        d, nd = xp.linalg.diagonal(block) + 0.25, np.diagonal(nblock) + 0.25
        for i in range(5):
            block[i, i] = d[i]
            nblock[i, i] = nd[i]
        _same(block, nblock)
    _same(cov, n)


def test_write_casts_as_numpy_into_an_integer_view():
    n = np.arange(10)
    a = xp.asarray(n)
    v, nv = a[2:8:2], n[2:8:2]
    v[1] = 3.7                                # a float into integers truncates (NumPy)
    nv[1] = 3.7
    v[::-1] = xp.asarray([1, 2, 3], dtype=xp.int32)   # int32 promotes to int64
    nv[::-1] = np.array([1, 2, 3], np.int32)
    _same(a, n)
    _same(v, nv)


def test_errors_leave_the_root_and_views_unchanged():
    n = np.arange(12.0).reshape(3, 4)
    a = xp.asarray(n)
    v = a[1:, ::2]
    other = a[:, 1]
    with pytest.raises(TypeError):
        v[0, 0] = 1j
    with pytest.raises(ValueError):
        v[0] = xp.asarray([1.0, 2.0, 3.0])
    with pytest.raises(IndexError):
        v[5, 0] = 1.0
    with pytest.raises(TypeError):
        v[0, 0] = xp.asarray(1j)
    _same(a, n)
    _same(v, n[1:, ::2])
    _same(other, n[:, 1])
    d = xp.linalg.diagonal(a)
    with pytest.raises(ValueError, match="read-only"):
        d[0] = 1.0
    _same(a, n)


def test_error_messages_match_those_of_a_plain_array():
    a = xp.asarray(np.zeros((3, 4)))
    plain = xp.asarray(np.zeros(4))
    view = a[1]
    for value, exc in [(1j, TypeError), (xp.asarray([1.0, 2.0]), ValueError)]:
        with pytest.raises(exc) as on_plain:
            plain[:] = value
        with pytest.raises(exc) as on_view:
            view[:] = value
        assert str(on_view.value) == str(on_plain.value)


def test_repeated_keys_and_new_keys_read_as_numpy():
    """Index params are cached per key: a key seen before and a new one alike."""
    n = np.arange(40.0).reshape(8, 5)
    a = xp.asarray(n)
    for _ in range(2):
        for i in range(8):
            _same(a[i], n[i])
            _same(a[i, 1:4], n[i, 1:4])
            _same(a[-i - 1, ::-2], n[-i - 1, ::-2])
    for i in range(8):
        a[i, i % 5] = -i
        n[i, i % 5] = -i
    _same(a, n)


def test_params_follow_the_array_placement():
    """A committed array and an uncommitted one of the same shape and key."""
    n = np.arange(6.0)
    dev = jax.devices()[-1]
    committed = xp.asarray(n).to_device(dev)
    plain = xp.asarray(n)
    _same(committed[1:4], n[1:4])
    _same(plain[1:4], n[1:4])
    v = committed[2:]
    v[1] = 100.0
    m = n.copy()
    m[3] = 100.0
    _same(committed, m)
    assert committed.device == dev
    _same(plain, n)


def test_view_writes_under_jit():
    def f(x):
        v = x[1:, ::2]
        v[0, 1] = 5.0
        v[1] = v[0] * 2.0
        return x, v

    n = np.arange(12.0).reshape(3, 4)
    x, v = jax.jit(f)(xp.asarray(n))
    m = n.copy()
    mv = m[1:, ::2]
    mv[0, 1] = 5.0
    mv[1] = mv[0] * 2.0
    _same(x, m)
    _same(v, mv)
