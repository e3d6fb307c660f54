"""Wall time of the conformance runner (issue 21, item 1), this tree against a git revision.

Runs ``python -m laxarray.conformance --namespace NS`` (the default selection, the default
25 examples, seed 0, no progress bar) in a fresh process per (tree, namespace), the two
trees alternating, and prints each run's wall time, its pass/fail counts and the ratio
new / old.  ``--ref REV`` (default ``HEAD``) is checked out into a temporary
``git worktree``; both trees run on this checkout's virtualenv, each importing its own
``laxarray`` (the child's working directory is the tree).  laxarray children get an empty
persistent compilation cache of their own (``LAXARRAY_COMPILATION_CACHE``), so neither tree
profits from the other's executables.

    .venv/bin/python benchmarks/conformance_speed.py [--ref REV] [--namespaces a,b,...]
        [--functions GLOBS] [--repeats N]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run_once(tree, namespace, functions):
    """``(seconds, summary)`` of one runner process in ``tree``."""
    cache = tempfile.mkdtemp(prefix="lx-cache-")
    report = os.path.join(cache, "report.json")
    args = [sys.executable, "-m", "laxarray.conformance", "--namespace", namespace,
            "--seed", "0", "--no-progress", "--json", report]
    if functions:
        args += ["--functions", functions]
    env = dict(os.environ, LAXARRAY_COMPILATION_CACHE=cache, PYTHONPATH=tree)
    start = time.perf_counter()
    subprocess.run(args, cwd=tree, env=env, capture_output=True, text=True, timeout=3600)
    seconds = time.perf_counter() - start
    try:
        with open(report) as f:
            summary = json.load(f)["runs"][0]["summary"]
    except (OSError, ValueError, KeyError, IndexError):
        summary = {}
    shutil.rmtree(cache, ignore_errors=True)
    return seconds, summary


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--ref", default="HEAD")
    p.add_argument("--namespaces", default="laxarray,jax.numpy,numpy,array_api_strict")
    p.add_argument("--functions", default=None)
    p.add_argument("--repeats", type=int, default=1)
    a = p.parse_args()
    old = tempfile.mkdtemp(prefix="lx-ref-")
    subprocess.run(["git", "worktree", "add", "--detach", "-f", old, a.ref], cwd=ROOT,
                   check=True, capture_output=True)
    try:
        print(f"conformance runner wall time (s), default selection, 25 examples, seed 0; "
              f"old = {a.ref}, new = this tree; median of {a.repeats}")
        print(f"{'namespace':<18} {'old s':>8} {'new s':>8} {'new/old':>8}  old pass/fail  "
              f"new pass/fail")
        for ns in a.namespaces.split(","):
            times = {"old": [], "new": []}
            sums = {}
            for _ in range(a.repeats):
                for label, tree in (("old", old), ("new", ROOT)):
                    s, summary = run_once(tree, ns, a.functions)
                    times[label].append(s)
                    sums[label] = summary
            t_old, t_new = (statistics.median(times[k]) for k in ("old", "new"))
            pf = {k: f"{sums[k].get('passed', '?')}/{sums[k].get('failed', '?')}"
                  for k in sums}
            print(f"{ns:<18} {t_old:>8.1f} {t_new:>8.1f} {t_new / t_old:>8.2f}  "
                  f"{pf['old']:>13}  {pf['new']:>13}", flush=True)
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", old], cwd=ROOT,
                       capture_output=True)


if __name__ == "__main__":
    main()
