"""What array-API-generic clients rely on: array_api_compat dispatch, __array__, DLPack."""

import array_api_compat
import numpy as np
import pytest

import laxarray as la

DTYPES = ["float32", "float64", "int64", "bool", "complex128"]


def _sample(dtype):
    return (np.arange(12).reshape(3, 4) % 3).astype(dtype)


def test_array_api_compat_namespace_is_laxarray():
    x = la.asarray(_sample("float64"))
    assert array_api_compat.array_namespace(x) is la
    assert array_api_compat.array_namespace(x, la.asarray(1.0)) is la
    assert array_api_compat.is_array_api_obj(x)
    with pytest.raises(TypeError):
        array_api_compat.array_namespace(x, np.ones(3))  # mixed namespaces are refused


@pytest.mark.parametrize("dtype", DTYPES)
def test_dunder_array_is_a_writable_copy(dtype):
    ref = _sample(dtype)
    x = la.asarray(ref)
    a = x.__array__()
    assert isinstance(a, np.ndarray) and a.dtype == ref.dtype and a.shape == ref.shape
    assert a.flags.writeable
    np.testing.assert_array_equal(a, ref)
    a[0, 0] = 1
    np.testing.assert_array_equal(np.asarray(x), ref)  # writing the copy leaves x unchanged
    assert np.array(x).flags.writeable


@pytest.mark.parametrize("dtype", DTYPES)
def test_dlpack_laxarray_to_numpy(dtype):
    ref = _sample(dtype)
    x = la.asarray(ref)
    assert x.__dlpack_device__()[0] == 1  # kDLCPU
    np.testing.assert_array_equal(np.from_dlpack(x), ref)
    assert np.from_dlpack(x).dtype == ref.dtype


@pytest.mark.parametrize("dtype", DTYPES)
def test_dlpack_numpy_to_laxarray(dtype):
    ref = _sample(dtype)
    y = la.from_dlpack(ref)
    assert array_api_compat.array_namespace(y) is la
    assert y.dtype == ref.dtype and y.shape == ref.shape
    np.testing.assert_array_equal(np.asarray(y), ref)


@pytest.mark.parametrize("dtype", DTYPES)
def test_dlpack_numpy_to_laxarray_copy_true_is_private(dtype):
    ref = _sample(dtype)
    y = la.from_dlpack(ref, copy=True)
    ref_copy = ref.copy()
    ref[...] = 0  # copy=True: later NumPy writes never show through (copy=None may share)
    np.testing.assert_array_equal(np.asarray(y), ref_copy)


def test_dlpack_round_trip_non_contiguous():
    ref = np.arange(24.0).reshape(4, 6)[:, ::2].T
    y = la.from_dlpack(np.ascontiguousarray(ref))
    np.testing.assert_array_equal(np.from_dlpack(y), ref)


class _Fixed:
    """A DLPack producer that always exports ``x`` with one ``max_version``."""

    def __init__(self, x, max_version):
        self.x, self.max_version = x, max_version

    def __dlpack__(self, **kwargs):
        return self.x.__dlpack__(max_version=self.max_version)

    def __dlpack_device__(self):
        return self.x.__dlpack_device__()


@pytest.mark.parametrize("max_version", [(0, 0), (0, 5), (1, 0), (1, 5), None])
def test_dlpack_any_max_version_gives_a_readable_capsule(max_version):
    """A consumer of DLPack 0.x passes a max_version below jax's own: the standard asks
    for the older (unversioned) capsule, not jax's BufferError."""
    ref = np.arange(6.0).reshape(2, 3)
    got = np.from_dlpack(_Fixed(la.asarray(ref), max_version))
    np.testing.assert_array_equal(got, ref)


@pytest.mark.parametrize("bad", [1, (1,), (1, 0, 0), (1.0, 0), "1.0"])
def test_dlpack_bad_max_version_is_a_type_error(bad):
    with pytest.raises(TypeError, match="__dlpack__.*max_version"):
        la.asarray([1.0]).__dlpack__(max_version=bad)
