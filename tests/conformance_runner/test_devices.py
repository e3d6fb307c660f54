"""Devices and flags in the conformance runner: the device specs on array_api_strict's
devices (and on namespaces broken on purpose), array_api_strict's flags (features,
``api_version``, extensions, its ``no_float64`` device) and a single-device laxarray."""

import io
import json
import types

import numpy as np
import pytest

import laxarray
from laxarray.conformance import SPECS, capabilities, runner
from laxarray.conformance.__main__ import main

xp = pytest.importorskip("array_api_strict")

DEVICE_SPECS = sorted(n for n in SPECS if n.startswith("device."))


def _run(ns, names, label, max_examples=8, **kwargs):
    run = runner.run_namespace(ns, [SPECS[n] for n in names], namespace_label=label,
                               max_examples=max_examples, seed=0, progress=False,
                               shrink=False, **kwargs)
    return run, {r.name: r for r in run.results}


def _namespace(functions):
    """array_api_strict's public names (with ``functions`` replacing some) whose
    ``devices()`` lists only CPU_DEVICE, device1 and device2: its ``no_x64`` device fails
    the device specs (argmax, argsort, nonzero make int64 there, which it lacks)."""
    ns = types.SimpleNamespace(**{k: getattr(xp, k) for k in dir(xp) if not k.startswith("_")},
                               linalg=xp.linalg, fft=xp.fft)
    info = xp.__array_namespace_info__()
    three = tuple(d for d in info.devices() if "'no_" not in repr(d))
    ns.__array_namespace_info__ = lambda: types.SimpleNamespace(
        capabilities=info.capabilities, default_device=info.default_device,
        default_dtypes=info.default_dtypes, dtypes=info.dtypes, devices=lambda: three)
    for name, fn in functions.items():
        setattr(ns, name, fn)
    return ns


def _results_on_cpu(fn):
    cpu = xp.__array_namespace_info__().default_device()

    def wrong(*args, **kwargs):
        out = fn(*args, **kwargs)
        return out.to_device(cpu) if hasattr(out, "to_device") else out
    return wrong


def _same_device(fn):
    """``fn`` that first moves every array argument to the first one's device (an
    implicit transfer, which the standard asks namespaces not to make)."""
    def first(args):
        for a in args:
            if isinstance(a, (list, tuple)):
                a = first(a)
            if hasattr(a, "device"):
                return a.device
        return None

    def move(a, d):
        if isinstance(a, (list, tuple)):
            return type(a)(move(v, d) for v in a)
        return a.to_device(d) if hasattr(a, "to_device") else a

    def mixing(*args, **kwargs):
        d = first(args)
        return fn(*(move(a, d) for a in args), **kwargs)
    return mixing


_COMPUTING = ("negative", "positive", "abs", "isfinite", "add", "subtract", "equal", "less",
              "maximum")


def test_device_specs_pass_on_array_api_strict():
    run, results = _run(_namespace({}), DEVICE_SPECS, "array_api_strict")
    bad = {n: (r.status, r.message) for n, r in results.items() if r.status != "pass"}
    assert not bad, bad
    assert results["device.mixing"].message.startswith("mixing devices raises ValueError: ")


def test_results_on_the_wrong_device_fail():
    ns = _namespace({n: _results_on_cpu(getattr(xp, n)) for n in _COMPUTING})
    _, results = _run(ns, ["device.elementwise", "device.asarray"], "wrong device",
                      max_examples=15)
    assert results["device.elementwise"].status == "fail"
    assert "expected array_api_strict.Device('device" in results["device.elementwise"].message
    assert results["device.asarray"].status == "pass"  # asarray itself is untouched


def test_silently_mixing_devices_fails():
    names = ("add", "multiply", "equal", "where", "concat", "stack", "matmul", "take")
    ns = _namespace({n: _same_device(getattr(xp, n)) for n in names})
    _, results = _run(ns, ["device.mixing"], "mixing", max_examples=15)
    assert results["device.mixing"].status == "fail"
    assert "instead of raising" in results["device.mixing"].message


def test_disabled_flags_skip_what_they_disable():
    needing = {"__getitem__": "boolean indexing", "__setitem__": "boolean indexing",
               "unique_values": "data-dependent shapes", "nonzero": "data-dependent shapes",
               "repeat": "data-dependent shapes"}
    with xp.ArrayAPIStrictFlags(boolean_indexing=False, data_dependent_shapes=False):
        run, results = _run(xp, [*needing, "add", "take"], "array_api_strict")
    for name, feature in needing.items():
        assert results[name].status == "skipped", (name, results[name].message)
        flag = feature.replace(" ", "_").replace("-", "_")
        assert results[name].message == \
            f"{feature} disabled (array_api_strict flag {flag}=False)"
    assert results["add"].status == "pass", results["add"].message
    assert results["take"].status == "pass", results["take"].message
    assert run.totals() == (2, 0, len(needing))
    assert any("boolean indexing" in line for line in run.notes)
    # the flags are read per run: once restored, the same specs run
    _, results = _run(xp, ["unique_values"], "array_api_strict", max_examples=3)
    assert results["unique_values"].status == "pass", results["unique_values"].message


