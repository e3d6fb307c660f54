"""fft: gradients against finite differences, NumPy 2's argument rules and errors, dtype
preservation, jit."""

import jax
import numpy as np
import pytest
from checks import fd_grad, raises_before_kernels

import laxarray as xp

F = xp.fft
RNG = np.random.default_rng(7)
X = RNG.uniform(-1, 1, (3, 4))
W = RNG.uniform(-1, 1, (8, 8)) + 1j * RNG.uniform(-1, 1, (8, 8))


def weigh(out):
    """A real scalar of a (complex or real) transform result."""
    w = xp.asarray(W[tuple(slice(0, s) for s in out.shape)])
    return xp.sum(xp.real(out * w)) if out.dtype in (xp.complex64, xp.complex128) else \
        xp.sum(out * xp.real(w))


def as_complex(x):
    """Half of the real variables become the imaginary part (grads of complex inputs)."""
    return x[:, :2] + 1j * x[:, 2:]


TRANSFORMS = {
    "fft": lambda x: F.fft(x, n=6, norm="ortho"),
    "ifft": lambda x: F.ifft(x, axis=0),
    "fftn": lambda x: F.fftn(x, s=(4, 3), axes=(0, 1), norm="forward"),
    "ifftn": lambda x: F.ifftn(x),
    "fft2": lambda x: F.fft2(x),
    "ifft2": lambda x: F.ifft2(x, norm="ortho"),
    "rfft": lambda x: F.rfft(x, n=5),
    "rfftn": lambda x: F.rfftn(x, norm="ortho"),
    "rfft2": lambda x: F.rfft2(x),
    "ihfft": lambda x: F.ihfft(x),
    "irfft": lambda x: F.irfft(as_complex(x), n=4),
    "irfftn": lambda x: F.irfftn(as_complex(x)),
    "irfft2": lambda x: F.irfft2(as_complex(x), norm="forward"),
    "hfft": lambda x: F.hfft(as_complex(x), norm="ortho"),
    "complex fft": lambda x: F.fft(as_complex(x)),
}


@pytest.mark.parametrize("name", sorted(TRANSFORMS))
def test_grad_matches_finite_differences(name):
    scalar = lambda x: weigh(TRANSFORMS[name](x))  # noqa: E731
    got = np.asarray(xp.grad(scalar)(xp.asarray(X)))
    expected = fd_grad(lambda v: float(scalar(xp.asarray(v))), X)
    np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("dtype,out", [("float32", "complex64"), ("float64", "complex128"),
                                       ("complex64", "complex64"), ("int16", "complex128")])
def test_fft_accepts_real_input_and_keeps_precision(dtype, out):
    x = (X * 4).astype(dtype)
    got = F.fft(xp.asarray(x))
    assert got.dtype == np.dtype(out)
    tol = 1e-5 if out == "complex64" else 1e-12
    np.testing.assert_allclose(np.asarray(got), np.fft.fft(x), rtol=tol, atol=tol)


def test_real_transform_dtypes():
    x32 = xp.asarray(X.astype(np.float32))
    assert F.rfft(x32).dtype == xp.complex64
    assert F.irfft(F.rfft(x32)).dtype == xp.float32
    assert F.hfft(F.ihfft(x32)).dtype == xp.float32
    assert F.rfft(xp.asarray(np.arange(4))).dtype == xp.complex128
    np.testing.assert_allclose(np.asarray(F.irfft(F.rfft(x32), n=4)), X, rtol=1e-5, atol=1e-6)


