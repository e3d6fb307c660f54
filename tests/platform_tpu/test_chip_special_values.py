"""Results the TPU's XLA lowering got wrong where XLA:CPU gets them right, each fixed by one
rule in laxarray's programs (docs/accelerators.md §2): they hold here on the CPU with the
TPU's record, and ``tools/device/accelerator_check.py`` runs this file on the chip, where the
official suite found them (2026-12-06)."""

import numpy as np
import pytest

import laxarray as xp
from checks import assert_same_signs

INF = np.float32(np.inf)


@pytest.mark.parametrize("op", ["remainder", "fmod", "floor_divide", "mod_operator"])
def test_a_finite_number_by_an_infinity_follows_numpy(op):
    # XLA's TPU rem is x - trunc(x / y) * y: NaN at y = ±inf (numerics.float_rem)
    x1 = np.array([5.0, -5.0, 5.0, -5.0, 0.0, -0.0, 3.5e38, -1e-30], dtype=np.float32)
    x2 = np.array([INF, INF, -INF, -INF, INF, -INF, -INF, INF], dtype=np.float32)
    a1, a2 = xp.asarray(x1), xp.asarray(x2)
    got = {"remainder": lambda: xp.remainder(a1, a2), "fmod": lambda: xp.fmod(a1, a2),
           "floor_divide": lambda: xp.floor_divide(a1, a2),
           "mod_operator": lambda: a1 % a2}[op]()
    want = {"remainder": np.remainder, "fmod": np.fmod, "floor_divide": None,
            "mod_operator": np.remainder}[op]
    got = np.asarray(got)
    if want is None:   # the standard's floor(x1 / x2): a signed zero (NumPy says -1 for mixed)
        with np.errstate(invalid="ignore"):
            want = np.floor(x1 / x2)
    else:
        want = want(x1, x2)
    np.testing.assert_array_equal(got, want)
    assert_same_signs(got, want)


def test_complex_tanh_of_nan_and_a_signed_zero():
    # the standard: tanh(NaN + 0j) is NaN + 0j, the zero keeping its sign
    z = xp.asarray(np.array([complex(np.nan, 0.0), complex(np.nan, -0.0)], np.complex64))
    got = np.asarray(xp.tanh(z))
    assert np.isnan(got.real).all()
    assert np.array_equal(got.imag, [0.0, -0.0])
    assert np.array_equal(np.signbit(got.imag), [False, True])


@pytest.mark.parametrize("exp2", [-90, -60, 0, 60, 90, 120])
@pytest.mark.parametrize("shape", [(5, 5), (7, 3), (3, 7), (2, 4, 4)])
@pytest.mark.parametrize("dtype", ["float32", "complex64"])
def test_the_svd_of_matrices_far_from_one(exp2, shape, dtype):
    # the polar SVD squares the entries: past 2**64 it overflowed (the official suite's pinv
    # on the chip: "SVD did not converge"), far below 1 it lost digits; scaled by the power
    # of two of the largest entry, it does neither (past 2**-100 the entries themselves
    # come near the subnormals, which XLA flushes: README, "subnormals")
    rng = np.random.default_rng(abs(exp2) + len(shape))
    a = rng.standard_normal(shape)
    if dtype == "complex64":
        a = a + 1j * rng.standard_normal(shape)
    a = (a * 2.0 ** exp2).astype(dtype)
    want = np.linalg.svd(a.astype(np.complex128 if dtype == "complex64" else np.float64),
                         compute_uv=False)
    top = want[..., :1]
    s = np.asarray(xp.linalg.svdvals(xp.asarray(a)))
    np.testing.assert_allclose(s / top, want / top, atol=2e-6)
    u, s2, vh = (np.asarray(t) for t in xp.linalg.svd(xp.asarray(a), full_matrices=False))
    rebuilt = (u * s2[..., None, :]) @ vh
    assert np.max(np.abs(rebuilt - a)) <= 2e-6 * np.max(np.abs(a))
    p = np.asarray(xp.linalg.pinv(xp.asarray(a)))
    want_p = np.linalg.pinv(a.astype(np.complex128 if dtype == "complex64" else np.float64))
    # (at 2**120 the pseudo-inverse's entries lie near the subnormals, which XLA flushes)
    tiny = np.finfo(np.float32).tiny
    assert np.max(np.abs(p - want_p)) <= 1e-4 * np.max(np.abs(want_p)) + 8 * tiny


def _text(fn, *args):
    import jax
    return jax.jit(fn).lower(*args).as_text()


def test_a_host_call_moves_no_empty_buffer():
    # a host call that moved a zero-byte buffer aborted the process on the chip, later and
    # from another thread (libtpu: "HostCommand byte_offset -1"): linalg.eig of 0x0
    import jax
    from laxarray._core import jax_host_calls as host_calls

    seen = []

    def fn(a, b):
        seen.append((a.shape, b.shape))
        return a.sum(axis=0) + b.size, np.zeros((0, 2), np.float32)

    shapes = (jax.ShapeDtypeStruct((3,), np.float32), jax.ShapeDtypeStruct((0, 2), np.float32))

    def program(a, b):
        return host_calls.host_call(fn, shapes, a, b)

    a, b = np.ones((4, 3), np.float32), np.zeros((0,), np.float32)
    # the transfers: a custom call on the CPU (and the GPU); on a TPU a send per operand and a
    # receive per result, host transfers each
    calls = _transfers(_text(program, a, b))
    assert calls and not any("tensor<0" in c for c in calls), calls   # no empty buffer
    got = jax.jit(program)(a, b)
    np.testing.assert_array_equal(np.asarray(got[0]), a.sum(axis=0))
    assert got[1].shape == (0, 2) and seen[-1] == ((4, 3), (0,))   # fn still sees both
    # nothing but empty results: no host call at all
    assert not _transfers(_text(lambda b: host_calls.host_call(
        lambda v: v * 2, jax.ShapeDtypeStruct((0,), np.float32), b), b))


