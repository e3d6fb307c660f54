"""The runner on a device without 64-bit dtypes (a TPU's, as laxarray's record may say):
it draws only the dtypes ``dtypes()`` lists, expects the 32-bit defaults
``default_dtypes()`` reports, and follows the namespace's ``result_type`` where the
standard's table names a dtype the device lacks.

CI has no TPU: :func:`no_x64` wraps array_api_strict into a namespace whose default device
lacks int64, uint64, float64 and complex128 -- asking for them raises ``TypeError``, as
laxarray does on a TPU -- and whose implicit results (indices, sums of small integers,
Python floats, ``int32 + uint32``) are the 32-bit types its ``default_dtypes()`` and
``result_type`` name."""

import re
import types

import numpy as np
import pytest
from hypothesis import strategies as st

from laxarray.conformance import SPECS, capabilities, device_dtypes, runner
from laxarray.conformance.compare import dtype_name
from laxarray.conformance.spec import Spec

xp = pytest.importorskip("array_api_strict")

#: each dtype the device lacks -> the 32-bit dtype its implicit results take instead
NARROW = {"int64": "int32", "uint64": "uint32", "float64": "float32", "complex128": "complex64"}
#: a 64-bit dtype named in a message (not NumPy's scalars there: ``np.int64(0)``)
WIDE = re.compile(r"(?<!np\.)\b(u?int64|float64|complex128)\b")


def _wide(dtype):
    return dtype is not None and not isinstance(dtype, (bool, int, float, complex)) \
        and dtype_name(dtype) in NARROW


def _narrow(out):
    """``out`` (a result: an array, a dtype, a tuple of them) with each 64-bit array or
    dtype in its 32-bit counterpart."""
    if isinstance(out, type(xp.int64)):
        return getattr(xp, NARROW[dtype_name(out)]) if _wide(out) else out
    if hasattr(out, "__array_namespace__") and _wide(out.dtype):
        return xp.astype(out, getattr(xp, NARROW[dtype_name(out.dtype)]))
    if isinstance(out, tuple) and hasattr(out, "_fields"):  # unique_all, eigh ...
        return type(out)(*map(_narrow, out))
    if isinstance(out, (tuple, list)):
        return type(out)(map(_narrow, out))
    return out


def _wrap(name, fn, overrides):
    """``fn`` refusing a 64-bit dtype asked for (``TypeError``), its result narrowed;
    ``overrides[name]``, where given, replaces it (an injected bug)."""
    if name in overrides:
        return overrides[name]

    def call(*args, **kwargs):
        asked = kwargs.get("dtype")
        if name == "astype" and len(args) > 1:
            asked = args[1]
        if name == "asarray" and asked is None and args:
            asked = getattr(args[0], "dtype", None)
        if _wide(asked):
            raise TypeError(f"{name}: {dtype_name(asked)} is not a dtype of this device")
        return _narrow(fn(*args, **kwargs))
    return call


def _module(source, overrides, prefix=""):
    names = {}
    for k in dir(source):
        attr = getattr(source, k)
        if k.startswith("_") or isinstance(attr, types.ModuleType):
            continue
        wrap = callable(attr) and not isinstance(attr, type)
        names[k] = _wrap(prefix + k, attr, overrides) if wrap else attr
    return types.SimpleNamespace(**names)


def no_x64(**overrides):
    """array_api_strict on a default device without 64-bit dtypes (see the module
    docstring); ``overrides``: functions (by dotted name) replacing the wrapped ones."""
    ns = _module(xp, overrides)
    ns.linalg, ns.fft = _module(xp.linalg, overrides, "linalg."), \
        _module(xp.fft, overrides, "fft.")
    info = xp.__array_namespace_info__()
    cpu = info.default_device()

    def dtypes(*, device=None, kind=None):
        return {k: v for k, v in info.dtypes(device=device, kind=kind).items()
                if k not in NARROW}

    defaults = {"real floating": xp.float32, "complex floating": xp.complex64,
                "integral": xp.int32, "indexing": xp.int32}
    ns.__array_namespace_info__ = lambda: types.SimpleNamespace(
        capabilities=info.capabilities, default_device=lambda: cpu, devices=lambda: (cpu,),
        dtypes=dtypes, default_dtypes=lambda *, device=None: dict(defaults))
    return ns


def _run(ns, names, max_examples=5):
    run = runner.run_namespace(ns, [SPECS[n] for n in names], namespace_label="no_x64",
                               max_examples=max_examples, seed=0, progress=False,
                               shrink=False)
    return run, {r.name: r for r in run.results}


