"""The speed paths of laxarray.sparse give the dense (NumPy/SciPy) answers.

* cached hybrid ELL + chunk layouts for products of concrete 2-D matrices (ops/ell.py),
  including rows long enough to spill into chunks, and the transposed layout;
* ``A.T`` of a 2-D matrix contracting through its source (eagerly and under jit);
* the merge-based union of two canonical operands (``+ - * maximum``);
* the blocked integer cumsum of ``_keys``.
"""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import scipy.sparse as sps

import laxarray.sparse as sp
from laxarray.sparse.ops import ell

# this module's own jax code (jax.jit/grad/vmap on NumPy float64 values, jax.numpy oracles)
# is a 64-bit jax program: see the jax_x64 fixture (tests/conftest.py)
pytestmark = pytest.mark.usefixtures("jax_x64")


def _skewed(rng, n_rows, n_cols, long_rows=3, long_len=120):
    """A CSR matrix with many 0-2 entry rows and a few very long ones (power-law like)."""
    dense = np.zeros((n_rows, n_cols))
    for r in range(n_rows):
        k = rng.integers(0, 3)
        dense[r, rng.choice(n_cols, k, replace=False)] = rng.standard_normal(k)
    for r in rng.choice(n_rows, long_rows, replace=False):
        k = min(long_len, n_cols)
        dense[r, rng.choice(n_cols, k, replace=False)] = rng.standard_normal(k)
    return sps.csr_array(dense), dense


def _from_scipy(fmt, a):
    """``a`` as laxarray's BCOO or BCSR."""
    return sp.BCOO.from_scipy_sparse(a) if fmt == "bcoo" else sp.BCSR.from_scipy_sparse(a)


