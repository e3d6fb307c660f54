"""``python -m laxarray.precompile``: fill the executable store with a workload, or with the
executables a record file lists (``--from``; see :mod:`laxarray.precompile`); ``--worker``
is the entry point of the worker processes."""

import argparse
import os
import sys

if __name__ == "__main__" and "--worker" in sys.argv:
    os.environ["SCIPY_ARRAY_API"] = "1"   # before anything imports SciPy

from laxarray.precompile import recorded, runner, workloads  # noqa: E402


def _parser():
    parser = argparse.ArgumentParser(
        prog="python -m laxarray.precompile",
        description="Fill laxarray's executable store (LAXARRAY_COMPILATION_CACHE) with "
                    "the executables of a workload, or those a program recorded, so that "
                    "later processes load them instead of compiling.")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--workload", default=None, choices=workloads.names(),
                        help="the workload to run (default: sklearn; --list describes them)")
    source.add_argument("--from", dest="from_file", default=None, metavar="FILE",
                        help="load or build exactly the executables listed in FILE, "
                             "which 'LAXARRAY_RECORD=FILE python my_script.py' wrote")
    parser.add_argument("--jobs", type=int, default=None, metavar="N",
                        help="worker processes (default: os.cpu_count())")
    parser.add_argument("--portable", action="store_true",
                        help="fill the portable tier (LAXARRAY_PORTABLE_STORE, default "
                             "~/.cache/laxarray/portable): programs compiled for the CPU's "
                             "instruction-set class (AVX2 on x86-64) that every machine of "
                             "that class loads (on a TPU: keyed by the chip, for every host "
                             "of it); copy the directory to ship it")
    parser.add_argument("--list", action="store_true", help="list the workloads and exit")
    parser.add_argument("--match", default=None, metavar="GLOB",
                        help="only the tasks whose label matches GLOB "
                             "(e.g. 'PCA* float64 300x20')")
    parser.add_argument("--limit", type=int, default=None, metavar="N",
                        help="only the first N tasks (after --match)")
    parser.add_argument("--worker", nargs=3, metavar=("SOURCE", "INDEX", "COUNT"),
                        help=argparse.SUPPRESS)  # SOURCE: a workload, or from:FILE
    return parser


def main(argv=None) -> int:
    """Run the command line ``argv`` (default ``sys.argv[1:]``); the exit status."""
    parser = _parser()
    args = parser.parse_args(argv)
    if args.worker:
        source, index, count = args.worker
        if not source.startswith(recorded.PREFIX):
            workloads.check_name("worker", source)
        return runner.work(source, int(index), int(count), args.limit, args.match)
    if args.list:
        for name in workloads.names():
            print(f"{name:10s} {len(workloads.tasks(name)):5d} tasks  "
                  f"{workloads.describe(name)}")
        return 0
    if args.jobs is not None and args.jobs < 1:
        parser.error(f"argument --jobs: expected an int >= 1; got {args.jobs}")
    if args.limit is not None and args.limit < 1:
        parser.error(f"argument --limit: expected an int >= 1; got {args.limit}")
    try:
        runner.precompile(args.workload, args.jobs, limit=args.limit, match=args.match,
                          from_file=args.from_file, portable=args.portable)
    except (RuntimeError, ValueError) as exc:
        print(f"\n{exc}" if str(exc).startswith("precompile: worker") else exc,
              file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\nlaxarray.precompile: interrupted", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
