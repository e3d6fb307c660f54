"""What the device harnesses share: the repository's root, a child process run into a log
under a time limit, a log's tail, pytest's JUnit counts, and the environment of a child on
an accelerator.

``accelerator_check``, ``gpu_check`` and ``tpu_bench`` import this module and it imports
none of them, so the harnesses import each other one way only (``accelerator_check`` ->
``gpu_check``, ``tpu_bench``, ``store_check``): before, ``accelerator_check`` and
``tpu_bench`` each imported the other.
"""

from __future__ import annotations

import os
import subprocess
import time

#: the repository's root (this file is ``tools/device/_harness.py``)
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
#: the timing helpers (``_timing``, ``_matrices``) and the benchmarks ``tpu_bench`` reuses
BENCHMARKS = os.path.join(ROOT, "benchmarks")


def run(cmd, log, limit, env, cwd=ROOT):
    """Run ``cmd`` with output to ``log``; ``(return code or 'timeout', seconds)``."""
    t0 = time.perf_counter()
    with open(log, "w") as f:
        try:
            rc = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, env=env, cwd=cwd,
                                timeout=limit).returncode
        except subprocess.TimeoutExpired:
            rc = "timeout"
    return rc, round(time.perf_counter() - t0, 1)


def tail(path, n=400):
    """The last ``n`` characters of the file at ``path`` (``""`` if it cannot be read)."""
    try:
        with open(path, errors="replace") as f:
            return f.read()[-n:]
    except OSError:
        return ""


def junit(path):
    """``(counts, failed test ids)`` from pytest's JUnit XML; ``(None, [])`` if absent."""
    import xml.etree.ElementTree as ET
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError):
        return None, []
    counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    failed = []
    for suite in root.iter("testsuite"):
        for k in counts:
            counts[k] += int(suite.get(k, 0))
        for case in suite.iter("testcase"):
            if case.find("failure") is not None or case.find("error") is not None:
                failed.append(f"{case.get('classname')}::{case.get('name')}")
    counts["passed"] = counts["tests"] - counts["failures"] - counts["errors"] - counts["skipped"]
    return counts, failed


def accelerator_env(platform, dry):
    """The environment of a child process on ``platform`` (``--dry``: on the CPU, with the
    TPU's backend record where ``platform`` is ``"tpu"``)."""
    env = dict(os.environ)
    if dry:
        env["JAX_PLATFORMS"] = "cpu"
    else:
        # as a user's process runs: the accelerator is jax's default backend, and the host
        # CPU's backend is there too (a NumPy buffer's DLPack import lands on it; with
        # JAX_PLATFORMS=tpu the suites missed that: session 17)
        env.pop("JAX_PLATFORMS", None)
    if dry and platform == "tpu":
        env["LAXARRAY_PLATFORM"] = "tpu"   # the TPU's backend record, on the CPU
    env.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (ROOT, env.get("PYTHONPATH")) if p)
    env["PYTHONUNBUFFERED"] = "1"
    env.setdefault("SCIPY_ARRAY_API", "1")
    env["HYPOTHESIS_PROFILE"] = "ci"
    return env
