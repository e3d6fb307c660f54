"""sparsify rules for contractions, reductions, layout and indexing primitives: dot_general,
reduce_sum/max/min, transpose, reshape, squeeze, expand_dims/broadcast_in_dim, concatenate,
slice, dynamic_slice, gather, rev and 1-D conv_general_dilated — BCOO and BCSR."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax

from sparsify_cases import FORMATS, check, random_dense

# this module's own jax code (jax.jit/grad/vmap on NumPy float64 values, jax.numpy oracles)
# is a 64-bit jax program: see the jax_x64 fixture (tests/conftest.py)
pytestmark = pytest.mark.usefixtures("jax_x64")

SHAPE = (5, 4)


@pytest.mark.parametrize("fmt", FORMATS)
def test_dot_general(fmt):
    rng = np.random.default_rng(10)
    x, y = random_dense(rng, SHAPE), random_dense(rng, (4, 3))
    v, u, m = rng.standard_normal(4), rng.standard_normal(5), rng.standard_normal((4, 3))

    def f(x, y, v, u, m):
        return (x @ v, u @ x, m.T @ x.T, x @ y, jnp.einsum("ij,ij->i", x, jnp.ones(SHAPE)))
    got = check(f, [x, y, v, u, m], {0, 1}, fmt, rng, messy=True)
    assert hasattr(got[3], "todense")           # sparse @ sparse stays sparse


@pytest.mark.parametrize("fmt", FORMATS)
def test_dot_general_batched(fmt):
    rng = np.random.default_rng(11)
    x = random_dense(rng, (2, 5, 4))
    m = rng.standard_normal((2, 4, 3))
    u = rng.standard_normal((2, 5))
    check(lambda x, m, u: (jnp.matmul(x, m), jnp.einsum("bij,bi->bj", x, u)), [x, m, u], {0},
          fmt, rng, n_batch=1)


@pytest.mark.parametrize("fmt", FORMATS)
def test_reductions(fmt):
    rng = np.random.default_rng(12)
    x = random_dense(rng, SHAPE)
    check(lambda x: (x.sum(0), x.sum(1), x.sum(), jnp.mean(x), x.max(0), x.min(1)), [x], {0},
          fmt, rng, messy=True)
    x3 = random_dense(rng, (2, 5, 4))
    check(lambda x: (x.sum(0), x.sum((1, 2)), x.sum(2)), [x3], {0}, fmt, rng, n_batch=1)


@pytest.mark.parametrize("fmt", FORMATS)
def test_transpose_reshape_squeeze_expand(fmt):
    rng = np.random.default_rng(13)
    x = random_dense(rng, SHAPE)

    def f(x):
        return (x.T, x.reshape(-1), x.reshape(2, 10), x.reshape(1, 5, 4).squeeze(0),
                jnp.expand_dims(x, 1), jnp.broadcast_to(x, (2, 5, 4)), x[None, :, None],
                jnp.transpose(x[None], (2, 0, 1)))
    got = check(f, [x], {0}, fmt, rng, messy=True)
    assert all(hasattr(o, "todense") for o in got)


@pytest.mark.parametrize("fmt", FORMATS)
def test_concatenate(fmt):
    rng = np.random.default_rng(14)
    x, y = random_dense(rng, SHAPE), random_dense(rng, SHAPE)

    def f(x, y):
        return (jnp.concatenate([x, y]), jnp.concatenate([x, y, x], axis=1),
                jnp.concatenate([x, jnp.zeros((2, 4))]), jnp.stack([x, y]))
    got = check(f, [x, y], {0, 1}, fmt, rng, messy=True)
    assert all(hasattr(o, "todense") for o in got)


@pytest.mark.parametrize("fmt", FORMATS)
def test_slice_dynamic_slice(fmt):
    rng = np.random.default_rng(15)
    x = random_dense(rng, SHAPE)

    def f(x, i):
        return (x[1:3], x[:, ::2], x[3], lax.dynamic_slice(x, (i, 1), (2, 3)),
                lax.dynamic_index_in_dim(x, i, 1, keepdims=False))
    check(f, [x, 2], {0}, fmt, rng, messy=True)       # jitted: a traced start index


@pytest.mark.parametrize("fmt", FORMATS)
def test_gather(fmt):
    rng = np.random.default_rng(16)
    x = random_dense(rng, SHAPE)
    rows, cols = np.array([0, 4, 2, 2]), np.array([[3, 0], [1, 1]])

    def f(x, rows, cols):
        return x[rows], x[:, cols], x[rows, 1], jnp.take(x, cols, axis=0)
    got = check(f, [x, rows, cols], {0}, fmt, rng, messy=True)
    assert all(hasattr(o, "todense") for o in got)


@pytest.mark.parametrize("fmt", FORMATS)
def test_rev(fmt):
    rng = np.random.default_rng(17)
    x = random_dense(rng, SHAPE)
    got = check(lambda x: (jnp.flip(x, 0), x[::-1, ::-1], jnp.flip(x, 1) @ jnp.arange(4.0)),
                [x], {0}, fmt, rng, messy=True)
    assert hasattr(got[0], "todense")
    x3 = random_dense(rng, (2, 5, 4))
    check(lambda x: (jnp.flip(x, 0), jnp.flip(x, (1, 2))), [x3], {0}, fmt, rng, n_batch=1)


@pytest.mark.parametrize("fmt", FORMATS)
def test_conv_1d(fmt):
    rng = np.random.default_rng(18)
    x = random_dense(rng, (1, 12))
    k = rng.standard_normal(3)

    def f(x, k):
        out = [jnp.convolve(x[0, :9], k, mode=m) for m in ("full", "same", "valid")]
        out += [jnp.convolve(k, x[0, :4], mode=m) for m in ("full", "same", "valid")]
        x3, k3 = x[None], k[None, None]
        return out + [lax.conv_general_dilated(x3, k3, (2,), [(1, 2)], rhs_dilation=(2,)),
                      lax.conv_general_dilated(k3, x3, (1,), [(11, 11)])]
    check(f, [x, k], {0}, fmt, rng, messy=True)


@pytest.mark.parametrize("fmt", FORMATS)
def test_split_unstack_tile(fmt):
    rng = np.random.default_rng(20)
    x = random_dense(rng, SHAPE)
    got = check(lambda x: (jnp.split(x, [1, 3], axis=1), jnp.unstack(x[:2]),
                           jnp.tile(x, (2, 1)), jnp.tile(x, (1, 2, 1))), [x], {0}, fmt, rng)
    assert all(hasattr(o, "todense") for o in jax.tree_util.tree_leaves(
        got, is_leaf=lambda o: hasattr(o, "todense")))


@pytest.mark.parametrize("fmt", FORMATS)
def test_optimization_barrier_passes_sparse_operands_through(fmt):
    rng = np.random.default_rng(40)
    x, v = random_dense(rng, SHAPE), rng.standard_normal(4)

    def f(x, v):
        y, w = lax.optimization_barrier((x * 2.0, v))
        return y, y @ w
    got = check(f, [x, v], {0}, fmt, rng)
    assert hasattr(got[0], "todense")           # still sparse after the barrier
