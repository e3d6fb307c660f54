"""Eight threads making first calls at once build the same executables, with the same bits,
as one thread making them in turn.

Each kernel call marks which Bound is running eagerly, and the trace that follows reads the
mark to know it is building a new executable (then it checks the program for XLA's fusion
emitters and counts the compile).  The mark was one slot for the whole process: a trace in
one thread could read another thread's mark, skip the check and the count, and compile
``tan`` without the fusion emitters it needs.  Both runs below are fresh processes with the
executable store off, so every first call compiles; each prints its results' bytes and the
number of executables laxarray built.
"""

import json
import os
import subprocess
import sys

CHILD = r"""
import hashlib, json, sys, threading
import numpy as np
import laxarray as la
from laxarray._core.runtime import kernel

OPS = {"tan": la.tan, "atan": la.atan, "cbrt": la.cbrt, "add": lambda x: x + x,
       "multiply": lambda x: x * 3.0, "sin": la.sin}
# every (op, length) pair once; lengths past the bucket limit are compiled exactly
CASES = [(op, n) for op in OPS for n in (5, 9, 17, 33, 40001, 40009, 40013)]

def run(case):
    op, n = case
    x = np.linspace(-1.3, 1.3, n)
    return op, n, hashlib.sha256(np.asarray(OPS[op](la.asarray(x))).tobytes()).hexdigest()

sys.setswitchinterval(1e-6)  # threads switch often: a race shows if there is one
before = kernel.compile_count()
if sys.argv[1] == "threads":
    out, barrier = [None] * len(CASES), threading.Barrier(8)
    def worker(k):
        barrier.wait()
        for i in range(k, len(CASES), 8):
            out[i] = run(CASES[i])
    threads = [threading.Thread(target=worker, args=(k,)) for k in range(8)]
    [t.start() for t in threads]
    [t.join() for t in threads]
else:
    out = [run(c) for c in CASES]
print(json.dumps({"results": sorted(out), "compiles": kernel.compile_count() - before}))
"""


def _child(mode):
    env = dict(os.environ, LAXARRAY_COMPILATION_CACHE="0")
    proc = subprocess.run([sys.executable, "-c", CHILD, mode], env=env, capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_eight_threads_build_what_one_thread_builds():
    serial, threaded = _child("serial"), _child("threads")
    assert threaded["results"] == serial["results"]
    assert threaded["compiles"] == serial["compiles"] > 0
