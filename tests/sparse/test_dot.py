import jax
import jax.numpy as jnp
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import laxarray as la
import laxarray.sparse as sp
from sparse_cases import DTYPES, SHAPES_2D, make, random_values, tol

FORMATS = ["bcoo", "bcsr"]


@pytest.mark.parametrize("fmt", FORMATS)
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**31), shape=st.sampled_from(SHAPES_2D),
       dtype=st.sampled_from(DTYPES))
@pytest.mark.usefixtures("jax_x64")  # NumPy float64 given to jax's own transformations
def test_matmul_against_dense(fmt, seed, shape, dtype):
    rng = np.random.default_rng(seed)
    m, dense = make(fmt, rng, shape, dtype)
    n, k = shape
    x = random_values(rng, k, dtype)
    y = random_values(rng, n, dtype)
    X = random_values(rng, k * 3, dtype).reshape(k, 3)
    Y = random_values(rng, 2 * n, dtype).reshape(2, n)
    t = tol(dtype)
    r = m @ x
    assert isinstance(r, la.Array)
    np.testing.assert_allclose(np.asarray(r), dense @ x, **t)
    np.testing.assert_allclose(np.asarray(m @ X), dense @ X, **t)
    np.testing.assert_allclose(np.asarray(m.T @ y), dense.T @ y, **t)
    np.testing.assert_allclose(np.asarray(y @ m), y @ dense, **t)
    np.testing.assert_allclose(np.asarray(Y @ m), Y @ dense, **t)
    np.testing.assert_allclose(np.asarray(la.asarray(y) @ m), y @ dense, **t)
    np.testing.assert_allclose(np.asarray(m @ jnp.asarray(X)), dense @ X, **t)


@pytest.mark.parametrize("fmt", FORMATS)
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**31), shapes=st.sampled_from([((3, 4), (4, 5)), ((1, 6), (6, 1)),
                                                            ((5, 5), (5, 5)), ((2, 0), (0, 3))]))
def test_sparse_sparse_matmul(fmt, seed, shapes):
    rng = np.random.default_rng(seed)
    a, da = make(fmt, rng, shapes[0])
    b, db = make(fmt, rng, shapes[1])
    c = a @ b
    assert type(c) is type(a)
    np.testing.assert_allclose(np.asarray(c.todense()), da @ db, rtol=1e-10, atol=1e-10)
    # memory grows with the products: the eager result holds only distinct output entries
    assert c.nse <= max(np.count_nonzero((da != 0).astype(int) @ (db != 0).astype(int)), 0) \
        or c.nse <= (da.shape[0] * db.shape[1])


def test_sparse_sparse_under_jit_needs_nse():
    rng = np.random.default_rng(3)
    a, da = make("bcoo", rng, (4, 4), padding=False, duplicates=False)
    with pytest.raises(ValueError, match="nse"):
        jax.jit(lambda p: p @ p)(a)
    f = jax.jit(lambda p: sp.dot_general(p, p, (((1,), (0,)), ((), ())), nse=64).todense())
    np.testing.assert_allclose(np.asarray(f(a)), da @ da, rtol=1e-12)


def _products(da, db):
    """The number of products sparse @ sparse forms: pairs of stored entries that meet."""
    return int(((da != 0).astype(np.int64).sum(0) * (db != 0).astype(np.int64).sum(1)).sum())


@pytest.mark.parametrize("fmt", FORMATS)
def test_sparse_sparse_nse_bound_is_checked(fmt):
    from laxarray import checkify as ck
    rng = np.random.default_rng(11)
    a, da = make(fmt, rng, (6, 6), padding=False, duplicates=False)
    b, db = make(fmt, rng, (6, 6), padding=False, duplicates=False)
    need = _products(da, db)
    assert need > 2
    # enough: the same product as eagerly, under jit and inside checkify
    f = jax.jit(lambda p, q: sp.matmul(p, q, nse=need).todense())
    np.testing.assert_allclose(np.asarray(f(a, b)), da @ db, rtol=1e-12, atol=1e-12)
    err, out = jax.jit(ck.checkify(lambda p, q: sp.matmul(p, q, nse=need).todense()))(a, b)
    assert err.get() is None
    # too small: checkify names the count, plain jit gives NaN values (never a silently
    # partial product), and eagerly it is a ValueError before any work
    small = lambda p, q: sp.matmul(p, q, nse=need - 1).todense()  # noqa: E731
    err, out = jax.jit(ck.checkify(small))(a, b)
    assert err.get().startswith(f"sparse @ sparse: the operands make {need} products, "
                                f"more than the nse={need - 1} given")
    assert np.isnan(np.asarray(jax.jit(small)(a, b))).any()
    with pytest.raises(ValueError, match=f"at least {need}"):
        sp.matmul(a, b, nse=need - 1)


