"""Cumulative sums, products, maxima and minima in blocks (``numerics.cumulative``): where
the platform XLA compiles for limits the length it scans in one piece
(``Backend.scan_block``: the TPU's reduce-window compiles for 33 s at 2**20), longer axes
run in blocks; the results are NumPy's whatever the block length, the axis or the
direction, and a traced program holds no scan longer than the block."""

import dataclasses

import jax
import numpy as np
import pytest

import laxarray as lx
from laxarray._core import backend, numerics

# numerics.cumulative is traced here by the test's own jax.jit, as laxarray traces it in its
# kernels: in jax's 64-bit mode (the jax_x64 fixture, tests/conftest.py)
pytestmark = pytest.mark.usefixtures("jax_x64")

_NUMPY = {"sum": np.cumsum, "prod": np.cumprod, "max": np.maximum.accumulate,
          "min": np.minimum.accumulate}


def _blocked(monkeypatch, block):
    record = dataclasses.replace(backend.for_platform("cpu"), scan_block=block)
    monkeypatch.setattr(backend, "compiling", lambda: record)


@pytest.mark.parametrize("block", [4, 7])
@pytest.mark.parametrize("shape, axis", [((50,), 0), ((3, 50, 2), 1), ((3, 50, 2), -2),
                                          ((9, 5), 0), ((2, 300), 1), ((0, 20), 1)])
@pytest.mark.parametrize("op", sorted(_NUMPY))
@pytest.mark.parametrize("reverse", [False, True])
def test_blocked_scans_equal_numpy(monkeypatch, block, shape, axis, op, reverse):
    _blocked(monkeypatch, block)
    rng = np.random.default_rng(block)
    if op == "prod":
        x = rng.uniform(0.5, 1.5, shape)
    else:
        x = rng.integers(-3, 4, shape).astype(np.int32)
    ax = axis % x.ndim
    got = np.asarray(jax.jit(lambda v: numerics.cumulative(op, v, ax, reverse))(x))
    if reverse:
        want = np.flip(_NUMPY[op](np.flip(x, ax), axis=ax), ax)
    else:
        want = _NUMPY[op](x, axis=ax)
    assert got.shape == want.shape and got.dtype == x.dtype      # NumPy's sum widens int32
    if op == "prod":
        np.testing.assert_allclose(got, want, rtol=1e-12)
    else:
        np.testing.assert_array_equal(got, want)


def _longest_scan(jaxpr):
    longest = 0
    for eqn in jaxpr.eqns:
        if eqn.primitive.name in ("cumsum", "cumprod", "cummax", "cummin"):
            longest = max(longest, eqn.invars[0].aval.shape[eqn.params["axis"]])
    return longest


@pytest.mark.parametrize("block", [None, 16])
def test_no_scan_longer_than_the_block(monkeypatch, block):
    _blocked(monkeypatch, block)
    x = np.arange(1000, dtype=np.float32)       # (integers take matrix products unblocked)
    longest = _longest_scan(jax.make_jaxpr(lambda v: numerics.cumulative("sum", v))(x).jaxpr)
    assert longest == (1000 if block is None else block)


def test_the_tpu_record_blocks_the_library_functions(monkeypatch):
    # cumulative_sum and unique (its group numbers) with the TPU's block length
    monkeypatch.setattr(backend, "compiling", lambda: backend.for_platform("tpu"))
    x = np.random.default_rng(0).integers(0, 50, 5000).astype(np.int32)
    got = jax.jit(lambda v: lx.cumulative_sum(v))(lx.asarray(x))
    np.testing.assert_array_equal(np.asarray(got), np.cumsum(x))
    values, counts = jax.jit(lambda v: lx.unique_counts(v, size=50))(lx.asarray(x))
    want = np.unique(x, return_counts=True)
    np.testing.assert_array_equal(np.asarray(values), want[0])
    np.testing.assert_array_equal(np.asarray(counts), want[1])


@pytest.mark.parametrize("op", ["sum", "prod", "max"])
def test_blocked_scans_differentiate_as_the_plain_scan(monkeypatch, op):
    rng = np.random.default_rng(3)
    x, w = rng.uniform(0.5, 1.5, 50), rng.standard_normal(50)

    def loss(v):
        return (numerics.cumulative(op, v, 0) * w).sum()
    plain = jax.grad(loss)(x)
    _blocked(monkeypatch, 4)
    np.testing.assert_allclose(jax.grad(loss)(x), plain, rtol=1e-12)


@pytest.mark.parametrize("n", [0, 1, 63, 64, 65, 1000, 40_000])
def test_integer_sums_by_products_equal_numpy(n):
    # where the platform scans in one piece (the CPU), a long integer sum along axis 0 runs
    # as small matrix products (numerics._sum_by_products); under vmap too
    x = np.random.default_rng(n).integers(-3, 4, n).astype(np.int32)
    got = jax.jit(lambda v: numerics.cumulative("sum", v))(x)
    np.testing.assert_array_equal(np.asarray(got), np.cumsum(x))
    xs = np.stack([x, -x])
    got = jax.vmap(lambda v: numerics.cumulative("sum", v))(xs)
    np.testing.assert_array_equal(np.asarray(got), np.cumsum(xs, axis=1))
