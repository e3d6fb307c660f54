"""Row-sharded sparse matrices (``sparse.shard_rows``): products as ``shard_map`` kernels, the
Krylov solvers and ``sparsify`` on them.  The oracles are SciPy/NumPy and the same operation
on the single-device matrix; float64 results agree to 1e-12 (products) and 1e-10 (solvers)."""

import re

import jax
import numpy as np
import pytest
import scipy.sparse as sps
from jax.sharding import Mesh, NamedSharding, PartitionSpec

import laxarray as la
import laxarray.sparse as sp

DEVICES = np.array(jax.devices()[:8])
#: (mesh shape, axis names, the axis the rows are split over)
MESHES = {
    "8": ((8,), ("x",), "x"),
    "4x2-rows": ((4, 2), ("r", "c"), "r"),
    "4x2-cols": ((4, 2), ("r", "c"), "c"),
    "4x2-both": ((4, 2), ("r", "c"), ("r", "c")),
}


def make_mesh(key):
    shape, names, axis = MESHES[key]
    return Mesh(DEVICES.reshape(shape), names), axis


def random_matrix(n_rows, n_cols, seed):
    """float64 with some empty rows (first, last and every seventh)."""
    S = sps.random(n_rows, n_cols, density=0.15, random_state=seed, format="lil")
    for r in list(range(0, n_rows, 7)) + [n_rows - 1]:
        S[r, :] = 0
    return S.tocsr()


def convert(S, fmt):
    if fmt == "bcoo-unsorted":
        coo = S.tocoo()
        perm = np.random.default_rng(1).permutation(coo.nnz)
        idx = np.stack([coo.row[perm], coo.col[perm]], axis=1)
        return sp.BCOO((coo.data[perm], idx), shape=S.shape)
    return sp.from_scipy_sparse(S, format=fmt)


def poisson(m):
    T = sps.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(m, m))
    return (sps.kron(sps.eye(m), T) + sps.kron(T, sps.eye(m))).tocsr()


def close(got, want, rtol=1e-12):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol * max(1.0, np.abs(want).max()))


RNG = np.random.default_rng(0)
N_ROWS, N_COLS = 61, 37           # 61: not a multiple of 8, 4 or 2
S = random_matrix(N_ROWS, N_COLS, 0)
X = RNG.standard_normal(N_COLS)
XK = RNG.standard_normal((N_COLS, 3))
Y = RNG.standard_normal(N_ROWS)
YK = RNG.standard_normal((N_ROWS, 3))

PRODUCTS = [
    ("A@x", lambda A, v: A @ v, X, lambda: S @ X),
    ("A@X", lambda A, v: A @ v, XK, lambda: S @ XK),
    ("A.T@y", lambda A, v: A.T @ v, Y, lambda: S.T @ Y),
    ("A.T@Y", lambda A, v: A.T @ v, YK, lambda: S.T @ YK),
    ("y@A", lambda A, v: v @ A, Y, lambda: Y @ S),
    ("Y.T@A", lambda A, v: v.T @ A, YK, lambda: YK.T @ S),
    ("x@A.T", lambda A, v: v @ A.T, X, lambda: S @ X),
]


@pytest.mark.parametrize("fmt", ["bcsr", "bcoo", "bcoo-unsorted"])
@pytest.mark.parametrize("mesh_key", list(MESHES))
@pytest.mark.parametrize("jitted", [False, True], ids=["eager", "jit"])
def test_products_equal_scipy_and_one_device(fmt, mesh_key, jitted):
    mesh, axis = make_mesh(mesh_key)
    A = convert(S, fmt)
    R = sp.shard_rows(A, mesh, axis)
    assert isinstance(R, sp.RowSharded) and R.shape == S.shape and R.dtype == np.float64
    for name, f, v, oracle in PRODUCTS:
        g = jax.jit(f) if jitted else f       # the sharded matrix is a jit argument
        out = g(R, la.asarray(v))
        assert isinstance(out, la.Array), name
        close(out, oracle())
        close(out, f(A, la.asarray(v)))


