"""laxarray on an accelerator (issue 52): the project's tests and the three suites on the chip.

On the lent TPU machine (the device tool), from the repository root, after
``source tools/device/tpu_env.sh --sklearn`` (what the machine lacks, carried as wheels)::

    python3 tools/device/accelerator_check.py --platform tpu --out DIR [--only tests,suites]

Parts, each in its own subprocess under its own time limit, one after another (only one
process may hold a TPU, and opening it costs about 15 s):

* ``tests``: the project's test selection for an accelerator, no pytest-xdist: on a GPU
  ``ACCEL_TESTS``; on a TPU ``TPU_TESTS``, the files written for the device's dtypes
  (``tests/platform_tpu``: the TPU's backend record, and the dtype-generic ones);
* ``suites``: the official array-api-tests (``--aat DIR``, a checkout with its ``array-api``
  submodule; every file, the dtypes the device lacks skipped through the suite's own
  ``ARRAY_API_TESTS_SKIP_DTYPES``, read from laxarray's backend record in the process that
  runs the suite, and ``tools/device/accelerator_xfails_<platform>.txt``: the suite's own
  defects, each with its reason), the conformance runner's default selection (``--jobs 1``)
  and scikit-learn's array-API tests (``make test-sklearn``'s selection) with laxarray on
  the chip.
* ``store``: ``tools/device/store_check.py``: a fresh process loads, from the executable
  store, every kernel that an earlier process compiled (first calls timed both ways);
* ``bench``: on a GPU, ``tools/device/gpu_check.py``'s table; on a TPU,
  ``tools/device/tpu_bench.py``'s (laxarray beside jax.numpy on the chip, one process).

``--official-part K/N`` runs the K-th of N shares of the official suite's files (balanced
by their measured time), ``--conformance-part K/N`` the K-th of N runs of the runner's
specs, ``--sklearn-part K/N`` of scikit-learn's tests, so that a whole run spreads over several device calls; with
``LAXARRAY_COMPILATION_CACHE`` in the repository (kept between calls on a warm machine)
the later calls load what the earlier ones compiled.

``--dry`` runs the same code on the CPU in CI-sized pieces (``JAX_PLATFORMS=cpu``; with
``--platform tpu`` also ``LAXARRAY_PLATFORM=tpu``, the TPU's record on the CPU): the check
that the script works before the chip is asked for.  Written under DIR: ``summary.json``,
``summary.md`` and one log per part; the summary is printed last.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _harness import ROOT, accelerator_env, junit, run, tail  # noqa: E402
# the GPU script's test selection (ACCEL_TESTS less CPU_ONLY_TESTS)
from gpu_check import CPU_ONLY_TESTS, GPU_TESTS as ACCEL_TESTS  # noqa: E402

#: on a TPU: the files that are written for the device's dtypes (most of the suite builds
#: its data in NumPy's float64, which a TPU has no arrays of: those run on CPUs and GPUs)
TPU_TESTS = [
    "tests/platform_tpu", "tests/core/test_precision_policy.py",
    "tests/checkify/test_control_flow.py",
    "tests/checkify/test_rules.py", "tests/checkify/test_transforms.py",
    "tests/linalg/test_linalg_fft_peers.py", "tests/numpy_api/test_np_coverage.py",
    "tests/array_api/test_threaded_writes.py", "tests/sparse/test_sparse_imports.py",
]
DRY_TESTS = ["tests/core/test_precision_policy.py::test_store_key_names_the_setting",
             "tests/sparse/test_gpu_fallbacks.py::test_a_value_on_several_devices_declines"]

#: seconds per part on the chip (a device call is at most 10 minutes) and under --dry
BUDGET = {"tests": 240, "official": 300, "conformance": 240, "sklearn": 240, "store": 300,
          "bench": 600}
DRY_BUDGET = {"tests": 300, "official": 300, "conformance": 300, "sklearn": 300, "store": 300,
              "bench": 600}

#: the official suite's files with the seconds each took on the CPU with the TPU's record
#: (``--max-examples 5``, an empty store, 1025 executables compiled; 2026-12-06):
#: ``--official-part K/N`` runs the K-th of N shares of about equal weight, so that a whole
#: run fits several device calls
OFFICIAL_SECONDS = {f"array_api_tests/{name}.py": secs for name, secs in (
    ("test_special_cases", 7.1), ("test_linalg", 6.8),
    ("test_operators_and_elementwise_functions", 5.7), ("test_creation_functions", 5.6),
    ("test_fft", 4.4), ("test_array_object", 2.2), ("test_manipulation_functions", 2.0),
    ("test_data_type_functions", 1.6), ("test_statistical_functions", 0.9),
    ("test_dlpack", 0.4), ("test_searching_functions", 0.3), ("test_set_functions", 0.2),
    ("test_has_names", 0.2), ("test_indexing_functions", 0.1),
    ("test_utility_functions", 0.1), ("test_signatures", 0.1),
    ("test_sorting_functions", 0.1), ("test_inspection_functions", 0.0),
    ("test_constants", 0.0))}

#: the official suite's files (--dry: two of them)
DRY_OFFICIAL = ["array_api_tests/test_creation_functions.py",
                "array_api_tests/test_statistical_functions.py"]
SKLEARN_K = "array_api or array_namespace"
#: pytest's --maxfail for every pytest part (set by main)
MAXFAIL: list = []
#: ``--bench-groups``: the names of tpu_bench's groups to run, or ``None`` (all)
BENCH_GROUPS = None
#: ``--official-part``, ``--conformance-part``, ``--sklearn-part``: ``(K, N)`` or ``None``
#: (set by main)
OFFICIAL_PART = CONFORMANCE_PART = SKLEARN_PART = None


def _reasons(xml):
    """``{test id: first line of its failure message}`` from pytest's JUnit XML."""
    import xml.etree.ElementTree as ET
    try:
        root = ET.parse(xml).getroot()
    except (OSError, ET.ParseError):
        return {}
    out = {}
    for case in root.iter("testcase"):
        bad = case.find("failure")
        bad = case.find("error") if bad is None else bad
        if bad is not None:
            text = (bad.get("message") or bad.text or "").strip().splitlines()
            out[f"{case.get('classname')}::{case.get('name')}"] = (text or [""])[0][:300]
    return out


