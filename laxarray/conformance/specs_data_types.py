"""Conformance specs of data type functions, inspection and constants.

Oracles: the standard's promotion table (``promotion.PROMOTION_TABLE``, written out from
the standard's "Type promotion rules" section, not computed by any library), its dtype kinds
(``strategies.DTYPE_GROUPS``), and NumPy (``finfo``/``iinfo`` limits, ``astype`` values,
results the standard leaves to the library).

Where the standard leaves a result unspecified (mixed-kind promotion, casting complex to
real), a namespace may either raise ``TypeError`` or agree with NumPy.

Only the dtypes of the run's device are checked (:mod:`laxarray.conformance.device_dtypes`:
all 13 outside a run); where the table's result is one the device lacks, the promotion
expected is the device's (:func:`~laxarray.conformance.device_dtypes.result_type`).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
from hypothesis import strategies as st

from . import device_dtypes, strategies as S
from .device_dtypes import available
from .promotion import PROMOTION_TABLE
from .compare import (ConformanceError, assert_dtype, assert_shape,
                                          assert_values, dtype_name, to_numpy)
from .spec import Spec, as_xp, register, xp_dtype
from .specs_creation import (check_device, check_independent,
                                                 default_device, info)


# ---- the standard's promotion rules for Python scalars ----------------------------------------
#: Python scalar kind -> dtype kinds of arrays it may join (the standard's scalar rules).
_SCALAR_JOINS = {bool: "b", int: "iufc", float: "fc", complex: "fc"}
_SCALAR_VALUES = {bool: True, int: 1, float: 1.5, complex: 1j}


def _scalar_result(dtype, pytype):
    """The standard's result of ``dtype`` with a Python scalar of ``pytype`` (None: undefined)."""
    kind = np.dtype(dtype).kind
    if kind not in _SCALAR_JOINS[pytype]:
        return None
    if pytype is complex and kind == "f":
        return PROMOTION_TABLE[(dtype, "complex64")]
    return dtype


def _maybe_array(xp, data, name, label):
    """The dtype ``name`` or a (0-d or small) array of it."""
    if data.draw(st.booleans(), label=label):
        return xp.zeros((data.draw(st.integers(0, 2), label=f"{label} len"),),
                        dtype=xp_dtype(xp, name))
    return xp_dtype(xp, name)


def _unspecified(fn, call):
    """A result the standard leaves open ("the returned dtype is unspecified and thus
    implementation-dependent", for mixed kinds): ``TypeError``, or any dtype the namespace
    has (jax.numpy's ``float32`` for ``int32`` with ``float32`` as well as NumPy's
    ``float64``)."""
    try:
        got = call()
    except TypeError:
        return
    if dtype_name(got) not in S.ALL:
        raise ConformanceError(f"{fn}: {got!r}, expected TypeError or a dtype")


def _result_type_check(xp, data):
    # every pair of the device's dtypes, as dtypes: the table where defined (the device's
    # promotion where it lacks the table's result), else TypeError or any dtype
    names = available(S.ALL)
    for a, b in itertools.product(names, names):
        call = lambda: xp.result_type(xp_dtype(xp, a), xp_dtype(xp, b))  # noqa: E731
        if (a, b) in PROMOTION_TABLE:
            got = dtype_name(call())
            expected = device_dtypes.result_type(a, b)
            if got != expected:
                raise ConformanceError(f"result_type({a}, {b}): {got}, expected {expected}")
        else:
            _unspecified(f"result_type({a}, {b})", call)
    # every dtype with every Python scalar kind (NEP 50: scalars are weak)
    for dtype, pytype in itertools.product(names, _SCALAR_JOINS):
        value = _SCALAR_VALUES[pytype]
        call = lambda: xp.result_type(xp_dtype(xp, dtype), value)  # noqa: E731
        expected = _scalar_result(dtype, pytype)
        fn = f"result_type({dtype}, {pytype.__name__})"
        if expected is None:
            _unspecified(fn, call)
        elif dtype_name(call()) != expected:
            raise ConformanceError(f"{fn}: {dtype_name(call())}, expected {expected}")
    # arrays and dtypes mixed, several arguments of one promotable group, scalars anywhere
    group = data.draw(st.sampled_from(tuple(available(g) for g in (
        S.SIGNED, S.UNSIGNED[:-1] + S.SIGNED, S.FLOATING, S.BOOL))), label="group")
    names = data.draw(st.lists(st.sampled_from(group), min_size=1, max_size=4), label="dtypes")
    args = [_maybe_array(xp, data, n, f"array {i}") for i, n in enumerate(names)]
    expected = device_dtypes.result_type(*names)
    pytypes = [t for t in _SCALAR_JOINS if _scalar_result(expected, t) == expected]
    for t in data.draw(st.lists(st.sampled_from(pytypes), max_size=2), label="scalars"):
        args.insert(data.draw(st.integers(0, len(args)), label="at"), _SCALAR_VALUES[t])
    got = dtype_name(xp.result_type(*args))
    if got != expected:
        raise ConformanceError(f"result_type{tuple(names)}: {got}, expected {expected}")


