"""The conformance error model (laxarray.conformance.tolerances) and its one comparator
(compare.assert_values): the formula, what a row must be given, the complex measures, and
that a value just outside a bound fails while one inside passes."""

import numpy as np
import pytest

from laxarray.conformance import ConformanceError, compare, tolerances
from laxarray.conformance.tolerances import Bound

EPS32 = float(np.finfo(np.float32).eps)


def test_tolerance_is_the_formula():
    row = Bound(rel=2, rel_n=1, abs=3, abs_n=0.5, scaled=4, scaled_n=2, tiny=5, scale="s")
    rtol, atol = row.tolerance(np.float32, scale=np.array([1.0, 10.0]), n=3)
    tiny = float(np.finfo(np.float32).tiny)
    assert rtol == pytest.approx((2 + 3) * EPS32)
    np.testing.assert_allclose(atol, [(3 + 1.5) * EPS32 + (4 + 6) * EPS32 * s + 5 * tiny
                                      for s in (1.0, 10.0)])


def test_a_row_says_what_it_needs():
    with pytest.raises(ValueError, match="pass n"):
        Bound(rel_n=1).tolerance(np.float64)
    with pytest.raises(ValueError, match="needs scale"):
        Bound(scaled=1, scale="max|x|").tolerance(np.float64)
    with pytest.raises(ValueError, match="say what its scale is"):
        Bound(scaled=1)
    with pytest.raises(ValueError, match="measure"):
        Bound(measure="maxwise")


def test_a_scale_that_overflowed_or_is_nan_bounds_nothing():
    _, atol = Bound(scaled=1, scale="s").tolerance(np.float64, scale=np.array([np.inf, np.nan]))
    assert np.all(atol == np.inf)


def test_lookup():
    assert tolerances.lookup("no such function") is tolerances.EXACT
    assert tolerances.lookup("add.reduce") is tolerances.BOUNDS["add.*"]
    assert tolerances.lookup("fft.fftshift").exact  # an exact key wins over "fft.*"
    assert tolerances.lookup("abs", np.float32).exact
    assert tolerances.lookup("abs", np.complex64).rel == 1
    row = Bound(rel=1)
    assert tolerances.lookup(row) is row


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_inside_passes_outside_fails(dtype):
    e = np.array([1.0, -3.0, 0.0], dtype)
    eps = float(np.finfo(dtype).eps)
    row = Bound(rel=4, abs=2)
    tol = 4 * eps * np.abs(e.astype(np.float64)) + 2 * eps
    inside = (e.astype(np.float64) + 0.9 * tol).astype(dtype)
    compare.assert_values("f", inside, e, bound=row, signed_zeros=False)
    outside = (e.astype(np.float64) + 1.5 * tol).astype(dtype)
    with pytest.raises(ConformanceError, match="3 of 3 differ"):
        compare.assert_values("f", outside, e, bound=row)


def test_complex_measures():
    e = np.array([1.0 + 0.0j], np.complex128)
    eps = float(np.finfo(np.float64).eps)
    a = e + eps * (1 + 1j)  # each part off by eps (exactly), the modulus by 1.41 eps
    compare.assert_values("f", a, e, bound=Bound(rel=1))  # normwise: |e| is 1 for both parts
    with pytest.raises(ConformanceError):  # componentwise: the imaginary part's own |e| is 0
        compare.assert_values("f", a, e, bound=Bound(rel=1, measure="componentwise"))
    with pytest.raises(ConformanceError):  # modulus: 1.41 eps > 1 eps
        compare.assert_values("f", a, e, bound=Bound(rel=1, measure="modulus"))
    compare.assert_values("f", a, e, bound=Bound(rel=1.5, measure="modulus"))


def test_nan_and_infinities_are_matched_whatever_the_bound():
    loose = Bound(abs=1e300)
    for a, e in ((np.nan, 1.0), (1.0, np.nan), (np.inf, -np.inf), (1.0, np.inf)):
        with pytest.raises(ConformanceError):
            compare.assert_values("f", np.array([a]), np.array([e]), bound=loose)
    compare.assert_values("f", np.array([np.nan, np.inf]), np.array([np.nan, np.inf]),
                          bound=loose)


def test_integers_are_exact_whatever_the_row():
    with pytest.raises(ConformanceError):
        compare.assert_values("sum", np.array([3]), np.array([4]), n=10, scale=100.0)


def test_alternatives():
    compare.assert_values("f", np.array([2.0]), np.array([1.0]),
                          alternatives=[np.array([2.0])])
    with pytest.raises(ConformanceError):
        compare.assert_values("f", np.array([3.0]), np.array([1.0]),
                              alternatives=[np.array([2.0])])