def _pytest_counts(log):
    """Counts and failed node ids, each with the first line of its reason: from the JUnit
    XML beside ``log`` (``name.xml``), else the log's last summary line, else the progress
    characters of a run cut off at its limit (which writes no XML)."""
    counts, failed = junit(log[:-4] + ".xml")
    if counts is not None:
        reasons = _reasons(log[:-4] + ".xml")
        return counts, [f"{t} -- {reasons.get(t, '')}" for t in failed[:300]]
    text = tail(log, 10 ** 7)
    failed = re.findall(r"^(?:FAILED|ERROR) (\S+)", text, re.M)
    m = re.findall(r"^=*\s*((?:\d+ \w+(?:, )?)+) in [\d.]+s", text, re.M)
    if m:
        counts = {k: int(v) for v, k in re.findall(r"(\d+) (\w+)", m[-1])}
    else:
        progress = "".join(re.findall(r"^([.FEsxX]+)\s*(?:\[|$)", text, re.M))
        counts = {"passed": progress.count("."), "failed": progress.count("F"),
                  "errors": progress.count("E"), "skipped": progress.count("s"),
                  "cut off": True}
    return counts, failed[:300]


def run_tests(out, platform, dry, limit, env):
    """The project's selection on the chip (one process)."""
    log = os.path.join(out, "tests.log")
    cmd = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rfE",
           "-p", "no:xdist", "--continue-on-collection-errors",   # (-q: the repo's addopts)
           f"--junitxml={log[:-4]}.xml", *MAXFAIL]
    if platform == "tpu":
        cmd += TPU_TESTS
    elif dry:
        cmd += DRY_TESTS
    else:
        cmd += ACCEL_TESTS + [f"--ignore={t}" for t in CPU_ONLY_TESTS]
    rc, secs = run(cmd, log, limit, env)
    counts, failed = _pytest_counts(log)
    return {"rc": rc, "seconds": secs, "counts": counts, "failed": failed}


