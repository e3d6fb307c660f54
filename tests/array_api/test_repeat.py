"""repeat with traced counts: total_repeat_length= gives the static output length."""

import jax
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import laxarray as la


@settings(max_examples=10)  # each example compiles a new output length
@given(shape=st.sampled_from([(5,), (3, 4), (2, 3, 2)]), axis=st.sampled_from([None, 0, -1]),
       seed=st.integers(0, 2**16), extra=st.integers(-3, 3))
def test_traced_counts_match_numpy(shape, axis, seed, extra):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=shape)
    n = x.size if axis is None else shape[axis]
    counts = rng.integers(0, 4, n)
    total = int(counts.sum())
    length = max(total + extra, 0)
    expected = np.repeat(x, counts, axis=axis)
    flat_axis = 0 if axis is None else axis % x.ndim
    if n == 0 or (total == 0 and length):
        return
    got = jax.jit(lambda v, c: la.repeat(v, c, axis=axis, total_repeat_length=length))(
        la.asarray(x), la.asarray(counts))
    got = np.asarray(got)
    keep = min(length, total)
    np.testing.assert_array_equal(np.take(got, np.arange(keep), axis=flat_axis),
                                  np.take(expected, np.arange(keep), axis=flat_axis))
    if length > total:  # past the total: the last element of x along the axis, again
        last = np.take(x.reshape(-1) if axis is None else x, [n - 1], axis=flat_axis)
        tail = np.take(got, np.arange(total, length), axis=flat_axis)
        np.testing.assert_array_equal(tail, np.broadcast_to(last, tail.shape))


def test_concrete_counts_with_a_different_total_match_jax_numpy():
    jnp = pytest.importorskip("jax.numpy")
    x = np.arange(6.0)
    for reps in (2, [1, 0, 2, 1, 3, 0]):
        for length in (0, 4, 9, 15):
            got = la.repeat(la.asarray(x), reps, total_repeat_length=length)
            exp = jnp.repeat(jnp.asarray(x), jnp.asarray(reps), total_repeat_length=length)
            np.testing.assert_array_equal(np.asarray(got), np.asarray(exp))


def test_traced_counts_without_a_length_raise_a_clear_error():
    with pytest.raises(TypeError, match="repeat.*total_repeat_length"):
        jax.jit(lambda c: la.repeat(la.asarray([1, 2]), c))(la.asarray([1, 2]))
    with pytest.raises(ValueError, match="repeat.*total_repeat_length"):
        la.repeat(la.asarray([1, 2]), 1, total_repeat_length=-1)