@pytest.mark.parametrize("fmt", ["bcsr", "bcoo"])
def test_leaves_are_row_blocks_on_the_mesh_axis(fmt):
    mesh, axis = make_mesh("8")
    R = sp.shard_rows(convert(S, fmt), mesh, axis)
    assert R.num_blocks == 8 and R.rows_per_block == 8      # ceil(61 / 8)
    for leaf in jax.tree_util.tree_leaves(R):
        assert leaf.shape[0] == 8
        assert leaf.sharding.is_equivalent_to(NamedSharding(mesh, PartitionSpec("x")), leaf.ndim)
    assert R.nse == max(np.diff(S.indptr)[i * 8:(i + 1) * 8].sum() for i in range(8))
    back = R.gather()
    assert type(back).__name__ == fmt.upper()
    assert (back.to_scipy_sparse() != S).nnz == 0
    close(R.todense(), S.toarray())


@pytest.mark.parametrize("mesh_key", ["8", "4x2-rows", "4x2-both"])
@pytest.mark.parametrize("jitted", [False, True], ids=["eager", "jit"])
def test_spmv_result_is_row_sharded(mesh_key, jitted):
    mesh, axis = make_mesh(mesh_key)
    S64 = random_matrix(64, N_COLS, 3)
    R = sp.shard_rows(sp.from_scipy_sparse(S64, format="bcsr"), mesh, axis)
    f = (jax.jit if jitted else (lambda g: g))(lambda A, v: A @ v)
    out = f(R, la.asarray(X))
    rows = NamedSharding(mesh, PartitionSpec(axis))
    assert out.sharding.is_equivalent_to(rows, 1)
    assert f(R, la.asarray(XK)).sharding.is_equivalent_to(rows, 2)
    assert R.todense().sharding.is_equivalent_to(rows, 2)
    close(out, S64 @ X)


def test_uneven_rows_give_a_replicated_result():
    # jax holds no unevenly sharded array: 61 rows over 8 devices come back replicated
    mesh, axis = make_mesh("8")
    R = sp.shard_rows(sp.from_scipy_sparse(S), mesh, axis)
    out = R @ la.asarray(X)
    assert out.sharding.is_fully_replicated
    close(out, S @ X)


def _gathered_shapes(hlo):
    return re.findall(r"= (\S+) all-gather\(", hlo)


@pytest.mark.parametrize("fmt", ["bcsr", "bcoo"])
@pytest.mark.parametrize("n_rows", [64, 61])
@pytest.mark.usefixtures("jax_x64")   # its own jax.device_put of a NumPy float64 vector
def test_compiled_products_do_not_gather_the_matrix(fmt, n_rows):
    mesh, axis = make_mesh("8")
    Sn = random_matrix(n_rows, N_COLS, 4)
    R = sp.shard_rows(sp.from_scipy_sparse(Sn, format=fmt), mesh, axis)
    x, y = la.asarray(X), la.asarray(RNG.standard_normal(n_rows))
    spmv = jax.jit(lambda A, v: A @ v).lower(R, x).compile().as_text()
    rmv = jax.jit(lambda A, v: A.T @ v).lower(R, y).compile().as_text()
    assert "all-to-all" not in spmv and "all-to-all" not in rmv
    assert _gathered_shapes(rmv) == []
    assert "all-reduce" in rmv                      # the one psum of A.T @ y
    if n_rows == 64:
        assert _gathered_shapes(spmv) == []
    else:   # only the 64-row padded result is gathered (to a replicated (61,) array)
        assert all(s.startswith("f64[64]") for s in _gathered_shapes(spmv))
    # a row-sharded x is gathered (a vector of n_cols), never the matrix
    xs = jax.device_put(np.asarray(RNG.standard_normal(64)), NamedSharding(mesh, PartitionSpec("x")))
    S2 = sp.shard_rows(sp.from_scipy_sparse(random_matrix(64, 64, 5), format=fmt), mesh, axis)
    hlo = jax.jit(lambda A, v: A @ v).lower(S2, xs).compile().as_text()
    assert all(s.startswith("f64[64]") for s in _gathered_shapes(hlo))