def _can_cast_check(xp, data):
    names = available(S.ALL)
    for a, b in itertools.product(names, names):
        fn = f"can_cast({a}, {b})"
        got = xp.can_cast(xp_dtype(xp, a), xp_dtype(xp, b))
        if not isinstance(got, bool):
            raise ConformanceError(f"{fn}: returned {type(got).__name__}, expected bool")
        # outside the table (mixed kinds, int64 with uint64) the type promotion rules
        # say nothing, so neither does can_cast: any bool; nor where the table's result is
        # a dtype the device lacks (uint32 to int32 on a device without int64: the
        # device's promotion to int32 is no safe cast)
        if (a, b) in PROMOTION_TABLE and PROMOTION_TABLE[(a, b)] in names \
                and got != (PROMOTION_TABLE[(a, b)] == b):
            expected = PROMOTION_TABLE[(a, b)] == b
            raise ConformanceError(f"{fn}: {got}, expected {expected}")
    a, b = data.draw(st.sampled_from(names), label="from"), data.draw(
        st.sampled_from(names), label="to")
    x = xp.zeros((2,), dtype=xp_dtype(xp, a))
    if xp.can_cast(x, xp_dtype(xp, b)) != xp.can_cast(xp_dtype(xp, a), xp_dtype(xp, b)):
        raise ConformanceError(f"can_cast: an array of {a} and the dtype {a} disagree")


def _finfo_check(xp, data):
    for name in available(S.FLOATING):
        arg = _maybe_array(xp, data, name, f"array of {name}")
        got = xp.finfo(arg)
        real = np.dtype(name).type(0).real.dtype
        ref = np.finfo(real)
        expected = {"bits": int(ref.bits), "eps": float(ref.eps), "max": float(ref.max),
                    "min": float(ref.min), "smallest_normal": float(ref.smallest_normal)}
        for field, value in expected.items():
            v = getattr(got, field)
            if not isinstance(v, type(value)) or v != value:
                raise ConformanceError(f"finfo({name}).{field}: {v!r}, expected {value!r}")
        if dtype_name(got.dtype) != real.name:
            raise ConformanceError(f"finfo({name}).dtype: {got.dtype}, expected {real.name}")


def _iinfo_check(xp, data):
    for name in available(S.INTEGRAL):
        arg = _maybe_array(xp, data, name, f"array of {name}")
        got = xp.iinfo(arg)
        ref = np.iinfo(name)
        for field in ("bits", "max", "min"):
            v, e = getattr(got, field), int(getattr(ref, field))
            if type(v) is not int or v != e:
                raise ConformanceError(f"iinfo({name}).{field}: {v!r}, expected {e!r}")
        if dtype_name(got.dtype) != name:
            raise ConformanceError(f"iinfo({name}).dtype: {got.dtype}, expected {name}")


_KINDS = ("bool", "signed integer", "unsigned integer", "integral", "real floating",
          "complex floating", "numeric")


