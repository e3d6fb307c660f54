"""Sparse + sparse and sparse - sparse on the CPU host path (SciPy's CSR add) against
NumPy's dense arithmetic, eager and under jax.jit/vmap/grad, with the lax kernel (host
path off) as the second opinion."""

import operator

import jax
import numpy as np
import pytest
import scipy.sparse as sps

import laxarray as la
import laxarray.sparse as sp
from laxarray._core import modes

# this module's own jax code (jax.jit/grad/vmap on NumPy float64 values, jax.numpy oracles)
# is a 64-bit jax program: see the jax_x64 fixture (tests/conftest.py)
pytestmark = pytest.mark.usefixtures("jax_x64")

FORMATS = [sp.BCOO, sp.BCSR]
OPS = {"add": operator.add, "sub": operator.sub}


def _random(shape, dtype, seed, density=0.2):
    rng = np.random.default_rng(seed)
    m = sps.random_array(shape, density=density, rng=rng, format="csr")
    if np.dtype(dtype).kind == "c":
        m = m + 1j * sps.random_array(shape, density=density, rng=rng, format="csr")
    if np.dtype(dtype).kind == "i":
        m.data = np.ceil(m.data * 5)
    return m.astype(dtype)


def _operands(fa, fb, dtype, shape=(30, 20), seed=0):
    a, b = _random(shape, dtype, seed), _random(shape, dtype, seed + 1)
    return a, b, fa.from_scipy_sparse(a), fb.from_scipy_sparse(b)


def _uses_callback(f, *args):
    return "host_callback" in str(jax.make_jaxpr(f)(*args))


def _coords(mat):
    """``(rows, cols)`` of every stored slot of a 2-D BCOO/BCSR, padding included."""
    if isinstance(mat, sp.BCSR):
        indptr = np.asarray(mat.indptr)
        cols = np.asarray(mat.indices)
        rows = np.full(cols.shape, mat.shape[0])
        rows[:indptr[-1]] = np.repeat(np.arange(mat.shape[0]), np.diff(indptr))
        return rows, cols
    idx = np.asarray(mat.indices)
    return idx[:, 0], idx[:, 1]


def _assert_canonical(mat, n_stored):
    """The first ``n_stored`` slots are distinct in-range entries in row-major order, the
    rest padding (an index equal to its dimension's size) holding 0."""
    m, n = mat.shape
    rows, cols = _coords(mat)
    assert mat.nse >= n_stored
    assert mat.indices_sorted and mat.unique_indices
    keys = rows[:n_stored].astype(np.int64) * n + cols[:n_stored]
    assert np.all((rows[:n_stored] < m) & (cols[:n_stored] < n))
    assert np.all(np.diff(keys) > 0)
    tail = slice(n_stored, None)
    assert np.all((rows[tail] == m) | (cols[tail] == n))
    assert np.all(np.asarray(mat.data)[tail] == 0)


@pytest.mark.parametrize("fa", FORMATS)
@pytest.mark.parametrize("fb", FORMATS)
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128", "int32"])
@pytest.mark.parametrize("op", list(OPS))
def test_eager_union_matches_dense(fa, fb, dtype, op):
    a, b, la_a, la_b = _operands(fa, fb, dtype)
    c = OPS[op](la_a, la_b)
    expected = OPS[op](a.toarray(), b.toarray())
    assert isinstance(c, sp.BCSR if fa is fb is sp.BCSR else sp.BCOO)
    assert c.dtype == expected.dtype
    np.testing.assert_array_equal(np.asarray(c.todense()), expected)
    # canonical, and exactly the nonzero entries stored (SciPy drops exact zeros)
    _assert_canonical(c, np.count_nonzero(expected))
    assert c.nse == np.count_nonzero(expected)
    with modes.host_sort(False):
        lax_c = OPS[op](la_a, la_b)
    assert type(lax_c) is type(c) and lax_c.dtype == c.dtype
    assert lax_c.indices.dtype == c.indices.dtype
    np.testing.assert_array_equal(np.asarray(lax_c.todense()), expected)


def test_mixed_dtypes_promote():
    a, _, la_a, _ = _operands(sp.BCOO, sp.BCOO, "float32")
    _, b, _, la_b = _operands(sp.BCOO, sp.BCOO, "float64", seed=5)
    c = la_a - la_b
    expected = a.toarray() - b.toarray()
    assert c.dtype == expected.dtype == np.float64
    np.testing.assert_allclose(np.asarray(c.todense()), expected, rtol=1e-7)