def test_batched_dot_general():
    rng = np.random.default_rng(4)
    x = rng.standard_normal((3, 4, 5)) * (rng.uniform(size=(3, 4, 5)) < 0.5)
    m = sp.bcoo_fromdense(x, n_batch=1)
    y = rng.standard_normal((3, 5, 2))
    np.testing.assert_allclose(np.asarray(m @ y), x @ y, rtol=1e-12)
    np.testing.assert_allclose(np.asarray(m @ y[0]), x @ y[0], rtol=1e-12)
    w = rng.standard_normal((5,))
    np.testing.assert_allclose(np.asarray(m @ w), x @ w, rtol=1e-12)
    # contract a batch dim and a sparse dim
    dn = (((0, 2), (0, 1)), ((), ()))
    z = rng.standard_normal((3, 5, 6))
    np.testing.assert_allclose(np.asarray(sp.dot_general(m, z, dn)),
                               np.einsum("bij,bjk->ik", x, z), rtol=1e-12)
    md = sp.bcoo_fromdense(x, n_dense=1)
    np.testing.assert_allclose(np.asarray(md @ w), x @ w, rtol=1e-12)
    np.testing.assert_allclose(np.asarray(sp.dot_general(md, y[0], (((2,), (0,)), ((), ())))),
                               x @ y[0], rtol=1e-12)
    c = sp.bcsr_fromdense(x, n_batch=1)
    np.testing.assert_allclose(np.asarray(c @ y), x @ y, rtol=1e-12)
    np.testing.assert_allclose(np.asarray(np.swapaxes(y, 1, 2) @ m.transpose((0, 2, 1))),
                               np.swapaxes(y, 1, 2) @ np.swapaxes(x, 1, 2), rtol=1e-12)


@pytest.mark.usefixtures("jax_x64")  # NumPy float64 given to jax's own transformations
@pytest.mark.parametrize("fmt", FORMATS)
def test_matmul_jit_vmap_and_gradients(fmt):
    rng = np.random.default_rng(5)
    m, dense = make(fmt, rng, (5, 4), padding=True)
    x = rng.standard_normal(4)
    f = jax.jit(lambda a, v: (a @ v)._value)
    np.testing.assert_allclose(np.asarray(f(m, x)), dense @ x, rtol=1e-12)
    # reverse mode w.r.t. values and dense operand, vs the dense computation
    mb = m.tobcoo() if fmt == "bcsr" else m

    def loss_sparse(data, v):
        a = mb._with_data(data)
        return jnp.sum(jnp.sin((a @ v)._value) + (v @ a.T)._value ** 2)

    def loss_dense(data, v):
        a = mb._with_data(data).todense()._value
        return jnp.sum(jnp.sin(a @ v) + (v @ a.T) ** 2)

    gs = jax.grad(loss_sparse, argnums=(0, 1))(mb.data, x)
    gd = jax.grad(loss_dense, argnums=(0, 1))(mb.data, x)
    for a, b in zip(gs, gd):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-10, atol=1e-12)
    t = jnp.ones_like(mb.data)
    js = jax.jvp(lambda d: (mb._with_data(d) @ x)._value, (mb.data,), (t,))[1]
    jd = jax.jvp(lambda d: mb._with_data(d).todense()._value @ x, (mb.data,), (t,))[1]
    np.testing.assert_allclose(np.asarray(js), np.asarray(jd), rtol=1e-12)
    xs = rng.standard_normal((3, 4))
    out = jax.vmap(lambda v: (m @ v)._value)(xs)
    np.testing.assert_allclose(np.asarray(out), xs @ dense.T, rtol=1e-12)