#: runs the official suite in a process that imported laxarray first: the dtypes the
#: device lacks come from laxarray's backend record, not from a copy of it here
_OFFICIAL = """
import os, sys
import laxarray as xp
have = xp.__array_namespace_info__().dtypes()
missing = [d for d in ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                       "uint64", "float32", "float64", "complex64", "complex128") if d not in have]
os.environ["ARRAY_API_TESTS_SKIP_DTYPES"] = ",".join(missing)
os.environ["ARRAY_API_TESTS_MODULE"] = "laxarray"
print("skipped dtypes (the device has none):", missing or "none", flush=True)
import pytest
sys.exit(pytest.main(sys.argv[1:]))
"""


def run_official(out, platform, dry, limit, env, aat):
    log = os.path.join(out, "official.log")
    if not aat or not os.path.isdir(os.path.join(aat, "array_api_tests")):
        return {"rc": "absent", "note": f"no array-api-tests checkout at {aat!r}"}
    xfails = os.path.join(ROOT, "tools", "device", f"accelerator_xfails_{platform}.txt")
    cmd = [sys.executable, "-c", _OFFICIAL, "-p", "no:cacheprovider", "-q", "-rfE",
           "-p", "no:xdist", "--max-examples", "2" if dry else "5", "--tb=line",
           "--disable-deadline",     # a first call compiles: hypothesis' 200 ms is not ours
           f"--junitxml={log[:-4]}.xml", *MAXFAIL]
    cmd.append(f"--rootdir={aat}")   # (a path among the arguments would move pytest's root)
    if os.path.exists(xfails):
        cmd.append(f"--xfails-file={xfails}")
    cmd += DRY_OFFICIAL if dry else official_files(aat, OFFICIAL_PART)
    rc, secs = run(cmd, log, limit, env, cwd=aat)
    counts, failed = _pytest_counts(log)
    return {"rc": rc, "seconds": secs, "counts": counts, "failed": failed,
            "skipped dtypes": next((ln for ln in tail(log, 10 ** 7).splitlines()
                                    if ln.startswith("skipped dtypes")), "")}


def official_files(aat, part):
    """The official suite's test files in share ``part`` (``(K, N)``: the K-th of N, by the
    weights of :data:`OFFICIAL_SECONDS`, heaviest first onto the lightest share; a file
    not listed weighs as much as the heaviest); ``None``: the whole suite."""
    if part is None:
        return ["array_api_tests"]
    k, n = part
    files = sorted(f"array_api_tests/{f}" for f in os.listdir(os.path.join(aat, "array_api_tests"))
                   if f.startswith("test_") and f.endswith(".py"))
    heaviest = max(OFFICIAL_SECONDS.values(), default=1.0)
    weight = {f: OFFICIAL_SECONDS.get(f, heaviest) for f in files}
    shares = [[0.0, []] for _ in range(n)]
    for f in sorted(files, key=lambda f: (-weight[f], f)):
        lightest = min(shares, key=lambda sh: sh[0])
        lightest[0] += weight[f]
        lightest[1].append(f)
    return sorted(shares[k - 1][1])


def run_store(out, platform, dry, limit, env):
    """``tools/device/store_check.py``: the store filled by one process, loaded by the next."""
    import store_check
    summary = store_check.run(os.path.join(out, "store"), dry)
    summary["table"] = store_check.table(summary)
    return summary


