"""The TPU's backend record, read where decisions are made (issue 52): ``info`` lists the
chip's dtypes and defaults, creation and promotion use them, float64 and complex128 are
refused before anything compiles, the functions that computed in float64 compute in
float32, 32-bit programs are traced in 32-bit mode, and 64-bit integer products work
without XLA's.

Oracles: NumPy at the record's dtypes, ``np.longdouble`` for the logarithms.
"""

import jax
import numpy as np
import pytest

import laxarray as xp
from laxarray._core import backend
from laxarray._core.runtime import kernel as K
from rounding import correctly_rounded

INFO = xp.__array_namespace_info__()
MISSING = ("float64", "complex128")


def test_info_lists_the_chips_dtypes_and_defaults():
    dtypes = INFO.dtypes()
    assert set(dtypes) == {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
                           "uint32", "uint64", "float32", "complex64"}
    assert INFO.dtypes(device=INFO.default_device()) == dtypes
    assert INFO.dtypes(kind="real floating") == {"float32": xp.float32}
    assert INFO.default_dtypes() == {"real floating": xp.float32,
                                     "complex floating": xp.complex64,
                                     "integral": xp.int64, "indexing": xp.int32}


@pytest.mark.parametrize("make, dtype", [
    (lambda: xp.asarray([1.0, 2.0]), "float32"), (lambda: xp.asarray([1, 2]), "int64"),
    (lambda: xp.asarray(1.5), "float32"), (lambda: xp.asarray([1j]), "complex64"),
    (lambda: xp.asarray(np.float64(2.5)), "float32"), (lambda: xp.arange(4), "int64"),
    (lambda: xp.asarray(np.arange(3)), "int64"),
    (lambda: xp.asarray(np.ones(3)), "float32"),
    (lambda: xp.asarray(np.ones(3, dtype=np.complex128)), "complex64"),
    (lambda: xp.arange(0.5, 3), "float32"), (lambda: xp.zeros(3), "float32"),
    (lambda: xp.ones((2, 2)), "float32"), (lambda: xp.empty(2), "float32"),
    (lambda: xp.full(3, 7), "int64"), (lambda: xp.full(3, 7.0), "float32"),
    (lambda: xp.eye(3), "float32"), (lambda: xp.linspace(0, 1, 5), "float32"),
    (lambda: xp.sin(xp.asarray([1, 2], dtype=xp.int16)), "float32"),
    (lambda: xp.mean(xp.asarray([1, 2], dtype=xp.int32)), "float32"),
    (lambda: xp.sum(xp.asarray([1, 2], dtype=xp.int8)), "int64"),
    (lambda: xp.sum(xp.asarray([1, 2], dtype=xp.uint8)), "uint64"),
    (lambda: xp.asarray([1], dtype=xp.int32) + xp.asarray([1], dtype=xp.uint32), "int64"),
    (lambda: xp.asarray([1], dtype=xp.int64) + xp.asarray([1], dtype=xp.uint64), "float32"),
    (lambda: xp.asarray([1], dtype=xp.int32) * 2.5, "float32"),
    (lambda: xp.argsort(xp.asarray([3.0, 1.0])), "int32"),
    (lambda: xp.argmax(xp.asarray([3.0, 1.0])), "int32"),
    (lambda: xp.nonzero(xp.asarray([3.0, 0.0]))[0], "int32"),
    (lambda: xp.unique_counts(xp.asarray([3, 1, 3])).counts, "int32"),
    (lambda: xp.linalg.matrix_rank(xp.eye(3)), "int64"),
    (lambda: xp.tan(xp.asarray([3.8 - 1.5j], dtype=xp.complex64)), "complex64"),
    (lambda: xp.fft.rfft(xp.linspace(0, 1, 64)), "complex64"),
    (lambda: xp.fft.fftfreq(8), "float32"),
    # the Python types name the device's defaults (as in jax): NumPy code's dtype=float runs
    (lambda: xp.zeros(3, dtype=float), "float32"),
    (lambda: xp.asarray([1, 2], dtype=complex), "complex64"),
    (lambda: xp.astype(xp.ones(2, dtype=xp.int8), float), "float32"),
    (lambda: xp.tri(3), "float32"),
    (lambda: xp.arange(3, dtype=int), "int64"),
])
def test_creation_and_promotion_take_the_chips_defaults(make, dtype):
    assert make().dtype == np.dtype(dtype)


