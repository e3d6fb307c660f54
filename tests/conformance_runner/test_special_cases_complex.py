"""The runner's special-case check catches the complex cases laxarray used to get wrong.

laxarray gave ``expm1(-0 + 0j) = -0 + 0j`` and ``tanh(+inf + bj) = 1 + 0 sin(2b) j`` (C99's
ctanh, whose zero is ``-0`` where ``sin(2b) < 0``); the standard states ``0 + 0j`` and
``1 + 0j``, and the official test suite reads both zeros as ``+0``.  The runner's table did
not flag them because it read both zeros as free of sign: the generator
(``tools/gen_special_cases.py``) took a real ``0`` written without a sign in a complex
result ("``0 + 0j``") as "either sign", and an erratum read tanh's ``1 + 0j`` as C99's
``1 + 0 sin(2b) j``.  Values were drawn where they matter (``b = 2``: ``sin(4) < 0``) and
signs of zeros compared; only the expectation was loose.  The table now reads both as
``+0`` (the conjugate rows as ``-0``), and this test builds a namespace --
array_api_compat's NumPy with expm1 and tanh made conforming, then given back laxarray's
old values -- on which the check must report exactly those rows.
"""

import numpy as np
import pytest

import laxarray
from laxarray.conformance import SPECS, runner, special_cases as SC
from laxarray.conformance import special_cases_check as check
from laxarray.conformance import special_cases_table as T
from laxarray.conformance.special_cases_check import functions_only

cnp = pytest.importorskip("array_api_compat.numpy")

from test_runner_cli import broken  # noqa: E402  (this folder is on sys.path)

EXPM1_ZERO = "If ``a`` is either ``+0`` or ``-0`` and ``b`` is ``+0``, the result is ``0 + 0j``."
TANH_INF = ("If ``a`` is ``+infinity`` and ``b`` is a positive (i.e., greater than ``0``) "
            "finite number, the result is ``1 + 0j``.")


def _conforming(name):
    """NumPy's ``name`` with the standard's value wherever a row fixes one."""
    def fn(x, /):
        x = np.asarray(x)
        with np.errstate(all="ignore"):
            got = np.asarray(getattr(np, name)(x))
        return SC.conform(name, (x,), got)
    fn.__name__ = name
    return fn


def _old_expm1(x, /):
    """laxarray's expm1 before: the real part of expm1(±0 ± 0j) was expm1(a), so -0."""
    out = np.array(_conforming("expm1")(x), copy=True)
    x = np.asarray(x)
    if out.dtype.kind == "c":
        zero = (x.real == 0) & (x.imag == 0)
        out.real[zero] = x.real[zero]
    return out


def _old_tanh(x, /):
    """laxarray's tanh before (C99's): tanh(±inf + bj) had an imaginary zero of the sign of
    sin(2b) for finite b."""
    out = np.array(_conforming("tanh")(x), copy=True)
    x = np.asarray(x)
    if out.dtype.kind == "c":
        at = np.isinf(x.real) & np.isfinite(x.imag)
        with np.errstate(all="ignore"):
            out.imag[at] = np.copysign(0.0, np.sin(2 * x.imag[at].astype(np.float64)))
    return out


STANDARD = broken(expm1=_conforming("expm1"), tanh=_conforming("tanh"))
OLD = broken(expm1=_old_expm1, tanh=_old_tanh)


@pytest.mark.parametrize("name", ["expm1", "tanh"])
def test_conforming_namespace_passes(name):
    assert check.failures(STANDARD, name) == []
    assert check.failures(laxarray, name) == []  # laxarray now gives the standard's values


@pytest.mark.parametrize("name,bullet", [("expm1", EXPM1_ZERO), ("tanh", TANH_INF)])
def test_check_reports_the_old_values(name, bullet):
    found = check.failures(OLD, name)
    assert {dtype for _, dtype, _ in found} == {"complex64", "complex128"}
    for form, _, err in found:
        assert form == f"{name}(x)"
        # the bullet itself, or its mirror image by conjugate symmetry
        assert bullet in str(err), str(err)


@pytest.mark.parametrize("name", ["expm1", "tanh"])
def test_runner_fails_the_old_namespace(name):
    spec = SPECS[name]
    with functions_only():  # (the arrays are NumPy's: their operators are NumPy's)
        good = runner.run_spec(STANDARD, spec, max_examples=10, seed=0)
        bad = runner.run_spec(OLD, spec, max_examples=10, seed=0, namespace_label="old")
    assert good.status == "pass", good.message
    assert bad.status == "fail" and "special case" in bad.message, bad.message


def test_rows_fix_the_sign_of_both_zeros():
    # the reason the check let the old values through: both zeros were read as free of sign
    rows = {(r[0], r[4]): r[3] for r in SC.ROWS}
    assert rows["expm1", EXPM1_ZERO] == ("complex", "+0", "+0", "")
    assert rows["tanh", TANH_INF] == ("complex", "1", "+0", "")
    mirror = "By ``tanh(conj(x)) == conj(tanh(x))``, from: " + TANH_INF
    assert rows["tanh", mirror] == ("complex", "1", "-0", "")
    assert not [e for e in T.ERRATA if e[0] == "tanh"]  # C99's reading is gone


def test_tanh_inputs_include_b_where_c99_gives_minus_zero():
    # the batch of inputs for tanh(+inf + bj), b > 0 finite, has b with sin(2b) < 0
    args, assigned = check.batch("tanh", "complex", "complex128")
    index = [i for i in SC.rows("tanh", "complex") if SC.ROWS[i][4] == TANH_INF][0]
    b = np.asarray(args[0]).imag[np.asarray(assigned) == index]
    with np.errstate(all="ignore"):  # (2b overflows for the largest b)
        sin2b = np.sin(2 * b)
    assert b.size and (sin2b < 0).any() and (sin2b > 0).any()


def test_tan_at_an_infinite_imaginary_part_follows_the_standards_tanh():
    # "special cases must be handled as if the operation is implemented as
    # -1j * tanh(x*1j)": 1j * (a + inf j) = -inf + aj, and the standard's tanh(-inf + aj)
    # is -1 + 0j with the sign of a on the zero, so tan(a + inf j) = copysign(0, a) + 1j
    # (NumPy, with C99's sin(2a): tan(2 + inf j) = -0 + 1j)
    import laxarray
    from laxarray.conformance.spec import Pinned
    from laxarray.conformance.specs_elementwise import _tan_oracle
    x = np.array([complex(2, np.inf), complex(-2, np.inf), complex(2, -np.inf),
                  complex(-0.0, -np.inf)], np.complex64)
    out = _tan_oracle(x)
    assert np.array_equal(np.signbit(out.real), np.signbit(x.real))
    assert np.array_equal(out.real, np.zeros(4)) and np.array_equal(out.imag, np.sign(x.imag))
    example = {"dtype": "complex64", "shape": (4,), "x": x}
    SPECS["tan"].check(laxarray, Pinned(example))
    with pytest.raises(AssertionError):
        SPECS["tan"].check(np, Pinned(example))
