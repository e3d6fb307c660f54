"""laxarray.numpy_api.mathfuncs: jit equivalence, bad input, and edge cases the conformance
specs do not draw (oracle: NumPy)."""

import jax
import numpy as np
import pytest

import laxarray as la
from laxarray.numpy_api.mathfuncs import _einsum as _math_einsum

RNG = np.random.default_rng(1234)


def _r(*shape, dtype=np.float64):
    return RNG.standard_normal(shape).astype(dtype)


def _close(got, expected, rtol=1e-12, atol=1e-12):
    got, expected = np.asarray(got), np.asarray(expected)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    np.testing.assert_allclose(got, expected, rtol=rtol, atol=atol, equal_nan=True)


# ---- jit: the traced function equals the eager one -------------------------------------------
A, B, V = _r(3, 4), _r(4, 2), _r(4)
P = np.array([1.0, -3.0, 2.0])
JIT_CASES = [
    ("einsum", lambda a, b: la.einsum("ij,jk->ik", a, b), (A, B)),
    ("einsum3", lambda a, b, v: la.einsum("ij,jk,j->ik", a, b, v, optimize="optimal"),
     (A, B, V)),
    ("dot", la.dot, (A, B)),
    ("inner", la.inner, (A, V)),
    ("vdot", la.vdot, (V, V)),
    ("outer", la.outer, (V, V)),
    ("kron", la.kron, (A, B)),
    ("cross", lambda a, b: la.cross(a, b, axisc=0), (_r(2, 3), _r(2, 3))),
    ("trace", lambda a: la.trace(a, 1), (A,)),
    ("matvec", la.matvec, (A, V)),
    ("vecmat", la.vecmat, (V, B)),
    ("convolve", lambda a, b: la.convolve(a, b, "same"), (V, P)),
    ("correlate", lambda a, b: la.correlate(a, b, "full"), (V, P)),
    ("polyval", la.polyval, (P, V)),
    ("polyadd", la.polyadd, (P, V)),
    ("polymul", lambda a, b: la.polymul(a, b, trim_leading_zeros=False), (P, V)),
    ("polydiv", lambda a, b: la.polydiv(a, b, trim_leading_zeros=False), (V, P)),
    ("polyder", lambda p: la.polyder(p, 2), (V,)),
    ("polyint", lambda p: la.polyint(p, 2, k=[1.0, 2.0]), (V,)),
    ("vander", lambda x: la.vander(x, 3), (V,)),
    ("polyfit", lambda x, y: la.polyfit(x, y, 2), (np.linspace(0, 1, 6), _r(6))),
    ("roots", lambda p: la.roots(p, strip_zeros=False), (P,)),
    ("poly", la.poly, (P,)),
    ("kaiser", lambda b: la.kaiser(6, b), (np.float64(3.0),)),
    ("frexp", la.frexp, (V,)),
    ("ldexp", la.ldexp, (V, np.array([1, -2, 3, 0]))),
    ("modf", la.modf, (V,)),
    ("gcd", la.gcd, (np.array([12, 18, 0]), np.array([8, -27, 5]))),
    ("lcm", la.lcm, (np.array([12, 18, 0]), np.array([8, -27, 5]))),
    ("i0", la.i0, (V,)),
    ("unwrap", lambda p: la.unwrap(p, period=3.0), (np.cumsum(_r(8)),)),
    ("nan_to_num", lambda x: la.nan_to_num(x, nan=1.0, posinf=2.0),
     (np.array([np.nan, np.inf, -np.inf, 1.0]),)),
    ("isclose", la.isclose, (V, V + 1e-9)),
    ("allclose", la.allclose, (V, V)),
    ("array_equal", la.array_equal, (V, V)),
    ("array_equiv", la.array_equiv, (A, A[:1])),
    ("around", lambda x: la.around(x, 2), (V,)),
    ("packbits", lambda x: la.packbits(x, axis=0), (np.array([[1, 0, 1], [0, 1, 1]]),)),
    ("unpackbits", lambda x: la.unpackbits(x, count=5), (np.array([7, 200], np.uint8),)),
    ("angle", lambda z: la.angle(z, deg=True), (V + 1j * V[::-1],)),
    ("divmod", la.divmod, (V, np.float64(0.7))),
]


