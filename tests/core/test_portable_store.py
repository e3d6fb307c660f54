"""The portable tier of the executable store (laxarray._core.runtime.exec_store, issue 73).

A program recorded on this machine is precompiled into a portable tier (``precompile
--from FILE --portable``) by workers under one CPU description ("machine A"); a fresh
process under another CPU description ("machine B", AVX-512 and all), whose own store is
empty, then loads every program from the tier -- it compiles none -- and its results have
the bits that this machine's native compile gives.  ``LAXARRAY_CPU_DESCRIPTION`` names the
CPU in the store keys (``fingerprint._cpu_description``); the executables themselves run on
this CPU, so the end-to-end test needs an x86-64 CPU with AVX2.

Also: a tier that another user or the group may write is refused with a warning; a tier is
read only (a lookup changes nothing in it); the CPU classes.
"""

import json
import os
import platform
import subprocess
import sys
import textwrap
import warnings

import pytest

from laxarray._core.runtime import exec_store as S
from laxarray._core.runtime import fingerprint as F
from laxarray.precompile import runner

MARK = "@@result@@ "
_V3 = "fpu sse4_1 sse4_2 popcnt avx avx2 fma f16c bmi1 bmi2 abm movbe"
CPU_A = f"model name=Test CPU A (AVX2 only);flags={_V3}"
CPU_B = f"model name=Test CPU B (AVX-512);flags={_V3} avx512f avx512bw avx512_fp16"

_X86_V3 = platform.machine().lower() in ("x86_64", "amd64") and F.portable_class() is not None

# results whose bits depend on the instruction set where XLA is let choose (the half
# conversion, transcendental polynomials with FMA, complex products, reductions, matmul)
_CHILD = """
    import hashlib, json, warnings
    import numpy as np
    import laxarray as xp
    from laxarray._core.runtime import exec_store, kernel

    warnings.simplefilter("ignore")
    rng = np.random.default_rng(3)
    a = rng.standard_normal(5000) * 100
    a[:8] = [1 + 2**-11 + 2**-40, 126.0625, -0.0, np.inf, np.nan, 1e-7, 65504.5, 3.0]
    b = rng.standard_normal(5000)
    calls = {
        "astype float16": lambda: xp.astype(xp.asarray(a), xp.float16),
        "log10 float16": lambda: xp.log10(xp.astype(xp.asarray(np.abs(a)), xp.float16)),
        "exp float32": lambda: xp.exp(xp.asarray((b * 10).astype(np.float32))),
        "tanh float64": lambda: xp.tanh(xp.asarray(b)),
        "multiply complex128": lambda: xp.asarray(a + 1j * b) * xp.asarray(b - 1j * a),
        "sum float32": lambda: xp.sum(xp.asarray(a.astype(np.float32))),
        "matmul float64": lambda: (xp.asarray(a[:900].reshape(30, 30))
                                   @ xp.asarray(b[:900].reshape(30, 30))),
        "std float64": lambda: xp.std(xp.asarray(a)),
        "small bucketed": lambda: xp.sin(xp.asarray(b[:37])) + 1.5,
    }
    out = {k: hashlib.sha1(np.ascontiguousarray(np.asarray(f())).tobytes()).hexdigest()
           for k, f in calls.items()}
    out["_built"] = kernel.compile_count() - kernel.load_count()
    out["_loaded"] = kernel.load_count()
    out["_portable"] = exec_store.portable_load_count()
    print("@@result@@ " + json.dumps(out))
"""


def _env(tmp_path, machine_store, cpu=None, **extra):
    env = dict(os.environ, LAXARRAY_COMPILATION_CACHE=str(tmp_path / machine_store),
               LAXARRAY_PORTABLE_STORE=str(tmp_path / "portable"), LAXARRAY_STORE_HINT="0",
               LAXARRAY_PREFETCH="0", JAX_ENABLE_COMPILATION_CACHE="false")
    env.update(extra)
    for name in ("LAXARRAY_CPU_DESCRIPTION", "LAXARRAY_PORTABLE_BUILD", "LAXARRAY_RECORD",
                 "XLA_FLAGS"):
        if name not in extra:
            env.pop(name, None)
    if cpu is not None:
        env["LAXARRAY_CPU_DESCRIPTION"] = cpu
    return env


def _child(env):
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(_CHILD)], env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith(MARK)]
    return json.loads(lines[-1][len(MARK):])


def _entries(folder):
    return [p for p in folder.glob("??/*") if p.is_file() and not p.name.startswith(".tmp-")]


