"""The flush-to-zero rule every spec gets (laxarray.conformance.flushing): a namespace that
reads subnormals as zeros passes; one that mishandles them otherwise still fails."""

import types

import numpy as np
import pytest

from laxarray.conformance import ConformanceError, Spec
from laxarray.conformance.compare import assert_values, flush_subnormals, to_numpy
from laxarray.conformance.flushing import flush_value
from laxarray.conformance.signatures import FORM_LABEL

TINY32 = np.float32(1e-45)  # the smallest float32 subnormal


class _Fixed:
    """A ``data`` stand-in whose draws return the given values in order."""

    def __init__(self, *values):
        self._values = list(values)

    def draw(self, strategy, label=None):
        if label == FORM_LABEL:  # (the form of the spec's own call: as the body wrote it)
            return "as written"
        return self._values.pop(0)


def _spec(oracle, fn_name):
    def body(xp, data):
        x = data.draw(None, label="x")
        y = data.draw(None, label="y")
        got = to_numpy(getattr(xp, fn_name)(xp.asarray(x), xp.asarray(y)))
        with np.errstate(all="ignore"):
            expected = oracle(x, y)
        assert_values(fn_name, got, expected)
    return Spec(fn_name, body)


def _namespace(fn_name, fn):
    return types.SimpleNamespace(asarray=np.asarray, **{fn_name: fn})


def _ftz(fn):
    """``fn`` as a flush-to-zero platform computes it: inputs and result flushed."""
    return lambda *args: flush_subnormals(fn(*[flush_subnormals(a) for a in args]))


# x holds a subnormal; x * y is then the inputs' product with the subnormal read as zero
X = np.array([TINY32, -TINY32, 2.0, 3.0], np.float32)
Y = np.array([np.inf, 1.0, 1e-38, 5.0], np.float32)  # 2 * 1e-38 is normal; inf * tiny is inf


def test_numpy_passes_without_flushing():
    _spec(np.multiply, "multiply").check(np, _Fixed(X, Y))


def test_flush_to_zero_namespace_passes():
    xp = _namespace("multiply", _ftz(np.multiply))
    # sanity: the flushing namespace really differs from NumPy here (inf * 0 is NaN)
    assert np.isnan(xp.multiply(X, Y)[0]) and np.multiply(X, Y)[0] == np.inf
    _spec(np.multiply, "multiply").check(xp, _Fixed(X, Y))


def test_subnormal_results_flushed_from_normal_inputs_pass():
    x = np.array([1e-20, 1.0], np.float32)  # 1e-20 ** 2 is subnormal in float32
    xp = _namespace("multiply", _ftz(np.multiply))
    assert xp.multiply(x, x)[0] == 0 and np.multiply(x, x)[0] != 0
    _spec(np.multiply, "multiply").check(xp, _Fixed(x, x))


def test_replay_goes_on_past_the_failed_check():
    # a spec checking two things in turn fails the first only by flushing; the original
    # example stopped there, so the replay draws the second check's values afresh -- and
    # still checks them
    def body(xp, data):
        x = data.draw(None, label="x")
        assert_values("multiply", to_numpy(xp.multiply(xp.asarray(x), xp.asarray(x))),
                      np.multiply(x, x))
        z = data.draw(None, label="z")
        assert_values("add", to_numpy(xp.add(xp.asarray(z), xp.asarray(z))), np.add(z, z))
    x = np.array([1e-20, 1.0], np.float32)  # x * x is subnormal in float32: flushed
    z = np.array([2.0, 3.0], np.float32)
    right = types.SimpleNamespace(asarray=np.asarray, multiply=_ftz(np.multiply), add=np.add)
    Spec("two", body).check(right, _Fixed(x, z))
    wrong = types.SimpleNamespace(asarray=np.asarray, multiply=_ftz(np.multiply),
                                  add=np.subtract)
    with pytest.raises(ConformanceError, match="multiply"):  # the original failure
        Spec("two", body).check(wrong, _Fixed(x, z))


def test_calls_verified_by_a_passing_check_may_read_subnormals_exactly():
    # astype of a subnormal to bool is True on XLA, as in NumPy (exact), while its
    # arithmetic flushes: the exact call passed its own check on the original draws, so
    # the replay (where it gives False) need not agree with it
    def body(xp, data):
        x = data.draw(None, label="x")
        nonzero = to_numpy(xp.not_equal(xp.asarray(x), 0))
        assert_values("not_equal", nonzero, np.not_equal(x, 0))
        y = data.draw(None, label="y")
        assert_values("multiply", to_numpy(xp.multiply(xp.asarray(x), xp.asarray(y))),
                      np.multiply(x, y))
    exact_ne = types.SimpleNamespace(asarray=np.asarray, not_equal=np.not_equal,
                                     multiply=_ftz(np.multiply))
    Spec("mixed", body).check(exact_ne, _Fixed(X, Y))
    # a call no passing check verified must still agree: not_equal checked only after
    def late(xp, data):
        x = data.draw(None, label="x")
        nonzero = to_numpy(xp.not_equal(xp.asarray(x), 0))
        y = data.draw(None, label="y")
        assert_values("multiply", to_numpy(xp.multiply(xp.asarray(x), xp.asarray(y))),
                      np.multiply(x, y))
        assert_values("not_equal", nonzero, np.not_equal(x, 0))
    with pytest.raises(ConformanceError, match="multiply"):
        Spec("late", late).check(exact_ne, _Fixed(X, Y))