def _messy_bcoo():
    """An unsorted BCOO with duplicates, an explicit zero and padding of every kind."""
    rows = np.array([3, 0, 1, 3, 0, 4, 1, 5, 2, 0])
    cols = np.array([1, 2, 0, 1, 2, 3, 0, 0, 4, 3])
    vals = np.array([1.5, 1.0, 2.0, -1.0, 4.0, 0.5, 3.0, 9.0, 7.0, 0.0])
    # (5, 0) and (2, 4) are padding for shape (5, 4)
    dense = np.zeros((5, 4))
    ok = (rows < 5) & (cols < 4)
    np.add.at(dense, (rows[ok], cols[ok]), vals[ok])
    mat = sp.BCOO((la.asarray(vals), la.asarray(np.stack([rows, cols], 1))), shape=(5, 4))
    return mat, dense


@pytest.mark.parametrize("fb", FORMATS)
@pytest.mark.parametrize("op", list(OPS))
def test_duplicates_padding_and_unsorted_bcoo(fb, op):
    a, dense_a = _messy_bcoo()
    dense_b = np.arange(20.0).reshape(5, 4) % 3 - 1
    b = fb.fromdense(la.asarray(dense_b))
    for x, y, dx, dy in ((a, b, dense_a, dense_b), (b, a, dense_b, dense_a)):
        c = OPS[op](x, y)
        expected = OPS[op](dx, dy)
        np.testing.assert_array_equal(np.asarray(c.todense()), expected)
        _assert_canonical(c, np.count_nonzero(expected))


def test_canonical_bcoo_with_padding_and_padded_bcsr():
    # a sorted, unique BCOO padded at the end (what a jitted sum returns), and a BCSR with
    # padding after indptr[-1] and a padding column inside a row
    dense_a = np.array([[0.0, 2.0, 0.0], [1.0, 0.0, -3.0], [0.0, 0.0, 4.0]])
    a = sp.BCOO.fromdense(la.asarray(dense_a), nse=7)
    assert a.indices_sorted and a.unique_indices
    data = la.asarray([5.0, 8.0, 6.0, 7.0, 9.0])
    cols = la.asarray([0, 3, 2, 1, 3])          # column 3 is padding
    indptr = la.asarray([0, 2, 3, 4])           # slot 4 is past indptr[-1]
    b = sp.BCSR((data, cols, indptr), shape=(3, 3))
    dense_b = np.array([[5.0, 0.0, 0.0], [0.0, 0.0, 6.0], [0.0, 7.0, 0.0]])
    for op in OPS.values():
        for x, y, dx, dy in ((a, b, dense_a, dense_b), (b, a, dense_b, dense_a)):
            c = op(x, y)
            expected = op(dx, dy)
            np.testing.assert_array_equal(np.asarray(c.todense()), expected)
            _assert_canonical(c, np.count_nonzero(expected))


@pytest.mark.parametrize("fb", FORMATS)
def test_bcsr_with_unsorted_and_duplicate_columns(fb):
    # rows 0 and 2 hold their columns out of order, row 2 one column twice
    data = np.array([1.0, 2.0, -4.0, 3.0, 5.0, 0.5, 7.0])
    cols = np.array([2, 0, 1, 3, 0, 3, 3])
    indptr = np.array([0, 2, 4, 7])
    a = sp.BCSR((la.asarray(data), la.asarray(cols), la.asarray(indptr)), shape=(3, 4))
    dense_a = sps.csr_array((data, cols, indptr), shape=(3, 4)).toarray()
    dense_b = np.array([[0.0, 1.0, -1.0, 0.0], [0.0, 4.0, 0.0, 0.0], [1.0, 0.0, 0.0, -7.5]])
    b = fb.fromdense(la.asarray(dense_b))
    for op in OPS.values():
        c = op(a, b)
        expected = op(dense_a, dense_b)
        np.testing.assert_array_equal(np.asarray(c.todense()), expected)
        _assert_canonical(c, np.count_nonzero(expected))
        # the operand itself is untouched
        np.testing.assert_array_equal(np.asarray(a.indices), cols)
        np.testing.assert_array_equal(np.asarray(a.data), data)


