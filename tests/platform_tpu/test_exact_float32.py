"""laxarray's own float32 exponentials and logarithms (``Backend.own_math``, the TPU's record):
within 3 ulps of NumPy's float64 result over the whole domain, NumPy's special values, and
the derivative of the function.  On the CPU with the TPU's record these check the
formulations, with the chip's division and square root (one or two ulps off, where XLA:CPU's
are correctly rounded) imitated by :func:`checks.chip_like`: read plainly, they were within
3 ulps on the CPU and 3.54 on the chip (2026-12-06); on the chip,
``benchmarks/elementwise_accuracy.py`` shows the same figures."""

import jax
import numpy as np
import pytest

import laxarray as xp
from checks import assert_same_signs, chip_like
from laxarray._core import backend

F32 = np.float32
TINY = np.finfo(F32).tiny
#: name -> (laxarray function, NumPy's float64 reference)
FUNCS = {
    "exp": (xp.exp, np.exp), "exp2": (xp.exp2, np.exp2), "expm1": (xp.expm1, np.expm1),
    "log": (xp.log, np.log), "log1p": (xp.log1p, np.log1p), "tanh": (xp.tanh, np.tanh),
    "sinh": (xp.sinh, np.sinh), "cosh": (xp.cosh, np.cosh), "asinh": (xp.asinh, np.arcsinh),
    "acosh": (xp.acosh, np.arccosh), "atanh": (xp.atanh, np.arctanh),
}
SPECIALS = np.array([0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 88.72, 89.0, -103.0,
                     -104.0, 128.0, -150.0, 9.1, -9.1, 4096.0, 4097.0, 1e30, -1e30,
                     np.finfo(F32).max, -np.finfo(F32).max, TINY, -TINY], F32)


def points():
    rng = np.random.default_rng(7)
    bits = rng.integers(0, 2 ** 32, 200_000, dtype=np.uint64).astype(np.uint32).view(F32)
    k = np.arange(-2000, 2001)
    return np.concatenate([
        bits[np.isfinite(bits)], (1.0 + k * 2.0 ** -24).astype(F32),
        rng.uniform(-1e-3, 1e-3, 20_000).astype(F32), rng.uniform(-1, 1, 20_000).astype(F32),
        rng.uniform(-100, 100, 20_000).astype(F32), rng.uniform(1, 1.01, 20_000).astype(F32),
        SPECIALS])


X = points()


#: the standard's correctly rounded functions (its "Accuracy" page): laxarray refines them
#: where the chip's are not (1 ulp off, and far off where a reciprocal leaves the range)
ROUNDED = {"divide", "reciprocal", "sqrt", "fmod", "pow"}


def test_the_record_lists_what_is_tested():
    assert backend.current().own_math == set(FUNCS) | ROUNDED


@pytest.mark.parametrize("name", sorted(FUNCS))
def test_within_three_ulps_of_the_exact_result(name):
    fn, ref_fn = FUNCS[name]
    got = np.asarray(fn(xp.asarray(X)))
    assert got.dtype == F32
    with np.errstate(all="ignore"):
        moved = chip_like(fn, X)     # the chip's division and root, 1-2 ulps off
        ref = ref_fn(X.astype(np.float64))
        r32 = ref.astype(F32)
    finite = np.isfinite(r32)
    # normal inputs and results (XLA:CPU, like the chip, flushes subnormals)
    sub_in = (X != 0) & (np.abs(X) < TINY)
    normal = finite & ~sub_in & ~((ref != 0) & (np.abs(ref) < TINY))
    for out in (got, moved):
        err = np.abs(out[normal].astype(np.float64) - ref[normal]) / np.spacing(
            np.abs(r32[normal]))
        worst = int(np.argmax(err))
        assert err[worst] <= 3.0, (name, X[normal][worst], out[normal][worst],
                                   ref[normal][worst])
    # NaN, the infinities and overflow as NumPy's float32 has them
    np.testing.assert_array_equal(got[~finite & ~sub_in], r32[~finite & ~sub_in])


