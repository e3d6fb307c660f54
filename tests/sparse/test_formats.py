import jax
import numpy as np
import pytest
import scipy.sparse as sps
from hypothesis import given, settings, strategies as st

import laxarray as la
import laxarray.sparse as sp
from sparse_cases import DTYPES, SHAPES_2D, make, tol

FORMATS = ["bcoo", "bcsr"]


def test_repr_and_attributes():
    m = sp.BCOO.fromdense(np.array([[0.0, 1.0, 0.0, 2.0], [3.0, 0, 0, 0], [0, 0, 4.0, 0]]))
    assert repr(m) == "BCOO(float64[3, 4], nse=4)"
    assert (m.shape, m.ndim, m.size, m.nse, m.n_batch, m.n_sparse, m.n_dense) == \
        ((3, 4), 2, 12, 4, 0, 2, 0)
    assert m.dtype == np.float64 and m.indices_sorted and m.unique_indices
    c = sp.BCSR.fromdense(np.asarray(m.todense()))
    assert repr(c) == "BCSR(float64[3, 4], nse=4)"
    np.testing.assert_array_equal(np.asarray(c.indptr), [0, 2, 3, 4])
    assert isinstance(m.todense(), la.Array)
    np.testing.assert_array_equal(np.asarray(m.T.todense()), np.asarray(m.todense()).T)


@pytest.mark.parametrize("fmt", FORMATS)
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**31), shape=st.sampled_from(SHAPES_2D),
       dtype=st.sampled_from(DTYPES))
def test_messy_todense_and_roundtrips(fmt, seed, shape, dtype):
    rng = np.random.default_rng(seed)
    m, dense = make(fmt, rng, shape, dtype)
    np.testing.assert_allclose(np.asarray(m.todense()), dense, **tol(dtype))
    s = m.sum_duplicates()
    assert s.unique_indices and s.indices_sorted
    assert s.nse == np.count_nonzero(np.abs(dense) + 0 != 0) or s.nse >= np.count_nonzero(dense)
    np.testing.assert_allclose(np.asarray(s.todense()), dense, **tol(dtype))
    np.testing.assert_allclose(np.asarray(m.sort_indices().todense()), dense, **tol(dtype))
    sc = sp.to_scipy_sparse(m, "csr")
    np.testing.assert_allclose(sc.toarray(), dense, **tol(dtype))
    back = sp.from_scipy_sparse(sc, format=fmt)
    np.testing.assert_allclose(np.asarray(back.todense()), dense, **tol(dtype))
    z = m.eliminate_zeros()
    np.testing.assert_allclose(np.asarray(z.todense()), dense, **tol(dtype))
    other = sp.bcsr_from_bcoo(m) if fmt == "bcoo" else m.tobcoo()
    np.testing.assert_allclose(np.asarray(other.todense()), dense, **tol(dtype))


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**31), n_batch=st.integers(0, 2), n_dense=st.integers(0, 1),
       density=st.sampled_from([0.0, 0.3, 1.0]))
def test_fromdense_layouts(seed, n_batch, n_dense, density):
    rng = np.random.default_rng(seed)
    shape = (2, 3, 4, 2)[: max(n_batch + n_dense + 1, 3)]
    x = rng.standard_normal(shape) * (rng.uniform(size=shape) < density)
    m = sp.bcoo_fromdense(x, n_batch=n_batch, n_dense=n_dense)
    assert (m.n_batch, m.n_dense) == (n_batch, n_dense)
    np.testing.assert_array_equal(np.asarray(m.todense()), x)
    flat = sp.update_layout(m, n_batch=0, n_dense=0)
    np.testing.assert_array_equal(np.asarray(flat.todense()), x)
    again = sp.update_layout(flat, n_batch=n_batch, n_dense=n_dense)
    assert (again.n_batch, again.n_dense) == (n_batch, n_dense)
    np.testing.assert_array_equal(np.asarray(again.todense()), x)
    if len(shape) - n_batch - n_dense == 2:
        c = sp.bcsr_fromdense(x, n_batch=n_batch, n_dense=n_dense)
        np.testing.assert_array_equal(np.asarray(c.todense()), x)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**31), rows=st.integers(0, 9), cols=st.integers(0, 70),
       density=st.sampled_from([0.0, 0.05, 0.5, 0.97, 1.0]), extra=st.integers(-6, 6))