def conformance_share(k, n):
    """The spec names of the conformance runner's default selection in share ``k`` of ``n``
    (contiguous runs of the sorted names), listed by a process kept off the chip."""
    env = dict(os.environ, JAX_PLATFORMS="cpu")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (ROOT, env.get("PYTHONPATH")) if p)
    import subprocess
    names = subprocess.run(
        [sys.executable, "-c", "from laxarray.conformance import runner; "
         "print('\\n'.join(s.name for s in runner.select_specs()[0]))"],
        env=env, capture_output=True, text=True, check=True).stdout.split()
    size = -(-len(names) // n)
    return names[(k - 1) * size:k * size]


def run_conformance(out, platform, dry, limit, env):
    report, log = os.path.join(out, "conformance.json"), os.path.join(out, "conformance.log")
    cmd = [sys.executable, "-m", "laxarray.conformance", "--json", report,
           "--seed", "1", "--jobs", "1"]
    if dry:
        cmd += ["--functions", "add,sum,argsort,linspace,unique_counts"]
    elif CONFORMANCE_PART is not None:
        cmd += ["--functions", ",".join(conformance_share(*CONFORMANCE_PART))]
    rc, secs = run(cmd, log, limit, env)
    summary = {"rc": rc, "seconds": secs, "command": " ".join(cmd[1:])}
    last = tail(log, 2000).strip().splitlines()
    summary["result"] = last[-1] if last else ""
    # the progress lines name each spec's verdict as it ends: a run cut off by its limit
    # still says what had failed
    text = tail(log, 10 ** 7)
    summary["failed"] = sorted(set(
        re.findall(r"^--- laxarray: (\S+) (?:FAIL|ERROR)", text, re.M)
        + re.findall(r"^laxarray \d+/\d+ (\S+) [\d.]+ s (?:fail|error)$", text, re.M)))
    return summary


def run_sklearn(out, platform, dry, limit, env):
    log = os.path.join(out, "sklearn.log")
    import importlib.util
    if importlib.util.find_spec("sklearn") is None:
        return {"rc": "absent", "note": "scikit-learn is not installed"}
    env = dict(env, PYTHONPATH=os.pathsep.join((os.path.join(ROOT, "tests", "peers"),
                                                env["PYTHONPATH"])))
    if SKLEARN_PART is not None:     # read by tests/peers/sklearn_plugin.py
        env["SKLEARN_SHARD"] = "%d/%d" % SKLEARN_PART
    cmd = [sys.executable, "-m", "pytest", "-p", "sklearn_plugin", "-p", "no:cacheprovider",
           "-p", "no:xdist", "-o", "addopts=", "-q", "-rfE", f"--junitxml={log[:-4]}.xml",
           *MAXFAIL, "--pyargs",
           "sklearn.utils.tests.test_array_api" if dry else "sklearn", "-k", SKLEARN_K]
    rc, secs = run(cmd, log, limit, env)
    counts, failed = _pytest_counts(log)
    return {"rc": rc, "seconds": secs, "counts": counts, "failed": failed}


def run_bench(out, platform, dry, limit, env):
    if platform == "tpu":
        import tpu_bench
        return tpu_bench.run_bench(out, dry, limit, env, groups=BENCH_GROUPS)
    import gpu_check
    return gpu_check.run_bench(out, dry, limit, env)


def report(summary):
    lines = [f"# laxarray on {summary['platform']}" + (" (--dry: the CPU)" if summary["dry"]
                                                        else ""), ""]
    for part in ("store", "tests", "official", "conformance", "sklearn", "bench"):
        r = summary.get(part)
        if not r:
            continue
        head = {k: v for k, v in r.items()
                if k not in ("failed", "log_tail", "rows", "table", "fill", "load", "blob")}
        lines.append(f"{part}: {head}")
        if r.get("table"):
            lines.append(r["table"])
        lines += [f"  FAILED {f}" for f in r.get("failed", [])[:300]]
        lines.append("")
    return "\n".join(lines)


def _share(ap, option, text):
    """``(K, N)`` of ``text`` ``"K/N"`` (``None`` stays ``None``)."""
    if not text:
        return None
    try:
        k, n = (int(v) for v in text.split("/"))
    except ValueError:
        k = n = 0
    if not 1 <= k <= n:
        ap.error(f"{option}: expected K/N with 1 <= K <= N; got {text}")
    return k, n


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--platform", choices=("tpu", "gpu"), required=True)
    ap.add_argument("--out", required=True, help="directory for the results (made if missing)")
    ap.add_argument("--dry", action="store_true", help="on the CPU, CI-sized pieces")
    ap.add_argument("--only", default="tests,suites",
                    help="comma-separated parts: tests, suites (official, conformance, "
                         "sklearn), bench, or single suites")
    ap.add_argument("--aat", default=os.path.join(ROOT, ".tpu", "array-api-tests"),
                    help="an array-api-tests checkout (with its array-api submodule)")
    ap.add_argument("--budget", default="1.0",
                    help="a factor for every part's time limit, or PART=SECONDS,... ")
    ap.add_argument("--maxfail", type=int, default=25,
                    help="stop a pytest part after this many failures (its report, with "
                         "the failures' reasons, is written only when it ends; 0: never)")
    ap.add_argument("--official-part", default=None, metavar="K/N",
                    help="run the K-th of N shares of the official suite's files")
    ap.add_argument("--conformance-part", default=None, metavar="K/N",
                    help="run the K-th of N shares of the conformance runner's specs")
    ap.add_argument("--sklearn-part", default=None, metavar="K/N",
                    help="run the K-th of N contiguous shares of scikit-learn's selection")
    ap.add_argument("--bench-groups", default=None, metavar="G,G",
                    help="the bench's groups of rows (tpu_bench.GROUPS; default all: more "
                         "than one device call holds, so a chip run splits them)")
    args = ap.parse_args(argv)
    global MAXFAIL, OFFICIAL_PART, CONFORMANCE_PART, SKLEARN_PART, BENCH_GROUPS
    BENCH_GROUPS = args.bench_groups.split(",") if args.bench_groups else None
    OFFICIAL_PART = _share(ap, "--official-part", args.official_part)
    CONFORMANCE_PART = _share(ap, "--conformance-part", args.conformance_part)
    SKLEARN_PART = _share(ap, "--sklearn-part", args.sklearn_part)
    MAXFAIL = [f"--maxfail={args.maxfail}"] if args.maxfail else []
    os.makedirs(args.out, exist_ok=True)
    env = accelerator_env(args.platform, args.dry)
    limits = dict(DRY_BUDGET if args.dry else BUDGET)
    if "=" in args.budget:
        limits.update({k: float(v) for k, v in (p.split("=") for p in args.budget.split(","))})
    else:
        limits = {k: v * float(args.budget) for k, v in limits.items()}
    names = []
    for name in args.only.split(","):
        names += ["official", "conformance", "sklearn"] if name == "suites" else [name]
    summary = {"platform": args.platform, "dry": args.dry}
    for name in names:
        if name == "official":
            summary[name] = run_official(args.out, args.platform, args.dry, limits[name], env,
                                         args.aat)
        elif name == "bench":
            summary[name] = run_bench(args.out, args.platform, args.dry, limits[name], env)
        else:
            part = {"tests": run_tests, "conformance": run_conformance,
                    "sklearn": run_sklearn, "store": run_store}[name]
            summary[name] = part(args.out, args.platform, args.dry, limits[name], env)
        with open(os.path.join(args.out, "summary.json"), "w") as f:
            json.dump(summary, f, indent=1, default=str)
        print(f"{name}: done in {summary[name].get('seconds')} s", flush=True)
    text = report(summary)
    with open(os.path.join(args.out, "summary.md"), "w") as f:
        f.write(text + "\n")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