def _transfers(text):
    """The lines of a lowered program that move buffers between the device and the host."""
    return [ln for ln in text.splitlines()
            if ("callback" in ln and "custom_call" in ln)
            or "stablehlo.send" in ln or "stablehlo.recv" in ln]


@pytest.mark.parametrize("shape", [(0, 0), (0, 3, 3), (2, 0, 0)])
def test_eig_of_empty_matrices(shape):
    x = np.zeros(shape, np.float32)
    w, v = xp.linalg.eig(xp.asarray(x))
    want_w, want_v = np.linalg.eig(x)
    assert w.shape == want_w.shape and v.shape == want_v.shape
    assert w.dtype == xp.complex64 and v.dtype == xp.complex64
    assert xp.linalg.eigvals(xp.asarray(x)).shape == want_w.shape


def test_a_host_buffer_comes_in_on_the_namespaces_own_device():
    # on the chip jax.dlpack.from_dlpack put a NumPy buffer on the host CPU's device, one the
    # namespace does not list: scikit-learn's move_to (from_dlpack(key, device=x.device))
    # then indexed into arrays its own info().dtypes(device=) refused (cross_val_predict)
    import jax
    listed = xp.__array_namespace_info__().devices()
    key = np.arange(6, dtype=np.int64)[::-1].copy()
    x = xp.asarray(np.arange(12.0, dtype=np.float32).reshape(6, 2))
    made = {"from_dlpack": xp.from_dlpack(key),
            "from_dlpack device=": xp.from_dlpack(key, device=x.device),
            "from_dlpack copy=True": xp.from_dlpack(key, copy=True)}
    try:    # the host CPU's backend (absent where JAX_PLATFORMS names the accelerator alone)
        host = jax.devices("cpu")[0]
    except RuntimeError:
        host = None
    if host is not None:
        made["asarray of a host jax array"] = xp.asarray(jax.device_put(key, host))
    for how, got in made.items():
        assert got.device in listed, (how, got.device, listed)
        np.testing.assert_array_equal(np.asarray(got), key)
        taken = xp.take(x, got, axis=0)
        assert taken.device in listed, how
        np.testing.assert_array_equal(np.asarray(taken), np.asarray(x)[key])


@pytest.mark.parametrize("piece, shape", [(p, s) for p in ("qdwh", "eigh", "qr")
                                           for s in ((4, 4), (9, 4), (4, 9))
                                           if p != "qr" or s[0] != s[1]])   # (square: no QR)
def test_the_polar_svd_puts_back_what_its_pieces_lose(monkeypatch, piece, shape):
    # on the chip, QR, QDWH and eigh each gave factors orthogonal to working precision but
    # turned from the true ones: a 4x4 batch rebuilt to 2.4e-6 of its largest entry (3e-7 on
    # the CPU), Ridge's predictions 1.8e-4 off.  Here one piece's factor is turned by a
    # rotation of 1e-5 (the thin QR's also loses orthogonality by 1e-5); the SVD still
    # rebuilds the matrix within 2e-6 with orthogonal factors
    import jax
    from jax import lax
    from laxarray._core import numerics
    from laxarray.linalg import _matrix_ops as M
    linalg = jax.lax.linalg
    turns = []

    def turn(x):
        n = x.shape[-1]
        e = np.random.default_rng(len(turns)).standard_normal((n, n)).astype(np.float32) * 1e-5
        e = (e - e.T) / 2
        r = np.eye(n, dtype=np.float32) + e + e @ e / 2
        turns.append(r)
        # (HIGHEST: the chip's default product is one bfloat16 pass, 1e-3 off)
        return lax.dot(x, r.astype(x.dtype), precision=lax.Precision.HIGHEST)

    class Patched:
        def __getattr__(self, name):
            return getattr(linalg, name)

        def qdwh(self, a, **kw):
            u, h, it, ok = linalg.qdwh(a, **kw)
            return (turn(u) if piece == "qdwh" else u), h, it, ok

        def eigh(self, h, **kw):
            v, w = linalg.eigh(h, **kw)
            return (turn(v) if piece == "eigh" else v), w

        def qr(self, x, **kw):
            q, r = linalg.qr(x, **kw)
            if piece == "qr" and q.shape[-1] != q.shape[-2]:   # the tall matrix's thin Q
                noise = np.random.default_rng(9).standard_normal(q.shape).astype(np.float32)
                q = turn(q) + noise * np.float32(1e-5)
            return q, r
    monkeypatch.setattr(M, "lax_linalg", Patched())
    for seed in range(4):
        a = np.random.default_rng(seed).standard_normal(shape).astype(np.float32)
        # under laxarray's product precision, as the kernel helper runs it (on the chip a
        # bare jit's products are one bfloat16 pass: 7e-4 off, whatever the SVD does)
        u, s, vh = (np.asarray(t, np.float64) for t in jax.jit(numerics.with_matmul_precision(
            lambda b: M.polar_svd(b, False)))(a))
        assert np.abs((u * s) @ vh - a).max() <= 2e-6 * np.abs(a).max()
        k = min(shape)
        assert np.abs(u.T @ u - np.eye(k)).max() <= 2e-6
        assert np.abs(vh @ vh.T - np.eye(k)).max() <= 2e-6
        np.testing.assert_allclose(s, np.linalg.svd(a.astype(np.float64), compute_uv=False),
                                   rtol=0, atol=2e-6 * np.abs(a).max())
    assert turns   # the piece was met
