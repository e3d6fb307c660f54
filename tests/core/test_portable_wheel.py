"""A wheel of executables (``tools/portable_wheel.py``, issue 73): a portable tier packed as
the distribution ``laxarray_portable``, which laxarray finds once it is installed.

The tool builds a wheel of a handful of programs (``--workload standard --match 'add
float*'``) under one CPU description ("machine A"); the wheel is checked against the wheel
specification (RECORD's digests and sizes, METADATA's pins), installed with pip into a
folder of its own, and a fresh process under another CPU description ("machine B") with an
empty store and no tier of the user's (``LAXARRAY_PORTABLE_STORE=0``) loads every program
from it, compiles none, and gets NumPy's results; a wheel tier that others may write is
refused with a warning (the process compiles).  Also: the lookup finds the package without
importing it, in the order of the tiers, and only when a tier is needed.
"""

import base64
import csv
import email.parser
import hashlib
import io
import json
import os
import pathlib
import platform
import shutil
import subprocess
import sys
import sysconfig
import textwrap
import warnings
import zipfile
from importlib import metadata

import pytest

import laxarray
from laxarray._core.runtime import exec_store as S
from laxarray._core.runtime import fingerprint as F
from laxarray._core.runtime import tiers

ROOT = pathlib.Path(__file__).resolve().parents[2]
MARK = "@@result@@ "
_V3 = "fpu sse4_1 sse4_2 popcnt avx avx2 fma f16c bmi1 bmi2 abm movbe"
CPU_A = f"model name=Test CPU A (AVX2 only);flags={_V3}"
CPU_B = f"model name=Test CPU B (AVX-512);flags={_V3} avx512f avx512bw avx512_fp16"
SELECT = ["--workload", "standard", "--match", "add float*", "--jobs", "1"]

_X86_V3 = platform.machine().lower() in ("x86_64", "amd64") and F.portable_class() is not None
needs_v3 = pytest.mark.skipif(not _X86_V3, reason="the tier's programs are AVX2 code: an "
                                                  "x86-64-v3 CPU builds and runs them")

# the calls the selection compiles ("add float64", "add float32"), on the workload's inputs,
# with NumPy's results beside them
_CHILD = """
    import json
    import numpy as np
    from laxarray.precompile import standard
    from laxarray._core.runtime import exec_store, kernel

    same = []
    for dtype in ("float64", "float32"):
        for shape in standard.SHAPES:
            got = np.asarray(standard.xp.add(standard._data(dtype, shape),
                                             standard._data(dtype, shape, 1)))
            want = np.add(standard._host(dtype, shape), standard._host(dtype, shape, 1))
            same.append(got.dtype == want.dtype and np.array_equal(got, want))
    print("@@result@@ " + json.dumps({
        "calls": len(same), "equal": sum(same),
        "built": kernel.compile_count() - kernel.load_count(),
        "loaded": kernel.load_count(), "portable": exec_store.portable_load_count()}))
"""


