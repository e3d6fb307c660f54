"""Sharded dense arrays: ``device=`` takes a ``jax.sharding.Sharding``, every operation runs
SPMD on sharded inputs (XLA's partitioner), results keep the sharding XLA propagates, and the
main kernels compile without gathering a sharded operand onto one device.  NumPy is the
oracle for every value."""

import jax
import numpy as np
import pytest
from jax.sharding import NamedSharding, PartitionSpec

import laxarray as la

RNG = np.random.default_rng(0)
X = RNG.standard_normal((16, 6))


def same_sharding(result, sharding, ndim):
    return result.sharding.is_equivalent_to(sharding, ndim)


def test_devices_lists_every_addressable_device():
    assert la.__array_namespace_info__().devices() == tuple(jax.local_devices())


@pytest.mark.parametrize("make", [
    lambda s: (la.asarray(X, device=s), X),
    lambda s: (la.zeros((16, 6), device=s), np.zeros((16, 6))),
    lambda s: (la.full((16, 3), 2.5, device=s), np.full((16, 3), 2.5)),
    lambda s: (la.arange(16, device=s), np.arange(16)),
    lambda s: (la.linspace(0.0, 1.0, 16, device=s), np.linspace(0.0, 1.0, 16)),
    lambda s: (la.eye(16, device=s), np.eye(16)),
], ids=["asarray", "zeros", "full", "arange", "linspace", "eye"])
def test_creation_with_a_sharding(rows, make):
    x, expected = make(rows)
    assert x.device == rows
    assert same_sharding(x, rows, x.ndim)
    np.testing.assert_array_equal(np.asarray(x), expected)


def test_like_functions_follow_the_input(rows):
    x = la.asarray(X, device=rows)
    for out in (la.zeros_like(x), la.ones_like(x), la.full_like(x, 3.0), la.empty_like(x)):
        assert same_sharding(out, rows, 2)


def test_device_of_a_one_device_array_is_the_device(rows):
    x = la.asarray(X, device=jax.devices()[3])
    assert x.device == jax.devices()[3]
    assert x.sharding.device_set == {jax.devices()[3]}


def test_to_device_round_trips(rows):
    x = la.asarray(X)
    sharded = x.to_device(rows)
    assert sharded.device == rows
    back = sharded.to_device(jax.devices()[0])
    assert back.device == jax.devices()[0]
    np.testing.assert_array_equal(np.asarray(back), X)


@pytest.mark.parametrize("device", ["tpu", 3, PartitionSpec("x")])
def test_a_bad_device_is_refused(device):
    with pytest.raises(ValueError, match="^asarray: expected 'device' to be None, a jax.sharding"):
        la.asarray(X, device=device)


def test_mixing_devices_raises_a_laxarray_error():
    a = la.asarray(X, device=jax.devices()[0])
    b = la.asarray(X, device=jax.devices()[1])
    with pytest.raises(ValueError, match=r"^add: expected arrays on one device"):
        a + b


ELEMENTWISE = [
    ("add", lambda x: x + 1.0, lambda x: x + 1.0),
    ("exp-chain", lambda x: la.exp(x) * 2.0 - la.sin(x), lambda x: np.exp(x) * 2.0 - np.sin(x)),
    ("where", lambda x: la.where(x > 0, x, -x), lambda x: np.where(x > 0, x, -x)),
    ("astype", lambda x: la.astype(x, la.float32), lambda x: x.astype(np.float32)),
]


@pytest.mark.parametrize("name, f, oracle", ELEMENTWISE, ids=[e[0] for e in ELEMENTWISE])
@pytest.mark.parametrize("jitted", [False, True], ids=["eager", "jit"])
def test_elementwise_keeps_the_input_sharding(rows, name, f, oracle, jitted):
    x = la.asarray(X, device=rows)
    g = jax.jit(f) if jitted else f
    out = g(x)
    assert isinstance(out, la.Array)
    assert same_sharding(out, rows, 2)
    np.testing.assert_allclose(np.asarray(out), oracle(X), rtol=1e-6)


W = RNG.standard_normal((6, 3))
REDUCTIONS = [
    ("sum-rows", lambda x: la.sum(x, axis=1), lambda x: np.sum(x, axis=1)),
    ("sum-all", lambda x: la.sum(x), lambda x: np.sum(x)),
    ("mean-cols", lambda x: la.mean(x, axis=0), lambda x: np.mean(x, axis=0)),
    ("max", lambda x: la.max(x, axis=-1), lambda x: np.max(x, axis=-1)),
    ("matmul", lambda x: x @ la.asarray(W), lambda x: x @ W),
    ("gram", lambda x: x.T @ x, lambda x: x.T @ x),
    ("cumsum", lambda x: la.cumulative_sum(x, axis=1), lambda x: np.cumsum(x, axis=1)),
]


@pytest.mark.parametrize("name, f, oracle", REDUCTIONS, ids=[e[0] for e in REDUCTIONS])
@pytest.mark.parametrize("jitted", [False, True], ids=["eager", "jit"])
def test_reductions_and_matmul_on_sharded_input(rows, name, f, oracle, jitted):
    x = la.asarray(X, device=rows)
    out = (jax.jit(f) if jitted else f)(x)
    np.testing.assert_allclose(np.asarray(out), oracle(X), rtol=1e-12, atol=1e-12)