def test_fromdense_entries_match_numpy_nonzero(seed, rows, cols, density, extra):
    # many 32-entry words, a partial last word, and nse below, at and above the count:
    # the first nse nonzeros in row-major order (np.nonzero's), then padding
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((rows, cols)) * (rng.uniform(size=(rows, cols)) < density)
    nz = np.flatnonzero(x)
    nse = max(0, nz.size + extra)
    m = sp.bcoo_fromdense(x, nse=nse)
    keep = nz[:nse]
    idx, data = np.asarray(m.indices), np.asarray(m.data)
    assert idx.shape == (nse, 2) and data.shape == (nse,)
    np.testing.assert_array_equal(idx[:keep.size],
                                  np.stack(np.unravel_index(keep, x.shape), axis=1))
    np.testing.assert_array_equal(data[:keep.size], x.ravel()[keep])
    np.testing.assert_array_equal(idx[keep.size:], np.tile([rows, cols], (nse - keep.size, 1)))
    np.testing.assert_array_equal(data[keep.size:], 0)


def test_fromdense_empty_batch():
    # no batch holds an entry, so nse is 0 (not the minimum of an empty max)
    for x in (np.zeros((0, 3)), np.zeros((2, 0, 3))):
        m = sp.bcoo_fromdense(x, n_batch=x.ndim - 1)
        assert m.nse == 0 and m.shape == x.shape
        np.testing.assert_array_equal(np.asarray(m.todense()), x)


@pytest.mark.parametrize("kind", ["csr_array", "csc_array", "coo_array", "csr_matrix",
                                  "csc_matrix", "coo_matrix"])
def test_scipy_inputs(kind):
    rng = np.random.default_rng(0)
    a = sps.random_array((6, 5), density=0.4, rng=rng)
    s = getattr(sps, kind)(a)
    for fmt in FORMATS:
        m = sp.from_scipy_sparse(s, format=fmt)
        np.testing.assert_array_equal(np.asarray(m.todense()), a.toarray())
        for out in ("csr", "csc", "coo"):
            np.testing.assert_array_equal(sp.to_scipy_sparse(m, out).toarray(), a.toarray())


def test_fromdense_fixed_nse_and_jit():
    x = np.array([[0.0, 1.0], [2.0, 3.0]])
    f = jax.jit(lambda v: sp.bcoo_fromdense(v, nse=3))
    m = f(x)
    assert isinstance(m, sp.BCOO) and m.nse == 3
    np.testing.assert_array_equal(np.asarray(m.todense()), x)
    g = jax.jit(lambda v: sp.bcsr_fromdense(v, nse=4).todense())
    np.testing.assert_array_equal(np.asarray(g(x)), x)
    with pytest.raises(ValueError, match="nse"):
        jax.jit(lambda v: sp.bcoo_fromdense(v))(x)


@pytest.mark.usefixtures("jax_x64")  # NumPy float64 given to jax's own transformations
def test_pytree_jit_vmap_grad():
    rng = np.random.default_rng(1)
    x = rng.standard_normal((3, 4, 5)) * (rng.uniform(size=(3, 4, 5)) < 0.5)
    m = sp.bcoo_fromdense(x, n_batch=1)
    leaves, tree = jax.tree_util.tree_flatten(m)
    assert len(leaves) == 2
    out = jax.jit(lambda a: a)(m)
    assert isinstance(out, sp.BCOO) and out.shape == m.shape
    dense = jax.vmap(lambda a: a.todense()._value)(m)
    np.testing.assert_array_equal(np.asarray(dense), x)
    c = sp.bcsr_fromdense(x, n_batch=1)
    dense = jax.vmap(lambda a: a.todense()._value)(c)
    np.testing.assert_array_equal(np.asarray(dense), x)
    stacked = jax.vmap(lambda v: sp.bcoo_fromdense(v, nse=20))(x)
    assert stacked.n_batch == 1 and stacked.shape == x.shape
    np.testing.assert_array_equal(np.asarray(stacked.todense()), x)
    m2 = sp.bcoo_fromdense(x[0])
    g = jax.grad(lambda d: sp.BCOO((d, m2.indices), shape=m2.shape).todense()._value.sum())(
        m2.data)
    np.testing.assert_array_equal(np.asarray(g), np.ones(m2.nse))