def test_capabilities_declared_false_skip_too():
    ns = _namespace({})
    caps = {"boolean indexing": False, "data-dependent shapes": True}
    info = ns.__array_namespace_info__()
    ns.__array_namespace_info__ = lambda: types.SimpleNamespace(
        **{**vars(info), "capabilities": lambda: caps})
    ns.get_array_api_strict_flags = None  # no flags: capabilities() decides
    _, results = _run(ns, ["__getitem__", "nonzero"], "declared", max_examples=3)
    assert results["__getitem__"].message == \
        "boolean indexing disabled (capabilities()['boolean indexing'] is False)"
    assert results["nonzero"].status == "pass", results["nonzero"].message


def test_api_version_and_extension_flags():
    with xp.ArrayAPIStrictFlags(api_version="2024.12", enabled_extensions=("linalg",)):
        run, results = _run(xp, ["isin", "broadcast_shapes", "fft.fft", "linalg.det",
                                 "abs"], "array_api_strict", max_examples=3)
    for name in ("isin", "broadcast_shapes"):
        assert results[name].status == "skipped"
        assert results[name].message == ("added in 2025.12; the namespace's api_version "
                                         "is 2024.12 (array_api_strict flag)")
    assert results["fft.fft"].status == "skipped"
    assert results["fft.fft"].message.startswith("extension 'fft' disabled")
    assert results["linalg.det"].status == "pass", results["linalg.det"].message
    assert results["abs"].status == "pass"


def test_one_device_skips_the_device_specs():
    run, results = _run(laxarray, DEVICE_SPECS, "laxarray")
    assert {r.status for r in results.values()} == {"skipped"}
    assert {r.message for r in results.values()} == {capabilities.ONE_DEVICE}


def test_none_listed_among_devices_is_not_a_second_device():
    """jax.numpy's ``devices()`` is ``[None, CpuDevice(id=0)]``: ``None`` (the default
    device) is no device of its own, so one real device still skips the device specs
    instead of failing them all ("result on CpuDevice(id=0), expected None")."""
    ns = types.SimpleNamespace(**{k: getattr(laxarray, k) for k in dir(laxarray)
                                  if not k.startswith("_")})
    info = laxarray.__array_namespace_info__()
    ns.__array_namespace_info__ = lambda: types.SimpleNamespace(
        capabilities=info.capabilities, default_device=lambda: None,
        default_dtypes=info.default_dtypes, dtypes=info.dtypes,
        devices=lambda: [None, *info.devices()])
    assert capabilities.usable_devices(ns) == tuple(info.devices())
    _, results = _run(ns, ["device.elementwise", "device.mixing"], "None listed")
    assert {r.message for r in results.values()} == {capabilities.ONE_DEVICE}


def test_on_device_creates_there_with_its_defaults():
    ns = capabilities.OnDevice(xp, capabilities.find_device(xp, "no_x64"))
    a = ns.asarray([1, 2])
    assert "no_x64" in repr(a.device)
    assert ns.__array_namespace_info__().default_dtypes()["integral"] == xp.int32
    assert a.dtype == xp.int32
    b = ns.zeros(2, device=xp.__array_namespace_info__().default_device())
    assert "CPU_DEVICE" in repr(b.device)  # an explicit device= wins


def test_cli_device_no_float64(tmp_path):
    out = io.StringIO()
    path = tmp_path / "run.json"
    status = main(["--namespace", "array_api_strict", "--device", "no_float64",
                   "--functions", "add,sum,multiply,linalg.matmul", "--max-examples", "10",
                   "--seed", "0", "--no-progress", "--no-shrink", "--json", str(path)],
                  stdout=out)
    text = out.getvalue()
    assert status == 0, text
    assert "note: array_api_strict: device array_api_strict.Device('no_float64'): " \
           "inputs created there; float64, complex128 not drawn" in text
    results = {r["name"]: r for r in json.loads(path.read_text())["runs"][0]["results"]}
    for name in ("add", "sum", "multiply", "linalg.matmul"):
        assert results[name]["status"] == "pass", results[name]
        assert not {"float64", "complex128"} & set(results[name]["dtypes"]), name
    assert {"float32", "complex64"} <= {d for r in results.values() for d in r["dtypes"]}
    assert "not drawn: missing on device" in results["add"]["message"]


def test_cli_unknown_device():
    err = io.StringIO()
    status = main(["--namespace", "array_api_strict", "--device", "gpu7", "--functions",
                   "add", "--no-progress"], stdout=err)
    assert status == 2


def test_needs_are_checked_at_registration():
    from laxarray.conformance.spec import Spec, register
    with pytest.raises(ValueError, match="needs"):
        register(Spec("device.bogus", lambda xp, data: None, needs=("x64",)))
    assert "device.bogus" not in SPECS
    assert np.all([set(s.needs) <= {"boolean_indexing", "data_dependent_shapes",
                                     "multiple_devices"} for s in SPECS.values()])