def _isdtype_check(xp, data):
    names = available(S.ALL)
    for name, kind in itertools.product(names, _KINDS):
        expected = name in S.DTYPE_GROUPS[kind]
        if xp.isdtype(xp_dtype(xp, name), kind) is not expected:
            raise ConformanceError(f"isdtype({name}, {kind!r}): expected {expected}")
    for a, b in itertools.product(names, names):
        if xp.isdtype(xp_dtype(xp, a), xp_dtype(xp, b)) is not (a == b):
            raise ConformanceError(f"isdtype({a}, {b}): expected {a == b}")
    name = data.draw(st.sampled_from(names), label="dtype")
    parts = data.draw(st.lists(st.one_of(st.sampled_from(_KINDS), st.sampled_from(names)),
                               min_size=1, max_size=3), label="kind tuple")
    expected = any(name in S.DTYPE_GROUPS[p] if p in S.DTYPE_GROUPS else name == p
                   for p in parts)
    kind = tuple(p if p in _KINDS else xp_dtype(xp, p) for p in parts)
    if xp.isdtype(xp_dtype(xp, name), kind) is not expected:
        raise ConformanceError(f"isdtype({name}, {parts}): expected {expected}")


# ---- astype ---------------------------------------------------------------------------------
def _astype_values(data, src, dst, shape):
    """Values whose cast the standard specifies (float -> int only within the target range)."""
    s, d = np.dtype(src), np.dtype(dst)
    if s.kind in "fc" and d.kind in "iu":
        lo, hi = np.iinfo(d).min, np.iinfo(d).max
        lo, hi = max(float(lo), -1e6), min(float(hi), 1e6)
        x = data.draw(S.arrays(src, shape, finite=True, min_value=lo, max_value=hi),
                      label="x")
        if s.kind == "c":
            return (np.clip(x.real, lo, hi) + 1j * x.imag).astype(s)
        return np.clip(x, lo, hi).astype(s)
    return data.draw(S.arrays(src, shape), label="x")


def _astype_one(xp, x, src, dst, kw):
    xx = as_xp(xp, x)
    to_real = np.dtype(src).kind == "c" and np.dtype(dst).kind not in "cb"
    if to_real:  # "should not be permitted": TypeError, or NumPy's real part
        try:
            out = xp.astype(xx, xp_dtype(xp, dst), **kw)
        except TypeError:
            return
        x = x.real
    else:
        out = xp.astype(xx, xp_dtype(xp, dst), **kw)
    with np.errstate(all="ignore"):
        expected = x.astype(dst) if np.dtype(dst).kind != "b" else (x != 0)
    fn = f"astype({src} -> {dst})"
    assert_dtype(fn, out, dst)
    assert_shape(fn, out, x.shape)
    assert_values(fn, to_numpy(out), expected)
    # "If device is None, the output array device must be inferred from x" (a namespace's
    # default_device() may be None: "not predictable")
    check_device(fn, out, xx.device if kw.get("device") is None else kw["device"])


def _astype_check(xp, data):
    names = available(S.ALL)
    src = data.draw(st.sampled_from(names), label="from")
    shape = data.draw(S.shapes(), label="shape")
    kw = {}
    if data.draw(st.booleans(), label="pass device"):
        kw["device"] = default_device(xp)
    for dst in names:  # every target of the device: one draw of values per example
        _astype_one(xp, _astype_values(data, src, dst, shape), src, dst, kw)
    # copy=False with the same dtype returns the input; copy=True never does
    x = data.draw(S.arrays(src, shape), label="x")
    xx = as_xp(xp, x)
    if xp.astype(xx, xx.dtype, copy=False) is not xx:
        raise ConformanceError("astype: copy=False with the same dtype must return x itself")
    if x.size:
        y = xp.astype(xx, xx.dtype, copy=True)
        if y is xx:
            raise ConformanceError("astype: copy=True returned x itself")
        fill = xp.asarray(False if src == "bool" else 0, dtype=xx.dtype)

        def write():
            xx[...] = fill
        check_independent("astype(copy=True)", xx, y, write)


