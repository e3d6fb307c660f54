"""Conformance specs of device placement (the standard's design topic "Device support").

On a namespace with two or more usable devices (``__array_namespace_info__().devices()``
that an array can be made on: array_api_strict's ``device1``/``device2``, laxarray in a
process with several host devices) these check that

- a function's result lives on its inputs' device (``x.device``): creation with
  ``device=``, elementwise functions and operators, reductions, manipulation, indexing and
  ``take``, sorting, ``matmul``, ``fft``; ``asarray(x, device=)`` and ``*_like`` go where
  asked, and keep ``x``'s device when not asked;
- a call mixing arrays on two devices raises (the standard's recommendation: no implicit
  transfer); any ``TypeError``/``ValueError``/``RuntimeError`` is accepted, and the type
  raised is noted in the runner's report (:func:`~laxarray.conformance.spec.note`);
- ``x.to_device(d)`` moves values and dtype unchanged, and back;
- ``default_dtypes(device=d)`` and ``dtypes(device=d)`` describe what arrays made on ``d``
  get (array_api_strict's ``device2`` defaults to float32, ``no_x64`` to int32).

Devices are drawn from the usable ones, dtypes from those every drawn device supports
(``dtypes(device=d)``).  Values are small and finite, so results are compared exactly with
NumPy's where the operation is exact (floating ``sum``/``matmul``/``fft`` only by shape and
device).  The runner skips these specs ("namespace has one device", ``needs``); called
directly on one device they check that device (mixing is then not drawn).
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from . import strategies as S
from .capabilities import usable_devices
from .compare import (ConformanceError, assert_dtype, assert_shape,
                                          assert_values, dtype_name, to_numpy)
from .spec import Spec, note, register

#: the exception kinds accepted from a call mixing devices.
MIXING_ERRORS = (TypeError, ValueError, RuntimeError)
_NEEDS = ("multiple_devices",)


def _info(xp):
    return xp.__array_namespace_info__()


def _devices(data, xp, n=2):
    """``n`` devices drawn from the usable ones (the same one again where there is one)."""
    devices = usable_devices(xp)
    if not devices:
        raise ConformanceError("device specs: the namespace lists no usable device")
    return tuple(data.draw(st.sampled_from(devices), label=f"device{i + 1}")
                 for i in range(n))


def _dtype(data, xp, devices, group):
    """A dtype name of ``group`` that every device of ``devices`` supports."""
    info = _info(xp)
    names = list(S.DTYPE_GROUPS[group])
    for d in devices:
        have = {str(k) for k in info.dtypes(device=d)}
        names = [n for n in names if n in have]
    if not names:
        raise ConformanceError(f"device specs: no {group} dtype on all of {devices!r}")
    return data.draw(S.by_kind(names), label="dtype")


def _values(data, dtype, shape, label="x"):
    """Small finite values (exact arithmetic for the checks here)."""
    if dtype == "bool":
        return data.draw(S.arrays(dtype, shape), label=label)
    return data.draw(S.arrays(dtype, shape, finite=True, min_value=-8, max_value=8),
                     label=label)


def _on(xp, x, device):
    """NumPy ``x`` as an array of ``xp`` on ``device``, of the same dtype."""
    return xp.asarray(x, dtype=getattr(xp, x.dtype.name), device=device)


def check_on(fn, out, device, why="its inputs'"):
    """Every array of ``out`` (an array or a tuple of them) must be on ``device``."""
    for o in out if isinstance(out, (tuple, list)) else (out,):
        if o.device != device:
            raise ConformanceError(f"{fn}: result on device {o.device!r}, expected "
                                   f"{device!r} ({why} device)")


def _exact(fn, out, expected, device):
    check_on(fn, out, device)
    assert_dtype(fn, out, expected.dtype.name)
    assert_shape(fn, out, expected.shape)
    assert_values(fn, to_numpy(out), expected)


def _sample(data, options, label="function"):
    return data.draw(st.sampled_from(options), label=label)


# ---- results on the inputs' device -----------------------------------------------------------
def _creation(xp, data):
    (d,) = _devices(data, xp, 1)
    n = data.draw(st.integers(0, 4), label="n")
    name = _sample(data, ("zeros", "ones", "empty", "full", "arange", "linspace", "eye",
                          "asarray"))
    calls = {"zeros": lambda: xp.zeros((n, 2), device=d),
             "ones": lambda: xp.ones((n,), device=d),
             "empty": lambda: xp.empty((2, n), device=d),
             "full": lambda: xp.full((n,), 3, device=d),
             "arange": lambda: xp.arange(n, device=d),
             "linspace": lambda: xp.linspace(0.0, 1.0, n, device=d),
             "eye": lambda: xp.eye(n, device=d),
             "asarray": lambda: xp.asarray([[1, 2]] * n, device=d)}
    out = calls[name]()
    check_on(name, out, d, "the requested")
    if name != "empty":
        expected = {"zeros": lambda: np.zeros((n, 2)), "ones": lambda: np.ones((n,)),
                    "full": lambda: np.full((n,), 3), "arange": lambda: np.arange(n),
                    "linspace": lambda: np.linspace(0.0, 1.0, n), "eye": lambda: np.eye(n),
                    "asarray": lambda: np.asarray([[1, 2]] * n)}[name]()
        assert_shape(name, out, expected.shape)
        assert_values(name, to_numpy(out).astype(expected.dtype), expected,
                      bound="device.creation")


_UNARY = ("negative", "positive", "abs", "isfinite", "operator -")
_BINARY = ("add", "subtract", "equal", "less", "maximum", "operator +", "operator >",
           "add scalar")


def _elementwise(xp, data):
    (d,) = _devices(data, xp, 1)
    dtype = _dtype(data, xp, (d,), "real numeric")
    shape = data.draw(S.shapes(max_dims=2), label="shape")
    x1 = _values(data, dtype, shape, "x1")
    a1 = _on(xp, x1, d)
    if data.draw(st.booleans(), label="unary"):
        name = _sample(data, _UNARY)
        if name == "operator -":
            out, expected = -a1, -x1
        else:
            out, expected = getattr(xp, name)(a1), getattr(np, name)(x1)
    else:
        x2 = _values(data, dtype, shape, "x2")
        a2 = _on(xp, x2, d)
        name = _sample(data, _BINARY)
        if name == "operator +":
            out, expected = a1 + a2, x1 + x2
        elif name == "operator >":
            out, expected = a1 > a2, x1 > x2
        elif name == "add scalar":
            out, expected = a1 + 1, x1 + np.asarray(1, dtype)
        else:
            out, expected = getattr(xp, name)(a1, a2), getattr(np, name)(x1, x2)
    _exact(name, out, np.asarray(expected), d)


def _reduction(xp, data):
    (d,) = _devices(data, xp, 1)
    dtype = _dtype(data, xp, (d,), "real numeric")
    shape = data.draw(S.shapes(min_dims=1, max_dims=2, min_side=1), label="shape")
    x = _values(data, dtype, shape)
    axis = data.draw(st.one_of(st.none(), st.integers(0, len(shape) - 1)), label="axis")
    name = _sample(data, ("sum", "max", "min", "argmax", "any", "cumulative_sum"))
    a = _on(xp, x, d)
    if name == "cumulative_sum":
        axis = 0 if axis is None else axis
        out = xp.cumulative_sum(a, axis=axis)
    else:
        out = getattr(xp, name)(a, axis=axis)
    check_on(name, out, d)
    if name == "sum" or name == "cumulative_sum":
        expected = np.cumsum(x, axis=axis) if name == "cumulative_sum" else np.sum(x, axis)
        assert_shape(name, out, np.shape(expected))
        if x.dtype.kind in "iub":
            assert_values(name, to_numpy(out).astype(expected.dtype), expected)
        return
    expected = np.asarray(getattr(np, name)(x, axis=axis))
    assert_shape(name, out, expected.shape)
    # which of a tie of -0.0 and +0.0 max/min returns the standard leaves open (as for
    # maximum/minimum): NumPy's min of [-0.0, 0.0] is 0.0, of [0.0, -0.0] -0.0
    assert_values(name, to_numpy(out).astype(expected.dtype), expected,
                  signed_zeros=name not in ("max", "min"))


def _manipulation(xp, data):
    (d,) = _devices(data, xp, 1)
    dtype = _dtype(data, xp, (d,), "any")
    shape = data.draw(S.shapes(min_dims=1, max_dims=3), label="shape")
    x = _values(data, dtype, shape)
    a = _on(xp, x, d)
    name = _sample(data, ("reshape", "flip", "permute_dims", "expand_dims", "concat",
                          "stack", "broadcast_to", "roll", "astype"))
    if name == "reshape":
        out, expected = xp.reshape(a, (-1,)), x.reshape(-1)
    elif name == "flip":
        out, expected = xp.flip(a), np.flip(x)
    elif name == "permute_dims":
        axes = tuple(reversed(range(x.ndim)))
        out, expected = xp.permute_dims(a, axes), np.transpose(x, axes)
    elif name == "expand_dims":
        out, expected = xp.expand_dims(a, axis=0), x[None]
    elif name == "concat":
        out, expected = xp.concat([a, a], axis=0), np.concatenate([x, x])
    elif name == "stack":
        out, expected = xp.stack([a, a]), np.stack([x, x])
    elif name == "broadcast_to":
        out, expected = xp.broadcast_to(a, (2,) + shape), np.broadcast_to(x, (2,) + shape)
    elif name == "roll":
        out, expected = xp.roll(a, 1), np.roll(x, 1)
    else:
        # complex casts to complex (to real the standard leaves unspecified)
        target = "complex64" if x.dtype.kind == "c" else "float32"
        out, expected = xp.astype(a, getattr(xp, target)), x.astype(target)
    _exact(name, out, np.asarray(expected), d)


def _indexing(xp, data):
    (d,) = _devices(data, xp, 1)
    dtype = _dtype(data, xp, (d,), "any")
    n = data.draw(st.integers(1, 5), label="n")
    x = _values(data, dtype, (n,))  # 1-d: array_api_strict wants keys for every axis
    a = _on(xp, x, d)
    options = ["slice", "integer", "integer array", "take", "take_along_axis", "where"]
    if _info(xp).capabilities().get("boolean indexing", True):
        options.append("mask")
    name = _sample(data, tuple(options))
    index_dtype = _info(xp).default_dtypes(device=d)["indexing"]
    idx = np.asarray(data.draw(st.lists(st.integers(0, n - 1), max_size=4), label="indices"),
                     dtype=dtype_name(index_dtype))
    i = xp.asarray(idx, dtype=index_dtype, device=d)
    if name == "slice":
        out, expected = a[1:], x[1:]
    elif name == "integer":
        out, expected = a[0], x[0]
    elif name == "integer array":
        out, expected = a[i], x[idx]
    elif name == "take":
        out, expected = xp.take(a, i, axis=0), np.take(x, idx, axis=0)
    elif name == "take_along_axis":
        out = xp.take_along_axis(a, i, axis=0)
        expected = np.take_along_axis(x, idx, axis=0)
    elif name == "where":
        cond = _values(data, "bool", (n,), "condition")
        out = xp.where(_on(xp, cond, d), a, xp.flip(a, axis=0))
        expected = np.where(cond, x, np.flip(x, axis=0))
    else:
        mask = _values(data, "bool", (n,), "mask")
        out, expected = a[_on(xp, mask, d)], x[mask]
    _exact(f"{name} indexing", out, np.asarray(expected), d)


def _sorting(xp, data):
    (d,) = _devices(data, xp, 1)
    dtype = _dtype(data, xp, (d,), "real numeric")
    shape = data.draw(S.shapes(min_dims=1, max_dims=2), label="shape")
    x = _values(data, dtype, shape)
    a = _on(xp, x, d)
    if data.draw(st.booleans(), label="argsort"):
        out = xp.argsort(a, axis=-1, stable=True)
        check_on("argsort", out, d)
        assert_values("argsort", to_numpy(out).astype(np.int64),
                      np.argsort(x, axis=-1, kind="stable"))
    else:
        _exact("sort", xp.sort(a, axis=-1), np.sort(x, axis=-1), d)


def _matmul(xp, data):
    (d,) = _devices(data, xp, 1)
    dtype = _dtype(data, xp, (d,), "numeric")
    m, k, n = (data.draw(st.integers(1, 3), label=s) for s in ("m", "k", "n"))
    x1, x2 = _values(data, dtype, (m, k), "x1"), _values(data, dtype, (k, n), "x2")
    a1, a2 = _on(xp, x1, d), _on(xp, x2, d)
    how = _sample(data, ("linalg.matmul", "matmul", "operator @"))
    if how == "operator @":
        out = a1 @ a2
    elif how == "linalg.matmul" and hasattr(xp, "linalg"):
        out = xp.linalg.matmul(a1, a2)
    else:
        out = xp.matmul(a1, a2)
    expected = x1 @ x2
    check_on(how, out, d)
    assert_shape(how, out, expected.shape)
    if x1.dtype.kind in "iu":
        assert_values(how, to_numpy(out), expected)


def _fft(xp, data):
    (d,) = _devices(data, xp, 1)
    name = _sample(data, ("fft.fft", "fft.ifft", "fft.rfft", "fft.fftfreq", "fft.fftshift"))
    n = data.draw(st.integers(1, 6), label="n")
    if name == "fft.fftfreq":
        out = xp.fft.fftfreq(n, device=d)
        check_on(name, out, d, "the requested")
        assert_shape(name, out, (n,))
        return
    group = {"fft.fft": "complex floating", "fft.ifft": "complex floating",
             "fft.rfft": "real floating"}.get(name, "floating-point")
    x = _values(data, _dtype(data, xp, (d,), group), (n,))
    out = getattr(xp.fft, name.split(".")[1])(_on(xp, x, d))
    check_on(name, out, d)
    assert_shape(name, out, getattr(np.fft, name.split(".")[1])(x).shape)


# ---- asarray(device=), *_like, to_device -----------------------------------------------------
def _asarray(xp, data):
    d1, d2 = _devices(data, xp)
    dtype = _dtype(data, xp, (d1, d2), "any")
    shape = data.draw(S.shapes(max_dims=2), label="shape")
    x = _values(data, dtype, shape)
    a = _on(xp, x, d1)
    _exact("asarray(numpy, device=)", a, x, d1)
    how = _sample(data, ("device=", "no device", "copy=True"), label="how")
    if how == "device=":
        out = xp.asarray(a, device=d2)
        check_on("asarray(x, device=d)", out, d2, "the requested")
    else:
        out = xp.asarray(a, copy=True) if how == "copy=True" else xp.asarray(a)
        check_on(f"asarray(x, {how})", out, d1, "x's")
    assert_dtype("asarray", out, dtype)
    assert_values("asarray", to_numpy(out), x)


def _like(xp, data):
    d1, d2 = _devices(data, xp)
    dtype = _dtype(data, xp, (d1, d2), "any")
    shape = data.draw(S.shapes(max_dims=2), label="shape")
    a = _on(xp, _values(data, dtype, shape), d1)
    name = _sample(data, ("zeros_like", "ones_like", "empty_like", "full_like"))
    args = (a, True if dtype == "bool" else 1) if name == "full_like" else (a,)
    if data.draw(st.booleans(), label="device given"):
        out, want, why = getattr(xp, name)(*args, device=d2), d2, "the requested"
    else:
        out, want, why = getattr(xp, name)(*args), d1, "x's"
    check_on(name, out, want, why)
    assert_dtype(name, out, dtype)
    assert_shape(name, out, shape)


def _to_device(xp, data):
    d1, d2 = _devices(data, xp)
    dtype = _dtype(data, xp, (d1, d2), "any")
    shape = data.draw(S.shapes(max_dims=2), label="shape")
    x = _values(data, dtype, shape)
    a = _on(xp, x, d1)
    moved = a.to_device(d2)
    check_on("to_device(d)", moved, d2, "the requested")
    assert_dtype("to_device", moved, dtype)
    assert_values("to_device", to_numpy(moved), x)
    back = moved.to_device(d1)
    check_on("to_device(d).to_device(x.device)", back, d1, "the requested")
    assert_dtype("to_device", back, dtype)
    assert_values("to_device", to_numpy(back), x)
    check_on("to_device (its source)", a, d1, "the source's unchanged")
    assert_values("to_device (its source)", to_numpy(a), x)


# ---- mixing devices ---------------------------------------------------------------------------
_MIXING = ("add", "multiply", "equal", "where", "concat", "stack", "matmul", "take",
           "operator +", "operator @")


def _mixing(xp, data):
    d1, d2 = _devices(data, xp)
    if d1 == d2:
        return  # one device (a direct call on a single-device namespace): nothing to mix
    dtype = _dtype(data, xp, (d1, d2), "real numeric")
    x = _values(data, dtype, (2, 2))
    a1, a2 = _on(xp, x, d1), _on(xp, x, d2)
    name = _sample(data, _MIXING)
    calls = {"add": lambda: xp.add(a1, a2), "multiply": lambda: xp.multiply(a1, a2),
             "equal": lambda: xp.equal(a1, a2),
             "where": lambda: xp.where(_on(xp, x > 0, d1), a1, a2),
             "concat": lambda: xp.concat([a1, a2]), "stack": lambda: xp.stack([a1, a2]),
             "matmul": lambda: xp.matmul(a1, a2),
             "take": lambda: xp.take(a1, xp.asarray([0, 1], device=d2), axis=0),
             "operator +": lambda: a1 + a2, "operator @": lambda: a1 @ a2}
    try:
        out = calls[name]()
    except MIXING_ERRORS as exc:
        note(f"mixing devices raises {type(exc).__name__}", name)
        return
    except Exception as exc:  # noqa: BLE001 -- reported as the wrong kind of error
        raise ConformanceError(f"{name}: arrays on devices {d1!r} and {d2!r} raised "
                               f"{type(exc).__name__} ({exc}); expected one of "
                               f"{[e.__name__ for e in MIXING_ERRORS]}") from exc
    where = getattr(out, "device", None)
    raise ConformanceError(f"{name}: arrays on devices {d1!r} and {d2!r} gave a result "
                           f"(on {where!r}) instead of raising")


# ---- default dtypes per device ---------------------------------------------------------------
def _dtypes(xp, data):
    (d,) = _devices(data, xp, 1)
    info = _info(xp)
    defaults = {k: dtype_name(v) for k, v in info.default_dtypes(device=d).items()}
    have = {str(k): v for k, v in info.dtypes(device=d).items()}
    for kind, name in defaults.items():
        if name not in have:
            raise ConformanceError(f"default_dtypes(device={d!r}): {kind} {name} is not "
                                   f"in dtypes(device=...) {sorted(have)}")
    kind = _sample(data, ("real floating", "complex floating", "integral"), label="kind")
    listed = {str(k) for k in info.dtypes(device=d, kind=kind)}
    expected = {n for n in have if n in S.DTYPE_GROUPS[kind]}
    if listed != expected:
        raise ConformanceError(f"dtypes(device={d!r}, kind={kind!r}): {sorted(listed)}, "
                               f"expected {sorted(expected)}")
    made = {"asarray(1.0)": (lambda: xp.asarray(1.0, device=d), "real floating"),
            "asarray(1)": (lambda: xp.asarray(1, device=d), "integral"),
            "asarray(1j)": (lambda: xp.asarray(1j, device=d), "complex floating"),
            "zeros": (lambda: xp.zeros((2,), device=d), "real floating"),
            "arange": (lambda: xp.arange(3, device=d), "integral"),
            "linspace": (lambda: xp.linspace(0, 1, 3, device=d), "real floating"),
            "argmax": (lambda: xp.argmax(xp.asarray([1, 2], device=d)), "indexing")}
    name = _sample(data, tuple(made))
    call, kind = made[name]
    out = call()
    check_on(name, out, d, "the requested")
    assert_dtype(f"{name} on {d!r} (default_dtypes(device=...)[{kind!r}])", out,
                 defaults[kind])
    dtype = data.draw(S.by_kind([n for n in S.ALL if n in have]), label="dtype")
    out = xp.asarray([0, 1], dtype=have[dtype], device=d)
    check_on(f"asarray(dtype={dtype})", out, d, "the requested")
    assert_dtype(f"asarray(dtype={dtype}, device={d!r})", out, dtype)


for _name, _check, _dtypes_of, _extension in (
        ("device.creation", _creation, S.NUMERIC, None),
        ("device.elementwise", _elementwise, S.REAL_NUMERIC, None),
        ("device.reduction", _reduction, S.REAL_NUMERIC, None),
        ("device.manipulation", _manipulation, S.ALL, None),
        ("device.indexing", _indexing, S.ALL, None),
        ("device.sorting", _sorting, S.REAL_NUMERIC, None),
        ("device.matmul", _matmul, S.NUMERIC, None),
        ("device.fft", _fft, S.FLOATING, "fft"),
        ("device.asarray", _asarray, S.ALL, None),
        ("device.like", _like, S.ALL, None),
        ("device.to_device", _to_device, S.ALL, None),
        ("device.mixing", _mixing, S.REAL_NUMERIC, None),
        ("device.dtypes", _dtypes, S.ALL, None)):
    register(Spec(_name, _check, _dtypes_of, extension=_extension, kind="device",
                  needs=_NEEDS))

__all__ = ["MIXING_ERRORS", "check_on"]