@pytest.mark.parametrize("name, call", [
    ("zeros", lambda: xp.zeros(3, dtype=xp.float64)),
    ("arange", lambda: xp.arange(3, dtype=xp.complex128)),
    ("astype", lambda: xp.astype(xp.zeros(3), xp.complex128)),
    ("asarray", lambda: xp.asarray(np.ones(3), dtype=xp.float64)),
    ("asarray", lambda: xp.asarray([1j], dtype=xp.complex128)),
    ("full", lambda: xp.full(2, 1.0, dtype="float64")),
    ("sum", lambda: xp.sum(xp.ones(3), dtype=xp.float64)),
    ("linspace", lambda: xp.linspace(0, 1, 3, dtype=xp.float64)),
])
def test_float64_and_complex128_are_refused_before_anything_compiles(name, call):
    before = K.compile_count()
    with pytest.raises(TypeError, match=rf"^{name}: .*(float64|complex128).*tpu"):
        call()
    assert K.compile_count() == before


def test_float64_data_arrives_as_float32_rounded_once():
    """NumPy's float64 data on a device without float64 arrives as float32, as jax.numpy
    gives it there: rounded once, to nearest, by NumPy on the host."""
    a = np.array([1.0 + 2 ** -30, 1 / 3, -3.5, 1e-40, np.inf, np.nan])
    np.testing.assert_array_equal(np.asarray(xp.asarray(a)), a.astype(np.float32))
    got = xp.sin(a)      # an operand of a function too (XLA's sin: within an ulp of NumPy's)
    assert got.dtype == xp.float32
    # XLA may read a subnormal operand as zero (README, "subnormals": the chip does, sin(1e-40)
    # was 0 there; XLA:CPU's sin keeps it): either value is NumPy's, on that reading or not
    a32 = a.astype(np.float32)
    flushed = np.where(np.abs(a32) < np.finfo(np.float32).tiny, a32 * 0, a32)
    with np.errstate(invalid="ignore"):
        for want in (np.sin(a32), np.sin(flushed)):
            ok = np.isclose(np.asarray(got), want, rtol=2e-7, atol=0, equal_nan=True)
            if ok.all():
                break
    assert ok.all(), (np.asarray(got), np.sin(a32), np.sin(flushed))


def test_numpy_arrays_convert_on_the_host_when_a_dtype_is_asked_for():
    a = np.array([1.0 + 2 ** -30, -3.5, 1e300, np.nan])
    with np.errstate(over="ignore"):
        want = a.astype(np.float32)
    got = xp.asarray(a, dtype=xp.float32)
    np.testing.assert_array_equal(np.asarray(got), want)
    with pytest.raises(TypeError, match="asarray"):
        xp.asarray(np.array([1j]), dtype=xp.float32)


def test_inspection_answers_for_every_dtype():
    assert xp.isdtype(xp.float64, "real floating")
    assert xp.finfo(xp.float64).bits == 64 and xp.iinfo(xp.int64).bits == 64
    assert xp.can_cast(xp.float32, xp.float64)


