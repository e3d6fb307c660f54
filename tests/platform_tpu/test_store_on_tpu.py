"""The executable store where the TPU's record is read: every kernel a fresh process needs
is loaded rather than compiled, precompile fills the store in the calling process on a
device that one process at a time may hold, and its workloads run in the device's dtypes.

Here XLA:CPU compiles (``LAXARRAY_PLATFORM=tpu``); on the chip the same checks are
``tools/device/store_check.py``, whose ``--dry`` mode the first test runs.  Child processes
cannot open a TPU that the test process holds, so the first two tests need the CPU."""

import json
import os
import re
import subprocess
import sys
import textwrap

import jax
import pytest

from laxarray._core import backend
from laxarray.precompile import workloads

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
needs_cpu = pytest.mark.skipif(jax.default_backend() != "cpu",
                               reason="child processes cannot open a chip this process holds")


def _python(args, env_extra, timeout=600):
    env = dict(os.environ, LAXARRAY_PLATFORM="tpu", JAX_PLATFORMS="cpu", **env_extra)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (ROOT, env.get("PYTHONPATH")) if p)
    proc = subprocess.run([sys.executable, *args], env=env, capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout


@needs_cpu
def test_a_fresh_process_loads_every_kernel_from_the_store(tmp_path):
    _python([os.path.join(ROOT, "tools", "device", "store_check.py"), "--dry", "--out",
             str(tmp_path)], {})
    with open(tmp_path / "store_check.json") as f:
        got = json.load(f)
    fill, load = got["fill"], got["load"]
    assert fill["store"] and load["store"]
    assert fill["calls"].keys() == load["calls"].keys()
    wrong = [name for name in fill["calls"]
             if not (fill["calls"][name]["ok"] and load["calls"][name]["ok"])]
    assert not wrong, wrong
    assert fill["loads"] == 0 and fill["compiles"] > 0
    # the second process built nothing: every executable came from the store
    assert load["compiles"] == load["loads"] == fill["compiles"], (fill, load)
    # an executable that jax loaded from its own cache is either refused by
    # serialize_compiled or round-trips; never a blob that loads and computes wrong
    assert load["jax_cache_hits"] >= 1
    verdict, blob = load["from_jax_cache"], got["blob"]["blob"]
    assert (verdict.startswith("refused") and blob == "none written") or (
        verdict == "written" and blob == "ok"), (verdict, blob)
    # a user's second run, loading ahead: the thread loaded every executable the first
    # run looked up, and the calls that took them still agree with NumPy
    ahead = got["ahead"]
    assert ahead["calls"].keys() == fill["calls"].keys()
    assert all(call["ok"] for call in ahead["calls"].values())
    assert ahead["compiles"] == ahead["loads"] == ahead["loaded_ahead"] == fill["compiles"]
    # "a fresh machine" (another CPU description, an empty store of its own) loads every
    # program from the portable tier that a build process filled, with the native bits
    build, tier = got["tier_build"], got["tier_load"]
    assert build["tier_loads"] == build["loads"] == 0 and build["compiles"] == fill["compiles"]
    assert tier["compiles"] == tier["loads"] == tier["tier_loads"] == fill["compiles"]
    assert {n: c["digest"] for n, c in tier["calls"].items()} == {
        n: c["digest"] for n, c in fill["calls"].items()}


_EXCLUSIVE = textwrap.dedent("""
    import dataclasses, json, subprocess
    from laxarray._core import backend

    record = dataclasses.replace(backend.compiling(), exclusive=True)
    backend.compiling = lambda: record          # a device one process at a time may hold

    def no_children(*args, **kwargs):
        raise AssertionError("precompile started a worker process")
    subprocess.Popen = no_children

    from laxarray.precompile import precompile
    summary = precompile("standard", jobs=4, match="add float*", stream=False)
    print("@@" + json.dumps(summary))
""")

_USE = textwrap.dedent("""
    import json
    import numpy as np
    import laxarray as xp
    from laxarray._core.runtime import kernel
    rng = np.random.default_rng(1)
    ok = []
    for shape in [(17,), (20,), (7,), (1,), (40, 6), (16, 4)]:   # the workload's buckets
        a, b = (rng.standard_normal(shape).astype(np.float32) for _ in range(2))
        got = np.asarray(xp.add(xp.asarray(a), xp.asarray(b)))
        ok.append(got.dtype == np.float32 and bool(np.array_equal(got, a + b)))
    print("@@" + json.dumps({"ok": ok, "loads": kernel.load_count(),
                             "compiles": kernel.compile_count()}))
""")


_DTYPE = re.compile(r"\b(float\d+|complex\d+|u?int\d+|bool)\b")


def _result(out):
    return json.loads([ln for ln in out.splitlines() if ln.startswith("@@")][-1][2:])


@needs_cpu
def test_precompile_runs_in_the_calling_process_on_an_exclusive_device(tmp_path):
    env = {"LAXARRAY_COMPILATION_CACHE": str(tmp_path), "LAXARRAY_STORE_HINT": "0"}
    summary = _result(_python(["-c", _EXCLUSIVE], env))
    # float64's task runs in float32 on the TPU's record: one task, not two
    assert (summary["jobs"], summary["tasks"], summary["done"]) == (1, 1, 1), summary
    assert summary["failed_calls"] == 0 and summary["written"] > 0, summary
    assert summary["new_entries"] == summary["written"], summary
    used = _result(_python(["-c", _USE], env))
    assert all(used["ok"]), used
    assert used["loads"] == used["compiles"] > 0, used       # nothing compiled


def test_the_workloads_ask_only_for_the_devices_dtypes():
    record = backend.current()
    for name in workloads.names():
        if workloads.requires(name) is not None:
            continue
        labels = [t.label for t in workloads.tasks(name)]
        dtypes = {d for label in labels for d in _DTYPE.findall(label)}
        assert dtypes and all(record.supports(d) for d in dtypes), dtypes
    # a function the CPU's workload runs in float64 only runs in float32 here
    assert "acosh float32" in [t.label for t in workloads.tasks("standard")]



@needs_cpu
def test_the_workflow_in_a_fresh_process_compiles_nothing(tmp_path):
    # tpu_bench's scikit-learn groups (--dry sizes): the first child fills an empty store
    # and agrees with NumPy; a second child on that store loads every kernel it needs
    pytest.importorskip("sklearn")
    _python([os.path.join(ROOT, "tools", "device", "tpu_bench.py"), "--dry", "--out",
             str(tmp_path), "--groups", "sklearn,sklearn_fresh"], {"SCIPY_ARRAY_API": "1"})
    with open(tmp_path / "bench.json") as f:
        rows = json.load(f)["rows"]
    first = rows["scikit-learn workflow, first run"]
    warm = rows["scikit-learn workflow, warm"]
    fresh = rows["scikit-learn workflow, first run in a fresh process on a filled store"]
    assert warm["answers"]["lda predict equal"] >= 0.999
    assert max(v for k, v in warm["answers"].items() if k != "lda predict equal") <= 1e-3
    assert first["built"] > 0
    assert fresh["compiled"] == 0 and fresh["loaded"] > 0, fresh


_CHIP = ("import dataclasses\nfrom laxarray._core import backend\n"
         "_chip = dataclasses.replace(backend.compiling(), exclusive=True, portable='chip')\n"
         "backend.compiling = lambda: _chip\n")


@needs_cpu
def test_precompile_portable_builds_a_chips_tier_in_the_calling_process(tmp_path):
    """On a chip (exclusive, a tier keyed by the chip) ``precompile --portable`` builds the
    tier in its own process; another host (another CPU description, an empty store of its
    own) then compiles nothing and gets the bits of a fresh compile."""
    tier = tmp_path / "tier"
    build = _EXCLUSIVE.replace("exclusive=True)", "exclusive=True, portable='chip')").replace(
        "stream=False)", "stream=False, portable=True)")
    assert build != _EXCLUSIVE
    # the chip's record is patched in after laxarray's import, when the store opens: the
    # loader thread, which reads a tier's trace there under the CPU's record, stays off
    host = {"LAXARRAY_PORTABLE_STORE": str(tier), "LAXARRAY_STORE_HINT": "0",
            "LAXARRAY_PREFETCH": "0"}
    summary = _result(_python(["-c", build], dict(
        host, LAXARRAY_COMPILATION_CACHE=str(tmp_path / "a"),
        LAXARRAY_CPU_DESCRIPTION="model name=host A")))
    assert summary["portable"] and summary["written"] > 0, summary
    assert summary["new_entries"] == summary["written"], summary
    assert not (tmp_path / "a").exists() or not any((tmp_path / "a").rglob("*.bin"))
    used = _result(_python(["-c", _CHIP + _USE], dict(
        host, LAXARRAY_COMPILATION_CACHE=str(tmp_path / "b"),
        LAXARRAY_CPU_DESCRIPTION="model name=host B")))
    assert all(used["ok"]), used
    assert used["loads"] == used["compiles"] > 0, used       # all from the chip's tier
