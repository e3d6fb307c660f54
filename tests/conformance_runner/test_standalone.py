"""The runner for other libraries' maintainers, without jax (issue 40, item 4).

The conformance package imports nothing of laxarray; ``dist/conformance/pyproject.toml``
builds it on its own as ``array-api-conformance`` (top-level package
``array_api_conformance``, this repository's ``laxarray/conformance``), depending on NumPy,
SciPy and hypothesis only.  Here it runs in a process where every import of jax, jaxlib and
laxarray raises ImportError: from the source tree under its standalone name, and installed
from the wheel that pip builds from ``dist/conformance``.
"""

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import zipfile

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PACKAGE = os.path.join(ROOT, "laxarray", "conformance")
DIST = os.path.join(ROOT, "dist", "conformance")

#: a sitecustomize that makes every import of jax, jaxlib and laxarray fail
BLOCKER = '''import sys


class _NoJax:
    """Every import of jax, jaxlib or laxarray raises ImportError in this process."""

    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("jax", "jaxlib", "laxarray"):
            raise ImportError(f"{name} is blocked in this process")
        return None


sys.meta_path.insert(0, _NoJax())
'''

#: what the runner must say on each namespace for the selection below (seed 1)
SELECTION = "add,sum,argmax,linalg.det,tril,matmul,unique_values"
EXPECTED = {"array_api_strict": dict.fromkeys(SELECTION.split(","), "pass"),
            "numpy": dict.fromkeys(SELECTION.split(","), "pass")}

pytest.importorskip("array_api_strict")


def _run(pythonpath, tmp_path, *args):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(pythonpath))
    env.pop("XLA_FLAGS", None)
    return subprocess.run([sys.executable, *args], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=900)


def _blocker(tmp_path):
    folder = tmp_path / "blocker"
    folder.mkdir(exist_ok=True)
    (folder / "sitecustomize.py").write_text(BLOCKER)
    return str(folder)


def test_the_blocker_blocks(tmp_path):
    out = _run([_blocker(tmp_path)], tmp_path, "-c", "import jax")
    assert out.returncode != 0 and "jax is blocked" in out.stderr


def _check_report(path):
    doc = json.loads(path.read_text())
    got = {run["namespace"]: {r["name"]: r["status"] for r in run["results"]}
           for run in doc["runs"]}
    assert got == EXPECTED
    for run in doc["runs"]:  # the coverage record travels with the standalone runner too
        assert all(r["coverage"].get("boundary examples", 0) > 0 for r in run["results"])


def test_runs_from_the_tree_without_jax(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    os.symlink(PACKAGE, src / "array_api_conformance")
    report = tmp_path / "r.json"
    out = _run([_blocker(tmp_path), str(src)], tmp_path, "-m", "array_api_conformance",
               "--compare", "array_api_strict,numpy", "--functions", SELECTION,
               "--seed", "1", "--no-progress", "--json", str(report))
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert "python -m array_api_conformance" not in out.stderr
    _check_report(report)
    # nothing of jax was imported (the blocker would have raised), and the replay lines
    # of a report import the package by the name it runs under
    check = _run([_blocker(tmp_path), str(src)], tmp_path, "-c",
                 "import array_api_conformance as c, sys; from array_api_conformance "
                 "import runner; print(runner.PACKAGE, sorted(m for m in sys.modules "
                 "if m.split('.')[0] in ('jax', 'jaxlib')))")
    assert check.returncode == 0, check.stderr[-3000:]
    assert check.stdout.split() == ["array_api_conformance", "[]"]


def _build_wheel(tmp_path):
    """The wheel pip builds from ``dist/conformance`` (in a copy of the two folders, so
    the build writes nothing into this tree)."""
    tree = tmp_path / "tree"
    shutil.copytree(DIST, tree / "dist" / "conformance")
    shutil.copytree(PACKAGE, tree / "laxarray" / "conformance",
                    ignore=shutil.ignore_patterns("__pycache__"))
    wheels = tmp_path / "wheels"
    args = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels),
            str(tree / "dist" / "conformance")]
    if importlib.util.find_spec("wheel") is not None:  # else pip fetches the backend
        args.insert(5, "--no-build-isolation")
    out = subprocess.run(args, capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    (wheel,) = wheels.glob("array_api_conformance-*.whl")
    return wheel


def test_installs_on_its_own_and_runs_without_jax(tmp_path):
    wheel = _build_wheel(tmp_path)
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        meta = z.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    assert "array_api_conformance/runner.py" in names
    assert "array_api_conformance/special_cases_table/__init__.py" in names
    assert not any(n.startswith("laxarray/") for n in names)
    requires = sorted(line.split(":", 1)[1].split(">=")[0].strip()
                      for line in meta.splitlines() if line.startswith("Requires-Dist:"))
    assert requires == ["hypothesis", "numpy", "scipy"]
    target = tmp_path / "site"
    out = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-index",
                          "-q", "--target", str(target), str(wheel)],
                         capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    report = tmp_path / "r.json"
    out = _run([_blocker(tmp_path), str(target)], tmp_path, "-m", "array_api_conformance",
               "--compare", "array_api_strict,numpy", "--functions", SELECTION,
               "--seed", "1", "--no-progress", "--json", str(report))
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    _check_report(report)
