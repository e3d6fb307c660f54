"""Build a wheel of executables: a portable tier of laxarray's executable store packed as the
distribution ``laxarray_portable``, which laxarray finds once it is installed beside it.

``python -m laxarray.precompile --portable`` compiles a workload (``--workload sklearn`` by
default), or the programs a record file lists (``--from FILE``), for this CPU's
instruction-set class (x86-64-v3: AVX2) into a temporary tier; this script then writes
``dist/laxarray_portable-<version>-py3-none-<platform>.whl`` itself with :mod:`zipfile`
(no pip, no network) and prints what it holds::

    .venv/bin/python tools/portable_wheel.py --jobs 4                    # make portable-wheel
    .venv/bin/python tools/portable_wheel.py --from calls.jsonl --jobs 4
    pip install dist/laxarray_portable-*.whl

The wheel holds ``laxarray_portable/__init__.py`` (a docstring and what it was built for),
``laxarray_portable/tier/`` (the tier: the layout ``ExecutableStore`` reads, its
``traces/`` included) and ``laxarray_portable-<version>.dist-info/`` (``METADATA``,
``WHEEL``, ``RECORD`` with sha256 digests and sizes, as the wheel specification says).
Its version is laxarray's; it requires that very laxarray, jax and jaxlib (``==``), so pip
will not install it beside another jax.  Its tag names this platform (it holds machine code)
and ``Root-Is-Purelib: true`` puts it in site-packages beside laxarray.  The tier serves
only the exact laxarray source it was built from: its keys carry laxarray's source
fingerprint, so an edited or another laxarray finds nothing in it (and compiles as without
it).  The sklearn workload: 4795 executables, a 28 MB wheel (62 MB installed), built in
4 min 44 s with one worker (``--jobs 1``) on a 2-core x86-64 machine that others shared;
``--workload standard --match 'add float*'`` selects two tasks (24 executables, seconds).
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import os
import pathlib
import subprocess
import sys
import sysconfig
import tempfile
import time
import zipfile
from importlib import metadata

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))   # the laxarray of this checkout: the one the tier is built for

import laxarray  # noqa: E402
from laxarray._core.runtime import fingerprint  # noqa: E402
from laxarray._core.runtime.files import TEMP_PREFIX  # noqa: E402
from laxarray._core.runtime.tiers import WHEEL_PACKAGE, WHEEL_TIER  # noqa: E402

#: The time stamp of every file in the wheel: the same tier makes the same wheel.
STAMP = (2020, 1, 1, 0, 0, 0)

_INIT = '''"""laxarray's compiled executables for {cpu} CPUs: a portable tier, built by laxarray's
``tools/portable_wheel.py`` (``make portable-wheel``).

