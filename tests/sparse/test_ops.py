import jax
import jax.numpy as jnp
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import laxarray as la
import laxarray.sparse as sp
from sparse_cases import DTYPES, make, random_values, tol

FORMATS = ["bcoo", "bcsr"]
SHAPES = [(3, 4), (1, 5)]


def dn(x):
    return np.asarray(x.todense()) if hasattr(x, "todense") else np.asarray(x)


@pytest.mark.parametrize("fmt", FORMATS)
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**31), shape=st.sampled_from(SHAPES),
       dtype=st.sampled_from(DTYPES))
def test_elementwise_against_dense(fmt, seed, shape, dtype):
    rng = np.random.default_rng(seed)
    a, da = make(fmt, rng, shape, dtype)
    b, db = make(fmt, rng, shape, dtype)
    t = tol(dtype)
    row = random_values(rng, shape[1], dtype)
    col = random_values(rng, shape[0], dtype).reshape(-1, 1)
    full = random_values(rng, int(np.prod(shape)), dtype).reshape(shape)
    for res, want in [(a + b, da + db), (a - b, da - db), (a * b, da * db),
                      (a * row, da * row), (col * a, col * da), (a * full, da * full),
                      (a * 2.5, da * 2.5), (a / 2.0, da / 2.0), (a + full, da + full),
                      (full - a, full - da), (-a, -da), (abs(a), np.abs(da)),
                      (a.conj(), np.conj(da)), (a.real, np.real(da)), (a.imag, np.imag(da)),
                      (sp.sin(a), np.sin(da)), (sp.expm1(a), np.expm1(da)),
                      (a.astype(np.complex128), da.astype(np.complex128)),
                      (a.map_values(lambda v: v * 3), da * 3)]:
        np.testing.assert_allclose(dn(res), want, **t)
    assert isinstance(a + b, type(a)) and isinstance(a * row, type(a))
    assert isinstance(a + full, la.Array)
    if dtype != np.complex128:
        for res, want in [(sp.maximum(a, 0), np.maximum(da, 0)),
                          (sp.minimum(a, 0.0), np.minimum(da, 0)),
                          (sp.maximum(a, b), np.maximum(da, db)),
                          (sp.minimum(a, b), np.minimum(da, db)),
                          (a.max(), da.max()), (a.min(axis=0), da.min(axis=0)),
                          (a.max(axis=1), da.max(axis=1))]:
            np.testing.assert_allclose(dn(res), want, **t)
    nz = np.where(np.abs(full) > 0.1, full, 1.0)
    np.testing.assert_allclose(dn(a / nz), da / nz, **t)


@pytest.mark.parametrize("fmt", FORMATS)
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**31), shape=st.sampled_from(SHAPES))
def test_shape_ops_against_dense(fmt, seed, shape):
    rng = np.random.default_rng(seed)
    a, da = make(fmt, rng, shape)
    n, m = shape
    checks = [(a.T, da.T), (a.sum(0), da.sum(0)), (a.sum(1), da.sum(1)), (a.sum(), da.sum()),
              (a.reshape(m, n), da.reshape(m, n)), (a.reshape(-1), da.reshape(-1)),
              (a[1:, ::2], da[1:, ::2]), (a[-1], da[-1]), (a[:, 0], da[:, 0]),
              (a[..., 1:], da[..., 1:]),
              (sp.concatenate([a, a], 0), np.concatenate([da, da], 0)),
              (sp.concatenate([a, a], 1), np.concatenate([da, da], 1)),
              (sp.broadcast_in_dim(a, (2, n, m), (1, 2)), np.broadcast_to(da, (2, n, m))),
              (sp.slice(a, (0, 1), (n, m), (2, 1)), da[0:n:2, 1:m]),
              (sp.dynamic_slice(a, (1, 0), (n - 1, 1)), da[1:, :1]),
              (sp.dynamic_slice(a, (10, 10), (1, 1)), da[n - 1:, m - 1:])]
    for res, want in checks:
        np.testing.assert_allclose(dn(res), want, rtol=1e-12, atol=1e-12)
    if n == 1:
        np.testing.assert_allclose(dn(sp.squeeze(a, 0)), da[0])
    f = jax.jit(lambda s, i: sp.dynamic_slice(s, (i, 0), (1, m)).todense()._value)
    np.testing.assert_allclose(np.asarray(f(a, n - 1)), da[n - 1:], rtol=1e-12)