@pytest.mark.parametrize("name,fn,args", JIT_CASES, ids=[c[0] for c in JIT_CASES])
def test_jit_matches_eager(name, fn, args):
    arrays = [la.asarray(a) for a in args]
    eager = fn(*arrays)
    traced = jax.jit(fn)(*arrays)
    eager = eager if isinstance(eager, tuple) else (eager,)
    traced = traced if isinstance(traced, tuple) else (traced,)
    for e, t in zip(eager, traced):
        assert isinstance(t, la.Array)
        assert t.dtype == e.dtype
        _close(t, e, rtol=1e-10, atol=1e-10)


def test_einsum_traces_to_dot_general():
    text = str(jax.make_jaxpr(lambda a, b: la.einsum("bij,bjk->bik", a, b))(
        la.ones((2, 3, 4)), la.ones((2, 4, 5))))
    assert "dot_general" in text
    assert "reduce_sum" not in text and " mul " not in text


# ---- einsum ------------------------------------------------------------------------------
@pytest.mark.parametrize("subscripts,shapes", [
    ("ij,jk,kl,lm,mn,no,op,pq->iq", [(2, 3), (3, 4), (4, 2), (2, 5), (5, 3), (3, 2),
                                     (2, 4), (4, 3)]),
    ("ea,fb,abcd,gc,hd->efgh", [(3, 3), (3, 3), (3, 3, 3, 3), (3, 3), (3, 3)]),
    ("ii->i", [(4, 4)]),
    ("iij,jkk->ik", [(3, 3, 2), (2, 4, 4)]),
    ("...ij,...jk", [(2, 1, 3, 4), (5, 4, 2)]),
    ("i,i,i,i->", [(3,), (3,), (3,), (3,)]),
    ("ij,kl->", [(2, 0), (3, 4)]),
    (",ij->ji", [(), (2, 3)]),
])
@pytest.mark.parametrize("optimize", [False, "greedy", "optimal"])
def test_einsum_against_numpy(subscripts, shapes, optimize):
    ops = [_r(*s) for s in shapes]
    _close(la.einsum(subscripts, *ops, optimize=optimize), np.einsum(subscripts, *ops),
           rtol=1e-11, atol=1e-11)


def test_einsum_path_report_matches_numpy():
    ops = [_r(2, 2), _r(2, 5), _r(5, 2)]
    for opt in ("greedy", "optimal", False, ("greedy", 4)):
        path, text = la.einsum_path("ij,jk,kl->il", *ops, optimize=opt)
        expected = np.einsum_path("ij,jk,kl->il", *ops, optimize=opt)
        assert path == expected[0]
        assert text == expected[1]


def test_einsum_explicit_path_sublists_and_dtypes():
    ops = [_r(2, 3), _r(3, 4), _r(4, 2)]
    path, _ = np.einsum_path("ij,jk,kl->il", *ops, optimize="greedy")
    _close(la.einsum("ij,jk,kl->il", *ops, optimize=path), np.einsum("ij,jk,kl->il", *ops))
    _close(la.einsum(ops[0], [0, 1], ops[1], [1, 2], [0, 2]),
           np.einsum(ops[0], [0, 1], ops[1], [1, 2], [0, 2]))
    c = _r(3, 2)
    _close(la.einsum(ops[0], [Ellipsis, 1], c, [1, Ellipsis]),
           np.einsum(ops[0], [Ellipsis, 1], c, [1, Ellipsis]))
    b = np.array([[True, False], [False, False]])
    assert la.einsum("ij,jk->ik", b, b).dtype == la.bool
    np.testing.assert_array_equal(la.einsum("ij,jk->ik", b, b), np.einsum("ij,jk->ik", b, b))
    i8 = np.arange(6, dtype=np.int8).reshape(2, 3)
    got = la.einsum("ij,ij->i", i8, np.ones((2, 3), np.uint8))
    assert got.dtype == np.einsum("ij,ij->i", i8, np.ones((2, 3), np.uint8)).dtype
    assert la.einsum("i,i", [1, 2], [3, 4], dtype=np.float32,
                     casting="same_kind").dtype == la.float32