@pytest.mark.parametrize("name", sorted(FUNCS))
def test_signed_zeros_and_special_values_as_numpy(name):
    fn, ref_fn = FUNCS[name]
    with np.errstate(all="ignore"):
        want = getattr(np, {"asinh": "arcsinh", "acosh": "arccosh", "atanh": "arctanh"}.get(
            name, name))(SPECIALS)
    got = np.asarray(fn(xp.asarray(SPECIALS)))
    exact = ~np.isfinite(want) | (want == 0)
    np.testing.assert_array_equal(got[exact], want[exact])
    assert np.array_equal(np.signbit(got[want == 0]), np.signbit(want[want == 0]))


DERIVATIVES = {
    "exp": np.exp, "exp2": lambda x: np.exp2(x) * np.log(2.0), "expm1": np.exp,
    "log": lambda x: 1 / x, "log1p": lambda x: 1 / (1 + x),
    "tanh": lambda x: 1 - np.tanh(x) ** 2, "sinh": np.cosh, "cosh": np.sinh,
    "asinh": lambda x: 1 / np.sqrt(x * x + 1), "acosh": lambda x: 1 / np.sqrt(x * x - 1),
    "atanh": lambda x: 1 / (1 - x * x),
}


@pytest.mark.parametrize("name", sorted(FUNCS))
def test_derivative_is_the_functions(name):
    fn = FUNCS[name][0]
    pts = np.array([1.5, 2.0, 3.25] if name == "acosh" else [-0.75, 0.3, 0.5], F32)
    grad = jax.vmap(jax.grad(lambda v: fn(xp.asarray(v)).__jax_array__()))
    got = np.asarray(grad(pts))
    np.testing.assert_allclose(got, DERIVATIVES[name](pts.astype(np.float64)), rtol=1e-5)


# ---- divide, reciprocal, sqrt: correctly rounded ------------------------------------------

def _normal_mask(*arrays):
    return np.logical_and.reduce([np.isfinite(a) & (np.abs(a) >= TINY) for a in arrays])


def _off_by(k_of, exact):
    """An estimate ``exact`` moved by -1 .. +2 ulps, chosen per element from ``k_of``'s bits
    (the chip's division and root are a few ulps off; XLA:CPU's are exact)."""
    def estimate(*args):
        q = jax.lax.bitcast_convert_type(exact(*args), np.int32)
        k = jax.lax.bitcast_convert_type(args[0], np.int32)
        k = jax.lax.bitwise_and(k, jax.lax.full_like(k, 3))
        return jax.lax.bitcast_convert_type(jax.lax.sub(jax.lax.add(q, k), jax.lax.full_like(k, 1)),
                                            np.float32)
    return estimate


def _pairs():
    rng = np.random.default_rng(11)
    a, b = (rng.integers(0, 2 ** 32, 300_000, dtype=np.uint64).astype(np.uint32).view(F32)
            for _ in range(2))
    near = (1.0 + np.arange(-500, 500) * 2.0 ** -23).astype(F32)
    return (np.concatenate([a, near, near, np.full(4, 3.0, F32)]),
            np.concatenate([b, near[::-1], np.full(near.size, 3.0, F32), near[:4]]))


@pytest.mark.parametrize("estimated", [False, True], ids=["xla", "few-ulps-off"])
def test_divide_and_reciprocal_are_correctly_rounded(estimated):
    from laxarray.array_api import _exact_float32
    a, b = _pairs()
    with np.errstate(all="ignore"):
        want, inv = (a.astype(np.float64) / b).astype(F32), (1.0 / b.astype(np.float64)).astype(F32)
    if estimated:
        est = _off_by(a, jax.lax.div)
        got = np.asarray(jax.jit(lambda u, v: _exact_float32.divide_from(u, v, est))(a, b))
        got_inv = np.asarray(jax.jit(lambda v: _exact_float32.divide_from(
            jax.lax.full_like(v, 1.0), v, _off_by(b, jax.lax.div)))(b))
    else:
        got, got_inv = np.asarray(xp.asarray(a) / xp.asarray(b)), np.asarray(xp.reciprocal(xp.asarray(b)))
    ok = _normal_mask(a, b, want)
    assert ok.sum() > 200_000
    np.testing.assert_array_equal(got[ok].view(np.uint32), want[ok].view(np.uint32))
    ok = _normal_mask(b, inv)
    np.testing.assert_array_equal(got_inv[ok].view(np.uint32), inv[ok].view(np.uint32))