# ---- solvers ------------------------------------------------------------------------------
P11 = poisson(11)                      # 121 unknowns: not a multiple of 8
B11 = np.random.default_rng(2).standard_normal(P11.shape[0])


@pytest.mark.parametrize("solver", ["cg", "gmres", "bicgstab"])
@pytest.mark.parametrize("fmt", ["bcsr", "bcoo"])
@pytest.mark.parametrize("jitted", [False, True], ids=["eager", "jit"])
def test_krylov_solvers_match_one_device(solver, fmt, jitted):
    mesh, axis = make_mesh("8")
    A = sp.from_scipy_sparse(P11, format=fmt)
    R = sp.shard_rows(A, mesh, axis)
    b = la.asarray(B11)

    def solve(M, rhs):
        return getattr(sp.linalg, solver)(M, rhs, tol=1e-11)
    run = jax.jit(solve) if jitted else solve
    x1, info1 = run(A, b)
    x8, info8 = run(R, b)
    assert int(info8) == int(info1) == 0
    close(x8, x1, rtol=1e-10)
    close(P11 @ np.asarray(x8), B11, rtol=1e-9)


def test_cg_with_a_sharded_preconditioner_and_few_iterations():
    mesh, axis = make_mesh("4x2-rows")
    A = sp.from_scipy_sparse(P11, format="bcsr")
    Minv = sp.from_scipy_sparse(sps.diags(1.0 / P11.diagonal()).tocsr(), format="bcsr")
    R, RM = sp.shard_rows(A, mesh, axis), sp.shard_rows(Minv, mesh, axis)
    b = la.asarray(B11)
    x1, info1 = sp.linalg.cg(A, b, tol=1e-11, M=Minv)
    x8, info8 = sp.linalg.cg(R, b, tol=1e-11, M=RM)
    assert int(info8) == int(info1) == 0
    close(x8, x1, rtol=1e-10)
    _, k1 = sp.linalg.cg(A, b, maxiter=3)
    _, k8 = sp.linalg.cg(R, b, maxiter=3)
    assert int(k8) == int(k1) == 3


@pytest.mark.parametrize("fmt", ["bcsr", "bcoo"])
@pytest.mark.parametrize("jitted", [False, True], ids=["eager", "jit"])
def test_lsqr_matches_one_device(fmt, jitted):
    mesh, axis = make_mesh("4x2-both")
    tall = sps.vstack([P11, sps.eye(P11.shape[0]) * 0.5]).tocsr()    # 242 x 121
    b = la.asarray(np.random.default_rng(3).standard_normal(tall.shape[0]))
    A = sp.from_scipy_sparse(tall, format=fmt)
    R = sp.shard_rows(A, mesh, axis)

    def solve(M, rhs):
        return sp.linalg.lsqr(M, rhs, atol=1e-12, btol=1e-12)
    run = jax.jit(solve) if jitted else solve
    r1, r8 = run(A, b), run(R, b)
    assert int(r8.istop) == int(r1.istop) and int(r8.itn) == int(r1.itn)
    close(r8.x, r1.x, rtol=1e-10)
    want = np.linalg.lstsq(tall.toarray(), np.asarray(b), rcond=None)[0]
    close(r8.x, want, rtol=1e-9)


def test_lobpcg_matches_one_device():
    mesh, axis = make_mesh("8")
    T = sps.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(30, 30), format="csr")
    A = sp.BCSR.from_scipy_sparse(T)
    X0 = la.asarray(np.random.default_rng(0).standard_normal((30, 2)))
    theta1, _, i1 = sp.linalg.lobpcg_standard(A, X0)
    theta8, _, i8 = sp.linalg.lobpcg_standard(sp.shard_rows(A, mesh, axis), X0)
    assert int(i8) == int(i1)
    close(theta8, theta1, rtol=1e-10)