def test_programs_of_float32_data_hold_no_wide_float():
    """No kernel computes float32 data in float64 or complex128, which the chip lacks (a
    ``convert`` of complex128 aborted its compiler), and the SVD's own code holds no 64-bit
    value (jax's, traced at lowering in 64-bit mode, aborted it too)."""
    a = xp.asarray(np.random.default_rng(1).standard_normal((6, 6)), dtype=xp.float32)
    c = xp.astype(a, xp.complex64)
    for fn, arg in ((xp.linalg.svd, a), (xp.linalg.eigh, a), (xp.linalg.qr, a),
                    (xp.linalg.inv, a), (xp.linalg.pinv, a), (xp.log10, a), (xp.tan, c),
                    (xp.mean, a), (lambda v: xp.float_power(v, 1.5), a),
                    (lambda v: xp.quantile(v, 0.3), a)):
        text = str(jax.make_jaxpr(fn)(arg))
        assert "f64" not in text and "c128" not in text, fn
    assert "i64" not in str(jax.make_jaxpr(xp.linalg.svd)(a))
    ints = xp.asarray(np.arange(6), dtype=xp.int64)
    assert xp.sum(ints).dtype == xp.int64
    small = xp.asarray(np.zeros((0,), np.uint32)) + xp.asarray(np.zeros((0,), np.int8))
    assert small.dtype == xp.int64      # the standard's promotion, kept


@pytest.mark.parametrize("dtype", ["int64", "uint64", "int32"])
def test_integer_matrix_products_without_xlas_64_bit_product(dtype):
    """The TPU has no 64-bit integer dot: ``numerics.dot_general`` sums the products, with
    the same wrap-around as NumPy's."""
    rng = np.random.default_rng(2)
    big = np.iinfo(dtype).max // 3
    a = rng.integers(0, big, (5, 7)).astype(dtype)
    b = rng.integers(0, big, (7, 3)).astype(dtype)
    with np.errstate(over="ignore"):
        want = a @ b
    got = xp.asarray(a) @ xp.asarray(b)
    assert got.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(np.asarray(got), want)
    np.testing.assert_array_equal(np.asarray(xp.tensordot(xp.asarray(a), xp.asarray(a), axes=(
        (0,), (0,)))), a.T @ a)
    np.testing.assert_array_equal(np.asarray(jax.jit(xp.vecdot)(xp.asarray(a), xp.asarray(a))),
                                  np.sum(a * a, axis=-1, dtype=dtype))
    for shape_a, shape_b in (((2, 0), (0, 3)), ((0, 4), (4, 2)), ((3, 2, 0), (3, 0, 1))):
        e = np.ones(shape_a, dtype) @ np.ones(shape_b, dtype)      # empty sums and results
        got = xp.ones(shape_a, dtype=dtype) @ xp.ones(shape_b, dtype=dtype)
        np.testing.assert_array_equal(np.asarray(got), e)


@pytest.mark.parametrize("name, base", [("log10", 10.0), ("log2", 2.0)])
def test_float32_logarithms_in_float32_within_an_ulp(name, base):
    """Without float64 the fdlibm split runs in float32: under one ulp, powers exact."""
    rng = np.random.default_rng(3)
    x = np.concatenate([np.exp2(rng.uniform(-126, 127, 20000)), 1 + rng.uniform(-1e-3, 1e-3, 5000),
                        np.arange(1.0, 2000.0)]).astype(np.float32)
    wide = getattr(np, name)(x.astype(np.longdouble))
    got = np.asarray(getattr(xp, name)(xp.asarray(x)))
    want, _ = correctly_rounded(wide, np.float32)
    ulps = np.abs(got.astype(np.longdouble) - wide) / np.spacing(np.abs(want)).astype(
        np.longdouble)
    assert ulps.max() < 1, x[np.argmax(ulps)]
    powers = np.float32(base) ** np.arange(-30, 31).astype(np.float32)
    np.testing.assert_array_equal(np.asarray(getattr(xp, name)(xp.asarray(powers))),
                                  np.arange(-30, 31, dtype=np.float32))