@pytest.mark.parametrize("call,exc", [
    (lambda: la.einsum("ij,jk", np.ones((2, 3)), np.ones((4, 2))), ValueError),
    (lambda: la.einsum("ij", np.ones(3)), ValueError),
    (lambda: la.einsum("i->j", np.ones(3)), ValueError),
    (lambda: la.einsum("i->ii", np.ones(3)), ValueError),
    (lambda: la.einsum("i,i", np.ones(3)), ValueError),
    (lambda: la.einsum("i1", np.ones((3, 3))), ValueError),
    (lambda: la.einsum("...i->i", np.ones((2, 3))), ValueError),
    (lambda: la.einsum("i", np.ones(3), optimize="fast"), ValueError),
    (lambda: la.einsum("i", np.ones(3), optimize=3), TypeError),
    (lambda: la.einsum("i", np.ones(3), out=np.ones(3)), TypeError),
    (lambda: la.einsum("i", np.ones(3), dtype=np.int32), TypeError),
    (lambda: la.einsum("i,i", np.ones(3), np.ones(3),
                       optimize=["einsum_path", (0, 5)]), ValueError),
    (lambda: la.einsum_path("ij,jk", np.ones((2, 3)), np.ones((4, 2))), ValueError),
])
def test_einsum_bad_input(call, exc):
    with pytest.raises(exc, match="einsum"):
        call()


def test_einsum_optimal_path_not_worse_than_greedy():
    sizes = {"a": 10, "b": 2, "c": 30, "d": 4, "e": 7}
    inputs, out = ("ab", "bc", "cd", "de", "ea"), ""
    greedy = _math_einsum._choose_path("einsum", "greedy", inputs, out, sizes)
    optimal = _math_einsum._choose_path("einsum", "optimal", inputs, out, sizes)

    def cost(path):
        return sum(r[1] for r in _math_einsum._plan(inputs, out, path, sizes)[1])
    assert cost(optimal) <= cost(greedy)


# ---- products ------------------------------------------------------------------------------
def test_products_bad_input():
    with pytest.raises(ValueError, match="dot"):
        la.dot(np.ones((2, 3)), np.ones((2, 3)))
    with pytest.raises(ValueError, match="inner"):
        la.inner(np.ones(3), np.ones(2))
    with pytest.raises(ValueError, match="vdot"):
        la.vdot(np.ones(3), np.ones(2))
    with pytest.raises(ValueError, match="cross"):
        la.cross(np.ones(4), np.ones(3))
    with pytest.raises(TypeError, match="cross"):
        la.cross(np.ones(3, bool), np.ones(3, bool))
    with pytest.raises(ValueError, match="trace"):
        la.trace(np.ones(3))
    with pytest.raises(ValueError, match="trace"):
        la.trace(np.ones((3, 3)), axis1=1, axis2=-1)
    with pytest.raises(ValueError, match="matvec"):
        la.matvec(np.ones((2, 3)), np.ones(2))
    with pytest.raises(ValueError, match="convolve"):
        la.convolve([], [1.0])
    with pytest.raises(ValueError, match="correlate"):
        la.correlate([1.0], [1.0], mode="wide")
    with pytest.raises(ValueError, match="convolve"):
        la.convolve(np.ones((2, 2)), [1.0])


def test_products_edge_cases():
    _close(la.dot(3, V), np.dot(3, V))
    a, b = _r(2, 3, 4), _r(5, 4, 2)
    _close(la.dot(a, b), np.dot(a, b))
    _close(la.trace(np.ones((3, 3), bool)), np.trace(np.ones((3, 3), bool)))
    assert la.trace(np.ones((3, 3), np.int8)).dtype == np.trace(np.ones((3, 3), np.int8)).dtype
    z1, z2 = _r(4) + 1j * _r(4), _r(3) + 1j * _r(3)
    _close(la.correlate(z1, z2, "full"), np.correlate(z1, z2, "full"))
    _close(la.correlate(z2, z1, "same"), np.correlate(z2, z1, "same"))
    m = _r(4, 2)
    _close(la.vecmat(z1, m), np.vecmat(z1, m))
    x, y = _r(3, 5), _r(5, 3)
    _close(la.cross(x, y, axisa=0, axisb=1, axisc=0), np.cross(x, y, axisa=0, axisb=1,
                                                                axisc=0))
    u, w = _r(4, 3), _r(3)
    _close(la.cross(u, w, axis=-1), np.cross(u, w, axis=-1))
    _close(la.kron(np.eye(2, dtype=int), np.arange(3)), np.kron(np.eye(2, dtype=int),
                                                               np.arange(3)))


