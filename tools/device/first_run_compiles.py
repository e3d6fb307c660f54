"""Which programs the scikit-learn workflow's first run compiles, and what each costs.

Runs ``tpu_bench``'s workflow (10**6 x 100 float32 on the chip; ``--dry``: 400 x 8 on the
CPU) once in this process on an empty store of its own, with jax's compile log on
(``jax_log_compiles``): each "Finished XLA compilation of jit(NAME) in S sec" line is one
program.  Prints the programs by compile seconds (the sum per kernel name, how many, the
largest), the whole first run's wall time, and the share of it spent compiling; writes
``first_run_compiles.json`` into ``--out``.

    source tools/device/tpu_env.sh --sklearn
    python tools/device/first_run_compiles.py --out DIR [--dry]
"""

from __future__ import annotations

import argparse
import collections
import json
import logging
import os
import re
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
_LINE = re.compile(r"Finished XLA compilation of (?:jit\()?([^\s)]+)\)? in ([0-9.e-]+) sec")


class _Compiles(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.seen = []

    def emit(self, record):
        m = _LINE.search(record.getMessage())
        if m:
            self.seen.append((m.group(1), float(m.group(2))))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--dry", action="store_true", help="the CPU, tiny sizes")
    args = ap.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    os.environ["LAXARRAY_COMPILATION_CACHE"] = tempfile.mkdtemp(prefix="first-run-")
    os.environ["LAXARRAY_PORTABLE_STORE"] = "0"
    os.environ["LAXARRAY_PREFETCH"] = "0"
    sys.path.insert(0, HERE)
    import jax
    import numpy as np
    import tpu_bench
    import laxarray as la
    S = tpu_bench.DRY_SIZES if args.dry else tpu_bench.SIZES
    problem = tpu_bench._sklearn_problem(S)
    if problem is None:
        print("scikit-learn absent")
        return 1
    host_args, workflow = problem
    handler = _Compiles()
    logger = logging.getLogger("jax")
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    jax.config.update("jax_log_compiles", True)
    arrays = tuple(la.asarray(a) for a in host_args)
    t0 = time.perf_counter()
    out = workflow(*arrays)
    for v in out.values():      # every answer on the host: the run is done
        np.asarray(v)
    wall = time.perf_counter() - t0
    jax.config.update("jax_log_compiles", False)
    by = collections.defaultdict(list)
    for name, secs in handler.seen:
        by[name].append(secs)
    rows = sorted(((sum(v), len(v), max(v), k) for k, v in by.items()), reverse=True)
    total = sum(s for s, *_ in rows)
    print(f"first run {wall:.1f} s; {len(handler.seen)} programs compiled in {total:.1f} s "
          f"({total / wall:.0%} of it)")
    print(f"{'program':<40}{'count':>6}{'sum s':>9}{'max s':>8}")
    for secs, count, top, name in rows[:30]:
        print(f"{name[:40]:<40}{count:>6}{secs:>9.2f}{top:>8.2f}")
    with open(os.path.join(args.out, "first_run_compiles.json"), "w") as f:
        json.dump({"wall_s": wall, "compile_s": total, "programs": len(handler.seen),
                   "by_name": {k: v for k, v in by.items()},
                   "device": str(jax.devices()[0])}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