def test_batched_and_dense_layout_ops():
    rng = np.random.default_rng(2)
    x = rng.standard_normal((2, 3, 4, 2)) * (rng.uniform(size=(2, 3, 4, 2)) < 0.4)
    m = sp.bcoo_fromdense(x, n_batch=1, n_dense=1)
    for res, want in [(m.sum((0, 3)), x.sum((0, 3))), (m.sum(2), x.sum(2)),
                      (m.transpose((0, 2, 1, 3)), x.transpose((0, 2, 1, 3))),
                      (m.transpose((3, 1, 0, 2)), x.transpose((3, 1, 0, 2))),
                      (m[1, :, 2:], x[1, :, 2:]), (m * x[0, :, :, :1], x * x[0, :, :, :1]),
                      (m + m, 2 * x), (m * m, x * x), (m.reshape(6, 8), x.reshape(6, 8)),
                      (sp.extract(m, x + 1.0), (x + 1.0) * np.any(x != 0, axis=-1, keepdims=True))]:
        np.testing.assert_allclose(dn(res), want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("fmt", FORMATS)
def test_extract_and_sddmm(fmt):
    rng = np.random.default_rng(7)
    s, ds = make(fmt, rng, (5, 4), duplicates=False, padding=True)
    pattern = (ds != 0)
    y = rng.standard_normal((5, 4))
    e = sp.extract(s, y)
    assert type(e) is type(s)
    np.testing.assert_allclose(dn(e), y * pattern, rtol=1e-12)
    A = rng.standard_normal((5, 3))
    B = rng.standard_normal((3, 4))
    r = sp.dot_general_sampled(A, B, s, (((1,), (0,)), ((), ())))
    assert type(r) is type(s)
    np.testing.assert_allclose(dn(r), (A @ B) * pattern, rtol=1e-12)


@pytest.mark.usefixtures("jax_x64")  # NumPy float64 given to jax's own transformations
def test_elementwise_under_jit_and_grad():
    rng = np.random.default_rng(8)
    a, da = make("bcoo", rng, (4, 5))
    b, db = make("bcoo", rng, (4, 5))
    f = jax.jit(lambda p, q: (p + q).todense()._value)
    np.testing.assert_allclose(np.asarray(f(a, b)), da + db, rtol=1e-12)
    row = rng.standard_normal(5)

    def ls(d, r):
        s = a._with_data(d)
        return jnp.sum(((s * r) + b).todense()._value ** 2) + s.sum()._value

    def ld(d, r):
        s = a._with_data(d).todense()._value
        return jnp.sum((s * r + db) ** 2) + s.sum()

    for g1, g2 in zip(jax.grad(ls, (0, 1))(a.data, row), jax.grad(ld, (0, 1))(a.data, row)):
        np.testing.assert_allclose(np.asarray(g1), np.asarray(g2), rtol=1e-10, atol=1e-12)


def test_errors():
    a = sp.BCOO.fromdense(np.eye(3))
    b = sp.BCOO.fromdense(np.eye(4))
    with pytest.raises(ValueError):
        a + b
    with pytest.raises(ValueError):
        a.reshape(5)
    with pytest.raises(IndexError):
        a[3]
    with pytest.raises(ValueError):
        sp.squeeze(a, 0)
    with pytest.raises(TypeError):
        sp.sin(np.ones(3))


def test_dense_operands_are_a_typeerror_naming_the_function():
    d = la.asarray([[1.0, 2.0], [3.0, 4.0]])
    for f in (sp.multiply, sp.divide):
        with pytest.raises(TypeError, match=rf"^{f.__name__}: expected a BCOO or BCSR for "
                                            r"'x1' or 'x2'.*got Array of dtype float64"):
            f(d, d)
    for f in (sp.sort_indices, sp.sum_duplicates, sp.eliminate_zeros):
        with pytest.raises(TypeError, match=rf"^{f.__name__}: expected a BCOO or BCSR for "
                                            r"'mat'"):
            f(d)


@pytest.mark.parametrize("fmt", FORMATS)
def test_shapes_that_do_not_broadcast_are_numpys_valueerror(fmt):
    a = sp.fromdense(np.eye(2), format=fmt)
    for f in (sp.multiply, sp.divide):
        with pytest.raises(ValueError) as np_exc:
            getattr(np, f.__name__)(np.eye(2), np.ones((3, 3)))
        with pytest.raises(ValueError, match=rf"^{f.__name__}: expected shapes that "
                                             r"broadcast together") as exc:
            f(a, la.ones((3, 3)))
        assert "could not be broadcast together" in str(np_exc.value)
        assert "could not be broadcast together" in str(exc.value)


def test_bcoo_shape_not_of_ints_is_a_typeerror_as_numpy():
    for shape in ("a", (2.5, 2), ("a", 2)):
        with pytest.raises(TypeError):
            np.zeros(shape)
        with pytest.raises(TypeError, match=r"^BCOO: expected a sequence of ints for 'shape'"):
            sp.BCOO(([1.0], [[0, 0]]), shape=shape)
    with pytest.raises(TypeError, match=r"^BCOO: .*got Array of dtype float64"):
        sp.BCOO(([1.0], [0.5]), shape=(2, 2))    # the user's type, not jaxlib's ArrayImpl


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("jit", [False, True])
def test_boolean_sparse_arithmetic_is_scipys(fmt, jit):
    # + is logical or and * logical and (NumPy's and SciPy's booleans; lax has neither);
    # - of booleans is a TypeError, as NumPy's
    import scipy.sparse as ss
    rng = np.random.default_rng(7)
    a, b = rng.random((5, 6)) < 0.4, rng.random((5, 6)) < 0.4
    cls = sp.BCOO if fmt == "bcoo" else sp.BCSR
    A, B = cls.fromdense(la.asarray(a)), cls.fromdense(la.asarray(b))
    run = jax.jit if jit else (lambda f: f)
    sa, sb = ss.csr_array(a), ss.csr_array(b)
    for op, want in [(lambda p, q: p + q, sa + sb), (lambda p, q: p * q, sa.multiply(sb))]:
        got = dn(run(op)(A, B))
        assert got.dtype == np.bool_
        np.testing.assert_array_equal(got, want.toarray())
    with pytest.raises(TypeError, match="subtract"):
        A - B