@pytest.mark.skipif(not _X86_V3, reason="the tier's programs are AVX2 code: an x86-64-v3 "
                                        "CPU runs them")
def test_a_tier_built_on_one_cpu_serves_another_with_the_native_bits(tmp_path):
    record = tmp_path / "calls.jsonl"
    native = _child(_env(tmp_path, "native", LAXARRAY_RECORD=str(record)))
    assert native["_built"] > 0 and native["_portable"] == 0

    proc = subprocess.run([sys.executable, "-m", "laxarray.precompile", "--from", str(record),
                           "--portable", "--jobs", "1"],
                          env=_env(tmp_path, "machine_a", CPU_A), capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "portable tier" in proc.stderr
    tier = _entries(tmp_path / "portable")
    assert len(tier) >= native["_built"]
    # machine A's own store got nothing: the workers wrote the tier
    assert not _entries(tmp_path / "machine_a" / "executables")

    on_b = _child(_env(tmp_path, "machine_b", CPU_B))
    assert on_b["_built"] == 0                           # nothing compiled on machine B
    assert on_b["_loaded"] == on_b["_portable"] == native["_built"]
    results = {k: v for k, v in native.items() if not k.startswith("_")}
    assert {k: on_b[k] for k in results} == results      # the bits of a native compile

    # without the tier machine B compiles, and the results are the same bits again
    alone = _child(_env(tmp_path, "machine_b2", CPU_B, LAXARRAY_PORTABLE_STORE="0"))
    assert alone["_portable"] == 0 and alone["_built"] == native["_built"]
    assert {k: alone[k] for k in results} == results


@pytest.mark.skipif(not _X86_V3, reason="an x86-64-v3 CPU has a portable class")
def test_the_machine_store_is_read_before_the_tier(tmp_path):
    """A process built with LAXARRAY_PORTABLE_BUILD=1 fills the tier itself; machine B's
    own store, once filled, is read first: a hit there never reads the tier."""
    build = _env(tmp_path, "unused", CPU_A, LAXARRAY_PORTABLE_BUILD="1",
                 XLA_FLAGS=F.PORTABLE_FLAG)
    first = _child(build)                                # a portable build, directly
    assert first["_built"] > 0 and first["_portable"] == 0
    on_b = _child(_env(tmp_path, "machine_b", CPU_B, LAXARRAY_PORTABLE_STORE="0"))
    assert on_b["_portable"] == 0
    again = _child(_env(tmp_path, "machine_b", CPU_B))  # its own store has every program
    assert again["_built"] == 0 and again["_portable"] == 0 and again["_loaded"] > 0


def test_a_build_without_the_flag_runs_without_a_store(tmp_path):
    env = _env(tmp_path, "m", CPU_A, LAXARRAY_PORTABLE_BUILD="1")
    code = ("import warnings; warnings.simplefilter('always'); import laxarray as xp; "
            "from laxarray._core.runtime import kernel; xp.sin(xp.ones(3)); "
            "print('store', kernel._open_store())")
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "store None" in proc.stdout
    if platform.machine().lower() in ("x86_64", "amd64"):
        assert F.PORTABLE_FLAG in proc.stderr            # says what is missing


def _v3_process(monkeypatch):
    """This process as one of the x86-64-v3 class, with the tier directory of the test."""
    monkeypatch.setattr(F, "portable_fingerprint", lambda: "0" * 24)
    monkeypatch.setattr(F, "portable_build", lambda: False)


def test_a_tier_others_may_write_is_refused_with_a_warning(tmp_path, monkeypatch):
    _v3_process(monkeypatch)
    tier = tmp_path / "shared"
    tier.mkdir()
    os.chmod(tier, 0o777)
    monkeypatch.setenv("LAXARRAY_PORTABLE_STORE", str(tier))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        tiers = S._open_tiers()
    assert [t.path for t in tiers if t.path == str(tier)] == []
    said = [str(w.message) for w in caught if str(tier) in str(w.message)]
    assert said and "refused" in said[0] and "group or others" in said[0]

    os.chmod(tier, 0o700)                                # private: trusted
    assert str(tier) in [t.path for t in S._open_tiers()]


def test_a_missing_tier_is_not_created(tmp_path, monkeypatch):
    _v3_process(monkeypatch)
    monkeypatch.setenv("LAXARRAY_PORTABLE_STORE", str(tmp_path / "none"))
    assert str(tmp_path / "none") not in [t.path for t in S._open_tiers()]
    assert not (tmp_path / "none").exists()


def test_a_tier_is_read_only(tmp_path):
    path = tmp_path / "tier"
    writer = S.ExecutableStore.open(path)
    writer.put("good", b"payload")
    writer.put("damaged", b"x" * 100)
    damaged = writer._file("damaged")
    with open(damaged, "r+b") as f:                      # flip a byte of the payload
        f.seek(-1, os.SEEK_END)
        f.write(b"y")
    tier = S.ExecutableStore(path, readonly=True)
    stamp = os.stat(writer._file("good")).st_mtime_ns
    os.utime(writer._file("good"), ns=(stamp - 10**9, stamp - 10**9))
    assert tier.get("good") == b"payload"
    assert os.stat(writer._file("good")).st_mtime_ns == stamp - 10**9   # not touched
    assert tier.get("damaged") is None and os.path.exists(damaged)      # a miss, left
    tier.put("new", b"data")
    assert tier.get("new") is None and writer.get("new") is None
    assert writer.get("damaged") is None and not os.path.exists(damaged)


@pytest.mark.parametrize("flags, expected", [
    (_V3, "x86-64-v3"), (_V3 + " avx512f", "x86-64-v3"),
    (_V3.replace(" avx2", ""), None), (_V3.replace(" fma", ""), None), ("", None)])
def test_cpu_classes(monkeypatch, flags, expected):
    monkeypatch.setenv("LAXARRAY_CPU_DESCRIPTION", f"model name=X;flags={flags}")
    monkeypatch.setattr(platform, "machine", lambda: "x86_64")
    assert F.portable_class() == expected
    monkeypatch.setattr(platform, "machine", lambda: "aarch64")
    assert F.portable_class() is None


def test_precompile_portable_refuses_a_tier_that_is_off(monkeypatch):
    monkeypatch.setattr(F, "portable_problem", lambda: None)
    monkeypatch.setenv("LAXARRAY_PORTABLE_STORE", "0")
    with pytest.raises(RuntimeError, match="the portable tier is off"):
        runner._open_tier()
    monkeypatch.setattr(F, "portable_problem", lambda: "this CPU is not of the class")
    with pytest.raises(RuntimeError, match="not of the class"):
        runner._open_tier()


def test_an_empty_store_with_a_tier_says_no_hint(tmp_path, monkeypatch):
    from laxarray._core.errors import StoreHintWarning
    monkeypatch.delenv("LAXARRAY_STORE_HINT", raising=False)
    store = S.ExecutableStore.open(tmp_path / "store")
    monkeypatch.setattr(S, "portable_tiers", lambda: [object()])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        S._hint_if_empty(store)
    assert not [w for w in caught if issubclass(w.category, StoreHintWarning)]
    assert not (tmp_path / "store" / ".hinted").exists()
    monkeypatch.setattr(S, "portable_tiers", lambda: [])      # no tier: said, once
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        S._hint_if_empty(store)
    assert [w for w in caught if issubclass(w.category, StoreHintWarning)]


@pytest.mark.skipif(not _X86_V3, reason="the tier's programs are AVX2 code")
def test_a_second_run_loads_the_tiers_programs_ahead(tmp_path):
    """The trace of a run served by the tier names its keys: the next run's loader thread
    reads them from the tier (the machine store misses them all)."""
    build = _env(tmp_path, "unused", CPU_A, LAXARRAY_PORTABLE_BUILD="1",
                 XLA_FLAGS=F.PORTABLE_FLAG)
    built = _child(build)["_built"]
    script = tmp_path / "program.py"
    script.write_text(textwrap.dedent(_CHILD) + textwrap.dedent("""
        from laxarray._core.runtime import prefetch
        print("@@ahead@@", prefetch.loaded_ahead())
    """))
    env = dict(_env(tmp_path, "machine_b", CPU_B), LAXARRAY_PREFETCH="1")
    runs = []
    for _ in range(2):
        proc = subprocess.run([sys.executable, str(script)], env=env, capture_output=True,
                              text=True, timeout=600)
        assert proc.returncode == 0, proc.stderr[-3000:]
        result = json.loads(proc.stdout.split(MARK)[-1].splitlines()[0])
        ahead = int(proc.stdout.split("@@ahead@@")[-1].split()[0])
        runs.append((result, ahead))
    (first, ahead1), (second, ahead2) = runs
    assert first["_built"] == second["_built"] == 0
    assert first["_loaded"] == second["_loaded"] == built
    assert ahead1 == 0 and ahead2 == built               # all loaded ahead the second time


def test_a_chips_tier_is_keyed_by_the_chip_not_the_host(monkeypatch):
    """On a TPU (the record's ``portable == "chip"``) two hosts of different CPUs compute
    different machine keys and one portable key; on the CPU the portable key is the class's,
    and a platform with no portable kind has none."""
    from laxarray._core import backend

    def keys(record, cpu):
        monkeypatch.setattr(backend, "compiling", lambda: record)
        monkeypatch.setattr(F, "_FINGERPRINTS", {})
        monkeypatch.setenv("LAXARRAY_CPU_DESCRIPTION", cpu)
        monkeypatch.setattr(platform, "machine", lambda: "x86_64")
        return F.environment_fingerprint(), F.portable_fingerprint(), F.portable_problem()

    a, b = keys(backend.TPU, CPU_A), keys(backend.TPU, CPU_B)
    assert a[0] != b[0]                      # each host's own store: its own keys
    assert a[1] == b[1] is not None and a[2] is None
    assert "cpu=any host" in F._portable_description()
    assert "Test CPU" not in F._portable_description()
    c, d = keys(backend.CPU, CPU_A), keys(backend.CPU, CPU_B)
    assert c[1] == d[1] is not None and c[1] != a[1]      # the class's key, not the chip's
    assert keys(backend.GPU, CPU_A)[1:] == (None, "the portable tier holds CPU and TPU "
                                                  "programs only, not cpu's")


@pytest.mark.skipif(not _X86_V3, reason="the tier's programs are AVX2 code")
@pytest.mark.parametrize("filled_by", ["precompile --from", "a build run"])
def test_a_fresh_machine_loads_the_programs_keys_ahead_from_the_tier(tmp_path, filled_by):
    """A tier keeps each program's trace -- written by ``precompile --from FILE --portable``
    for every program the record names, or by a run of the program that builds the tier
    (``LAXARRAY_PORTABLE_BUILD=1``) -- so the first run of that program on a fresh machine
    (another CPU, another checkout folder, an empty store of its own) loads every program
    ahead from the tier."""
    def script(root):
        path = tmp_path / root / "app" / "program.py"
        path.parent.mkdir(parents=True)
        path.write_text(textwrap.dedent(_CHILD) + textwrap.dedent("""
            from laxarray._core.runtime import prefetch
            print("@@ahead@@", prefetch.loaded_ahead())
        """))
        return str(path)

    def run(path, env):
        proc = subprocess.run([sys.executable, path], env=dict(env, LAXARRAY_PREFETCH="1"),
                              capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, proc.stderr[-3000:]
        result = json.loads(proc.stdout.split(MARK)[-1].splitlines()[0])
        return result, int(proc.stdout.split("@@ahead@@")[-1].split()[0])

    if filled_by == "a build run":
        native, _ = run(script("on_a"), _env(tmp_path, "unused", CPU_A,
                                             LAXARRAY_PORTABLE_BUILD="1",
                                             XLA_FLAGS=F.PORTABLE_FLAG))
    else:
        record = tmp_path / "calls.jsonl"
        native, _ = run(script("on_a"), _env(tmp_path, "native", LAXARRAY_RECORD=str(record)))
        assert {json.loads(line)["prog"] for line in record.read_text().splitlines()} == {
            "app/program.py"}
        proc = subprocess.run([sys.executable, "-m", "laxarray.precompile", "--from",
                               str(record), "--portable", "--jobs", "1"],
                              env=_env(tmp_path, "machine_a", CPU_A), capture_output=True,
                              text=True, timeout=600)
        assert proc.returncode == 0, proc.stderr[-3000:]
    assert native["_built"] > 0
    assert len(list((tmp_path / "portable" / "traces").iterdir())) == 1

    on_b, ahead = run(script("on_b"), _env(tmp_path, "machine_b", CPU_B))
    assert on_b["_built"] == 0 and on_b["_loaded"] == native["_built"]
    assert ahead == native["_built"]                     # every one loaded ahead, at once
    assert {k: v for k, v in on_b.items() if not k.startswith("_")} == {
        k: v for k, v in native.items() if not k.startswith("_")}
    # another program has no trace in the tier: it loads the same programs on demand
    other = tmp_path / "on_b" / "app" / "other.py"
    other.write_text((tmp_path / "on_b" / "app" / "program.py").read_text())
    alone, ahead = run(str(other), _env(tmp_path, "machine_c", CPU_B))
    assert ahead == 0 and alone["_built"] == 0 and alone["_loaded"] == native["_built"]