BAD_CALLS = [
    ("fft", ValueError, lambda: F.fft(xp.asarray(X), n=0)),
    ("fft", TypeError, lambda: F.fft(xp.asarray(X), n=2.5)),
    ("fft", ValueError, lambda: F.fft(xp.asarray(X), norm="bogus")),
    ("fft", ValueError, lambda: F.fft(xp.asarray(X), axis=2)),
    ("fft", ValueError, lambda: F.fft(xp.asarray(np.zeros((0,))))),
    ("irfft", ValueError, lambda: F.irfft(xp.asarray(np.ones((1,))))),
    ("rfft", TypeError, lambda: F.rfft(xp.asarray(X + 1j))),
    ("ihfft", TypeError, lambda: F.ihfft(xp.asarray(X + 1j))),
    ("fftn", ValueError, lambda: F.fftn(xp.asarray(X), s=(2, 2))),        # s without axes
    ("fftn", ValueError, lambda: F.fftn(xp.asarray(X), s=(None, 2), axes=(0, 1))),
    ("fftn", ValueError, lambda: F.fftn(xp.asarray(X), s=(2,), axes=(0, 1))),
    ("fftn", ValueError, lambda: F.fftn(xp.asarray(X), s=(0, 2), axes=(0, 1))),
    ("fftn", TypeError, lambda: F.fftn(xp.asarray(X), axes=1)),
    ("rfftn", ValueError, lambda: F.rfftn(xp.asarray(X), axes=())),
    ("fft2", ValueError, lambda: F.fft2(xp.asarray(np.ones(3)))),
    ("fftfreq", ValueError, lambda: F.fftfreq(0)),
    ("fftfreq", TypeError, lambda: F.fftfreq(4, dtype=xp.int32)),
    ("fftfreq", ValueError, lambda: F.fftfreq(4, d=0)),
    ("rfftfreq", TypeError, lambda: F.rfftfreq(4.0)),
    ("rfftfreq", ValueError, lambda: F.rfftfreq(4, device="nowhere")),
    ("fftshift", ValueError, lambda: F.fftshift(xp.asarray(X), axes=5)),
]


@pytest.mark.parametrize("name,exc,call", BAD_CALLS, ids=[f"{n}-{i}" for i, (n, _, _) in
                                                           enumerate(BAD_CALLS)])
def test_bad_input_raises_before_any_kernel(name, exc, call, kernels_run):
    raises_before_kernels(name, exc, call, kernels_run, "laxarray.fft")


def test_numpy2_argument_rules():
    x = RNG.uniform(-1, 1, (2, 3, 4)) + 1j
    np.testing.assert_allclose(np.asarray(F.fftn(xp.asarray(x), s=(-1, 6), axes=(0, 2))),
                               np.fft.fftn(x, s=(-1, 6), axes=(0, 2)), atol=1e-12)
    # repeated axes transform repeatedly, as NumPy's axis-by-axis loop
    np.testing.assert_allclose(np.asarray(F.fftn(xp.asarray(x), s=(3, 2), axes=(2, 2))),
                               np.fft.fftn(x, s=(3, 2), axes=(2, 2)), atol=1e-12)
    np.testing.assert_allclose(np.asarray(F.irfftn(xp.asarray(x), s=(5, 7), axes=(0, 2))),
                               np.fft.irfftn(x, s=(5, 7), axes=(0, 2)), atol=1e-12)
    # more than three axes: lax.fft takes at most three per call
    y = RNG.uniform(-1, 1, (2, 2, 3, 2, 2))
    np.testing.assert_allclose(np.asarray(F.rfftn(xp.asarray(y))), np.fft.rfftn(y), atol=1e-12)
    np.testing.assert_allclose(np.asarray(F.ifftn(xp.asarray(y))), np.fft.ifftn(y), atol=1e-12)


def test_frequencies_dtype_and_device():
    dev = xp.__array_namespace_info__().default_device()
    f = F.fftfreq(5, d=0.1, dtype=xp.float32, device=dev)
    assert f.dtype == xp.float32
    np.testing.assert_array_equal(np.asarray(f), np.fft.fftfreq(5, 0.1).astype(np.float32))
    np.testing.assert_array_equal(np.asarray(F.rfftfreq(6)), np.fft.rfftfreq(6))


def test_jit_with_static_arguments():
    f = jax.jit(lambda x: F.irfft(F.rfft(x, n=8, norm="ortho"), n=8, norm="ortho"))
    x = RNG.uniform(-1, 1, (2, 8))
    np.testing.assert_allclose(np.asarray(f(xp.asarray(x))), x, atol=1e-12)
    jaxpr = str(jax.make_jaxpr(lambda v: F.fftn(xp.asarray(v))._value)(np.ones((2, 2, 2))))
    assert jaxpr.count("fft[") == 1  # three axes fused into one lax.fft