def test_bad_input():
    with pytest.raises(TypeError):
        sp.BCOO(([1.0], [[0.5, 0.5]]), shape=(2, 2))
    with pytest.raises(ValueError):
        sp.BCOO(([1.0], [0, 1]), shape=(2, 2))
    with pytest.raises(ValueError):
        sp.BCOO(([1.0, 2.0], [[0, 1]]), shape=(2, 2))
    with pytest.raises(ValueError, match="out of range"):
        sp.BCOO(([1.0], [[0, 3]]), shape=(2, 2))
    with pytest.raises(ValueError, match="out of range"):
        sp.BCOO(([1.0], [[-1, 0]]), shape=(2, 2))
    sp.BCOO(([1.0], [[2, 2]]), shape=(2, 2))  # padding is valid
    with pytest.raises(ValueError):
        sp.BCSR(([1.0], [0], [0, 1]), shape=(2, 2))
    with pytest.raises(ValueError):
        sp.BCSR(([1.0], [5], [0, 1, 1]), shape=(2, 2))
    with pytest.raises(TypeError):
        sp.bcoo_fromdense(np.ones((2, 2)), nse=1.5)
    with pytest.raises(TypeError):
        sp.BCOO.fromdense(np.ones(2)) @ "x"
    with pytest.raises(ValueError):
        sp.BCOO.fromdense(np.ones((2, 3))) @ np.ones(2)
    with pytest.raises(TypeError):
        sp.from_scipy_sparse(np.ones((2, 2)))


def test_padding_is_ignored_everywhere():
    data = np.array([1.0, 5.0, 2.0])
    idx = np.array([[0, 1], [2, 2], [1, 0]])
    m = sp.BCOO((data, idx), shape=(2, 2))
    dense = np.array([[0.0, 1.0], [2.0, 0.0]])
    np.testing.assert_array_equal(np.asarray(m.todense()), dense)
    np.testing.assert_array_equal(np.asarray(m @ np.ones(2)), dense @ np.ones(2))
    np.testing.assert_array_equal(np.asarray(m.T @ np.ones(2)), dense.T @ np.ones(2))
    assert float(m.sum()) == 3.0
    assert sp.to_scipy_sparse(m).nnz == 2


@pytest.mark.parametrize("fmt", ["bcoo", "bcsr"])
def test_bool_todense_with_duplicates_and_under_jit(fmt):
    rng = np.random.default_rng(3)
    dense = rng.random((5, 4)) < 0.4
    m = sp.fromdense(la.asarray(dense), format=fmt)
    np.testing.assert_array_equal(np.asarray(m.todense()), dense)
    np.testing.assert_array_equal(np.asarray(jax.jit(lambda a: a.todense())(m)), dense)
    # duplicate coordinates: a stored True anywhere makes the element True (logical or)
    idx = np.array([[0, 1], [0, 1], [2, 3], [4, 0]])
    data = np.array([True, False, False, True])
    dup = sp.BCOO((la.asarray(data), la.asarray(idx)), shape=(5, 4))
    expected = np.zeros((5, 4), bool)
    for (i, j), v in zip(idx, data):
        expected[i, j] |= v
    np.testing.assert_array_equal(np.asarray(dup.todense()), expected)
