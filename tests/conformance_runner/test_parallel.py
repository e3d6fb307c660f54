"""``--jobs``: specs run in worker processes give the same results as in one process."""

import json
import os
import subprocess
import sys

import pytest

from laxarray.conformance import SPECS, parallel, runner
from laxarray.conformance.__main__ import main

NAMES = ["abs", "argmax", "clip", "cumulative_sum", "floor_divide", "linalg.det", "mean",
         "sort", "unique_values", "var"]


_BOTH = """
import json
from laxarray.conformance import SPECS, parallel, runner
label = "array_api_compat.numpy"
xp = runner.load_namespace(label)
specs = [SPECS[n] for n in NAMES]
runs = [runner.run_namespace(xp, specs, namespace_label=label, max_examples=10, seed=1,
                             progress=False, jobs=jobs) for jobs in (1, 2)]
print(json.dumps([{r.name: [r.status, r.message, r.examples, r.snippet, r.dtypes]
                   for r in run.results} for run in runs]))
"""


def test_workers_report_what_one_process_reports():
    """Failing and passing specs alike: outcome, message, example count, the snippet of
    the shrunk failure and the dtype matrix are identical (array_api_compat.numpy fails
    some of these: its var breaks the standard's special cases).

    Both runs are made by a fresh process, as the command line makes them: hypothesis
    also draws literal constants of the loaded modules that are not installed, and this
    test process has loaded every test module, which a worker never imports."""
    pytest.importorskip("array_api_compat")
    code = f"NAMES = {NAMES!r}\n" + _BOTH
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=600, env=dict(os.environ, LAXARRAY_STORE_HINT="0"))
    assert proc.returncode == 0, proc.stderr[-3000:]
    serial, parallel = json.loads(proc.stdout.strip().splitlines()[-1])
    assert set(serial) == set(NAMES)
    assert {v[0] for v in serial.values()} >= {"pass", "fail"}  # both kinds compared
    assert parallel == serial


def test_workers_need_an_importable_namespace():
    xp = runner.load_namespace("numpy")
    with pytest.raises(ValueError, match="importable as namespace_label"):
        runner.run_namespace(xp, [SPECS["abs"], SPECS["sign"]], namespace_label="my numpy",
                             progress=False, jobs=2)


def test_cli_jobs(tmp_path, capsys):
    assert main(["--namespace", "array_api_compat.numpy", "--functions", "abs",
                 "--jobs", "0"]) == 2
    assert "--jobs" in capsys.readouterr().err
    out = tmp_path / "r.json"
    assert main(["--namespace", "laxarray", "--functions", "abs,negative", "--jobs", "2",
                 "--max-examples", "5", "--seed", "0", "--no-progress",
                 "--json", str(out)]) == 0
    results = json.loads(out.read_text())["runs"][0]["results"]
    assert {r["name"]: r["status"] for r in results} == {"abs": "pass", "negative": "pass"}


_SPECS = [SPECS[n] for n in NAMES]


def test_this_process_runs_specs_beside_its_workers():
    """``local``: the calling process takes specs from the same queue as the workers, every
    spec runs exactly once, and results come back through ``on_result`` in this thread."""
    seen = []
    results = parallel.run_specs(_SPECS, jobs=2, initializer=None, initargs=(), run=str,
                                 failed=lambda name, message: ("failed", name),
                                 on_result=seen.append, local=lambda name: ("local", name))
    assert seen == results
    names = [r[1] if isinstance(r, tuple) else r for r in results]
    assert sorted(names) == sorted(NAMES)
    assert ("local", parallel._order(_SPECS)[1].name) in results  # the worker was starting


def test_specs_left_by_a_dead_worker_pool_run_in_this_process():
    """A worker that dies (here at its start) fails the one spec it held; this process runs
    the rest instead of reporting them all as failed, and nothing waits forever."""
    results = parallel.run_specs(_SPECS, jobs=2, initializer=os._exit, initargs=(3,),
                                 run=str, failed=lambda name, message: ("failed", name),
                                 local=lambda name: ("local", name))
    kinds = sorted(r[0] for r in results)
    assert sorted(r[1] for r in results) == sorted(NAMES)
    assert kinds.count("failed") <= 1 and kinds.count("local") >= len(NAMES) - 1


def test_without_local_a_dead_pool_fails_every_spec_it_held():
    results = parallel.run_specs(_SPECS[:3], jobs=2, initializer=os._exit, initargs=(3,),
                                 run=str, failed=lambda name, message: ("failed", message))
    assert len(results) == 3
    assert all(kind == "failed" and "died" in message for kind, message in results)