@pytest.mark.parametrize("estimated", [False, True], ids=["xla", "few-ulps-off"])
def test_sqrt_is_correctly_rounded(estimated):
    from laxarray.array_api import _exact_float32
    a = np.abs(_pairs()[0])
    a = np.concatenate([a, (np.arange(1, 5000, dtype=np.float64) ** 2).astype(F32),
                        np.nextafter(F32(4.0), F32(0.0)), F32(1.0)], axis=None)
    with np.errstate(all="ignore"):
        want = np.sqrt(a.astype(np.float64)).astype(F32)
    if estimated:
        got = np.asarray(jax.jit(
            lambda u: _exact_float32.sqrt_from(u, _off_by(u, jax.lax.sqrt)))(a))
    else:
        got = np.asarray(xp.sqrt(xp.asarray(a)))
    ok = _normal_mask(a)
    np.testing.assert_array_equal(got[ok].view(np.uint32), want[ok].view(np.uint32))


def test_rounded_functions_special_values_as_numpy():
    sp = SPECIALS[np.abs(SPECIALS) != TINY]     # the flushed subnormal results aside
    u, v = np.meshgrid(sp, sp)
    with np.errstate(all="ignore"):
        cases = [(np.asarray(xp.asarray(u) / xp.asarray(v)), u / v),
                 (np.asarray(xp.reciprocal(xp.asarray(sp))), np.reciprocal(sp)),
                 (np.asarray(xp.sqrt(xp.asarray(sp))), np.sqrt(sp))]
    for got, want in cases:
        keep = ~((want != 0) & (np.abs(want) < TINY))
        np.testing.assert_array_equal(got[keep], want[keep])
        assert_same_signs(got[keep], want[keep])


def test_divide_from_the_chips_division_keeps_numpys_special_values():
    # the chip divides as x * (1 / y), and 1 / y flushes to zero past y = 2**126: inf / 3e38
    # gave NaN there (the conformance runner on the chip); the refinement starts from that
    from laxarray._core.numerics import flush_subnormals
    from laxarray.array_api import _exact_float32
    lax = jax.lax

    def chip(u, v):
        return lax.mul(u, flush_subnormals(lax.div(lax.full_like(v, 1.0), v)))
    sp = SPECIALS[np.abs(SPECIALS) != TINY]
    u, v = (a.ravel() for a in np.meshgrid(sp, sp))
    with np.errstate(all="ignore"):
        want = u / v
        assert np.isnan(np.asarray(chip(u, v))[(u == np.inf) & (v == np.finfo(F32).max)]).all()
    got = np.asarray(jax.jit(lambda a, b: _exact_float32.divide_from(a, b, chip))(u, v))
    keep = ~((want != 0) & (np.abs(want) < TINY))
    np.testing.assert_array_equal(got[keep], want[keep])
    assert_same_signs(got[keep], want[keep])


def test_rounded_functions_derivatives():
    pts = np.array([0.5, 1.5, 3.0], F32)
    d = jax.vmap(jax.grad(lambda u, v: (xp.asarray(u) / xp.asarray(v)).__jax_array__(),
                          argnums=(0, 1)))(pts, pts[::-1])
    np.testing.assert_allclose(d[0], 1 / pts[::-1].astype(np.float64), rtol=1e-6)
    np.testing.assert_allclose(d[1], -pts.astype(np.float64) / pts[::-1] ** 2.0, rtol=1e-6)
    for fn, ref in ((xp.sqrt, lambda x: 0.5 / np.sqrt(x)), (xp.reciprocal, lambda x: -1 / x ** 2)):
        got = jax.vmap(jax.grad(lambda u: fn(xp.asarray(u)).__jax_array__()))(pts)
        np.testing.assert_allclose(got, ref(pts.astype(np.float64)), rtol=1e-6)


