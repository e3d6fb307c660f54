"""The conformance runner's device specs on laxarray with 8 host devices, and ``--device``."""

import jax
import numpy as np
import pytest

import laxarray as xp
from laxarray.conformance import SPECS, capabilities, runner

DEVICE_SPECS = sorted(n for n in SPECS if n.startswith("device."))


def test_device_specs_pass():
    caps = capabilities.probe(xp)
    assert len(caps.devices) == 8 and "multiple_devices" not in caps.missing
    run = runner.run_namespace(xp, [SPECS[n] for n in DEVICE_SPECS], namespace_label="laxarray",
                               max_examples=6, seed=0, progress=False, shrink=False)
    bad = {r.name: (r.status, r.message) for r in run.results if r.status != "pass"}
    assert not bad, bad
    mixing = next(r for r in run.results if r.name == "device.mixing")
    assert mixing.message.startswith("mixing devices raises ValueError: "), mixing.message


def test_run_on_another_device():
    run = runner.run_namespace(xp, [SPECS["add"], SPECS["sum"], SPECS["asarray"]],
                               namespace_label="laxarray", max_examples=5, seed=0,
                               progress=False, shrink=False, device="cpu:3")
    assert [r.status for r in run.results] == ["pass"] * 3, [r.message for r in run.results]
    assert run.notes == ["device CpuDevice(id=3): inputs created there"]
    ns = capabilities.OnDevice(xp, jax.devices()[3])
    assert ns.asarray([1.0]).device == jax.devices()[3]
    assert ns.__array_namespace_info__().default_device() == jax.devices()[3]


@pytest.mark.parametrize("make", [
    lambda a: xp.isfinite(a),                      # a constant result for integers
    lambda a: xp.argsort(a[:0]),                   # an empty result
    lambda a: xp.searchsorted(a[:0], a),           # ... from an empty input
    lambda a: xp.isin(a[:0], a),
])
def test_results_independent_of_inputs_stay_on_their_device(make):
    d = jax.devices()[2]
    a = xp.asarray(np.arange(3), device=d)
    assert make(a).device == d