def test_the_wrapper_is_a_device_without_64_bit_dtypes():
    ns = no_x64()
    assert dtype_name(ns.argsort(ns.asarray([2, 1]))) == "int32"
    assert dtype_name(ns.sum(ns.asarray([1, 2], dtype=ns.int8))) == "int32"
    assert dtype_name(ns.asarray([1.5])) == "float32"
    assert dtype_name(ns.result_type(ns.int32, ns.uint32)) == "int32"
    with pytest.raises(TypeError):
        ns.asarray(np.zeros(2, np.int64))
    with pytest.raises(TypeError):
        ns.zeros(2, dtype=ns.float64)
    profile = capabilities.probe(ns).profile
    assert profile.missing() == tuple(NARROW)
    assert profile.defaults == {"real floating": "float32", "complex floating": "complex64",
                                "integral": "int32", "indexing": "int32"}
    assert profile.default("unsigned") == "uint32"
    # the device's promotion where the table's int64 is missing: the namespace's int32
    assert profile.fit("int64", "int32", "uint32") == "int32"
    assert profile.fit("int64", "int32", "int64") == "int64"  # no say: the table's


def test_no_spec_draws_or_expects_a_dtype_the_device_lacks():
    """Every spec of the default selection: none fails for want of a 64-bit dtype (asked
    for, or expected as an index, a sum, a default or a promotion); the ones that depend
    on the device's defaults pass."""
    specs, _ = runner.select_specs()
    run, results = _run(no_x64(), [s.name for s in specs], max_examples=3)
    wide = {n: r.message for n, r in results.items()
            if r.status in ("fail", "error") and WIDE.search(r.message)}
    assert not wide, wide
    for name, r in results.items():
        for d in NARROW:
            assert r.dtypes.get(d) is None, (name, d)  # never drawn
    assert any("int64, uint64, float64, complex128 not drawn" in n for n in run.notes)
    for name in ("argsort", "argmax", "argmin", "nonzero", "searchsorted", "count_nonzero",
                 "unique_all", "unique_counts", "unique_inverse", "sum", "prod",
                 "cumulative_sum", "mean", "add", "multiply", "bitwise_and", "concat",
                 "result_type", "can_cast", "__array_namespace_info__", "arange", "linspace",
                 "zeros", "ones", "full", "eye", "take", "take_along_axis", "where",
                 "matmul", "vecdot", "fft.fftfreq", "linalg.trace", "linalg.matmul"):
        assert results[name].status == "pass", (name, results[name].message)


def test_a_wrong_index_or_default_dtype_is_still_caught():
    """The device's own defaults are expected, not any 32-bit answer: an index array in
    int64 (array_api_strict's, not narrowed), a sum of int8 in int16, a fftfreq in
    float16 all fail."""
    def argsort_wide(x, /, **kwargs):
        return xp.argsort(x, **kwargs)  # int64: the namespace's default index is int32

    def counts_wide(x, /):
        return xp.unique_counts(x)

    def sum_narrow(x, /, *, axis=None, dtype=None, keepdims=False):
        out = xp.sum(x, axis=axis, dtype=dtype, keepdims=keepdims)
        return xp.astype(out, xp.int16) if x.dtype == xp.int8 and dtype is None else \
            _narrow(out)

    ns = no_x64(argsort=argsort_wide, unique_counts=counts_wide, sum=sum_narrow)
    _, results = _run(ns, ["argsort", "unique_counts", "sum", "argmax"], max_examples=25)
    assert results["argsort"].status == "fail"
    assert "result dtype int64, expected int32" in results["argsort"].message
    assert results["unique_counts"].status == "fail"
    assert "expected int32" in results["unique_counts"].message
    assert results["sum"].status == "fail"
    assert "result dtype int16, expected int32" in results["sum"].message
    assert results["argmax"].status == "pass", results["argmax"].message


def test_the_device_promotion_needs_the_namespace_s_say():
    """``int32 + uint32`` in int32 passes only where the namespace's ``result_type`` says
    int32 too: with a ``result_type`` that keeps the table's int64 it fails."""
    def result_type_wide(*args):
        return xp.result_type(*args)  # int64 for int32 with uint32, on a device without it

    _, results = _run(no_x64(result_type=result_type_wide), ["add"], max_examples=40)
    assert results["add"].status == "fail"
    assert "expected int64" in results["add"].message


def test_a_spec_with_no_dtype_of_the_device_is_skipped():
    """Skipped, not failed: a spec whose dtype group the device lacks altogether, and one
    whose every example draws a dtype the device lacks."""
    def body(ns, data):
        data.draw(st.sampled_from(("float64", "complex128")), label="dtype")
        raise AssertionError("never reached: no example can be drawn")

    for spec in (Spec("add", body, dtypes=("float64", "complex128")),
                 Spec("multiply", body)):
        result = runner.run_spec(no_x64(), spec, max_examples=2, namespace_label="no_x64")
        assert result.status == "skipped", (spec.name, result.message)
        assert result.message.startswith(capabilities.NO_DTYPE), result.message


def test_outside_a_run_every_dtype_and_64_bit_defaults():
    assert device_dtypes.current() is device_dtypes.FULL
    assert device_dtypes.default("indexing") == "int64"
    assert device_dtypes.result_type("int32", "uint32") == "int64"
    # a namespace without an inspection API: as before the runner read devices
    assert device_dtypes.probe(types.SimpleNamespace()) is device_dtypes.FULL
    assert capabilities.probe(xp).excluded_dtypes == ()
