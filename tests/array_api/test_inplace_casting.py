"""In-place updates cast back as NumPy casts, compared with NumPy over every pair of dtypes.

NumPy computes ``a += b`` in the promoted dtype and casts the result back to ``a``'s dtype
under its ``same_kind`` rule: ``int32 += int64`` wraps around, ``float32 += float64``
rounds to nearest, and a cast across kinds (``int32 += float64``, ``uint8 += int8``,
``bool += int8``) raises its ``UFuncTypeError`` (a ``TypeError``).  Every case below runs
the same code on NumPy and on laxarray and compares the outcome: the value and dtype, or the
exception (NumPy's class; for a refused cast NumPy's own sentence, found by running NumPy,
inside laxarray's message, which names laxarray's function).  The forms: the in-place
operators, ``x[key] op= v`` (basic, mask and integer-array keys), ``x.at[key]`` updates,
ufunc ``out=``, NumPy's in-place functions (each with NumPy's own casting rule), eager and
under ``jax.jit``, and large arrays (exact path) for the rounding of a narrowing cast.
"""

from __future__ import annotations

import operator
import warnings

import jax
import ml_dtypes
import numpy as np
import pytest

import laxarray as xp
from profiles import CI

DTYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "float32", "float64", "complex64", "complex128")
PAIRS = [(a, b) for a in DTYPES for b in DTYPES]
#: a narrower set for the secondary tables (every kind, both ends of each kind's widths):
#: each pair compiles its own kernels, and every pair of every table would take minutes
SOME = ("bool", "int8", "int64", "uint8", "uint64", "float16", "float32", "float64",
        "complex64", "complex128")
if CI:  # .ci/run's ten minutes: every kind, a
    # signed/unsigned pair that promotes up and one that promotes to float, the narrowest
    # float's rounding (half the pairs; dev and deep take the ten above)
    SOME = ("bool", "int8", "uint8", "uint64", "float16", "float64", "complex64")
SOME_PAIRS = [(a, b) for a in SOME for b in SOME]

OPERATORS = {
    "+=": operator.iadd, "-=": operator.isub, "*=": operator.imul,
    "/=": operator.itruediv, "//=": operator.ifloordiv, "%=": operator.imod,
    "**=": operator.ipow, "&=": operator.iand, "|=": operator.ior, "^=": operator.ixor,
    "<<=": operator.ilshift, ">>=": operator.irshift,
}
#: results computed by functions whose last bits may differ from NumPy's (XLA's pow and
#: complex division): compared to a few ulp; everything else bit for bit
_INEXACT = {"**=", "/="}
_SMALL = {"**=", "<<=", ">>=", "//=", "%="}  # exponents, shifts, divisors: small positive


def _values(dtype, small=False):
    """Values of ``dtype`` that exercise the cast back: beyond a narrower integer's range
    (wrap-around), float64 values that round in float32/float16, complex parts."""
    if dtype == "bool":
        return np.array([True, False, True])
    if dtype[0] in "iu":
        if small:
            return np.array([1, 2, 3], dtype)
        big = int(np.iinfo(dtype).max) - 2
        return np.array([1, big, 3], dtype)
    if dtype[0] == "f":
        return np.array([1.1, 2.2, 3.3] if small else [0.1, 1e4 + 0.3, -3.3], dtype)
    return np.array([1.1 + 1j, 2.2, 3.3 - 1j] if small else [0.1 + 0.2j, 1e4 - 0.3j, -3.3],
                    dtype)