def test_namespace_mishandling_subnormals_fails():
    def nan_on_subnormal(a, b):  # right on zeros, NaN (not zero's answer) on subnormals
        a, b = np.asarray(a), np.asarray(b)
        out = np.multiply(flush_subnormals(a), b)
        return np.where(flush_subnormals(a) != a, np.float32(np.nan), out)
    xp = _namespace("multiply", nan_on_subnormal)
    with pytest.raises(ConformanceError):
        _spec(np.multiply, "multiply").check(xp, _Fixed(X, Y))


def test_wrong_namespace_still_fails():
    xp = _namespace("multiply", _ftz(np.add))
    with pytest.raises(ConformanceError):
        _spec(np.multiply, "multiply").check(xp, _Fixed(X, Y))


def test_flush_value_keeps_types_and_signs():
    value = (X, [np.float64(-5e-324), 1.5], {"k": np.complex64(complex(TINY32, 1.0))}, 3)
    got = flush_value(value)
    assert type(got) is tuple and type(got[1]) is list and got[3] == 3
    assert got[0].dtype == np.float32 and np.array_equal(np.signbit(got[0]), np.signbit(X))
    assert got[0][0] == 0 and got[0][2] == 2.0
    assert got[1][0] == 0 and np.signbit(got[1][0]) and got[1][1] == 1.5
    assert got[2]["k"] == np.complex64(1j) and got[2]["k"].dtype == np.complex64



def _scalar_spec():
    def body(xp, data):
        x = data.draw(None, label="x")
        s = data.draw(None, label="s")  # a Python float: it takes x's dtype
        got = to_numpy(xp.add(xp.asarray(x), s))
        assert_values("add", got, np.add(x, np.asarray(s, x.dtype)))
    return Spec("add", body)


def test_python_float_subnormal_in_the_arrays_dtype_is_flushed():
    # -1e-44 is a normal float64 but a float32 subnormal: next to a float32 array a
    # flush-to-zero platform reads it as -0.0, so 0.0 + s is +0.0 there (NumPy: -1e-44,
    # which flushed is -0.0: only reading s as -0.0 explains the sign)
    x = np.array([0.0, 1.0], np.float32)
    xp = _namespace("add", lambda a, s: _ftz(np.add)(a, np.asarray(s, np.float32)))
    assert np.signbit(flush_subnormals(np.add(x, np.float32(-1e-44)))[0])
    assert not np.signbit(xp.add(x, -1e-44)[0])
    _scalar_spec().check(xp, _Fixed(x, -1e-44))


def test_python_float_normal_in_the_arrays_dtype_is_not_flushed():
    # next to a float64 array -1e-44 is normal: reading it as zero is a bug there
    x = np.array([0.0, 1.0])
    xp = _namespace("add", lambda a, s: np.add(a, np.float64(0.0) * s))
    assert xp.add(x, -1e-44)[0] != np.add(x, -1e-44)[0]
    with pytest.raises(ConformanceError):
        _scalar_spec().check(xp, _Fixed(x, -1e-44))


def test_a_drawn_float32_dtype_reads_python_floats_in_float32():
    # linspace(start, stop, num=1, dtype="float32") with a start normal in float64 but
    # subnormal in float32: a flush-to-zero platform returns 0.0 (the rule's replay
    # flushes start in float32, as the dtype drawn says), a wrong one something else
    def body(xp, data):
        start = data.draw(None, label="start")
        dtype = data.draw(None, label="dtype")
        got = to_numpy(xp.linspace(start, 1.0, 1, dtype=dtype))
        if got[0] != np.asarray(start, dtype):  # a check of the spec's own, as linspace's
            raise ConformanceError(f"linspace: first value {got[0]!r}, expected {start!r}")
    ftz = types.SimpleNamespace(linspace=lambda a, b, n, dtype: flush_subnormals(
        np.linspace(np.float32(a), b, n, dtype=dtype)))
    assert ftz.linspace(5.4e-42, 1.0, 1, dtype="float32")[0] == 0
    Spec("linspace", body).check(ftz, _Fixed(5.4e-42, "float32"))
    wrong = types.SimpleNamespace(linspace=lambda a, b, n, dtype: np.full(n, 1.0, dtype))
    with pytest.raises(ConformanceError):
        Spec("linspace", body).check(wrong, _Fixed(5.4e-42, "float32"))


@pytest.mark.parametrize("mode", ["same", "negated"])
def test_a_mirrored_value_is_what_the_flushed_replay_mirrors(mode):
    # x1's complex64 value 0+1e-45j is special (a zero real part): its imaginary part,
    # subnormal in complex64, widened into complex128 would be a normal value of x2 that the
    # replay (which flushes x1 before mirroring) cannot reproduce -- a runner defect that
    # failed laxarray's equal/not_equal at seed 1 with boundary examples in batches
    from laxarray.conformance.spec import _mirror_specials
    x1 = np.array([complex(0.0, 1e-45), complex(np.nan, 1e-45), 1 + 2j], np.complex64)
    x2 = np.full((2, 3), 5 + 5j, np.complex128)
    mirrored = _mirror_specials(x1, x2, mode, None)
    replayed = _mirror_specials(flush_subnormals(x1), x2, mode, None)
    assert mirrored.dtype == np.complex128
    assert np.array_equal(mirrored, replayed, equal_nan=True)
    assert np.array_equal(np.signbit(mirrored.imag), np.signbit(replayed.imag))
    assert (mirrored[:, 2] == 5 + 5j).all()        # not special: left as drawn
    assert (mirrored.imag[:, :2] == 0).all()       # the subnormal part copied as a zero