# ---- inspection and constants ------------------------------------------------------------------
def _info_check(xp, data):
    inf = info(xp)
    caps = inf.capabilities()
    for key, kinds in (("boolean indexing", bool), ("data-dependent shapes", bool),
                       ("max dimensions", (int, type(None)))):
        if key not in caps or not isinstance(caps[key], kinds):
            raise ConformanceError(f"capabilities(): {key!r} missing or of wrong type")
    devices = inf.devices()
    if not isinstance(devices, tuple) or not devices:
        raise ConformanceError(f"devices(): {type(devices).__name__}, expected a non-empty "
                               "tuple")
    dev = inf.default_device()
    if dev is not None and dev not in devices:
        raise ConformanceError(f"default_device(): {dev!r} not in devices()")
    device = data.draw(st.sampled_from((None,) + devices), label="device")
    defaults = inf.default_dtypes(device=device)
    listed = {str(n) for n in inf.dtypes(device=device)}
    for key, kind in (("real floating", "real floating"), ("complex floating",
                      "complex floating"), ("integral", "integral"), ("indexing", "integral")):
        if key not in defaults or dtype_name(defaults[key]) not in S.DTYPE_GROUPS[kind]:
            raise ConformanceError(f"default_dtypes(): {key!r} missing or not {kind}")
        if dtype_name(defaults[key]) not in listed:  # a default the device has no arrays of
            raise ConformanceError(f"default_dtypes(device={device!r})[{key!r}]: "
                                   f"{dtype_name(defaults[key])}, not among its dtypes()")
    out = xp.zeros((1,))  # the defaults are what creation functions use
    if dtype_name(out) != dtype_name(defaults["real floating"]) and device is None:
        raise ConformanceError("default_dtypes(): 'real floating' differs from zeros()'s dtype")
    kind = data.draw(st.one_of(st.none(), st.sampled_from(_KINDS),
                               st.lists(st.sampled_from(_KINDS), min_size=1, max_size=3)
                               .map(tuple)), label="kind")
    got = inf.dtypes(device=device, kind=kind)
    kinds = _KINDS if kind is None else (kind if isinstance(kind, tuple) else (kind,))
    expected = {n for n in S.ALL if any(n in S.DTYPE_GROUPS[k] for k in kinds)}
    # a device may support fewer dtypes (the standard lets it): the run's device -- the
    # default one, unless the run targets another -- exactly those the run draws (all 13
    # outside a run), another device a subset of the 13
    if device is None:
        expected &= device_dtypes.current().dtypes
    if set(got) != expected and (device is None or not set(got) <= expected):
        raise ConformanceError(f"dtypes(kind={kind!r}): {sorted(got)}, expected "
                               f"{sorted(expected)}")
    for n, dt in got.items():
        if dt != xp_dtype(xp, n):
            raise ConformanceError(f"dtypes(): {n!r} maps to {dt!r}")
    arr = xp.asarray([1.0], device=dev) if dev is not None else xp.asarray([1.0])
    if dev is not None:
        check_device("__array_namespace_info__", arr, dev)


def _constant_check(name, expected):
    def check(xp, data):
        value = getattr(xp, name)
        if name == "newaxis":
            if value is not None:
                raise ConformanceError(f"newaxis: {value!r}, expected None")
            x = xp.zeros((2, 3))
            assert_shape("newaxis", x[value, :, value, :], (1, 2, 1, 3))
            return
        if type(value) is not float:
            raise ConformanceError(f"{name}: type {type(value).__name__}, expected float")
        if not (value == expected or (math.isnan(value) and math.isnan(expected))):
            raise ConformanceError(f"{name}: {value!r}, expected {expected!r}")
    return check


for _name, _check in {"result_type": _result_type_check, "can_cast": _can_cast_check,
                      "finfo": _finfo_check, "iinfo": _iinfo_check, "isdtype": _isdtype_check,
                      "astype": _astype_check}.items():
    register(Spec(_name, _check, S.ALL, kind="data type"))
register(Spec("__array_namespace_info__", _info_check, kind="inspection"))
for _name, _value in (("e", math.e), ("pi", math.pi), ("inf", math.inf), ("nan", math.nan),
                      ("newaxis", None)):
    register(Spec(_name, _constant_check(_name, _value), kind="constant"))

__all__ = ["PROMOTION_TABLE"]