def _env(store, cpu, **extra):
    env = dict(os.environ, LAXARRAY_COMPILATION_CACHE=str(store), LAXARRAY_STORE_HINT="0",
               LAXARRAY_PREFETCH="0", JAX_ENABLE_COMPILATION_CACHE="false",
               LAXARRAY_CPU_DESCRIPTION=cpu)
    for name in ("LAXARRAY_PORTABLE_BUILD", "LAXARRAY_PORTABLE_STORE", "LAXARRAY_RECORD",
                 "XLA_FLAGS"):
        env.pop(name, None)
    env.update(extra)
    return env


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The wheel of the selection, built on machine A, and the folder pip installed it in."""
    base = tmp_path_factory.mktemp("wheel")
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "portable_wheel.py"), *SELECT,
                           "--dist", str(base / "dist")],
                          env=_env(base / "machine_a", CPU_A), capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    wheels = list((base / "dist").glob("*.whl"))
    assert len(wheels) == 1
    site = base / "site"
    # pip makes folders as the umask says: the usual 022 (a umask of 002 makes the tier
    # writable by the group, which laxarray refuses)
    pip = ("import os, runpy, sys; os.umask(0o022); sys.argv[0] = 'pip'; "
           "runpy.run_module('pip', run_name='__main__')")
    install = subprocess.run([sys.executable, "-c", pip, "install", "--no-deps", "--no-index",
                              "--disable-pip-version-check", "--target", str(site),
                              str(wheels[0])], capture_output=True, text=True, timeout=300)
    assert install.returncode == 0, install.stderr[-3000:]
    return wheels[0], site, proc.stdout


def _child(env):
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(_CHILD)], env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith(MARK)]
    return json.loads(lines[-1][len(MARK):]), proc.stderr


def _with_path(env, folder):
    return dict(env, PYTHONPATH=os.pathsep.join(
        p for p in (str(folder), env.get("PYTHONPATH")) if p))


@needs_v3
def test_the_wheel_follows_the_wheel_format_and_pins_its_versions(built):
    wheel, site, said = built
    version = metadata.version("laxarray")
    plat = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    assert wheel.name == f"laxarray_portable-{version}-py3-none-{plat}.whl"
    info = f"laxarray_portable-{version}.dist-info"
    with zipfile.ZipFile(wheel) as whl:
        names = whl.namelist()
        rows = list(csv.reader(io.StringIO(whl.read(f"{info}/RECORD").decode())))
        # every file listed once, with its sha256 (urlsafe base64, no padding) and size
        assert sorted(r[0] for r in rows) == sorted(names)
        for name, digest, size in rows:
            if name == f"{info}/RECORD":
                assert digest == size == ""
                continue
            data = whl.read(name)
            want = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
            assert (digest, int(size)) == (f"sha256={want.decode()}", len(data)), name
        meta = email.parser.Parser().parsestr(whl.read(f"{info}/METADATA").decode())
        head = email.parser.Parser().parsestr(whl.read(f"{info}/WHEEL").decode())
        entries = [n for n in names if n.startswith("laxarray_portable/tier/")]
        assert entries and all(whl.read(n).startswith(S._MAGIC) for n in entries)
    assert meta["Name"] == "laxarray_portable" and meta["Version"] == version
    assert sorted(meta.get_all("Requires-Dist")) == sorted(
        [f"laxarray=={version}", f"jax=={metadata.version('jax')}",
         f"jaxlib=={metadata.version('jaxlib')}"])
    assert head["Root-Is-Purelib"] == "true" and head["Tag"] == f"py3-none-{plat}"
    assert "laxarray_portable/__init__.py" in names
    assert f"{len(entries)} executables" in said
    # pip installed every file where laxarray looks
    installed = sorted(str(p.relative_to(site / "laxarray_portable" / "tier")).replace(
        os.sep, "/") for p in (site / "laxarray_portable" / "tier").rglob("*") if p.is_file())
    assert installed == sorted(n[len("laxarray_portable/tier/"):] for n in entries)


@needs_v3
def test_an_installed_wheel_serves_another_machine_that_compiles_nothing(built, tmp_path):
    wheel, site, _ = built
    with zipfile.ZipFile(wheel) as whl:
        entries = [n for n in whl.namelist() if n.startswith("laxarray_portable/tier/")]
    env = _with_path(_env(tmp_path / "machine_b", CPU_B, LAXARRAY_PORTABLE_STORE="0"), site)
    result, _ = _child(env)
    assert result["equal"] == result["calls"]                    # NumPy's results
    assert result["built"] == 0                                  # nothing compiled
    assert result["loaded"] == result["portable"] == len(entries)
    # without the wheel on the path the same calls compile
    alone, _ = _child(_env(tmp_path / "machine_c", CPU_B, LAXARRAY_PORTABLE_STORE="0"))
    assert alone["portable"] == 0 and alone["built"] == len(entries)
    assert alone["equal"] == alone["calls"]


@needs_v3
def test_a_wheel_tier_others_may_write_is_refused_and_the_calls_compile(built, tmp_path):
    _, site, _ = built
    shared = tmp_path / "site"
    shutil.copytree(site, shared)
    tier = shared / "laxarray_portable" / "tier"
    os.chmod(tier, 0o777)
    env = _with_path(_env(tmp_path / "machine_b", CPU_B, LAXARRAY_PORTABLE_STORE="0"), shared)
    result, stderr = _child(env)
    assert str(tier) in stderr and "refused" in stderr and "group or others" in stderr
    assert result["portable"] == 0 and result["built"] > 0
    assert result["equal"] == result["calls"]


# ---- the lookup ----------------------------------------------------------------------------

def _v3_process(monkeypatch):
    monkeypatch.setattr(F, "portable_fingerprint", lambda: "0" * 24)
    monkeypatch.setattr(F, "portable_build", lambda: False)


def _installed(folder, mode=0o755):
    """A ``laxarray_portable`` package in ``folder`` whose import would fail."""
    package = folder / "laxarray_portable"
    (package / "tier").mkdir(parents=True)
    (package / "__init__.py").write_text("raise RuntimeError('laxarray imported me')\n")
    os.chmod(package / "tier", mode)
    return package / "tier"


def test_the_wheel_tier_is_found_without_importing_it_and_read_last(tmp_path, monkeypatch):
    _v3_process(monkeypatch)
    tier = _installed(tmp_path / "site")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    assert tiers.wheel_dir() == str(tier)
    assert "laxarray_portable" not in sys.modules
    user, package = tmp_path / "user", tmp_path / "package" / "portable"
    user.mkdir(mode=0o700)
    package.mkdir(parents=True, mode=0o755)
    monkeypatch.setattr(tiers, "package_dir", lambda: str(package))
    monkeypatch.setenv("LAXARRAY_PORTABLE_STORE", str(user))
    assert [t.path for t in S._open_tiers()] == [str(user), str(package), str(tier)]
    # 0 turns off the user's tier only: an installed one stays until it is uninstalled
    monkeypatch.setenv("LAXARRAY_PORTABLE_STORE", "0")
    assert [t.path for t in S._open_tiers()] == [str(package), str(tier)]


def test_a_wheel_tier_the_group_may_write_is_refused_with_a_warning(tmp_path, monkeypatch):
    _v3_process(monkeypatch)
    tier = _installed(tmp_path / "site", 0o775)
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    monkeypatch.setenv("LAXARRAY_PORTABLE_STORE", "0")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert str(tier) not in [t.path for t in S._open_tiers()]
    said = [str(w.message) for w in caught if str(tier) in str(w.message)]
    assert said and "refused" in said[0] and "group or others" in said[0]
    assert "uninstall laxarray_portable" in said[0]


def test_laxarrays_own_tier_is_the_portable_folder_of_the_package():
    assert tiers.package_dir() == os.path.join(os.path.dirname(laxarray.__file__), "portable")


_SPY = """
    import json, sys
    asked = []

    class Spy:   # notes every look for the wheel's package on the import path
        @staticmethod
        def find_spec(name, path=None, target=None):
            if name == "laxarray_portable":
                asked.append(name)
            return None

    sys.meta_path.insert(0, Spy)
    import laxarray as xp
    on_import = len(asked)
    xp.add(xp.ones(5), xp.ones(5))
    after_one = len(asked)
    xp.multiply(xp.ones(7), xp.ones(7))
    print("@@result@@ " + json.dumps([on_import, after_one, len(asked)]))
"""


@needs_v3
def test_the_wheel_is_looked_for_once_and_only_when_a_tier_is_needed(tmp_path):
    def run(**extra):
        env = _env(tmp_path / "store", CPU_B, LAXARRAY_PORTABLE_STORE="0", **extra)
        proc = subprocess.run([sys.executable, "-c", textwrap.dedent(_SPY)], env=env,
                              capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr[-3000:]
        return json.loads(proc.stdout.split(MARK)[-1].splitlines()[0])

    # no loading ahead: not on import; the first miss of the store looks, once
    assert run() == [0, 1, 1]
    # loading ahead, a program with no trace of its own: on import (a tier's trace)
    assert run(LAXARRAY_PREFETCH="1")[0] == 1
    # its trace written and its programs in the store: never
    assert run(LAXARRAY_PREFETCH="1") == [0, 0, 0]