# ---- polynomials ------------------------------------------------------------------------
def test_polynomial_trimming_is_eager_only():
    q, r = la.polydiv([1.0, -3.0, 2.0], [1.0, -1.0])
    Q, R = np.polydiv([1.0, -3.0, 2.0], [1.0, -1.0])
    _close(q, Q)
    _close(r, R)
    _close(la.polymul([0, 0, 1, 2], [0, 3]), np.polymul([0, 0, 1, 2], [0, 3]))
    _close(la.roots([0, 0, 1, -3, 2, 0]), np.roots([0, 0, 1, -3, 2, 0]).astype(complex))
    assert la.roots([0, 0]).shape == (0,)
    for fn in (lambda p: la.polydiv(p, p), lambda p: la.polymul(p, p), la.roots):
        with pytest.raises(ValueError, match="jax.jit"):
            jax.jit(fn)(la.asarray(P))


def test_poly_real_for_conjugate_roots_and_matrix_input():
    got = la.poly(np.array([1 + 2j, 1 - 2j, 3.0]))
    expected = np.poly(np.array([1 + 2j, 1 - 2j, 3.0]))
    assert got.dtype == expected.dtype
    _close(got, expected)
    m = _r(3, 3)
    _close(la.poly(m), np.poly(m), rtol=1e-9, atol=1e-9)


def test_polyfit_full_and_cov():
    x, y = np.linspace(-1, 1, 9), _r(9)
    got = la.polyfit(x, y, 3, full=True)
    expected = np.polyfit(x, y, 3, full=True)
    for g, e in zip(got[:4], expected[:4]):
        _close(g, e, rtol=1e-9, atol=1e-9)
    assert got[4] == expected[4]
    for cov in (True, "unscaled"):
        c, v = la.polyfit(x, y, 2, cov=cov)
        C, VV = np.polyfit(x, y, 2, cov=cov)
        _close(c, C, rtol=1e-9, atol=1e-9)
        _close(v, VV, rtol=1e-8, atol=1e-10)
    with pytest.raises(ValueError, match="polyfit"):
        la.polyfit(x[:3], y[:3], 2, cov=True)
    with pytest.raises(ValueError, match="polyfit"):
        la.polyfit(x, y, -1)


def test_polynomial_bad_input():
    with pytest.raises(ValueError, match="polyval"):
        la.polyval(np.ones((2, 2)), 1.0)
    with pytest.raises(ValueError, match="polyint"):
        la.polyint([1.0, 2.0], 3, k=[1.0, 2.0])
    with pytest.raises(ValueError, match="polyder"):
        la.polyder([1.0, 2.0], -1)
    with pytest.raises(TypeError, match="polysub"):
        la.polysub([True], [False])
    with pytest.raises(ValueError, match="vander"):
        la.vander(np.ones((2, 2)))
    with pytest.raises(TypeError, match="kaiser"):
        la.kaiser(4, [1.0, 2.0])