# Kernels whose row-sharded operand needs no gathering: each device computes its own rows.
NO_GATHER = [
    ("elementwise", lambda x: la.exp(x) * 2.0 + x),
    ("sum-rows", lambda x: la.sum(x * x, axis=1)),
    ("matmul-replicated-rhs", lambda x: x @ la.asarray(W)),
    ("sum-all", lambda x: la.sum(x)),
    ("where", lambda x: la.where(la.isnan(x), 0.0, x)),
    # along the unsharded axis, sorting and selection stay on each device's rows (with
    # several devices laxarray uses lax.sort under jit, never a host callback, which XLA
    # would run on one device after gathering everything there)
    ("sort-rows", lambda x: la.sort(x, axis=1)),
    ("argsort-rows", lambda x: la.argsort(x, axis=1)),
    ("median-rows", lambda x: la.median(x, axis=1)),
    ("quantile-rows", lambda x: la.quantile(x, 0.3, axis=1)),
    ("isin", lambda x: la.isin(x, la.asarray([0.5, -1.0]))),
]


@pytest.mark.parametrize("name, f", NO_GATHER, ids=[e[0] for e in NO_GATHER])
def test_compiled_kernels_do_not_gather_a_sharded_operand(rows, name, f):
    x = la.asarray(X, device=rows)
    hlo = jax.jit(f).lower(x).compile().as_text()
    assert "all-gather" not in hlo
    assert "all-to-all" not in hlo


def test_isin_of_a_sharded_array_stays_sharded(rows):
    # eagerly too: x1's rows stay where they are (no host callback, which would gather
    # them onto one device)
    x = la.asarray(np.round(X), device=rows)
    out = la.isin(x, la.asarray([0.0, 1.0]))
    assert out.sharding.spec == PartitionSpec("x")
    np.testing.assert_array_equal(np.asarray(out), np.isin(np.round(X), [0.0, 1.0]))


def test_writes_through_views_of_a_sharded_array(rows):
    x = la.asarray(X, device=rows)
    expected = X.copy()
    flat = la.reshape(x, (-1,))
    flat[::7] = -1.0
    expected.reshape(-1)[::7] = -1.0
    x[3] = 0.5
    expected[3] = 0.5
    x[:, 1] += 2.0
    expected[:, 1] += 2.0
    np.testing.assert_array_equal(np.asarray(x), expected)
    np.testing.assert_array_equal(np.asarray(flat), expected.reshape(-1))
    assert same_sharding(x, rows, 2)


def test_indexing_a_sharded_array(rows):
    x = la.asarray(X, device=rows)
    np.testing.assert_array_equal(np.asarray(x[2:11:3, ::-1]), X[2:11:3, ::-1])
    np.testing.assert_array_equal(np.asarray(x[la.asarray([5, 0, 15])]), X[[5, 0, 15]])
    np.testing.assert_array_equal(np.asarray(x[x > 0]), X[X > 0])


def test_two_axis_mesh(mesh):
    from jax.sharding import Mesh
    grid = Mesh(np.array(jax.devices()[:8]).reshape(4, 2), ("r", "c"))
    s = NamedSharding(grid, PartitionSpec("r", "c"))
    x = la.asarray(X, device=s)
    out = jax.jit(lambda a: la.tanh(a) + a)(x)
    assert same_sharding(out, s, 2)
    np.testing.assert_allclose(np.asarray(out), np.tanh(X) + X, rtol=1e-12)
    np.testing.assert_allclose(np.asarray(la.sum(x, axis=0)), X.sum(axis=0), rtol=1e-12)


def test_three_axis_mesh_matmul_and_reductions():
    from jax.sharding import Mesh
    cube = Mesh(np.array(jax.devices()[:8]).reshape(2, 2, 2), ("a", "b", "c"))
    s = NamedSharding(cube, PartitionSpec(("a", "b"), "c"))
    x = la.asarray(X, device=s)
    assert same_sharding(x, s, 2)
    out = jax.jit(lambda a: la.exp(-a) * a)(x)
    assert same_sharding(out, s, 2)
    np.testing.assert_allclose(np.asarray(out), np.exp(-X) * X, rtol=1e-12)
    np.testing.assert_allclose(np.asarray(la.max(x, axis=1)), X.max(axis=1))
    np.testing.assert_allclose(np.asarray(x @ x.mT), X @ X.T, rtol=1e-12)


@pytest.mark.parametrize("fn", ["tril_indices_from", "triu_indices_from"])
def test_indices_from_an_array_live_on_its_device(fn):
    """Only ``arr``'s shape is read, yet the indices follow it to its device (they went
    to the default device), with NumPy's values."""
    d = jax.devices()[3]
    arr = la.asarray(np.ones((3, 4)), device=d)
    out = getattr(la, fn)(arr, 1)
    expected = getattr(np, fn)(np.ones((3, 4)), 1)
    assert [i.device for i in out] == [d, d]
    for got, want in zip(out, expected):
        np.testing.assert_array_equal(np.asarray(got), want)


@pytest.mark.parametrize("fn, call", [("concat", lambda a, b: la.concat([a, b])),
                                      ("stack", lambda a, b: la.stack([a, b])),
                                      ("add", lambda a, b: a + b)])
def test_mixing_devices_names_the_function_and_the_devices(fn, call):
    """The error names the public function (not a padded kernel) and the two devices the
    arrays are on (not the default device of an internal extent vector)."""
    d1, d2 = jax.devices()[1], jax.devices()[2]
    a, b = la.asarray(np.ones(3), device=d1), la.asarray(np.ones(3), device=d2)
    with pytest.raises(ValueError) as info:
        call(a, b)
    message = str(info.value)
    assert message.startswith(f"{fn}: expected arrays on one device")
    assert f"'{d1.platform}:{d1.id}, {d2.platform}:{d2.id}'" in message