# ---- fmod: exact (and remainder, floor_divide, which are built on it) ---------------------

@pytest.mark.parametrize("name", ["fmod", "remainder", "floor_divide"])
def test_fmod_family_is_numpys_bit_for_bit(name):
    # fmod is exact in IEEE arithmetic; the chip's x - trunc(x / y) y was 8 ulps off.  The
    # pairs span every exponent difference (random bit patterns) and moderate values
    a, b = _pairs()
    rng = np.random.default_rng(5)
    a = np.concatenate([a, rng.uniform(-100, 100, 20_000).astype(F32)])
    b = np.concatenate([b, rng.uniform(-3, 3, 20_000).astype(F32)])
    with np.errstate(all="ignore"):
        want, mod = getattr(np, name)(a, b), np.fmod(a, b)
    got = np.asarray(getattr(xp, name)(xp.asarray(a), xp.asarray(b)))
    # normal operands and a normal fmod (a subnormal one is flushed before it is used)
    ok = _normal_mask(a, b) & ~((mod != 0) & (np.abs(mod) < TINY))
    ok &= ~((want != 0) & (np.abs(want) < TINY)) & ~np.isnan(want)
    assert ok.sum() > 200_000
    np.testing.assert_array_equal(got[ok], want[ok])
    assert np.array_equal(np.signbit(got[ok]), np.signbit(want[ok]))


def test_fmod_derivative_is_lax_rems():
    x, y = np.array([7.5, -7.5, 0.25], F32), np.array([2.0, 2.0, 3.0], F32)
    d = jax.vmap(jax.grad(lambda u, v: xp.fmod(xp.asarray(u), xp.asarray(v)).__jax_array__(),
                          argnums=(0, 1)))(x, y)
    np.testing.assert_array_equal(d[0], np.ones(3, F32))
    np.testing.assert_array_equal(d[1], -np.trunc(x / y))


# ---- complex tanh and tan from the real functions -----------------------------------------

def complex_points():
    rng = np.random.default_rng(3)
    n = 40_000
    a = np.concatenate([rng.uniform(-3, 3, n), rng.uniform(-15, 15, n), rng.normal(0, 0.01, n)])
    b = np.concatenate([rng.uniform(-4, 4, n), rng.uniform(-10, 10, n),
                        np.pi / 2 + rng.normal(0, 1e-3, n)])     # next to tan(b)'s pole
    return (a + 1j * b).astype(np.complex64)


def worst_part_ulps(got, ref):
    """The largest error of either part in ulps of the float32 part (normal parts only)."""
    worst = 0.0
    for part in (np.real, np.imag):
        r = part(ref)
        ok = np.abs(r) >= TINY
        ulp = np.spacing(np.abs(r[ok]).astype(F32)).astype(np.float64)
        worst = max(worst, float(np.max(np.abs(part(got)[ok] - r[ok]) / ulp)))
    return worst


@pytest.mark.parametrize("name", ["tanh", "tan"])
def test_complex64_tanh_and_tan_within_eight_ulps(name):
    # XLA's complex tanh is built on the chip's exp (35 ulps off on the chip, 1.8e5 ulps
    # next to the poles on the CPU): Kahan's formula from real functions instead.  8 ulps
    # is the conformance runner's bound for these compositions
    z = complex_points()
    got = np.asarray(getattr(xp, name)(xp.asarray(z))).astype(np.complex128)
    assert worst_part_ulps(got, getattr(np, name)(z.astype(np.complex128))) <= 8.0


# ---- pow: log2(x) in two floats -------------------------------------------------------------

