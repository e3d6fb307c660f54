"""``--jobs``: specs run in worker processes give the same results as in one process."""

import json

import pytest

from laxarray.conformance import SPECS, runner
from laxarray.conformance.__main__ import main

NAMES = ["abs", "argmax", "clip", "cumulative_sum", "floor_divide", "linalg.det", "mean",
         "sort", "unique_values", "var"]


def _by_name(run):
    return {r.name: (r.status, r.message, r.examples, r.snippet, r.dtypes)
            for r in run.results}


def test_workers_report_what_one_process_reports():
    """Failing and passing specs alike: outcome, message, example count, the snippet of
    the shrunk failure and the dtype matrix are identical (array_api_compat.numpy fails
    some of these: its floor_divide and var break the standard's special cases)."""
    pytest.importorskip("array_api_compat")
    label = "array_api_compat.numpy"
    xp = runner.load_namespace(label)
    specs = [SPECS[n] for n in NAMES]
    runs = [runner.run_namespace(xp, specs, namespace_label=label, max_examples=10, seed=1,
                                 progress=False, jobs=jobs) for jobs in (1, 2)]
    serial, parallel = map(_by_name, runs)
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