@pytest.mark.parametrize("fa", FORMATS)
@pytest.mark.parametrize("fb", FORMATS)
def test_cancellation_to_exact_zero_is_left_out(fa, fb):
    a, _, la_a, _ = _operands(fa, fb, "float64")
    la_b = fb.from_scipy_sparse(a)
    c = la_a - la_b
    assert c.nse == 0
    np.testing.assert_array_equal(np.asarray(c.todense()), np.zeros(a.shape))
    # partial cancellation: (1, -1) + (-1, 2) keeps only the second entry
    x = fa.fromdense(la.asarray([[1.0, -1.0], [0.0, 0.0]]))
    y = fb.fromdense(la.asarray([[-1.0, 2.0], [0.0, 0.0]]))
    s = x + y
    np.testing.assert_array_equal(np.asarray(s.todense()), [[0.0, 1.0], [0.0, 0.0]])
    assert s.nse == 1


@pytest.mark.parametrize("shape", [(0, 5), (4, 0), (6, 7)])
@pytest.mark.parametrize("fa", FORMATS)
@pytest.mark.parametrize("fb", FORMATS)
def test_empty_matrices(shape, fa, fb):
    zeros = np.zeros(shape)
    a = fa.fromdense(la.asarray(zeros))
    b = fb.from_scipy_sparse(_random(shape, "float64", 3) if 0 not in shape
                             else sps.csr_array(shape))
    for op in OPS.values():
        for x, y in ((a, b), (b, a), (a, a)):
            c = op(x, y)
            expected = op(np.asarray(x.todense()), np.asarray(y.todense()))
            assert c.shape == shape
            np.testing.assert_array_equal(np.asarray(c.todense()), expected)
            _assert_canonical(c, np.count_nonzero(expected))
            out = jax.jit(lambda p, q, op=op: op(p, q).todense())(x, y)
            np.testing.assert_array_equal(np.asarray(out), expected)


@pytest.mark.parametrize("fa", FORMATS)
@pytest.mark.parametrize("fb", FORMATS)
@pytest.mark.parametrize("op", list(OPS))
def test_jit_arguments_match_dense_and_use_the_host(fa, fb, op):
    a, b, la_a, la_b = _operands(fa, fb, "float64")
    f = OPS[op]
    c = jax.jit(f)(la_a, la_b)
    expected = f(a.toarray(), b.toarray())
    assert isinstance(c, sp.BCSR if fa is fb is sp.BCSR else sp.BCOO)
    assert c.nse == la_a.nse + la_b.nse
    np.testing.assert_array_equal(np.asarray(c.todense()), expected)
    _assert_canonical(c, np.count_nonzero(expected))
    assert _uses_callback(lambda p, q: f(p, q).data, la_a, la_b)
    previous = modes.get_host_sort()
    la.set_host_sort(False)
    try:
        assert not _uses_callback(lambda p, q: f(p, q).data, la_a, la_b)
        lax_c = jax.jit(f)(la_a, la_b)
    finally:
        la.set_host_sort(previous)
    assert modes.get_host_sort() == previous
    assert lax_c.nse == c.nse and lax_c.data.dtype == c.data.dtype
    np.testing.assert_array_equal(np.asarray(lax_c.todense()), expected)


@pytest.mark.parametrize("op", list(OPS))
def test_lax_kernel_with_closed_over_indices_and_traced_values(op):
    """With the host path off, ``jit`` (and ``jit(grad)``) of a sum whose indices are
    concrete constants and whose values are traced: the entry count is itself traced, so the
    kernel keeps its bound instead of reading the count on the host (which raised jax's
    ConcretizationTypeError)."""
    a, b, la_a, la_b = _operands(sp.BCOO, sp.BCOO, "float64")
    f = OPS[op]
    expected = f(a.toarray(), b.toarray())
    previous = modes.get_host_sort()
    la.set_host_sort(False)
    try:
        dense = jax.jit(lambda d: f(la_a._with_data(d), la_b).todense()._value)(la_a.data)
        grad = jax.jit(jax.grad(
            lambda d: la.sum(f(la_a._with_data(d), la_b).todense())._value))(la_a.data)
    finally:
        la.set_host_sort(previous)
    np.testing.assert_array_equal(np.asarray(dense), expected)
    np.testing.assert_array_equal(np.asarray(grad), np.ones(la_a.nse))