def test_eig_runs_on_the_host_where_xla_has_no_eigensolver():
    assert not backend.current().eig
    a = np.random.default_rng(0).standard_normal((2, 5, 5)).astype(np.float32)
    w, v = xp.linalg.eig(xp.asarray(a))
    assert w.dtype == v.dtype == np.complex64
    want = np.linalg.eigvals(a.astype(np.float64))
    for got_w, want_w in zip(np.asarray(w), want):
        np.testing.assert_allclose(np.sort_complex(got_w), np.sort_complex(want_w), rtol=1e-4,
                                   atol=1e-4)
    resid = a.astype(np.complex128) @ np.asarray(v) - np.asarray(v) * np.asarray(w)[:, None, :]
    assert np.abs(resid).max() < 1e-4
    jitted = jax.jit(xp.linalg.eigvals)(xp.asarray(a))
    np.testing.assert_allclose(np.asarray(jitted), np.asarray(w), rtol=1e-5, atol=1e-5)
    with pytest.raises(xp.linalg.LinAlgError):
        xp.linalg.eig(xp.asarray(np.full((3, 3), np.nan, np.float32)))


def test_sparse_products_compute_in_32_bit():
    import scipy.sparse as sps
    from laxarray import sparse
    a = sps.random_array((30, 20), density=0.2, rng=1, format="csr").astype(np.float32)
    A = sparse.BCOO.from_scipy_sparse(a)
    np.testing.assert_allclose(np.asarray((A @ A.T).todense()), (a @ a.T).toarray(),
                               rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("shape", [(8, 8), (300, 12), (5, 9), (2, 6, 4)])
def test_svd_is_formed_from_the_polar_decomposition(shape):
    """jax's TPU SVD, traced when XLA lowers it in 64-bit mode, aborted the compiler: on
    the TPU's record laxarray forms it itself (QDWH, eigh), with no svd primitive left."""
    rng = np.random.default_rng(4)
    a = rng.standard_normal(shape).astype(np.float32)
    x = xp.asarray(a)
    assert "svd" not in str(jax.make_jaxpr(lambda v: xp.linalg.svd(v))(x))
    for full in (True, False):
        u, s, vh = map(np.asarray, xp.linalg.svd(x, full_matrices=full))
        wu, ws, wvh = np.linalg.svd(a.astype(np.float64), full_matrices=full)
        assert u.shape == wu.shape and vh.shape == wvh.shape
        np.testing.assert_allclose(s, ws, rtol=2e-5, atol=2e-5 * ws.max())
        k = min(shape[-2:])
        rec = (u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :]
        np.testing.assert_allclose(rec, a, atol=2e-5 * np.abs(a).max() * k)
        eye = np.swapaxes(u, -1, -2) @ u
        np.testing.assert_allclose(eye, np.broadcast_to(np.eye(eye.shape[-1]), eye.shape),
                                   atol=1e-5)
    np.testing.assert_allclose(np.asarray(xp.linalg.pinv(x)), np.linalg.pinv(a), rtol=1e-3,
                               atol=1e-4 * np.abs(np.linalg.pinv(a)).max())
    if len(shape) == 2:
        b = rng.standard_normal(shape[0]).astype(np.float32)
        got = np.asarray(xp.linalg.lstsq(xp.asarray(a), xp.asarray(b))[0])
        want = np.linalg.lstsq(a.astype(np.float64), b, rcond=None)[0]
        np.testing.assert_allclose(got, want, rtol=1e-3, atol=1e-4 * np.abs(want).max())


def test_compiler_options_follow_the_compiling_platform_not_the_emulated_one():
    # a CPU process with the TPU's record still compiles XLA:CPU executables: their options
    # are the CPU record's (without the one that keeps NaN in large max/min, XLA:CPU's
    # YNNPACK reduction drops it from 4096 elements on); the TPU's record asks for none
    from laxarray._core.runtime import compile_options
    assert backend.TPU.xla_options == {} and backend.current() is backend.TPU
    compiling = backend.compiling()
    assert compiling.platform == jax.default_backend()
    options = compile_options._options(False, True)
    if compiling.xla_options:
        for part in ("every", "exact_extremes"):
            assert dict(compiling.xla_options[part]).items() <= options.items()
    else:
        assert options is None
    x = np.arange(8192, dtype=np.float32)
    x[5000] = np.nan
    assert np.isnan(float(xp.max(xp.asarray(x))))
    assert np.isnan(float(xp.min(xp.asarray(x))))
