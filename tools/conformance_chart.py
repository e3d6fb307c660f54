"""The conformance runner's pass rate per namespace and chapter, as a picture (issue 55).

Runs ``python -m laxarray.conformance --compare NS,...`` (the default selection, the default
examples) once per seed, or reads such JSON reports, and draws for each namespace the share
of the specs it passes in each chapter of the standard (``conformance.chapters``), seeds
pooled; a spec that failed at any seed counts as failed, and so does one the namespace
lacks (``unsupported``), as in the runner's summary; skipped specs are left out, and their
count is printed::

    .venv/bin/python tools/conformance_chart.py [--namespaces laxarray,...]
        [--seeds 1] [--from REPORT.json,...] [--out docs/_static/conformance_pass_rate.png]

Needs matplotlib (``pip install -e .[bench]``).  The picture in ``docs/conformance.md`` is
this script's output at its defaults.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NAMESPACES = "laxarray,array_api_strict,jax.numpy,numpy"
PASSING = {"pass", "xfail"}
FAILING = {"fail", "error", "xpass", "unsupported"}


def run_reports(namespaces, seeds):
    """One JSON report per seed, from fresh runner processes."""
    reports = []
    with tempfile.TemporaryDirectory() as tmp:
        for seed in seeds:
            path = os.path.join(tmp, f"seed{seed}.json")
            cmd = [sys.executable, "-m", "laxarray.conformance", "--compare", namespaces,
                   "--seed", str(seed), "--no-progress", "--json", path]
            print(" ".join(cmd[1:]), flush=True)
            subprocess.run(cmd, cwd=ROOT, check=False, stdout=subprocess.DEVNULL)
            with open(path) as fh:
                reports.append(json.load(fh))
    return reports


def tally(reports):
    """``{namespace: {chapter: [passed, failed]}}`` and ``{namespace: left out}``; a spec is
    failed if it failed at any seed."""
    from laxarray.conformance import SPECS
    from laxarray.conformance.chapters import chapter_of_name
    worst = {}
    for report in reports:
        for run in report["runs"]:
            ns = run["namespace"]
            for res in run["results"]:
                prev = worst.setdefault(ns, {}).get(res["name"])
                if prev is None or (prev in PASSING and res["status"] in FAILING):
                    worst[ns][res["name"]] = res["status"]
    table, left = {}, {}
    for ns, statuses in worst.items():
        table[ns], left[ns] = {}, 0
        for name, status in statuses.items():
            if status not in PASSING | FAILING:
                left[ns] += 1
                continue
            cell = table[ns].setdefault(chapter_of_name(name, SPECS), [0, 0])
            cell[status in FAILING] += 1
    return table, left


def draw(table, left, seeds, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    from laxarray.conformance.chapters import order
    chapters = order({c for cells in table.values() for c in cells})
    names = list(table)
    fig, ax = plt.subplots(figsize=(11, 5.2))
    width = 0.8 / len(names)
    xs = np.arange(len(chapters))
    for i, ns in enumerate(names):
        rates = []
        for c in chapters:
            passed, failed = table[ns].get(c, (0, 0))
            rates.append(100.0 * passed / (passed + failed) if passed + failed else np.nan)
        total = [sum(v) for v in zip(*table[ns].values())]
        label = f"{ns}: {total[0]}/{total[0] + total[1]} specs pass"
        ax.bar(xs + (i - (len(names) - 1) / 2) * width, rates, width, label=label)
    ax.set_xticks(xs, chapters, rotation=35, ha="right")
    ax.set_ylabel("specs passed (%)")
    ax.set_ylim(0, 105)
    ax.set_title(f"Conformance runner, default selection, seed{'s' if len(seeds) > 1 else ''} "
                 f"{', '.join(map(str, seeds))}: share of each chapter's specs passed")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.3), ncol=len(names), fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    print(f"wrote {path}; skipped specs left out: {left}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--namespaces", default=NAMESPACES)
    ap.add_argument("--seeds", default="1")
    ap.add_argument("--from", dest="reports", default="",
                    help="comma-separated JSON reports to draw instead of running")
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "_static",
                                                  "conformance_pass_rate.png"))
    args = ap.parse_args(argv)
    if args.reports:
        reports = []
        for p in args.reports.split(","):
            with open(p) as fh:
                reports.append(json.load(fh))
        seeds = sorted({r["seed"] for rep in reports for r in rep["runs"]})
    else:
        seeds = [int(s) for s in args.seeds.split(",")]
        reports = run_reports(args.namespaces, seeds)
    table, left = tally(reports)
    for ns, cells in table.items():
        print(ns, {c: f"{p}/{p + f}" for c, (p, f) in cells.items()})
    draw(table, left, seeds, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