def _run(fn):
    """``fn()``'s value, or the exception it raised."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return fn()
        except Exception as exc:  # noqa: BLE001 (compared below)
            return exc


def _mismatch(label, expected, got, fn_name=None, inexact=False, forward=None, eps=None):
    """A description of how ``got`` (laxarray's outcome) differs from NumPy's, or None.

    ``forward``: laxarray's out-of-place form of the same operation; where it refuses the
    dtypes with a ``TypeError`` (``bool // bool``: the standard's functions take numeric
    dtypes), any ``TypeError`` is the answer to NumPy's refused cast.  ``inexact``: floats
    compared to a few units of ``eps`` (the result dtype's by default).
    """
    if isinstance(expected, Exception):
        if not isinstance(got, Exception):
            return f"{label}: NumPy raised {type(expected).__name__}: {expected}; laxarray " \
                   f"returned {np.asarray(got)!r}"
        base = TypeError if isinstance(expected, TypeError) else type(expected).__mro__[0]
        if isinstance(expected, ValueError):
            base = ValueError
        if isinstance(expected, OverflowError):
            base = OverflowError
        if not isinstance(got, base):
            return f"{label}: NumPy raised {type(expected).__name__} ({expected}); " \
                   f"laxarray {type(got).__name__} ({got})"
        if type(expected).__name__ == "UFuncTypeError" and "Cannot cast ufunc" in str(
                expected):
            if not isinstance(got, type(expected)):
                if forward is not None and isinstance(_run(forward), TypeError):
                    return None
                return f"{label}: expected NumPy's class {type(expected)!r}, got {type(got)!r}"
            if str(expected) not in str(got):
                return f"{label}: NumPy's sentence {str(expected)!r} not in {str(got)!r}"
            if fn_name is not None and fn_name not in str(got):
                return f"{label}: {fn_name!r} not named in {str(got)!r}"
        return None
    if isinstance(got, Exception):
        return f"{label}: NumPy gave {expected!r}; laxarray raised {type(got).__name__}: {got}"
    got = np.asarray(got)
    expected = np.asarray(expected)
    if got.dtype != expected.dtype:
        return f"{label}: dtype {got.dtype}, NumPy {expected.dtype}"
    if inexact and expected.dtype.kind in "fc":
        eps = np.finfo(expected.dtype).eps if eps is None else eps
        ok = np.allclose(got, expected, rtol=8 * eps, atol=8 * eps, equal_nan=True)
    else:
        ok = np.array_equal(got, expected, equal_nan=expected.dtype.kind in "fc")
    return None if ok else f"{label}: {got!r}, NumPy {expected!r}"


def _inplace(mod, op, a, b):
    def go():
        x = a.copy() if mod is np else xp.asarray(a)
        y = b if mod is np or not isinstance(b, np.ndarray) else xp.asarray(b)
        out = OPERATORS[op](x, y)
        assert out is x  # the same handle: in place
        return x
    return go


_FORWARD = {"+=": "add", "-=": "sub", "*=": "mul", "/=": "truediv", "//=": "floordiv",
            "%=": "mod", "**=": "pow", "&=": "and_", "|=": "or_", "^=": "xor",
            "<<=": "lshift", ">>=": "rshift"}


def _forward(op, a, b):
    """laxarray's out-of-place ``a <op> b`` (to run later)."""
    def run():
        y = xp.asarray(b) if isinstance(b, np.ndarray) else b
        return getattr(operator, _FORWARD[op])(xp.asarray(a), y)
    return run


_STEMS = {"+=": "add", "-=": "sub", "*=": "mul", "/=": "truediv", "//=": "floordiv",
          "%=": "mod", "**=": "pow", "&=": "and", "|=": "or", "^=": "xor",
          "<<=": "lshift", ">>=": "rshift"}


_EVERY_PAIR = ("+=",) if CI else (
    "+=", "/=", "&=", "<<=")


@pytest.mark.parametrize("op", list(OPERATORS))
def test_operator_every_dtype_pair(op):
    small = op in _SMALL
    bad = []
    # every pair for one operator of each casting rule (+= keeps the kind, /= makes
    # floats, &= and <<= take integers and bool; under the ci profile += alone, for .ci/run's
    # ten minutes); the narrower set for the rest
    for da, db in (PAIRS if op in _EVERY_PAIR else SOME_PAIRS):
        a, b = _values(da, small), _values(db, small)
        expected = _run(_inplace(np, op, a, b))
        got = _run(_inplace(xp, op, a, b))
        m = _mismatch(f"{da} {op} {db}", expected, got, f"Array.__i{_STEMS[op]}__",
                      inexact=op in _INEXACT, forward=_forward(op, a, b))
        if m:
            bad.append(m)
    assert not bad, "\n".join(bad)


def test_matmul_in_place_every_dtype_pair():
    bad = []
    for da, db in SOME_PAIRS:
        a = np.resize(_values(da, True), (2, 2))
        b = np.resize(_values(db, True), (2, 2))

        def go(mod):
            def run():
                x = a.copy() if mod is np else xp.asarray(a)
                x @= b if mod is np else xp.asarray(b)
                return x
            return run
        m = _mismatch(f"{da} @= {db}", _run(go(np)), _run(go(xp)), "Array.__imatmul__",
                      inexact=True)
        if m:
            bad.append(m)
    assert not bad, "\n".join(bad)


SCALARS = (True, 3, -3, 2**40, 1.5, 1e300, 1.5 - 2j)


@pytest.mark.parametrize("op", ["+=", "-=", "*=", "/=", "//=", "**=", "&=", "<<="])
def test_operator_python_scalars(op):
    bad = []
    for da in DTYPES:
        for s in SCALARS:
            if op in _SMALL and s in (2**40, 1e300, -3):
                continue  # value-dependent (huge powers, negative exponents/shifts)
            a = _values(da, True)
            m = _mismatch(f"{da} {op} {s!r}", _run(_inplace(np, op, a, s)),
                          _run(_inplace(xp, op, a, s)), f"Array.__i{_STEMS[op]}__",
                          inexact=op in _INEXACT, forward=_forward(op, a, s))
            if m:
                bad.append(m)
    assert not bad, "\n".join(bad)


def test_cast_error_is_numpys_class_and_names_the_operator():
    a = xp.zeros(3, dtype=xp.int32)
    with pytest.raises(TypeError) as info:
        a += xp.asarray(1.5)
    try:
        n = np.zeros(3, np.int32)
        n += np.asarray(1.5)
    except TypeError as exc:
        numpy_error = exc
    assert isinstance(info.value, type(numpy_error))
    assert str(numpy_error) in str(info.value)
    assert str(info.value).startswith("Array.__iadd__: ")
    assert a.dtype == xp.int32  # unchanged, and untouched
    assert np.array_equal(np.asarray(a), np.zeros(3, np.int32))


def test_issue_example():
    a = xp.zeros(3, dtype=xp.int32)
    a += xp.asarray(5, dtype=xp.int64)
    assert a.dtype == xp.int32 and np.asarray(a).tolist() == [5, 5, 5]
    f = xp.zeros(3, dtype=xp.float32)
    f += xp.asarray([0.1, 0.2, 0.3], dtype=xp.float64)
    assert f.dtype == xp.float32
    assert np.array_equal(np.asarray(f), np.float32(np.zeros(3) + [0.1, 0.2, 0.3]))


def test_shape_change_still_raises_value_error():
    a = xp.zeros(3, dtype=xp.float32)
    with pytest.raises(ValueError, match="in-place operations keep the shape"):
        a += xp.ones((2, 3), dtype=xp.float64)
    m = xp.ones((2, 2))
    with pytest.raises(ValueError):
        m @= xp.ones((2, 3))


# ---- x[key] op= v ------------------------------------------------------------------------

_KEYS = {
    "basic": slice(1, None),
    "mask": np.array([True, False, True]),
    "integer array": np.array([0, 2]),
}


@pytest.mark.parametrize("op", ["+=", "*=", "/="])
@pytest.mark.parametrize("kind", list(_KEYS))
def test_indexed_update_every_dtype_pair(kind, op):
    key = _KEYS[kind]
    bad = []
    for da, db in (PAIRS if (kind, op) == ("basic", "+=") else SOME_PAIRS):
        a, b = _values(da), _values(db)[:2]

        def go(mod):
            def run():
                x = a.copy() if mod is np else xp.asarray(a)
                k = key if mod is np or not isinstance(key, np.ndarray) else xp.asarray(key)
                v = b if mod is np else xp.asarray(b)
                y = x[k]
                x[k] = OPERATORS[op](y, v)
                return x
            return run
        m = _mismatch(f"x[{kind}] {op} ({da}, {db})", _run(go(np)), _run(go(xp)),
                      inexact=op in _INEXACT)
        if m:
            bad.append(m)
    assert not bad, "\n".join(bad)


def test_issue_counter_update():
    # SciPy's integrators: nfev[i] += tmp[-1] with an int32 counter and int64 counts
    nfev = xp.zeros(4, dtype=xp.int32)
    i = xp.asarray([True, False, True, False])
    nfev[i] += xp.asarray([2**33 + 3, 7], dtype=xp.int64)
    expected = np.zeros(4, np.int32)
    expected[np.array([True, False, True, False])] += np.array([2**33 + 3, 7])
    assert np.array_equal(np.asarray(nfev), expected) and nfev.dtype == xp.int32


# ---- x.at[key] -----------------------------------------------------------------------------

#: at-method -> NumPy's ufunc applied to the selected elements with out= (same_kind)
_AT = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply,
       "divide": np.divide, "power": np.power, "min": np.minimum, "max": np.maximum}


@pytest.mark.parametrize("method", list(_AT))
def test_at_update_every_dtype_pair(method):
    """``x.at[k].add(v)`` is NumPy's ``x[k] += v``: the selected elements computed in the
    promoted dtype and cast back by ``same_kind``."""
    bad = []
    idx = np.array([0, 2])
    for da, db in (PAIRS if method == "add" else SOME_PAIRS):
        a, b = _values(da, method == "power"), _values(db, method == "power")[:2]

        def numpy_update():
            x = a.copy()
            sel = x[idx]
            _AT[method](sel, b, out=sel)
            x[idx] = sel
            return x

        def laxarray_update():
            return getattr(xp.asarray(a).at[xp.asarray(idx)], method)(xp.asarray(b))
        expected = _run(numpy_update)
        if method in ("min", "max") and da.startswith("complex") and not isinstance(
                expected, Exception):
            continue  # x.at[].min/max take real arrays (as jax's); NumPy orders complex
        if method == "divide" and not isinstance(expected, Exception) and (
                da in ("bool",) or da[0] in "iu"):
            continue  # NumPy refuses the cast; see below
        m = _mismatch(f"{da}.at[].{method}({db})", expected, _run(laxarray_update),
                      inexact=method in ("power", "divide"))
        if m:
            bad.append(m)
    assert not bad, "\n".join(bad)


def test_at_update_basic_key_casts_back():
    x = xp.zeros(4, dtype=xp.float32)
    v = xp.asarray([0.1, 0.7], dtype=xp.float64)
    got = x.at[1:3].add(v)
    expected = np.zeros(4, np.float32)
    expected[1:3] += np.array([0.1, 0.7])
    assert got.dtype == xp.float32 and np.array_equal(np.asarray(got), expected)
    with pytest.raises(TypeError, match="Cannot cast ufunc 'add' output from "
                                        r"dtype\('float64'\) to dtype\('int32'\)"):
        xp.zeros(4, dtype=xp.int32).at[1:3].add(v)


# ---- ufunc out= --------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["add", "multiply", "divide", "sin"])
def test_out_every_dtype_pair(name):
    """``f(a, b, out=o)``: the result cast to ``o``'s dtype by ``same_kind``.  Pairs where
    laxarray's function itself differs from NumPy's (``sin`` of integers is float64, NumPy's
    loops give float16 for int8; ``divide`` of bools, ``sin`` of bools: the standard's
    dtype categories) are left out: the cast back is what is compared."""
    bad, compared = [], 0
    pairs = PAIRS if name == "add" else SOME_PAIRS
    for d_in, d_out in pairs:
        a = _values(d_in, True)

        def call(mod, out=None):
            def run():
                x = a if mod is np else xp.asarray(a)
                f = getattr(mod, name)
                args = (x,) if name == "sin" else (x, x)
                if out is None:
                    return f(*args)
                o = np.zeros(3, d_out) if mod is np else xp.zeros(3, dtype=d_out)
                assert f(*args, out=o) is o
                return o
            return run
        plain_np, plain_lx = _run(call(np)), _run(call(xp))
        if isinstance(plain_lx, Exception) or plain_np.dtype != plain_lx.dtype:
            continue
        compared += 1
        eps = max(np.finfo(d).eps for d in (plain_np.dtype, np.dtype(d_out))
                  if np.dtype(d).kind in "fc") if d_out[0] in "fc" else None
        m = _mismatch(f"{name}({d_in}, out={d_out})", _run(call(np, True)),
                      _run(call(xp, True)), name, inexact=name in ("sin", "divide"), eps=eps)
        if m:
            bad.append(m)
    assert not bad, "\n".join(bad)
    assert compared >= len(pairs) // 2


# ---- NumPy's in-place functions, each with NumPy's own casting rule ----------------------

def _in_place_functions(mod):
    asarray = np.asarray if mod is np else xp.asarray
    mask = asarray(np.array([True, False, True]))
    return {
        # same_kind
        "copyto": lambda a, v: mod.copyto(a, v),
        # safe (arrays; NumPy's place and putmask cast values by the 'safe' rule)
        "place": lambda a, v: mod.place(a, mask, v),
        "putmask": lambda a, v: mod.putmask(a, mask, v),
        # unsafe (NumPy's put, put_along_axis, fill_diagonal and ufunc.at)
        "put": lambda a, v: mod.put(a, asarray(np.array([0, 1])), v[:2]),
        "put_along_axis": lambda a, v: mod.put_along_axis(a, asarray(np.array([0, 1])),
                                                          v[:2], axis=0),
        "fill_diagonal": lambda a, v: mod.fill_diagonal(mod.reshape(a, (1, 3)), v[0]),
        "add.at": lambda a, v: mod.add.at(a, asarray(np.array([0, 1, 0])), v),
        "multiply.at": lambda a, v: mod.multiply.at(a, asarray(np.array([0, 1])), v[:2]),
        "maximum.at": lambda a, v: mod.maximum.at(a, asarray(np.array([0, 1])), v[:2]),
    }


@pytest.mark.parametrize("name", list(_in_place_functions(np)))
def test_in_place_function_every_dtype_pair(name):
    bad = []
    for da, dv in SOME_PAIRS:
        a, v = _values(da, True), _values(dv, True)

        def go(mod):
            def run():
                x = a.copy() if mod is np else xp.asarray(a)
                vv = v if mod is np else xp.asarray(v)
                assert _in_place_functions(mod)[name](x, vv) is None
                return x
            return run
        expected = _run(go(np))
        if name == "fill_diagonal" and isinstance(expected, np.ndarray):
            expected = _run(go(np))  # NumPy's reshape of a copy is a view: same as x
        if name == "maximum.at" and (da.startswith("complex") or dv.startswith("complex")):
            continue  # laxarray's x.at[].max takes real arrays (NumPy orders complex)
        # XLA's complex product may differ from NumPy's in the last bit
        m = _mismatch(f"{name}({da}, {dv})", expected, _run(go(xp)),
                      inexact=name == "multiply.at" and "complex" in da + dv)
        if m:
            bad.append(m)
    assert not bad, "\n".join(bad)


def test_copyto_message_has_numpys_wording():
    with pytest.raises(TypeError, match=r"Cannot cast array data from dtype\('float64'\) to "
                                        r"dtype\('int32'\) according to the rule 'same_kind'"):
        xp.copyto(xp.zeros(3, dtype=xp.int32), xp.ones(3))


# ---- under jax.jit -----------------------------------------------------------------------

def test_jit_in_place_casts_back():
    @jax.jit
    def f(a, b, c):
        a += b
        a[1:] *= c
        return a

    a = xp.zeros(3, dtype=xp.int32)
    b = xp.asarray([2**33 + 1, 2, 3], dtype=xp.int64)
    c = xp.asarray([3, 2**32 + 5], dtype=xp.int64)
    got = f(a, b, c)
    e = np.zeros(3, np.int32)
    e += np.array([2**33 + 1, 2, 3])
    e[1:] *= np.array([3, 2**32 + 5])
    assert got.dtype == xp.int32 and np.array_equal(np.asarray(got), e)

    @jax.jit
    def g(x, y):
        x += y
        return x.at[0].add(y[1])

    x = np.linspace(0, 1, 7, dtype=np.float32)
    y = np.linspace(0.1, 0.9, 7)
    e = x.copy()
    e += y
    e[0:1] += y[1:2]
    got = g(xp.asarray(x), xp.asarray(y))
    assert got.dtype == xp.float32 and np.array_equal(np.asarray(got), e)


def test_jit_integer_array_key_casts_back():
    @jax.jit
    def f(a, idx, v):
        a[idx] += v
        return a.at[idx].multiply(v)

    v = np.array([2**33 + 1, 3])
    got = f(xp.zeros(4, dtype=xp.int32), xp.asarray([0, 2]), xp.asarray(v))
    e = np.zeros(4, np.int32)
    e[[0, 2]] += v
    sel = e[[0, 2]]
    np.multiply(sel, v, out=sel)
    e[[0, 2]] = sel
    assert got.dtype == xp.int32 and np.array_equal(np.asarray(got), e)


def test_jit_cross_kind_raises_while_tracing():
    @jax.jit
    def f(a, b):
        a += b
        return a

    with pytest.raises(TypeError, match="Cannot cast ufunc 'add' output from "
                                        r"dtype\('float64'\) to dtype\('int32'\)"):
        f(xp.zeros(3, dtype=xp.int32), xp.ones(3))


# ---- the narrowing cast's rounding on large arrays (the exact, unbucketed path too) ---------

@pytest.mark.parametrize("n", [5000, 40000])
@pytest.mark.parametrize("pair", [("float32", "float64"), ("float16", "float64"),
                                  ("float16", "float32"), ("complex64", "complex128"),
                                  ("float32", "int64"), ("int32", "int64"),
                                  ("uint8", "uint64"), ("int8", "uint32")])
def test_large_narrowing_rounds_as_numpy(n, pair):
    da, db = pair
    rng = np.random.default_rng(n)
    if da[0] in "iu":
        a = rng.integers(0, 100, n).astype(da)
        b = rng.integers(0, np.iinfo(db).max, n, dtype=db, endpoint=True)
    else:
        scale = 1e3 if da == "float16" else 1e6
        a = (rng.standard_normal(n) * scale).astype(da)
        if da.startswith("complex"):
            a = a + 1j * rng.standard_normal(n).astype(da)
        b = (rng.standard_normal(n) * scale).astype(db) if db[0] != "i" else \
            rng.integers(-2**40, 2**40, n).astype(db)
        if db.startswith("complex"):
            b = b + 1j * rng.standard_normal(n)
    if pair == ("float16", "float64"):
        # halfway cases of float16 nudged by less than a float32 ulp: rounding twice (through
        # float32) gets them wrong
        b[:64] = 1 + 2.0**-11 + 2.0**-40 * np.arange(1, 65)
        a[:64] = 0
    for op in ("+=", "*="):
        expected = _run(_inplace(np, op, a, b))
        got = _run(_inplace(xp, op, a, b))
        assert _mismatch(f"{da} {op} {db} (n={n})", expected, got) is None
    # x[mask] += v and x.at[].add(v) on the same data
    mask = rng.random(n) < 0.5
    e = a.copy()
    e[mask] += b[mask]
    x = xp.asarray(a)
    x[xp.asarray(mask)] += xp.asarray(b[mask])
    assert _mismatch("x[mask] +=", e, x) is None
    idx = np.flatnonzero(mask)
    got = xp.asarray(a).at[xp.asarray(idx)].add(xp.asarray(b[idx]))
    assert _mismatch("x.at[idx].add", e, got) is None


def test_bfloat16_narrowing_rounds_once():
    v = np.array([1 + 2.0**-8 + 2.0**-40, 1 + 2.0**-8, -(1 + 3 * 2.0**-9 + 2.0**-45)])
    x = xp.zeros(3, dtype=xp.bfloat16)
    x += xp.asarray(v)
    assert x.dtype == xp.bfloat16
    assert np.array_equal(np.asarray(x).astype(np.float64),
                          v.astype(ml_dtypes.bfloat16).astype(np.float64))
    with pytest.raises(TypeError, match="same_kind"):
        x += xp.asarray([1 + 1j, 2, 3])


@pytest.mark.parametrize("target", ["float16", "bfloat16"])
def test_astype_to_a_narrow_float_rounds_once(target):
    # astype, the in-place cast back and stored values share one cast (numerics.cast_value):
    # XLA converts float64 to float16/bfloat16 through float32, rounding twice
    rng = np.random.default_rng(3)
    dt = ml_dtypes.bfloat16 if target == "bfloat16" else np.float16
    grid = rng.uniform(1, 2, 3000).astype(dt).astype(np.float64)
    half = np.spacing(grid.astype(dt)).astype(np.float64) / 2     # halfway to the next
    v = np.concatenate([grid + half + 2.0**-40, grid + half - 2.0**-40,
                        rng.standard_normal(3000) * 100])
    want = v.astype(dt)
    got = xp.astype(xp.asarray(v), getattr(xp, target))
    assert got.dtype == getattr(xp, target)
    np.testing.assert_array_equal(np.asarray(got).astype(np.float64), want.astype(np.float64))
