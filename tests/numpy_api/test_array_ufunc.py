"""NumPy's ufuncs called on laxarray arrays (``__array_ufunc__``) run laxarray's function of
the same name: the result is a laxarray array whose values and dtype are NumPy's own for the
same NumPy inputs, NumPy operands mix in, ``out=`` and the ufunc methods pass through, and
what laxarray lacks is NumPy's ``TypeError``."""

import numpy as np
import pytest

import laxarray as la

UFUNCS = sorted(n for n in dir(np) if isinstance(getattr(np, n), np.ufunc)
                and getattr(np, n).__name__ == n and n not in ("isnat", "matmul", "vecdot",
                                                               "matvec", "vecmat"))
FLOATS = np.array([-2.5, -1.0, -0.0, 0.0, 0.5, 1.0, 3.0, np.inf, -np.inf, np.nan])
INTS = np.array([-7, -1, 0, 1, 2, 5, 12, 40, 3, -2], dtype=np.int64)
#: where laxarray takes the standard's special case and NumPy the other answer the standard
#: allows: ``±inf // finite`` is ±inf (NumPy: NaN, as Python's ``//``)
STANDARD_CASES = {"floor_divide", "divmod"}


def _operands(ufunc):
    """NumPy inputs the ufunc takes: floats where it accepts them, else int64 (bitwise,
    gcd, shifts), else bool."""
    for base in (FLOATS, INTS, INTS > 0):
        args = [base] + [base[::-1] for _ in range(ufunc.nin - 1)]
        if ufunc.__name__ in STANDARD_CASES and base is FLOATS:
            args[0] = np.where(np.isinf(args[0]) & np.isfinite(args[1]), 1.5, args[0])
        if ufunc.__name__ in ("left_shift", "right_shift", "ldexp") and ufunc.nin == 2:
            args[1] = np.abs(INTS) % 5
        try:
            with np.errstate(all="ignore"):
                ufunc(*args)
        except TypeError:
            continue
        return args
    pytest.skip(f"{ufunc.__name__}: no operand kind that NumPy takes")


def _same(got, want):
    assert isinstance(got, la.Array), type(got)
    got = np.asarray(got)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    if want.dtype.kind in "fc":
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=0, equal_nan=True)
    else:
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("name", UFUNCS)
def test_numpy_ufunc_on_laxarray_gives_numpys_answer_as_a_laxarray(name):
    ufunc = getattr(np, name)
    args = _operands(ufunc)
    with np.errstate(all="ignore"):
        want = ufunc(*args)
    got = ufunc(*[la.asarray(a) for a in args])
    for g, w in zip(*((got, want) if ufunc.nout > 1 else ((got,), (want,)))):
        _same(g, w)


def test_numpy_operands_mix_in_and_operators_defer():
    x = np.array([1.0, 2.0, np.nan])
    y = la.asarray([0.5, np.inf, 1.0])
    _same(np.add(x, y), x + np.asarray(y))
    _same(x * y, x * np.asarray(y))
    _same(np.maximum(x, y), np.maximum(x, np.asarray(y)))
    assert not np.isfinite(la.asarray(np.inf))   # matplotlib's range check


def test_out_and_methods_pass_through():
    y = la.asarray([1.0, 2.0, 4.0])
    out = np.zeros(3)
    assert np.multiply(y, 2, out=out) is out
    np.testing.assert_array_equal(out, [2.0, 4.0, 8.0])
    _same(np.add.reduce(y), np.add.reduce(np.asarray(y)))
    _same(np.multiply.accumulate(y), np.multiply.accumulate(np.asarray(y)))
    _same(np.subtract.outer(y, y), np.subtract.outer(np.asarray(y), np.asarray(y)))


def test_what_laxarray_lacks_is_numpys_type_error():
    y = la.asarray([1.0, 2.0])
    with pytest.raises(TypeError, match="isnat"):
        np.isnat(y)
    with pytest.raises(TypeError, match="reduceat"):
        np.add.reduceat(y, [0, 1])