@pytest.mark.parametrize("fmt", ["bcoo", "bcsr"])
def test_hybrid_layout_products(fmt):
    rng = np.random.default_rng(0)
    a, dense = _skewed(rng, 90, 150)
    m = _from_scipy(fmt, a)
    p = ell.plan(m, transposed=False)
    assert p is not None and p.chunk_rows.shape[0] > 0          # long rows went to chunks
    x, X = rng.standard_normal(150), rng.standard_normal((150, 5))
    y, Y = rng.standard_normal(90), rng.standard_normal((4, 90))
    t = dict(rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(np.asarray(m @ x), dense @ x, **t)
    np.testing.assert_allclose(np.asarray(m @ X), dense @ X, **t)
    np.testing.assert_allclose(np.asarray(m.T @ y), dense.T @ y, **t)
    np.testing.assert_allclose(np.asarray(Y @ m), Y @ dense, **t)
    np.testing.assert_allclose(np.asarray(x @ m.T), x @ dense.T, **t)
    np.testing.assert_allclose(np.asarray(sp.dot_general(m, Y, (((0,), (1,)), ((), ())))),
                               dense.T @ Y.T, **t)


def test_layout_ignores_padding_and_sums_duplicates():
    data = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    idx = np.array([[2, 1], [0, 3], [2, 1], [3, 0], [1, 4]])    # a duplicate; padding rows
    m = sp.BCOO((data, idx), shape=(3, 4))
    dense = np.zeros((3, 4))
    dense[2, 1] = 4.0
    dense[0, 3] = 2.0
    x = np.array([1.0, 5.0, 2.0, 3.0])
    np.testing.assert_allclose(np.asarray(m @ x), dense @ x)
    y = np.array([1.0, -2.0, 0.5])
    np.testing.assert_allclose(np.asarray(m.T @ y), dense.T @ y)


def test_padding_column_does_not_read_infinities():
    # unused ELL slots must contribute 0, not 0 * x[0]
    m = sp.BCSR.from_scipy_sparse(sps.csr_array(np.array([[0.0, 1.0, 2.0], [0.0, 0.0, 3.0]])))
    x = np.array([np.inf, 1.0, 1.0])
    np.testing.assert_array_equal(np.asarray(m @ x), [3.0, 3.0])


def test_padding_slots_in_chunks_do_not_read_infinities():
    # rows long enough to spill into chunks: their unused chunk slots must also give 0
    rng = np.random.default_rng(3)
    a, dense = _skewed(rng, 40, 60, long_rows=2, long_len=37)
    m = sp.BCSR.from_scipy_sparse(a)
    assert ell.plan(m, transposed=False).chunk_rows.shape[0] > 0
    unused = np.flatnonzero(~dense.any(axis=0))
    x = rng.standard_normal(60)
    x[unused] = np.inf                     # columns no entry reads
    np.testing.assert_allclose(np.asarray(m @ x), dense[:, dense.any(axis=0)] @ x[
        dense.any(axis=0)], rtol=1e-12)


@pytest.mark.parametrize("fmt", ["bcoo", "bcsr"])
def test_layout_first_built_inside_jit_is_reusable(fmt):
    # a layout first needed while tracing must hold concrete arrays, not tracers of
    # that trace (which would leak into the next one)
    rng = np.random.default_rng(4)
    a, dense = _skewed(rng, 30, 40, long_rows=2, long_len=30)
    m = _from_scipy(fmt, a)
    x = rng.standard_normal(40)
    f1 = jax.jit(lambda v: (m @ v)._value)
    f2 = jax.jit(lambda v: (m @ v)._value * 2.0)
    np.testing.assert_allclose(np.asarray(f1(x)), dense @ x, rtol=1e-12)
    np.testing.assert_allclose(np.asarray(f2(x)), 2 * (dense @ x), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(m @ x), dense @ x, rtol=1e-12)


@pytest.mark.parametrize("fmt", ["bcoo", "bcsr"])
def test_cached_views_first_built_inside_jit_are_reusable(fmt):
    # the cached transpose view (and BCSR's expanded row ids) of a concrete matrix first
    # needed inside a trace must not hold that trace's tracers
    rng = np.random.default_rng(6)
    a, dense = _skewed(rng, 12, 17, long_rows=1, long_len=15)
    m = _from_scipy(fmt, a)
    y = rng.standard_normal(12)
    np.testing.assert_allclose(np.asarray(jax.jit(lambda v: (m.T @ v)._value)(y)),
                               dense.T @ y, rtol=1e-12)
    np.testing.assert_array_equal(np.asarray(m.T.todense()), dense.T)
    m2 = _from_scipy(fmt, a)
    jax.jit(lambda: m2.todense()._value)()
    np.testing.assert_array_equal(np.asarray(m2.todense()), dense)
    np.testing.assert_array_equal(np.asarray(jax.jit(lambda: (m2 * 2.0).todense()._value)()),
                                  2 * dense)


@pytest.mark.parametrize("fmt", ["bcoo", "bcsr"])
def test_layout_products_differentiate_and_vmap(fmt):
    # a closed-over concrete matrix (layout path, ELL and chunks): reverse and forward
    # mode in the dense operand, and vmap over a stack of vectors
    rng = np.random.default_rng(5)
    a, dense = _skewed(rng, 25, 35, long_rows=2, long_len=30)
    m = _from_scipy(fmt, a)
    x, t, r = rng.standard_normal(35), rng.standard_normal(35), rng.standard_normal(25)
    loss = jax.jit(lambda v: jnp.sum(jnp.tanh((m @ v)._value) * r))
    g = jax.grad(loss)(x)
    np.testing.assert_allclose(np.asarray(g), dense.T @ (r / np.cosh(dense @ x) ** 2),
                               rtol=1e-10, atol=1e-12)
    gt = jax.grad(lambda u: jnp.sum((m.T @ u)._value * x))(r)
    np.testing.assert_allclose(np.asarray(gt), dense @ x, rtol=1e-10, atol=1e-12)
    _, tan = jax.jvp(lambda v: (m @ v)._value, (x,), (t,))
    np.testing.assert_allclose(np.asarray(tan), dense @ t, rtol=1e-10, atol=1e-12)
    xs = rng.standard_normal((3, 35))
    out = jax.vmap(lambda v: (m @ v)._value)(xs)
    np.testing.assert_allclose(np.asarray(out), xs @ dense.T, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("fmt", ["bcoo", "bcsr"])
def test_transpose_contracts_its_source_under_jit_and_grad(fmt):
    rng = np.random.default_rng(1)
    a, dense = _skewed(rng, 20, 30, long_rows=1, long_len=25)
    m = _from_scipy(fmt, a)
    assert m.T is m.T                                  # cached for a concrete array
    y = rng.standard_normal(20)
    f = jax.jit(lambda mat, v: (mat.T @ v)._value)
    np.testing.assert_allclose(np.asarray(f(m, y)), dense.T @ y, rtol=1e-12)
    g = jax.grad(lambda v: jnp.sum(jnp.sin((m.T @ v)._value)))(y)
    np.testing.assert_allclose(np.asarray(g), dense @ np.cos(dense.T @ y), rtol=1e-10)
    g = jax.jit(jax.grad(lambda v, mat: jnp.sum((mat @ v)._value ** 2)))(
        rng.standard_normal(30), m)
    assert g.shape == (30,)
    assert isinstance(m.T, type(m))


def _canonical(rng, shape, density):
    d = rng.standard_normal(shape) * (rng.random(shape) < density)
    return sp.BCOO.fromdense(d), d


@pytest.mark.parametrize("shape", [(7, 9), (1, 6), (5, 1), (0, 4), (40, 3)])
@pytest.mark.parametrize("densities", [(0.3, 0.4), (0.0, 0.5), (1.0, 0.2), (0.0, 0.0)])
def test_merge_union_matches_dense(shape, densities):
    rng = np.random.default_rng(sum(shape) + int(10 * densities[0]))
    (a, da), (b, db) = (_canonical(rng, shape, d) for d in densities)
    assert a.indices_sorted and a.unique_indices
    for got, want in [(a + b, da + db), (a - b, da - db), (a * b, da * db),
                      (sp.maximum(a, b), np.maximum(da, db))]:
        np.testing.assert_allclose(np.asarray(got.todense()), want, rtol=1e-14)
    s = a + b
    assert s.nse == np.count_nonzero((da != 0) | (db != 0))
    keys = np.ravel_multi_index(tuple(np.asarray(s.indices).T), shape) if s.nse else []
    assert np.all(np.diff(keys) > 0)                 # sorted and unique
    f = jax.jit(lambda x, y: (x + y).todense()._value)
    np.testing.assert_allclose(np.asarray(f(a, b)), da + db, rtol=1e-14)


@pytest.mark.parametrize("shape", [(3000, 2), (9,), (4, 3, 5), (2000, 1, 3)])
def test_merge_union_other_sparse_ranks_and_tall_shapes(shape):
    # tall shapes (more rows than entries) merge over linear keys instead of row by row
    rng = np.random.default_rng(len(shape))
    (a, da), (b, db) = (_canonical(rng, shape, d) for d in (0.002 if shape[0] > 100 else 0.4,
                                                            0.003 if shape[0] > 100 else 0.5))
    for got, want in [(a + b, da + db), (a - b, da - db), (sp.maximum(a, b), np.maximum(da, db))]:
        np.testing.assert_allclose(np.asarray(got.todense()), want, rtol=1e-14)
    s = a + b
    assert s.nse == np.count_nonzero((da != 0) | (db != 0))
    f = jax.jit(lambda x, y: (x - y).todense()._value)
    np.testing.assert_allclose(np.asarray(f(a, b)), da - db, rtol=1e-14)


def test_merge_union_batched_dense_blocks_and_padding():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((3, 5, 6)) * (rng.random((3, 5, 6)) < 0.4)
    y = rng.standard_normal((3, 5, 6)) * (rng.random((3, 5, 6)) < 0.4)
    for kw in (dict(n_batch=1), dict(n_dense=1)):
        a, b = sp.BCOO.fromdense(x, **kw), sp.BCOO.fromdense(y, **kw)
        np.testing.assert_allclose(np.asarray((a + b).todense()), x + y, rtol=1e-14)
    # canonical with trailing padding
    a = sp.BCOO((np.array([1.0, 2.0, 9.0]), np.array([[0, 1], [2, 0], [3, 3]])), shape=(3, 3),
                indices_sorted=True, unique_indices=True)
    b = sp.BCOO((np.array([5.0, 9.0]), np.array([[0, 1], [3, 3]])), shape=(3, 3),
                indices_sorted=True, unique_indices=True)
    want = np.zeros((3, 3))
    want[0, 1], want[2, 0] = 6.0, 2.0
    np.testing.assert_allclose(np.asarray((a + b).todense()), want)
    assert (a + b).nse == 2


def test_merge_union_gradient():
    rng = np.random.default_rng(4)
    a, da = _canonical(rng, (6, 7), 0.5)
    b, db = _canonical(rng, (6, 7), 0.5)

    def f(values):
        m = sp.BCOO((values, a.indices), shape=a.shape, indices_sorted=True,
                    unique_indices=True)
        return jnp.sum((m - b).todense()._value ** 2)

    g = jax.grad(f)(a.data)
    rows, cols = np.asarray(a.indices).T
    np.testing.assert_allclose(np.asarray(g), 2 * (da - db)[rows, cols], rtol=1e-12)
