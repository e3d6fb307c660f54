"""``python -m laxarray.conformance``: check an array namespace against the standard.

Examples::

    python -m laxarray.conformance --namespace laxarray
    python -m laxarray.conformance --namespace array_api_compat.numpy --functions 'linalg.*'
    python -m laxarray.conformance --compare laxarray,array_api_strict --html report.html
    python -m laxarray.conformance --namespace array_api_strict --device no_float64

A library that is not itself an Array API namespace is checked through its
``array_api_compat`` wrapper (``--namespace array_api_compat.numpy``).  ``--xfails FILE`` and
``--skips FILE`` read the official array-api-tests suite's expectation files
(:mod:`laxarray.conformance.expectations`).  The exit status is 1 when anything failed
(expected failures excepted), 2 for bad arguments (a file that cannot be read, too).
"""

from __future__ import annotations

import argparse
import random
import sys

from . import capabilities, expectations, parallel, report, runner
from .spec import SPECS


#: the smallest selection run in worker processes by default: starting a worker (importing
#: jax and the namespace) costs seconds, more than a few specs take
PARALLEL_FROM = 40


def build_parser():
    """The command line's argument parser."""
    p = argparse.ArgumentParser(prog=f"python -m {__package__ or 'laxarray.conformance'}",
                                description="Property-based Array API conformance of a "
                                            "namespace against NumPy/SciPy oracles.")
    p.add_argument("--namespace", default="laxarray",
                   help="importable module to check (default: laxarray)")
    p.add_argument("--compare", default=None,
                   help="comma-separated modules to check side by side (replaces --namespace)")
    p.add_argument("--functions", default=None,
                   help="comma-separated names or fnmatch globs to run (default: all)")
    p.add_argument("--skip", default=None, help="comma-separated names or globs to leave out")
    p.add_argument("--xfails", default=None, metavar="FILE",
                   help="expected failures: an array-api-tests xfails file (node ids, test "
                        "names or spec globs, one a line); reported xfail/xpass")
    p.add_argument("--skips", default=None, metavar="FILE",
                   help="specs to skip, in the same format; reported 'skipped by FILE:LINE'")
    p.add_argument("--max-examples", type=int, default=25,
                   help="hypothesis examples per function (default: 25)")
    p.add_argument("--seed", type=int, default=None,
                   help="hypothesis seed (default: random, printed)")
    p.add_argument("--json", default=None, metavar="PATH", help="write a JSON report")
    p.add_argument("--html", default=None, metavar="PATH", help="write an HTML report")
    p.add_argument("--version", default="2025.12", choices=runner.VERSIONS,
                   help="revision of the standard (default: 2025.12)")
    p.add_argument("--extensions", default=",".join(runner.DEFAULT_EXTENSIONS),
                   help="comma-separated extensions to check (default: linalg,fft; also: numpy; "
                        "'' for none)")
    p.add_argument("--device", default=None, metavar="NAME",
                   help="create the inputs on this device of the namespace (its name, e.g. "
                        "array_api_strict's no_float64, or its index in devices()); dtypes "
                        "the device lacks are not drawn")
    p.add_argument("--no-shrink", action="store_true",
                   help="report the first failing example, not a minimal one (faster)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    p.add_argument("--jobs", type=int, default=None, metavar="N",
                   help="worker processes running specs side by side (default: the CPUs "
                        f"available, at most 8: {parallel.default_jobs()} here, for "
                        f"{PARALLEL_FROM} specs or more; 1 runs in this process); the "
                        "results are the same")
    return p


def main(argv=None, stdout=None):
    """Run the command line ``argv`` (default: ``sys.argv[1:]``); return the exit status."""
    out = sys.stdout if stdout is None else stdout
    args = build_parser().parse_args(argv)
    extensions = runner.split_names(args.extensions)
    unknown = [e for e in extensions if e not in runner.EXTENSIONS]
    if unknown:
        print(f"unknown extension(s) {unknown}; expected some of {runner.EXTENSIONS}",
              file=sys.stderr)
        return 2
    if args.jobs is not None and args.jobs < 1:
        print(f"--jobs: expected a count >= 1; got {args.jobs}", file=sys.stderr)
        return 2
    names = runner.split_names(args.compare) if args.compare else [args.namespace]
    seed = args.seed if args.seed is not None else random.randrange(2**32)
    files = {}
    for option, path in (("--xfails", args.xfails), ("--skips", args.skips)):
        if path is None:
            continue
        try:
            files[option] = expectations.load(path, SPECS)
        except OSError as exc:
            print(f"cannot read {option} file {path!r}: {exc.strerror or exc}", file=sys.stderr)
            return 2
    xfails, unmapped = files.get("--xfails", ({}, []))
    skip_file, skip_unmapped = files.get("--skips", ({}, []))
    unmapped = unmapped + skip_unmapped
    specs, skipped = runner.select_specs(runner.split_names(args.functions) or None,
                                         runner.split_names(args.skip), args.version, extensions)
    if not specs and not skipped:
        print("no spec matches --functions/--skip", file=sys.stderr)
        return 2
    for spec in [s for s in specs if s.name in skip_file]:
        specs.remove(spec)
        skipped[spec.name] = f"skipped by {skip_file[spec.name]}"
    jobs = args.jobs or (parallel.default_jobs() if len(specs) >= PARALLEL_FROM else 1)
    runs = []
    for name in names:
        try:
            xp = runner.load_namespace(name)
        except ImportError as exc:
            print(f"cannot import namespace {name!r}: {exc}", file=sys.stderr)
            return 2
        if args.device is not None:
            try:  # checked here; the run (and each worker) finds it by name
                capabilities.find_device(xp, args.device)
            except ValueError as exc:
                print(f"--device for {name}: {exc}", file=sys.stderr)
                return 2
        runs.append(runner.run_namespace(xp, specs, skipped, namespace_label=name,
                                         version=args.version, max_examples=args.max_examples,
                                         seed=seed, progress=not args.no_progress,
                                         shrink=not args.no_shrink, xfails=xfails,
                                         unmapped=unmapped, device=args.device,
                                         jobs=jobs))
    for run in runs:
        failures = report.failures_text(run)
        if failures:
            print(failures, file=out)
        for line in run.notes:
            print(f"note: {run.namespace}: {line}", file=out)
        print(report.text_table(run), file=out)
    if len(runs) > 1:
        print(report.compare_table(runs), file=out)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            f.write(report.to_json(runs))
    if args.html:
        with open(args.html, "w", encoding="utf-8") as f:
            f.write(report.to_html(runs))
    print(report.closing_line(runs), file=out)
    return 1 if any(run.totals()[1] for run in runs) else 0


def entry():
    """The ``array-api-conformance`` console script: :func:`main`, exiting with its status."""
    sys.exit(main())


if __name__ == "__main__":
    entry()
