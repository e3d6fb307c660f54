"""Complex special cases of expm1, log, log1p and sqrt that XLA gets wrong, against the
standard's text (2025.12, "Special cases" of each function; C99 Annex G).

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
              ((0.0, 0.0), (0.0, 0.0), ""), ((INF, 0.0), (INF, 0.0), ""),
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