laxarray {version} finds the folder ``{tier}/`` beside this file on the import path, without
importing this package, and loads from it the executables its kernels would otherwise compile
on their first call (after the machine's own store and the tiers of
``LAXARRAY_PORTABLE_STORE`` and of laxarray's ``portable/`` folder).  Only the exact laxarray
source it was built from finds them, with jax {jax} and jaxlib {jaxlib}: their keys carry
its source fingerprint, :data:`SOURCE_FINGERPRINT`.  With any other source -- an edit,
another release, a checkout of another commit -- nothing here is found, and each call
compiles as without it.
It is trusted as laxarray's own files are: owned by you or by the owner of this folder, and
neither group nor others may write ``{tier}/`` (else laxarray refuses it with a warning).
"""

LAXARRAY_VERSION = {version!r}
SOURCE_FINGERPRINT = {source!r}
CPU_CLASS = {cpu!r}
JAX_VERSION = {jax!r}
JAXLIB_VERSION = {jaxlib!r}
'''


def _parser():
    parser = argparse.ArgumentParser(
        prog="tools/portable_wheel.py",
        description="Build dist/laxarray_portable-<version>-py3-none-<platform>.whl: the "
                    "executables of a workload or a record file, compiled for this CPU's "
                    "class (python -m laxarray.precompile --portable), as a wheel that "
                    "laxarray finds once installed.")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--workload", default=None,
                        help="the workload to compile (default: sklearn)")
    source.add_argument("--from", dest="from_file", default=None, metavar="FILE",
                        help="the programs a record file lists (LAXARRAY_RECORD=FILE)")
    parser.add_argument("--match", default=None, metavar="GLOB",
                        help="only the tasks whose label matches GLOB")
    parser.add_argument("--limit", type=int, default=None, metavar="N",
                        help="only the first N tasks")
    parser.add_argument("--jobs", type=int, default=None, metavar="N",
                        help="worker processes (default: os.cpu_count())")
    parser.add_argument("--dist", default=str(ROOT / "dist"), metavar="DIR",
                        help="where the wheel goes (default: dist/ of the checkout)")
    return parser


def _precompile_args(args) -> list:
    out = ["--from", os.path.abspath(args.from_file)] if args.from_file else [
        "--workload", args.workload or "sklearn"]
    for flag, value in (("--match", args.match), ("--limit", args.limit),
                        ("--jobs", args.jobs)):
        if value is not None:
            out += [flag, str(value)]
    return out


def platform_tag() -> str:
    """This machine's platform tag (``linux_x86_64``): the wheel holds its machine code."""
    return sysconfig.get_platform().replace("-", "_").replace(".", "_")


def _record_row(name, data) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def _tier_files(tier) -> list:
    """``(path in the wheel, path here)`` of the tier's files, sorted; temporary files of a
    writer that died are left out."""
    found = []
    for folder, dirs, names in os.walk(tier):
        dirs.sort()
        for name in sorted(names):
            if not name.startswith(TEMP_PREFIX):
                here = os.path.join(folder, name)
                rel = os.path.relpath(here, tier).replace(os.sep, "/")
                found.append((f"{WHEEL_PACKAGE}/{WHEEL_TIER}/{rel}", here))
    return found


def write_wheel(tier, dist) -> tuple[str, dict]:
    """Write the wheel of the tier at ``tier`` into the folder ``dist``; its path and a
    summary (``executables``, ``traces``, ``files``, ``bytes`` of the tier and the wheel)."""
    version = laxarray.__version__
    jax, jaxlib = metadata.version("jax"), metadata.version("jaxlib")
    info = f"{WHEEL_PACKAGE}-{version}.dist-info"
    tag = f"py3-none-{platform_tag()}"
    init = _INIT.format(cpu=fingerprint.portable_class() or "this machine's", version=version,
                        tier=WHEEL_TIER, source=fingerprint.source_fingerprint(), jax=jax,
                        jaxlib=jaxlib)
    meta = (f"Metadata-Version: 2.1\nName: {WHEEL_PACKAGE}\nVersion: {version}\n"
            f"Summary: laxarray's compiled executables (a portable tier) for laxarray "
            f"{version}, jax {jax}\nRequires-Python: >=3.11\n"
            f"Requires-Dist: laxarray=={version}\nRequires-Dist: jax=={jax}\n"
            f"Requires-Dist: jaxlib=={jaxlib}\n")
    wheel = (f"Wheel-Version: 1.0\nGenerator: laxarray tools/portable_wheel.py\n"
             f"Root-Is-Purelib: true\nTag: {tag}\n")
    files = _tier_files(tier)
    os.makedirs(dist, exist_ok=True)
    path = os.path.join(dist, f"{WHEEL_PACKAGE}-{version.replace('-', '_')}-{tag}.whl")
    partial = path + ".partial"
    record, size = [], 0
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as whl:
        def add(name, data):
            entry = zipfile.ZipInfo(name, STAMP)
            entry.external_attr = 0o644 << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            whl.writestr(entry, data)
            record.append(_record_row(name, data))

        add(f"{WHEEL_PACKAGE}/__init__.py", init.encode())
        for name, here in files:
            with open(here, "rb") as f:
                data = f.read()
            size += len(data)
            add(name, data)
        add(f"{info}/METADATA", meta.encode())
        add(f"{info}/WHEEL", wheel.encode())
        entry = zipfile.ZipInfo(f"{info}/RECORD", STAMP)
        entry.external_attr = 0o644 << 16
        whl.writestr(entry, "\n".join(record + [f"{info}/RECORD,,"]) + "\n",
                     zipfile.ZIP_DEFLATED)
    os.replace(partial, path)
    traces = sum(name.startswith(f"{WHEEL_PACKAGE}/{WHEEL_TIER}/traces/") for name, _ in files)
    return path, {"executables": len(files) - traces, "traces": traces, "files": len(files),
                  "tier_bytes": size, "wheel_bytes": os.path.getsize(path)}


def main(argv=None) -> int:
    """Build the wheel as ``argv`` (default ``sys.argv[1:]``) says; the exit status."""
    args = _parser().parse_args(argv)
    if "+unknown" in laxarray.__version__:
        print("portable_wheel: laxarray is not installed (pip install -e .): the wheel "
              "requires laxarray's version, which its metadata says", file=sys.stderr)
        return 1
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="laxarray-portable-wheel-") as build:
        tier = os.path.join(build, WHEEL_PACKAGE, WHEEL_TIER)
        env = dict(os.environ, LAXARRAY_PORTABLE_STORE=tier)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
        proc = subprocess.run([sys.executable, "-m", "laxarray.precompile", "--portable",
                               *_precompile_args(args)], env=env)
        if proc.returncode:
            print(f"portable_wheel: precompile failed (exit status {proc.returncode}); no "
                  f"wheel written", file=sys.stderr)
            return proc.returncode
        path, summary = write_wheel(tier, args.dist)
    if not summary["executables"]:
        os.remove(path)
        print("portable_wheel: the tier holds no executable; no wheel written",
              file=sys.stderr)
        return 1
    print(f"{os.path.relpath(path)}: {summary['executables']} executables, "
          f"{summary['traces']} traces, {summary['files'] + 4} entries; "
          f"{summary['wheel_bytes'] / 2**20:.1f} MB ({summary['tier_bytes'] / 2**20:.1f} MB "
          f"unpacked); built in {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