def test_pow_within_two_ulps():
    # XLA's pow loses y-fold (122 ulps at 0.896 ** 435 on the chip, 18 at 6 ** 10): large
    # exponents, bases next to 1, random bit patterns, small integer powers
    rng = np.random.default_rng(2)
    n = 60_000
    bits = rng.integers(0, 2 ** 32, n, dtype=np.uint64).astype(np.uint32).view(F32)
    x = np.concatenate([np.where(np.isfinite(bits), bits, F32(2.0)), rng.uniform(0, 3, n),
                        rng.uniform(0.9, 1.1, n), -rng.uniform(0, 3, n),
                        np.arange(1, 50), [F32(0.896)]]).astype(F32)
    y = np.concatenate([rng.uniform(-50, 50, n), rng.uniform(-200, 200, n),
                        rng.uniform(-3000, 3000, n), np.round(rng.uniform(-40, 40, n)),
                        np.full(49, 10.0), [F32(435.1)]]).astype(F32)
    with np.errstate(all="ignore"):
        ref = np.power(x.astype(np.float64), y.astype(np.float64))
    got = np.asarray(xp.pow(xp.asarray(x), xp.asarray(y)))
    r32 = ref.astype(F32)
    ok = np.isfinite(r32) & (np.abs(ref) >= TINY) & (np.abs(x) >= TINY)
    assert ok.sum() > 120_000
    err = np.abs(got[ok] - ref[ok]) / np.spacing(np.abs(r32[ok])).astype(np.float64)
    worst = int(np.argmax(err))
    assert err[worst] <= 2.0, (x[ok][worst], y[ok][worst], got[ok][worst], ref[ok][worst])
    # overflow, underflow to zero, NaN for a negative base and a non-integer exponent
    rest = ~ok & (np.abs(x) >= TINY) & ~((ref != 0) & (np.abs(ref) < TINY))
    np.testing.assert_array_equal(got[rest], r32[rest])
    # integer powers that are floats come out exact (6 ** 10 was 18 ulps off on the chip)
    small = (x > 0) & (x < 50) & (x == np.round(x)) & (y == 10) & (ref == r32)
    assert small.sum() >= 10
    np.testing.assert_array_equal(got[small], r32[small])


def test_pow_special_values_and_derivative():
    big = np.finfo(F32).max
    sp = np.array([0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, np.inf, -np.inf, np.nan, 3.0, big,
                   -big, 1e-30], F32)
    u, v = np.meshgrid(sp, sp)
    with np.errstate(all="ignore"):
        want = np.power(u, v)
    got = np.asarray(xp.pow(xp.asarray(u), xp.asarray(v)))
    # exact where the result is special or a power of two; 3 ** 0.5 and the like within 2 ulps
    normal = ~((want != 0) & (np.abs(want) < TINY))           # subnormal results flush
    exact = normal & (~np.isfinite(want) | (want == 0) | ((u != 3) & (v != 3) & (np.abs(u) != 1e-30)))
    np.testing.assert_array_equal(got[exact], want[exact])
    signed = exact & ~np.isnan(want)                           # a NaN's sign means nothing
    assert np.array_equal(np.signbit(got[signed]), np.signbit(want[signed]))
    np.testing.assert_allclose(got[normal & ~exact], want[normal & ~exact], rtol=2.5e-7)
    x, y = np.array([0.5, 2.0, 3.0], F32), np.array([2.5, -1.5, 3.0], F32)
    d = jax.vmap(jax.grad(lambda a, b: xp.pow(xp.asarray(a), xp.asarray(b)).__jax_array__(),
                          argnums=(0, 1)))(x, y)
    x64, y64 = x.astype(np.float64), y.astype(np.float64)
    np.testing.assert_allclose(d[0], y64 * x64 ** (y64 - 1), rtol=1e-5)
    np.testing.assert_allclose(d[1], np.log(x64) * x64 ** y64, rtol=1e-5)


def test_checkify_reports_an_own_function_at_the_users_line():
    # an own function is a custom_jvp, whose body jax traces with a traceback ending at the
    # body: its NaN was reported at the checkify call, not at the line calling xp.sqrt
    from laxarray import checkify as ck

    def f(x):
        return xp.sqrt(x)       # the line to report
    line = f.__code__.co_firstlineno + 1
    err, _ = ck.checkify(f, errors=ck.nan_checks)(xp.asarray(np.array([1.0, -4.0], F32)))
    assert err.get() == f"NaN generated by primitive sqrt at {__file__}:{line} (f)"