# ---- sparsify -----------------------------------------------------------------------------
def test_sparsify_runs_products_on_a_sharded_matrix():
    mesh, axis = make_mesh("8")
    R = sp.shard_rows(sp.from_scipy_sparse(S, format="bcsr"), mesh, axis)
    x, y = la.asarray(X), la.asarray(Y)
    f = sp.sparsify(lambda A, v, w: 2.0 * (A @ v) + 1.0 + la.sum(w @ A))
    want = 2.0 * (S @ X) + 1.0 + (Y @ S).sum()
    close(f(R, x, y), want)
    close(jax.jit(f)(R, x, y), want)
    close(sp.sparsify(lambda A, v: la.matmul(A.T, v))(R, y), S.T @ Y)
    with pytest.raises(NotImplementedError, match="reduce_sum.*row-sharded"):
        sp.sparsify(lambda A: la.sum(A, axis=1))(R)
    close(sp.sparsify(lambda A: la.sum(A, axis=1), densify=True)(R), np.asarray(S.sum(axis=1)).ravel())


# ---- conversions with a sharding ----------------------------------------------------------
@pytest.mark.parametrize("make", [
    lambda M, d: sp.BCOO.fromdense(M, device=d),
    lambda M, d: sp.BCSR.fromdense(M, device=d),
    lambda M, d: sp.fromdense(M, format="bcsr", device=d),
    lambda M, d: sp.from_scipy_sparse(S, device=d),
    lambda M, d: sp.BCSR.from_scipy_sparse(S, device=d),
], ids=["BCOO.fromdense", "BCSR.fromdense", "fromdense", "from_scipy_sparse",
        "BCSR.from_scipy_sparse"])
def test_conversions_take_a_row_sharding(make):
    mesh, axis = make_mesh("4x2-rows")
    R = make(la.asarray(S.toarray()), NamedSharding(mesh, PartitionSpec(axis, None)))
    assert isinstance(R, sp.RowSharded) and R.mesh is mesh and R.axis_name == axis
    close(R @ la.asarray(X), S @ X)
    with pytest.raises(ValueError, match="expected 'device' to be None or a jax.sharding"):
        make(la.asarray(S.toarray()), NamedSharding(mesh, PartitionSpec(None, axis)))


# ---- errors -------------------------------------------------------------------------------
def test_bad_arguments_are_refused_before_any_computation():
    mesh, _ = make_mesh("4x2-rows")
    A = sp.from_scipy_sparse(S)
    with pytest.raises(ValueError, match=r"^shard_rows: expected 'axis_name' among"):
        sp.shard_rows(A, mesh, "x")
    with pytest.raises(TypeError, match=r"^shard_rows: expected a mesh axis name"):
        sp.shard_rows(A, mesh, 0)
    with pytest.raises(TypeError, match=r"^shard_rows: expected a jax.sharding.Mesh for 'mesh'"):
        sp.shard_rows(A, "mesh", "r")
    with pytest.raises(TypeError, match=r"^shard_rows: expected a BCOO or BCSR for 'A'"):
        sp.shard_rows(la.asarray(S.toarray()), mesh, "r")
    cube = sp.BCOO.fromdense(la.ones((2, 3, 4)))
    with pytest.raises(ValueError, match=r"^shard_rows: expected a 2-D 'A'"):
        sp.shard_rows(cube, mesh, "r")
    batched = sp.BCOO.fromdense(la.ones((2, 3, 4)), n_batch=1)
    with pytest.raises(ValueError, match=r"^shard_rows: expected a 2-D 'A'"):
        sp.shard_rows(batched, mesh, "r")
    with pytest.raises(ValueError, match=r"^shard_rows: 'A' is traced"):
        jax.jit(lambda a: sp.shard_rows(a, mesh, "r"))(A)
    R = sp.shard_rows(A, mesh, "r")
    with pytest.raises(ValueError, match=r"^matmul: expected matching contracted sizes"):
        R @ la.ones(N_ROWS)
    with pytest.raises(TypeError, match=r"^matmul: expected a dense operand"):
        R @ A
    with pytest.raises(ValueError, match=r"^cg: expected 'A' of shape"):
        sp.linalg.cg(R, la.ones(N_ROWS))