# ---- elementwise -------------------------------------------------------------------------
def test_elementwise_bad_input():
    with pytest.raises(TypeError, match="gcd"):
        la.gcd(np.ones(2), np.ones(2))
    with pytest.raises(TypeError, match="lcm"):
        la.lcm(np.ones(2, bool), np.ones(2, bool))
    with pytest.raises(TypeError, match="fabs"):
        la.fabs(np.ones(2, complex))
    with pytest.raises(TypeError, match="isposinf"):
        la.isposinf(np.ones(2, complex))
    with pytest.raises(TypeError, match="ldexp"):
        la.ldexp(np.ones(2), np.ones(2))
    with pytest.raises(TypeError, match="frexp"):
        la.frexp(np.ones(2, complex))
    with pytest.raises(TypeError, match="nan_to_num"):
        la.nan_to_num(np.ones(2), nan="x")
    with pytest.raises(TypeError, match="angle"):
        la.angle(np.ones(2), deg="yes")
    with pytest.raises(TypeError, match="bitwise_count"):
        la.bitwise_count(np.ones(2))
    with pytest.raises(TypeError, match="around"):
        la.around(np.ones(2), 1.5)
    with pytest.raises(ValueError, match="unwrap"):
        la.unwrap(np.float64(1.0))
    with pytest.raises(TypeError, match="unwrap"):
        la.unwrap(np.ones(3), period="2pi")
    with pytest.raises(TypeError, match="isclose"):
        la.isclose(np.ones(2), np.ones(2), rtol=None)
    with pytest.raises(ValueError, match="isclose"):
        la.isclose(np.ones(2), np.ones(3))
    with pytest.raises(TypeError, match="unpackbits"):
        la.unpackbits(np.ones(2, np.int32))
    with pytest.raises(TypeError, match="packbits"):
        la.packbits(np.ones(2))
    with pytest.raises(ValueError, match="packbits"):
        la.packbits(np.ones(8, bool), bitorder="middle")


def test_elementwise_edge_cases():
    x = np.array([0.0, -0.0, 1e-310, -3.5, 1e300, np.inf, -np.inf, np.nan])
    m, e = la.frexp(x)
    # subnormals are normalised from their bits (no flush-to-zero)
    M, E = np.frexp(x)
    _close(m, M, rtol=0, atol=0)
    np.testing.assert_array_equal(e, E)
    _close(la.ldexp(np.float32(1.5), np.int64(-130)), np.float32(0.0), atol=2e-39)
    _close(la.ldexp(np.float64(0.75), np.int64(10000)), np.inf)
    _close(la.exp2(np.arange(-5, 100, dtype=np.float32)),
           np.exp2(np.arange(-5, 100, dtype=np.float32)), rtol=0, atol=0)
    _close(la.around(np.array([2.5, 3.5, -2.5]), 0), [2.0, 4.0, -2.0], rtol=0, atol=0)
    _close(la.around(np.array([25, 35, -25, 127], np.int8), -1),
           np.around(np.array([25, 35, -25, 127], np.int8), -1))
    assert la.around(np.array([25], np.int8), -3).dtype == np.int8
    assert la.gcd(np.int8(-128), np.int8(6)).dtype == np.int8
    np.testing.assert_array_equal(la.lcm(np.arange(-6, 7), 4), np.lcm(np.arange(-6, 7), 4))
    assert la.iscomplexobj(la.complex64) and la.isrealobj([1, 2])
    assert bool(la.array_equal(np.ones(2), np.ones(3))) is False
    assert bool(la.array_equiv(np.ones(2), np.ones(3))) is False
    assert bool(la.array_equal([np.nan + 1j], [1 + np.nan * 1j], equal_nan=True))
    assert la.isclose(1, 1).shape == ()
    _close(la.float_power(np.array([0j, 0j]), np.array([1 + 1j, 0j])), [0j, 1 + 0j])
    _close(la.unwrap(np.array([0, 1, 5, 6, 1, 9]), period=4),
           np.unwrap(np.array([0, 1, 5, 6, 1, 9]), period=4))
    for f in (la.bartlett, la.blackman, la.hamming, la.hanning):
        assert f(0).shape == (0,) and f(0).dtype == la.float64
        _close(jax.jit(lambda: f(5))(), f(5))


def test_float_power_complex_is_pow_in_complex128():
    # one complex kernel for both: small integer exponents by products (exact, as NumPy's
    # cpow), zero bases, everything else as pow does in complex128
    x = np.array([1 + 2j, 3 - 1j, -3 + 0.5j, 0j, 0j, 2 - 1j], np.complex64)
    y = np.array([3, 5, -2, 2 + 0j, 0j, 0.5 + 0.25j])
    got = np.asarray(la.float_power(x, y))
    assert got.dtype == np.complex128
    wide = [la.asarray(v.astype(np.complex128)) for v in (x, y)]
    np.testing.assert_array_equal(got, np.asarray(la.pow(*wide)))
    np.testing.assert_array_equal(got[:2], np.float_power(x[:2], y[:2]))
    np.testing.assert_allclose(got[2:], np.float_power(x[2:], y[2:]), rtol=1e-15, atol=0)
