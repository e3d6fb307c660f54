"""Product layouts travel with the matrix (ops/ell.py): a BCOO/BCSR passed to ``jax.jit``,
carried through ``lax.scan``/``while_loop``/``cond`` or differentiated with respect to its
data runs the layout kernel, and gives the dense (NumPy/SciPy) answer.

Which kernel ran is read from the kernel helper's spy (the ``kernels_run`` fixture): the
layout path runs ``_vals_product_kernel`` (values in layout order) or ``_positions_kernel``
(values gathered from ``data``), the general path ``_sparse_dense_kernel``.
"""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import scipy.sparse as sps
from jax import lax

import laxarray.sparse as sp

# this module's own jax code (jax.jit/grad/vmap on NumPy float64 values, jax.numpy oracles)
# is a 64-bit jax program: see the jax_x64 fixture (tests/conftest.py)
pytestmark = pytest.mark.usefixtures("jax_x64")

FORMATS = ["bcoo", "bcsr"]
TOL = dict(rtol=1e-12, atol=1e-12)


def _matrix(fmt, n_rows=30, n_cols=40, seed=0, long_rows=2):
    """A random matrix with a few long rows (so the layout has chunks), as (ours, dense)."""
    rng = np.random.default_rng(seed)
    dense = np.where(rng.random((n_rows, n_cols)) < 0.1, rng.standard_normal((n_rows, n_cols)),
                     0.0)
    for r in rng.choice(n_rows, long_rows, replace=False):
        dense[r, rng.choice(n_cols, n_cols // 2, replace=False)] = rng.standard_normal(
            n_cols // 2)
    a = sps.csr_array(dense)
    ours = sp.BCOO.from_scipy_sparse(a) if fmt == "bcoo" else sp.BCSR.from_scipy_sparse(a)
    return ours, dense


LAYOUT_KERNELS = {"_vals_product_kernel", "_positions_kernel"}


def _layout_ran(names):
    return bool(LAYOUT_KERNELS & set(names)) and "_sparse_dense_kernel" not in names


@pytest.mark.parametrize("fmt", FORMATS)
def test_matrix_as_jit_argument_runs_the_layout_kernel(fmt, kernels_run):
    m, dense = _matrix(fmt)
    rng = np.random.default_rng(1)
    x, X = rng.standard_normal(40), rng.standard_normal((40, 3))
    y, Y = rng.standard_normal(30), rng.standard_normal((2, 30))
    cases = [(lambda a, v: a @ v, x, dense @ x), (lambda a, v: a @ v, X, dense @ X),
             (lambda a, v: a.T @ v, y, dense.T @ y), (lambda a, v: v @ a, Y, Y @ dense),
             (lambda a, v: v @ a.T, x, x @ dense.T)]
    for op, v, want in cases:
        before = len(kernels_run())
        got = jax.jit(lambda a, v, op=op: op(a, v)._value)(m, v)
        np.testing.assert_allclose(np.asarray(got), want, **TOL)
        assert _layout_ran(kernels_run()[before:])


@pytest.mark.parametrize("fmt", FORMATS)
def test_pytree_holds_the_layout_and_round_trips(fmt):
    m, dense = _matrix(fmt)
    leaves, tree = jax.tree_util.tree_flatten(m)
    # two layouts of five index arrays and two value arrays each
    assert len(leaves) == len(m._leaves()) + 14
    back = jax.tree_util.tree_unflatten(tree, leaves)
    x = np.arange(40.0)
    np.testing.assert_allclose(np.asarray(back @ x), dense @ x, **TOL)
    # same pattern, new values: the layout still applies (positions into data)
    scaled = m * 3.0
    assert jax.tree_util.tree_structure(scaled) == tree
    np.testing.assert_allclose(np.asarray(scaled @ x), 3.0 * dense @ x, **TOL)


@pytest.mark.parametrize("fmt", FORMATS)
def test_scan_while_and_cond_carry_the_matrix(fmt, kernels_run):
    m, dense = _matrix(fmt, n_rows=40, n_cols=40, seed=2)
    v0 = np.ones(40)

    def step(carry, _):
        a, v = carry
        w = (a @ v)._value
        return (a * 0.5, w / jnp.linalg.norm(w)), jnp.sum(w)

    (_, v), sums = jax.jit(lambda a, v: lax.scan(step, (a, v), None, length=4))(m, v0)
    want_v, want_sums, d = v0, [], dense
    for _ in range(4):
        w = d @ want_v
        want_sums.append(w.sum())
        want_v, d = w / np.linalg.norm(w), d * 0.5
    np.testing.assert_allclose(np.asarray(v), want_v, rtol=1e-10)
    np.testing.assert_allclose(np.asarray(sums), want_sums, rtol=1e-10)
    assert _layout_ran(kernels_run())

    def power(a, v):
        def body(c):
            i, u = c
            w = (a @ u)._value
            return i + 1, w / jnp.linalg.norm(w)
        return lax.while_loop(lambda c: c[0] < 5, body, (0, v))[1]
    u = v0
    for _ in range(5):
        u = dense @ u
        u = u / np.linalg.norm(u)
    np.testing.assert_allclose(np.asarray(jax.jit(power)(m, v0)), u, rtol=1e-10)

    pick = jax.jit(lambda p, a, v: (lax.cond(p, lambda: a, lambda: a * 2.0) @ v)._value)
    np.testing.assert_allclose(np.asarray(pick(True, m, v0)), dense @ v0, **TOL)
    np.testing.assert_allclose(np.asarray(pick(False, m, v0)), 2 * dense @ v0, **TOL)


@pytest.mark.parametrize("fmt", FORMATS)
def test_gradient_with_respect_to_data(fmt, kernels_run):
    m, dense = _matrix(fmt, seed=3)
    rng = np.random.default_rng(4)
    x, r = rng.standard_normal(40), rng.standard_normal(30)
    rows, cols = np.nonzero(dense)              # storage order of a canonical CSR
    make = ((lambda d: sp.BCOO((d, m.indices), shape=m.shape)) if fmt == "bcoo" else
            (lambda d: sp.BCSR((d, m.indices, m.indptr), shape=m.shape)))

    def loss(d):
        return jnp.sum(jnp.tanh((make(d) @ x)._value) * r)
    g = jax.jit(jax.grad(loss))(m.data)
    y = dense @ x
    want = (r / np.cosh(y) ** 2)[rows] * x[cols]
    np.testing.assert_allclose(np.asarray(g), want, rtol=1e-10, atol=1e-12)
    assert _layout_ran(kernels_run())
    # the whole matrix as the argument: its data gets the same cotangent
    ga = jax.grad(lambda a: jnp.sum(jnp.tanh((a @ x)._value) * r), allow_int=True)(m)
    np.testing.assert_allclose(np.asarray(ga.data), want, rtol=1e-10, atol=1e-12)
    # transposed product, forward mode, and vmap over dense operands with the matrix fixed
    gt = jax.grad(lambda d: jnp.sum((make(d).T @ r)._value * x))(m.data)
    np.testing.assert_allclose(np.asarray(gt), r[rows] * x[cols], rtol=1e-10, atol=1e-12)
    t = rng.standard_normal(m.data.shape)
    _, tan = jax.jvp(lambda d: (make(d) @ x)._value, (m.data,), (jnp.asarray(t),))
    dt = np.zeros_like(dense)
    dt[rows, cols] = t
    np.testing.assert_allclose(np.asarray(tan), dt @ x, rtol=1e-10, atol=1e-12)
    xs = rng.standard_normal((3, 40))
    out = jax.jit(jax.vmap(lambda a, v: (a @ v)._value, in_axes=(None, 0)))(m, xs)
    np.testing.assert_allclose(np.asarray(out), xs @ dense.T, rtol=1e-10, atol=1e-12)


def test_traced_structure_takes_the_general_path(kernels_run):
    m, dense = _matrix("bcoo", seed=5)
    x = np.arange(40.0)
    f = jax.jit(lambda d, i: (sp.BCOO((d, i), shape=(30, 40)) @ x)._value)
    np.testing.assert_allclose(np.asarray(f(m.data, m.indices)), dense @ x, **TOL)
    names = kernels_run()
    assert "_sparse_dense_kernel" in names and not LAYOUT_KERNELS & set(names)


@pytest.mark.parametrize("shape", [(3, 4), (0, 5), (5, 0)])
@pytest.mark.parametrize("fmt", FORMATS)
def test_matrices_without_entries(fmt, shape):
    a = sps.csr_array(shape)
    m = sp.BCOO.from_scipy_sparse(a) if fmt == "bcoo" else sp.BCSR.from_scipy_sparse(a)
    x = np.ones(shape[1])
    y = np.ones(shape[0])
    np.testing.assert_array_equal(np.asarray(jax.jit(lambda b: (b @ x)._value)(m)),
                                  np.zeros(shape[0]))
    np.testing.assert_array_equal(np.asarray(m.T @ y), np.zeros(shape[1]))


def test_bcsr_transpose_with_padding_and_duplicates_matches_scipy():
    # entries past indptr[-1] are padding; a duplicate (row 1, column 2) is summed
    data = np.array([1.0, 2.0, 3.0, 4.0, 5.0, 9.0, 9.0])
    indices = np.array([3, 2, 2, 0, 1, 0, 0])
    indptr = np.array([0, 1, 3, 5])
    m = sp.BCSR((data, indices, indptr), shape=(3, 4))
    dense = sps.csr_array((data[:5], indices[:5], indptr), shape=(3, 4)).toarray()
    t = m.T
    assert isinstance(t, sp.BCSR) and t.shape == (4, 3)
    np.testing.assert_array_equal(np.asarray(t.todense()), dense.T)
    assert np.all(np.diff(np.asarray(t.indptr)) >= 0)
    y = np.array([1.0, -2.0, 0.5])
    np.testing.assert_allclose(np.asarray(t @ y), dense.T @ y, **TOL)
    traced = jax.jit(lambda a: a.T.todense()._value)(m)
    np.testing.assert_array_equal(np.asarray(traced), dense.T)


@pytest.mark.parametrize("fmt", FORMATS)
def test_with_layout(fmt):
    m, _ = _matrix(fmt)
    assert m.with_layout() is m and len(jax.tree_util.tree_leaves(m)) > len(m._leaves())
    batched = sp.bcoo_fromdense(np.ones((2, 3, 3)), n_batch=1)
    with pytest.raises(ValueError, match="with_layout"):
        batched.with_layout()
    idx = m.indices if fmt == "bcoo" else sp.BCOO.from_scipy_sparse(
        sps.csr_array(np.eye(3))).indices
    with pytest.raises(ValueError, match="with_layout.*traced"):
        jax.jit(lambda i: sp.BCOO((jnp.ones(i.shape[0]), i), shape=(30, 40))
                .with_layout().data)(idx)


@pytest.mark.parametrize("fmt", FORMATS)
def test_solvers_with_the_matrix_as_jit_argument_run_the_layout_kernel(fmt, kernels_run):
    # a 2-D Poisson matrix: cg (A @ p) and lsqr (A @ v and A.T @ u) on the layout path
    k = 12
    t = sps.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(k, k))
    a = sps.csr_array(sps.kron(sps.eye(k), t) + sps.kron(t, sps.eye(k)))
    m = sp.BCOO.from_scipy_sparse(a) if fmt == "bcoo" else sp.BCSR.from_scipy_sparse(a)
    b = np.random.default_rng(7).standard_normal(k * k)
    want = np.linalg.solve(a.toarray(), b)
    x, info = jax.jit(lambda mat, v: tuple(r._value for r in sp.linalg.cg(mat, v,
                                                                          tol=1e-12)))(m, b)
    assert int(info) == 0
    np.testing.assert_allclose(np.asarray(x), want, rtol=1e-8, atol=1e-10)
    xl = jax.jit(lambda mat, v: sp.linalg.lsqr(mat, v, atol=1e-14, btol=1e-14)[0]._value)(m, b)
    np.testing.assert_allclose(np.asarray(xl), want, rtol=1e-6, atol=1e-8)
    assert _layout_ran(kernels_run())


@pytest.mark.parametrize("fmt", FORMATS)
def test_pytree_structure_is_fixed_at_creation(fmt, kernels_run):
    # jax caches the structure of what a jitted function returns, so a matrix's structure
    # never changes after it is created: one returned by jit without layouts keeps none
    m, dense = _matrix(fmt, seed=8)
    x = np.arange(40.0)
    double = jax.jit(lambda a: a + a)
    out = double(m)
    tree = jax.tree_util.tree_structure(out)
    assert len(jax.tree_util.tree_leaves(out)) == len(out._leaves())
    np.testing.assert_allclose(np.asarray(out @ x), 2 * dense @ x, **TOL)
    assert jax.tree_util.tree_structure(out) == tree
    again = double(m)                       # jax's cached call path sees the same structure
    np.testing.assert_allclose(np.asarray(again.todense()), 2 * dense, **TOL)
    fast = out.with_layout()
    assert fast is not out and jax.tree_util.tree_structure(out) == tree
    assert len(jax.tree_util.tree_leaves(fast)) == len(fast._leaves()) + 14
    before = len(kernels_run())
    np.testing.assert_allclose(np.asarray(jax.jit(lambda a: (a @ x)._value)(fast)),
                               2 * dense @ x, **TOL)
    assert _layout_ran(kernels_run()[before:])


@pytest.mark.parametrize("fmt", FORMATS)
def test_eager_products_build_only_the_layout_they_use(fmt):
    from laxarray.sparse.ops import ell
    m, dense = _matrix(fmt, seed=9)
    x, y = np.arange(40.0), np.arange(30.0)
    np.testing.assert_allclose(np.asarray(m @ x), dense @ x, **TOL)
    assert m._layouts[1] is ell.PENDING                  # A.T's layout not sorted for yet
    np.testing.assert_allclose(np.asarray(y @ m), y @ dense, **TOL)
    assert all(isinstance(p, ell.Layout) for p in m._layouts)
    fresh, _ = _matrix(fmt, seed=9)
    assert len(jax.tree_util.tree_leaves(fresh)) == len(fresh._leaves()) + 14  # both built
