"""Buckets declared on the kernel (``@kernel(shape=..., bucket=...)``, run by ``_calls.call``):
a kernel whose static arguments name a shape it makes (a result shape, a length, an index
plan) is bound to the bucket's statics, so two logical shapes of one bucket share its
executables; and one kernel serves exact and bucketed calls alike (no padded twins)."""

import numpy as np
import pytest

import laxarray as xp
from laxarray._core.runtime import kernel as K


def _ones(n):
    return np.arange(1.0, n + 1.0)


# name -> (the operation on a NumPy input, on its laxarray copy; two inputs of one bucket)
_CASES = {
    "full": (lambda a, x: np.full(a.shape, 2.5), lambda a, x: xp.full(a.shape, 2.5),
             (np.zeros((5, 3)), np.zeros((7, 4)))),
    "arange": (lambda a, x: np.arange(a.size), lambda a, x: xp.arange(a.size),
               (np.zeros(5), np.zeros(7))),
    "broadcast_to": (lambda a, x: np.broadcast_to(a, (5,) + a.shape),
                     lambda a, x: xp.broadcast_to(x, (5,) + a.shape), (_ones(3), _ones(4))),
    "reshape, a new 1-axis": (lambda a, x: a.reshape(a.shape[0], 1, -1),
                              lambda a, x: xp.reshape(x, (a.shape[0], 1, -1)),
                              (np.ones((5, 3)), np.ones((6, 4)))),
    "slice": (lambda a, x: a[1:1 + a.size // 3], lambda a, x: x[1:1 + a.size // 3],
              (_ones(10), _ones(13))),
    "slice set": (lambda a, x: _set(a, slice(1, 1 + a.size // 3), -1.0),
                  lambda a, x: _set(x, slice(1, 1 + a.size // 3), -1.0),
                  (_ones(10), _ones(13))),
    "integer array": (lambda a, x: a[[1, 2, a.size - 1][:a.size // 4 + 1]],
                      lambda a, x: x[[1, 2, a.size - 1][:a.size // 4 + 1]],
                      (_ones(10), _ones(13))),
    "mask update": (lambda a, x: _set(a, a > 3, 0.0), lambda a, x: _set(x, x > 3, 0.0),
                    (_ones(10), _ones(13))),
}


def _set(x, key, value):
    x = x.copy() if isinstance(x, np.ndarray) else xp.asarray(x, copy=True)
    x[key] = value
    return x


@pytest.mark.parametrize("case", list(_CASES))
def test_two_shapes_of_one_bucket_share_the_kernels_executables(case):
    want, got, inputs = _CASES[case]
    first, second = inputs
    np.testing.assert_array_equal(np.asarray(got(first, xp.asarray(first))),
                                  want(first, first))
    x = xp.asarray(second)
    before = K.compile_count()
    out = got(second, x)
    assert K.compile_count() == before, case       # the first shape's bucket serves it
    np.testing.assert_array_equal(np.asarray(out), want(second, second))


def test_one_kernel_runs_on_the_bucket_and_exact():
    with K.spy() as ran:
        small = xp.asarray(_ones(10))
        big = xp.asarray(_ones(40000))              # past the bucket limit: exact
        for x in (small, big):
            np.testing.assert_array_equal(np.asarray(x[2:5]), [3.0, 4.0, 5.0])
    assert [k.name for k in ran] == ["_getitem_kernel", "_getitem_kernel"]
    assert small._padded() is not False and big._padded() is False


def test_a_numpy_value_is_stored_into_a_bucketed_array():
    x = xp.asarray(_ones(5))
    assert x._padded() is not False
    x[:3] = np.array([7.0, 8.0, 9.0])               # a 3-vector into a bucket of 4
    np.testing.assert_array_equal(np.asarray(x), [7.0, 8.0, 9.0, 4.0, 5.0])
    y = xp.asarray(np.zeros((3, 5)))
    y[1] = np.arange(5.0)
    np.testing.assert_array_equal(np.asarray(y)[1], np.arange(5.0))
