"""A wheel built from this clone installs in a fresh virtual environment, imports, and runs
the README's first example, printing what the README says it prints.

``make test-install`` runs this file after ``make dist`` (which builds
``dist/laxarray-<version>-py3-none-any.whl``), with ``LAXARRAY_TEST_INSTALL=1``; ``make
test`` leaves the installing test out (it is skipped without the variable: pip takes about
a minute, most of it downloading jax). The environment is made with ``python -m venv``
outside the clone, without the system's site-packages; pip installs the wheel's
dependencies from the package index the machine's pip is configured with. The example runs
from a directory outside the clone with ``PYTHONPATH`` unset, so it can only import the
installed copy, and with the executable store in the test's temporary directory (a fresh
store, as on a fresh machine).

The two tests after it check the pieces it relies on, and run in ``make test``.
"""

import os
import pathlib
import re
import subprocess
import sys
import tomllib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
_NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")


def version():
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


def readme_example(text=None):
    """``(code, printed)``: the README's first example (the first ``python`` block after
    "## A first example") and the ``text`` block that follows it (what it prints)."""
    text = README.read_text() if text is None else text
    section = text[text.index("## A first example"):]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    printed = re.search(r"```text\n(.*?)```", section[code.end():], re.S)
    return code.group(1), printed.group(1)


def same_output(got, expected, rtol=1e-12):
    """Whether ``got`` prints what ``expected`` says: the same text, numbers equal within
    ``rtol`` (a last digit may differ between CPUs), whitespace runs compared as one."""
    def split(s):
        parts = _NUMBER.split(" ".join(s.split()))
        return parts, [float(n) for n in _NUMBER.findall(" ".join(s.split()))]
    text_a, nums_a = split(got)
    text_b, nums_b = split(expected)
    return text_a == text_b and len(nums_a) == len(nums_b) and all(
        abs(a - b) <= rtol * max(abs(a), abs(b)) for a, b in zip(nums_a, nums_b))


def _run(cmd, **kw):
    run = subprocess.run(cmd, capture_output=True, text=True, **kw)
    assert run.returncode == 0, f"{cmd}: exit {run.returncode}\n{run.stdout[-3000:]}\n" \
        f"{run.stderr[-3000:]}"
    return run


@pytest.mark.skipif(os.environ.get("LAXARRAY_TEST_INSTALL") != "1",
                    reason="installs a wheel in a new virtual environment (a minute, the "
                    "package index): make test-install")
def test_the_wheel_installs_and_runs_the_readme_example(tmp_path):
    wheels = sorted((ROOT / "dist").glob(f"laxarray-{version()}-*.whl"))
    assert wheels, f"no dist/laxarray-{version()}-*.whl: run make dist first"
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", str(venv)])
    py = venv / "bin" / "python"
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env["LAXARRAY_COMPILATION_CACHE"] = str(tmp_path / "cache")
    _run([str(py), "-m", "pip", "install", "--quiet", str(wheels[-1])], env=env,
         cwd=tmp_path, timeout=1200)
    work = tmp_path / "work"
    work.mkdir()
    probe = _run([str(py), "-c", "import laxarray, sys; print(laxarray.__version__); "
                  "print(laxarray.__file__); print(sys.prefix)"], env=env, cwd=work,
                 timeout=300).stdout.split("\n")
    assert probe[0] == version()
    assert pathlib.Path(probe[1]).is_relative_to(venv), probe[1]   # not the clone's copy
    assert not pathlib.Path(probe[1]).is_relative_to(ROOT)
    code, printed = readme_example()
    (work / "example.py").write_text(code)
    got = _run([str(py), "example.py"], env=env, cwd=work, timeout=600).stdout
    assert same_output(got, printed), f"the README says:\n{printed}\nit printed:\n{got}"


def test_the_readme_has_an_example_and_its_output():
    code, printed = readme_example()
    assert "import laxarray" in code and "print(" in code
    assert printed.strip()
    compile(code, "README.md", "exec")   # (a syntax error would fail only at install time)


def test_same_output_compares_text_exactly_and_numbers_closely():
    assert same_output("[[-1.  2.]\n [13. 14.]]\n1.0328456281104241\n",
                       "[[-1.  2.]\n [13. 14.]]\n1.0328456281104244\n")
    assert not same_output("1.03", "1.04")
    assert not same_output("[1 2 3] 7.5", "[1 2 4] 7.5")
    assert not same_output("Array([1.])", "[1.]")
    assert not same_output("1 2", "1 2 3")
    text = "## A first example\n\n```python\nprint(1)\n```\n\nprints\n\n```text\n1\n```\n"
    assert readme_example(text) == ("print(1)\n", "1\n")
