"""Complex special cases of expm1, log, log1p, sqrt and tanh that XLA (or C99) gets wrong,
against the standard's text (2025.12, "Special cases" of each function; C99 Annex G).

Each row is one sentence of the standard: ``(a, b)`` is the input ``a + bj``, the expected
parts are the ones it states, and ``free`` names the parts whose sign it leaves unspecified.
The rows for ``b = -inf`` follow from conjugate symmetry, which the standard states for these
functions.  Checked for complex64 and complex128, eagerly and under ``jax.jit``.
"""

import jax
import numpy as np
import pytest

import laxarray as xp

INF, NAN = np.inf, np.nan

#: function -> list of ((a, b), (expected re, expected im), parts whose sign is free)
CASES = {
    "expm1": [((INF, NAN), (INF, NAN), "re"), ((-INF, NAN), (-1.0, 0.0), "im"),
              ((INF, INF), (INF, NAN), "re"), ((-INF, INF), (-1.0, 0.0), "im"),
              ((INF, -INF), (INF, NAN), "re"), ((-INF, -INF), (-1.0, -0.0), "im"),
              ((0.0, 0.0), (0.0, 0.0), ""), ((-0.0, 0.0), (0.0, 0.0), ""),
              ((0.0, -0.0), (0.0, -0.0), ""), ((-0.0, -0.0), (0.0, -0.0), ""),
              ((INF, 0.0), (INF, 0.0), ""),
              ((NAN, 0.0), (NAN, 0.0), ""), ((NAN, 1.0), (NAN, NAN), "")],
    "log": [((INF, NAN), (INF, NAN), ""), ((-INF, NAN), (INF, NAN), ""),
            ((NAN, INF), (INF, NAN), ""), ((NAN, -INF), (INF, NAN), ""),
            ((NAN, NAN), (NAN, NAN), "")],
    "log1p": [((INF, NAN), (INF, NAN), ""), ((-INF, NAN), (INF, NAN), ""),
              ((NAN, INF), (INF, NAN), ""), ((NAN, NAN), (NAN, NAN), "")],
    "sqrt": [((INF, NAN), (INF, NAN), ""), ((-INF, NAN), (NAN, INF), "im"),
             ((NAN, INF), (INF, INF), ""), ((1.0, INF), (INF, INF), ""),
             ((-INF, 1.0), (0.0, INF), ""), ((INF, 1.0), (INF, 0.0), ""),
             ((NAN, NAN), (NAN, NAN), ""), ((1.0, NAN), (NAN, NAN), "")],
}


def _rows():
    for name, rows in CASES.items():
        for (a, b), expected, free in rows:
            yield pytest.param(name, a, b, expected, free, id=f"{name}({a}{b:+}j)")


def _part_ok(got, want, sign_free):
    if np.isnan(want):
        return bool(np.isnan(got))
    if sign_free:
        return bool(abs(got) == abs(want))
    return bool(got == want) and bool(np.signbit(got) == np.signbit(want))


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
@pytest.mark.parametrize("name, a, b, expected, free", list(_rows()))
def test_standard_special_case(name, a, b, expected, free, dtype, jit):
    fn = getattr(xp, name)
    if jit:
        fn = jax.jit(fn)
    z = np.array([complex(a, b)], dtype=dtype)
    got = np.asarray(fn(xp.asarray(z)))[0]
    assert _part_ok(got.real, expected[0], "re" in free), (got, expected)
    assert _part_ok(got.imag, expected[1], "im" in free), (got, expected)


#: finite ``b`` for tanh(±inf + bj): sin(2b) of either sign, tiny to the largest float32
_TANH_B = (1e-30, 0.5, 1.0, 2.0, 3.0, 4.0, 10.0, 100.0, 1e4, 12345.678, 1e30, 3e38)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
def test_tanh_of_infinite_real_part(dtype, jit):
    # the standard: tanh(+inf + bj) is 1 + 0j for every positive finite b (C99's ctanh
    # gives the zero the sign of sin(2b)); conj(x) and -x give the other quadrants
    fn = jax.jit(xp.tanh) if jit else xp.tanh
    bs = np.array(_TANH_B + tuple(-b for b in _TANH_B) + (0.0, -0.0))
    for a in (INF, -INF):
        z = (a + 0j + bs * 1j).astype(dtype)
        z.imag = bs  # keeps -0.0
        got = np.asarray(fn(xp.asarray(z)))
        assert np.all(got.real == np.sign(a)), got
        assert np.all(got.imag == 0) and np.array_equal(np.signbit(got.imag),
                                                        np.signbit(z.imag)), (a, got)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_tanh_of_finite_real_part_keeps_the_sign_of_sin_2b(dtype):
    # away from a = inf the imaginary part sin(2b) / (cosh(2a) + cos(2b)) underflows to a
    # zero of its exact sign (unchanged by the a = inf case)
    z = np.array([complex(400.0, 2.0), complex(400.0, 1.0)], dtype)
    got = np.asarray(xp.tanh(xp.asarray(z)))
    assert got.real.tolist() == [1.0, 1.0]
    assert np.signbit(got.imag).tolist() == [True, False]  # sin(4) < 0 < sin(2)