def test_a_dtype_scipy_lacks_takes_the_lax_kernel():
    dense_a = np.array([[0, 1.5, 0], [1, 0, 1]], dtype=np.float16)
    dense_b = np.array([[1, 1.5, 0], [0, 0, 1]], dtype=np.float16)
    a, b = sp.BCOO.fromdense(la.asarray(dense_a)), sp.BCSR.fromdense(la.asarray(dense_b))
    assert not _uses_callback(lambda p, q: (p + q).data, a, b)
    for op in OPS.values():
        c = op(a, b)
        assert c.dtype == np.float16
        np.testing.assert_array_equal(np.asarray(c.todense()), op(dense_a, dense_b))


@pytest.mark.parametrize("fa", FORMATS)
def test_vmap_over_stacked_values(fa):
    a, b, la_a, la_b = _operands(fa, sp.BCOO, "float64")
    scales = np.array([1.0, 2.0, -0.5])
    da = np.stack([s * np.asarray(la_a.data) for s in scales])
    db = np.stack([np.asarray(la_b.data) / s for s in scales])

    def f(x, y):
        return (la_a._with_data(x) - la_b._with_data(y)).todense()._value

    out = jax.vmap(f)(da, db)
    for k, s in enumerate(scales):
        np.testing.assert_allclose(np.asarray(out[k]), s * a.toarray() - b.toarray() / s,
                                   rtol=1e-13, atol=1e-15)
    assert _uses_callback(jax.vmap(f), da, db)


def test_vmap_over_stacked_bcoo_indices():
    # a batch of different patterns: data and indices mapped together
    mats = [_random((8, 6), "float64", s).tocoo() for s in range(3)]
    nse = max(m.nnz for m in mats)
    data = np.zeros((3, nse))
    idx = np.tile(np.array([8, 6]), (3, nse, 1))
    for k, m in enumerate(mats):
        data[k, :m.nnz] = m.data
        idx[k, :m.nnz] = np.stack([m.row, m.col], 1)
    other = sp.BCSR.from_scipy_sparse(_random((8, 6), "float64", 9))

    def f(d, i):
        return (sp.BCOO((d, i), shape=(8, 6)) + other).todense()._value

    out = jax.vmap(f)(data, idx)
    for k, m in enumerate(mats):
        np.testing.assert_array_equal(np.asarray(out[k]),
                                      m.toarray() + np.asarray(other.todense()))


@pytest.mark.parametrize("fa", FORMATS)
@pytest.mark.parametrize("fb", FORMATS)
@pytest.mark.parametrize("op", list(OPS))
def test_grad_with_respect_to_both_operands(fa, fb, op):
    # d/d a.data of sum(W * (A op B)) is W at A's entries, d/d b.data is (+/-) W at B's
    a, b, la_a, la_b = _operands(fa, fb, "float64")
    sign = 1.0 if op == "add" else -1.0
    W = np.random.default_rng(7).standard_normal(a.shape)

    def loss(da, db):
        c = OPS[op](la_a._with_data(da), la_b._with_data(db))
        return (c.todense()._value * W).sum()

    for grad in (jax.grad(loss, argnums=(0, 1)), jax.jit(jax.grad(loss, argnums=(0, 1)))):
        ga, gb = (np.asarray(g) for g in grad(la_a.data, la_b.data))
        for g, mat, s in ((ga, la_a, 1.0), (gb, la_b, sign)):
            rows, cols = _coords(mat)
            np.testing.assert_allclose(g, s * W[rows, cols], rtol=1e-13)


def test_grad_through_duplicates_and_padding():
    a, dense_a = _messy_bcoo()
    b = sp.BCSR.fromdense(la.asarray(np.eye(5, 4)))
    W = np.random.default_rng(1).standard_normal((5, 4))

    def loss(d):
        return ((b - a._with_data(d)).todense()._value * W).sum()

    g = np.asarray(jax.grad(loss)(a.data))
    rows, cols = (np.asarray(a.indices)[:, k] for k in (0, 1))
    ok = (rows < 5) & (cols < 4)
    expected = np.where(ok, -W[np.minimum(rows, 4), np.minimum(cols, 3)], 0.0)
    np.testing.assert_allclose(g, expected, rtol=1e-13)
    # the primal under differentiation is the lax kernel's; its value is the same
    val = jax.value_and_grad(loss)(a.data)[0]
    np.testing.assert_allclose(float(val), ((np.eye(5, 4) - dense_a) * W).sum(), rtol=1e-13)
