"""laxarray's eager call time, this tree against another (a git worktree of an earlier
commit), in alternated fresh processes: the minimum per operation over the runs of each.

    git worktree add /tmp/base 99c1507
    .venv/bin/python benchmarks/dispatch_ab.py /tmp/base [--runs 5]

Each run is one process that imports laxarray from its tree and times every operation of
``dispatch.py`` at 100 float64 elements (the dispatch cost: a dict lookup, the executable's
C++ call, the Array wrapper), the minimum of 7 loops of 300 calls, results blocked on, after
a warm-up.  The trees alternate (A B A B ...), so load on the machine hits both alike.
Prints per operation: each tree's minimum, and the ratio this/other.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

_CHILD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
import numpy as np
import laxarray as lx
sys.path.insert(0, sys.argv[2])
from dispatch import OPS
rng = np.random.default_rng(0)
x, y = lx.asarray(rng.standard_normal(100)), lx.asarray(rng.uniform(0.5, 2.0, 100))
out = {}
for name, op in OPS.items():
    op(lx, x, y).block_until_ready()
    best = float("inf")
    for _ in range(7):
        t0 = time.perf_counter()
        for _ in range(300):
            op(lx, x, y).block_until_ready()
        best = min(best, (time.perf_counter() - t0) / 300)
    out[name] = best
print(json.dumps(out))
"""


def _run(tree, here):
    env = dict(os.environ, PYTHONPATH=tree)
    proc = subprocess.run([sys.executable, "-c", _CHILD, tree, here], env=env,
                          capture_output=True, text=True, check=True)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", help="the other source tree (a git worktree)")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    this = os.path.dirname(here)
    best = {"this": {}, "other": {}}
    for _ in range(args.runs):
        for label, tree in (("other", args.other), ("this", this)):
            for op, t in _run(tree, here).items():
                best[label][op] = min(best[label].get(op, float("inf")), t)
    print(f"{'op':<14}{'this':>10}{'other':>10}{'ratio':>8}")
    ratios = []
    for op in best["this"]:
        a, b = best["this"][op], best["other"][op]
        ratios.append(a / b)
        print(f"{op:<14}{a * 1e6:>8.2f}us{b * 1e6:>8.2f}us{a / b:>8.3f}")
    ratios.sort()
    print(f"median ratio {ratios[len(ratios) // 2]:.3f}, max {ratios[-1]:.3f} "
          f"({len(ratios)} operations, minima of {args.runs} alternated runs each)")


if __name__ == "__main__":
    main()
