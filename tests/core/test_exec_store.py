"""The executable store (laxarray._core.runtime.exec_store) and its serialization (jaxapi).

A compiled program written by this process loads and runs in a fresh process (LAPACK-backed
linalg included, which crashes a fresh process unless jaxlib's LAPACK is prepared); damaged
and foreign entries read as misses; concurrent writers never mix entries; an unsafe
directory is refused; the size bound evicts the least recently used entries.
"""

import contextlib
import json
import os
import shutil
import struct
import subprocess
import sys
import textwrap
import warnings

import jax
import numpy as np
import pytest
from jax import lax

from laxarray._core.runtime import call_key as C
from laxarray._core.runtime import exec_store as S
from laxarray._core.runtime import fingerprint as F
from laxarray._core.jax_host_calls import host_call
from laxarray._core.runtime import serialize

# the executables here are compiled by the test itself as laxarray compiles its kernels: in
# jax's 64-bit mode (the jax_x64 fixture, tests/conftest.py)
pytestmark = pytest.mark.usefixtures("jax_x64")

RNG = np.random.default_rng(0)
_A = RNG.standard_normal((6, 6))
_SPD = _A @ _A.T + 6 * np.eye(6)
_B = RNG.standard_normal((6, 2))
_V = RNG.standard_normal(37)
_IDX = np.array([3, 0, 36, 3, 7])


def _solve(a, b):
    lu, _, perm = lax.linalg.lu(a)
    y = lax.linalg.triangular_solve(lu, b[perm], left_side=True, lower=True,
                                    unit_diagonal=True)
    return lax.linalg.triangular_solve(lu, y, left_side=True, lower=False)


#: name: (program, inputs, NumPy oracle of what the checks compare)
CASES = {
    "elementwise": (lambda x, y: lax.sin(x) * y + 1.0, (_V, _V[::-1].copy()),
                    lambda x, y: np.sin(x) * y + 1.0),
    "sort": (lambda x: lax.sort(x), (_V,), np.sort),
    "gather_scatter": (lambda x, i: (x[i], x.at[i].add(1.0)), (_V, _IDX),
                       lambda x, i: (x[i], _np_add_at(x, i))),
    "fft": (lambda x: lax.fft(x, lax.FftType.FFT, (37,)), (_V.astype(np.complex128),),
            np.fft.fft),
    "svd": (lambda a: lax.linalg.svd(a, full_matrices=False)[1], (_A,),
            lambda a: np.linalg.svd(a, compute_uv=False)),
    "eigh": (lambda a: lax.linalg.eigh(a)[1], (_SPD,), np.linalg.eigvalsh),
    "qr": (lambda a: lax.linalg.qr(a)[0] @ lax.linalg.qr(a)[1], (_A,), lambda a: a),
    "cholesky": (lambda a: lax.linalg.cholesky(a), (_SPD,), np.linalg.cholesky),
    "lu_solve": (_solve, (_A, _B), np.linalg.solve),
    "codeless": (lambda x: (x, x.reshape(37, 1)), (_V,), lambda x: (x, x.reshape(37, 1))),
}
LAPACK_CASES = {"svd", "eigh", "qr", "cholesky", "lu_solve"}


def _np_add_at(x, i):
    out = x.copy()
    np.add.at(out, i, 1.0)
    return out


_LOADER = textwrap.dedent("""
    import json, sys
    import jax
    import numpy as np
    jax.config.update("jax_enable_x64", True)   # the cases are laxarray's: 64-bit programs
    from laxarray._core.runtime import call_key as C, exec_store as S, serialize
    work = sys.argv[1]
    order = json.load(open(work + "/keys.json"))     # [name, key, calls LAPACK]
    store = S.default_store()
    inputs = np.load(work + "/inputs.npz")
    outs, info = {}, {"store": store.path, "keys_match": True}
    for name, key, lapack in order:
        if lapack and "lapack_ready_before_linalg" not in info:
            info["lapack_ready_before_linalg"] = bool(serialize._LAPACK_READY)
        info["keys_match"] &= C.text_key(("test_exec_store", name)) == key
        blob = store.get(key)
        if blob is None:
            info[name] = "miss"
            continue
        compiled = serialize.load_compiled(blob)
        args = [inputs[f"{name}/{i}"] for i in range(len(inputs.files))
                if f"{name}/{i}" in inputs.files]
        res = compiled(*args)
        for j, r in enumerate(res if isinstance(res, tuple) else (res,)):
            outs[f"{name}/{j}"] = np.asarray(r)
        info[name] = "ran"
    np.savez(work + "/outputs.npz", **outs)
    print(json.dumps(info))
""")


@contextlib.contextmanager
def _jax_cache_off():
    """jax's persistent cache off in this process (an executable that jax loads from it
    cannot be serialized: see test_an_executable_from_jax_cache_is_not_serializable)."""
    from jax.experimental.compilation_cache import compilation_cache as cc
    previous = jax.config.jax_enable_compilation_cache
    cc.reset_cache()
    jax.config.update("jax_enable_compilation_cache", False)
    try:
        yield
    finally:
        jax.config.update("jax_enable_compilation_cache", previous)
        cc.reset_cache()


@pytest.fixture
def fresh_compiles():
    """Compile afresh for one test (jax's persistent cache off)."""
    with _jax_cache_off():
        yield


def _env(store_root, **extra):
    env = dict(os.environ, LAXARRAY_COMPILATION_CACHE=str(store_root), **extra)
    env.pop("JAX_COMPILATION_CACHE_DIR", None)
    return env


def _python(code, *args, env):
    return subprocess.Popen([sys.executable, "-c", code, *map(str, args)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _result(proc):
    out, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, f"child exited with {proc.returncode}:\n{err[-3000:]}"
    return json.loads(out.strip().splitlines()[-1])


_WRITER_CASES = textwrap.dedent("""
    import json, sys
    import jax
    jax.config.update("jax_enable_x64", True)   # the cases are laxarray's: 64-bit programs
    sys.path.insert(0, sys.argv[1])
    import test_exec_store as T
    from laxarray._core.runtime import call_key as C, exec_store as S, serialize
    store = S.default_store()
    keys = {}
    for name, (fn, args, _) in T.CASES.items():
        keys[name] = C.text_key(("test_exec_store", name))
        store.put(keys[name], serialize.serialize_compiled(jax.jit(fn).lower(*args).compile()))
    print(json.dumps({"keys": keys, "jax_cache_hits": serialize._JAX_CACHE_HITS[0]}))
""")


@pytest.fixture(scope="module")
def round_trip(tmp_path_factory):
    """Compile every case in a fresh process (jax's cache empty) and put it into a store, then
    get, load and run all of them in another fresh process: ``(info, outputs)``."""
    root = tmp_path_factory.mktemp("cache")
    work = tmp_path_factory.mktemp("work")
    written = _result(_python(_WRITER_CASES, os.path.dirname(__file__), env=_env(root)))
    assert written["jax_cache_hits"] == 0
    order = sorted(written["keys"].items(), key=lambda item: item[0] in LAPACK_CASES)
    (work / "keys.json").write_text(json.dumps(
        [[name, key, name in LAPACK_CASES] for name, key in order]))
    np.savez(work / "inputs.npz", **{f"{name}/{i}": a for name, (_, args, _) in CASES.items()
                                     for i, a in enumerate(args)})
    info = _result(_python(_LOADER, work, env=_env(root)))
    with np.load(work / "outputs.npz") as f:
        outputs = {k: f[k] for k in f.files}
    return info, outputs


@pytest.mark.parametrize("name", sorted(CASES))
def test_an_executable_runs_in_a_fresh_process(round_trip, name):
    info, outputs = round_trip
    assert info["keys_match"], "text_key differs between two processes"
    assert info[name] == "ran"
    fn, args, oracle = CASES[name]
    want = oracle(*args)
    want = want if isinstance(want, tuple) else (want,)
    for j, w in enumerate(want):
        np.testing.assert_allclose(outputs[f"{name}/{j}"], w, rtol=1e-10, atol=1e-10)


def test_only_programs_that_call_lapack_prepare_it_in_a_fresh_process(round_trip):
    info, _ = round_trip
    assert info["lapack_ready_before_linalg"] is False   # 5 other programs loaded and ran
    assert all(info[name] == "ran" for name in LAPACK_CASES)


def test_the_default_store_lies_in_the_executables_subdirectory(round_trip):
    info, _ = round_trip
    assert os.path.basename(info["store"]) == "executables"


def test_default_dir_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("LAXARRAY_COMPILATION_CACHE", "0")
    assert S.default_dir() is None
    monkeypatch.setenv("LAXARRAY_COMPILATION_CACHE", str(tmp_path))
    assert S.default_dir() == str(tmp_path / "executables")
    monkeypatch.delenv("LAXARRAY_COMPILATION_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert S.default_dir() == str(tmp_path / "xdg" / "laxarray" / "executables")


def test_only_programs_that_call_lapack_prepare_it(fresh_compiles):
    plain = serialize.serialize_compiled(jax.jit(lambda x: x + 1.0).lower(_V).compile())
    linalg = serialize.serialize_compiled(jax.jit(lax.linalg.cholesky).lower(_SPD).compile())
    import pickle
    assert pickle.loads(plain)[3] == () and pickle.loads(linalg)[3] == ("lapack",)


def test_host_callbacks_are_not_serializable():
    def host(x):
        return jax.pure_callback(lambda a: np.asarray(a) * 3, jax.ShapeDtypeStruct(
            x.shape, x.dtype), x, vmap_method="sequential")

    def own(x):
        return host_call(lambda a: a * 3, jax.ShapeDtypeStruct(x.shape, x.dtype), x)

    for fn in (host, own):
        with pytest.raises(serialize.NotSerializable, match="host callbacks"):
            serialize.serialize_compiled(jax.jit(fn).lower(_V).compile())


def test_a_damaged_blob_is_not_loadable(fresh_compiles):
    blob = serialize.serialize_compiled(jax.jit(lambda x: x * 2.0).lower(_V).compile())
    with pytest.raises(serialize.NotLoadable, match="load_compiled"):
        serialize.load_compiled(blob[: len(blob) // 2])
    assert np.array_equal(serialize.load_compiled(blob)(_V), _V * 2.0)


def test_a_loaded_executable_is_not_serialized_again(fresh_compiles):
    blob = serialize.serialize_compiled(jax.jit(lambda x: x * 3.0).lower(_V).compile())
    with pytest.raises(serialize.NotSerializable, match="load_compiled loaded"):
        serialize.serialize_compiled(serialize.load_compiled(blob))


_FROM_JAX_CACHE = textwrap.dedent("""
    import json, sys
    import numpy as np
    import laxarray, jax
    from jax import lax
    from laxarray._core.runtime import serialize
    jax.config.update("jax_enable_x64", True)
    jax.config.update("jax_compilation_cache_dir", sys.argv[1])   # the user's choice
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0.0)  # cache all
    jax.config.update("jax_persistent_cache_min_entry_size_bytes", -1)
    x = np.linspace(0.0, 1.0, 11)
    out = {}
    for name, fn in {"kernel": lambda x: lax.sin(x) * 3.0 + 1.0,
                     "codeless": lambda x: (x, x.reshape(11, 1))}.items():
        try:
            blob = serialize.serialize_compiled(jax.jit(fn).lower(x).compile())
        except serialize.NotSerializable as err:
            out[name] = str(err)
            continue
        got = serialize.load_compiled(blob)(x)
        want = fn(x)
        out[name] = "ok" if all(np.array_equal(a, b) for a, b in zip(
            jax.tree.leaves(got), jax.tree.leaves(want))) else "wrong"
    print(json.dumps(out))
""")


def test_an_executable_from_jax_cache_is_not_serializable(tmp_path):
    """jaxlib 0.10.2 writes an executable that it loaded from jax's persistent cache again
    without its machine code; serialize_compiled refuses it (a program that needs no code of
    its own -- copies, tuples -- serializes either way)."""
    env = _env(tmp_path)
    cache = tmp_path / "jax-cache"                  # jax's cache, empty
    first = _result(_python(_FROM_JAX_CACHE, cache, env=env))
    second = _result(_python(_FROM_JAX_CACHE, cache, env=env))
    assert first == {"kernel": "ok", "codeless": "ok"}
    assert "persistent compilation cache" in second["kernel"]
    assert second["codeless"] == "ok"


# --- the store's files ------------------------------------------------------------------------

def _entry_files(store):
    return sorted(p for p in _walk(store.path) if not os.path.basename(p).startswith(".tmp-"))


def _walk(path):
    return [os.path.join(d, n) for d, _, names in os.walk(path) for n in names]


def _open(tmp_path, **kw):
    store = S.ExecutableStore.open(tmp_path / "store", **kw)
    assert store is not None
    return store


def test_put_then_get_returns_the_blob(tmp_path):
    store = _open(tmp_path)
    store.put("a", b"first")
    store.put("b", b"")
    store.put("a", b"second")        # replaces
    assert store.get("a") == b"second" and store.get("b") == b"" and store.get("c") is None
    assert store.stats()["entries"] == 2
    store.clear()
    assert store.stats() == {"entries": 0, "bytes": 0} and store.get("a") is None


@pytest.mark.parametrize("damage", ["truncate_payload", "truncate_header", "flip_payload",
                                    "flip_key", "flip_magic", "append"])
def test_a_damaged_entry_reads_as_none_and_is_removed(tmp_path, damage):
    store = _open(tmp_path)
    blob = bytes(range(256)) * 40
    store.put("key", blob)
    [path] = _entry_files(store)
    data = bytearray(open(path, "rb").read())
    header = S._HEADER.size
    if damage == "truncate_payload":
        data = data[:-100]
    elif damage == "truncate_header":
        data = data[: header - 3]
    elif damage == "flip_payload":
        data[-500] ^= 0x01
    elif damage == "flip_key":
        data[header + 1] ^= 0x40
    elif damage == "flip_magic":
        data[0] ^= 0x01
    else:
        data += b"\0"
    open(path, "wb").write(bytes(data))
    assert store.get("key") is None
    assert not os.path.exists(path)
    store.put("key", blob)
    assert store.get("key") == blob


def test_an_entry_of_another_format_or_key_is_a_miss(tmp_path):
    store = _open(tmp_path)
    store.put("key", b"payload")
    [path] = _entry_files(store)
    data = bytearray(open(path, "rb").read())
    struct.pack_into("<I", data, 8, S.STORE_FORMAT + 1)      # the format field
    open(path, "wb").write(bytes(data))
    assert store.get("key") is None and os.path.exists(path)  # a miss, left for its writer
    store.put("key", b"payload")
    assert store.get("key") == b"payload"
    # a whole entry of another key in this key's file (a file-name collision)
    store.put("other", b"theirs")
    other = [p for p in _entry_files(store) if p != path][0]
    shutil.copyfile(other, path)
    assert store.get("key") is None and store.get("other") == b"theirs"


def test_a_hit_makes_an_entry_recently_used(tmp_path):
    store = _open(tmp_path)
    store.put("key", b"x")
    [path] = _entry_files(store)
    os.utime(path, (1_000_000, 1_000_000))
    assert store.get("key") == b"x"
    assert os.stat(path).st_mtime > 1_000_000


def test_the_size_bound_evicts_the_least_recently_used(tmp_path):
    blob = b"\1" * 10_000
    store = _open(tmp_path, max_bytes=100_000)
    for i in range(8):
        store.put(f"k{i}", blob)
    entry = os.path.getsize(_entry_files(store)[0])
    paths = {f"k{i}": store._file(f"k{i}") for i in range(10)}
    for i in range(8):              # k0 oldest ... k7 newest, all long ago
        os.utime(paths[f"k{i}"], (1_000_000 + i, 1_000_000 + i))
    assert store.get("k0") == blob  # now k0 is the most recently used of these
    store.put("k8", blob)
    store.put("k9", blob)           # 10 entries > 100_000 bytes: evict to <= 75_000
    kept = {k for k in paths if store.get(k) is not None}
    assert kept == {"k0", "k4", "k5", "k6", "k7", "k8", "k9"}
    assert store.stats()["bytes"] == 7 * entry <= 75_000


def test_put_measures_the_directory_rarely(tmp_path, monkeypatch):
    store = _open(tmp_path, max_bytes=1 << 30)
    scans = []
    original = store._entries
    monkeypatch.setattr(store, "_entries", lambda: scans.append(1) or original())
    for i in range(S.SCAN_EVERY + 10):
        store.put(f"k{i}", b"blob")
    assert len(scans) == 2          # the first put, then once after SCAN_EVERY puts


def test_a_large_store_is_estimated_not_read_whole(tmp_path, monkeypatch):
    writer = _open(tmp_path, max_bytes=1 << 30)
    for i in range(800):
        writer.put(f"k{i}", b"x" * 1000)
    monkeypatch.setattr(S, "_SAMPLE_MIN", 5)         # 800 entries count as a large store
    store = _open(tmp_path, max_bytes=1 << 30)       # another process: no count yet
    scans = []
    original = store._entries
    monkeypatch.setattr(store, "_entries", lambda: scans.append(1) or original())
    store.put("new", b"x" * 1000)
    real = store.stats()["bytes"]
    assert scans == [1]                              # stats() only: the put sampled
    assert real / 2 < store._size < real * 2
    store.max_bytes = real // 2                      # now the estimate is over the bound
    store._puts_since_scan = S.SCAN_EVERY
    store.put("newer", b"x" * 1000)
    assert len(scans) == 2                           # the eviction read it whole
    assert store.stats()["bytes"] <= real // 2 * 3 // 4


def test_put_never_raises_on_io_errors(tmp_path):
    store = _open(tmp_path)
    shutil.rmtree(store.path)
    open(store.path, "w").close()   # the directory is now a file: every write fails
    with pytest.warns(RuntimeWarning, match="cannot write to the executable store"):
        store.put("key", b"blob")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        store.put("key2", b"blob")  # warned once
    assert store.get("key") is None


def test_the_store_directory_is_created_private(tmp_path):
    store = _open(tmp_path)
    assert os.stat(store.path).st_mode & 0o777 == 0o700
    store.put("key", b"blob")
    assert all(os.stat(p).st_mode & 0o077 == 0 for p in _entry_files(store))


def test_a_group_writable_directory_is_refused(tmp_path):
    path = tmp_path / "shared"
    path.mkdir()
    os.chmod(path, 0o770)
    with pytest.warns(RuntimeWarning, match="may be written by group or others"):
        assert S.ExecutableStore.open(path) is None
    os.chmod(path, 0o755)           # readable by others, writable by its owner only
    assert S.ExecutableStore.open(path) is not None


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                    reason="only root can give a directory to another user")
def test_a_directory_of_another_user_is_refused(tmp_path):
    path = tmp_path / "theirs"
    path.mkdir(mode=0o700)
    os.chown(path, 65534, 65534)
    with pytest.warns(RuntimeWarning, match="belongs to another user"):
        assert S.ExecutableStore.open(path) is None


_WRITER = textwrap.dedent("""
    import hashlib, json, sys, warnings
    warnings.simplefilter("error")
    from laxarray._core.runtime import exec_store as S
    path, order, limit = sys.argv[1], sys.argv[2], int(sys.argv[3])
    store = S.ExecutableStore.open(path, max_bytes=limit)
    keys = list(range(300))
    if order == "down":
        keys.reverse()
    for i in keys:
        seed = hashlib.sha256(str(i).encode()).digest()
        store.put(f"entry-{i}", seed * (1 + i % 97))
        if i % 7 == 0:
            store.get(f"entry-{(i * 13) % 300}")
    print(json.dumps(store.stats()))
""")


@pytest.mark.parametrize("limit", [1 << 30, 200_000], ids=["unbounded", "evicting"])
def test_two_writer_processes_share_a_store(tmp_path, limit):
    path = tmp_path / "store"
    a = _python(_WRITER, path, "up", limit, env=_env(tmp_path / "unused"))
    b = _python(_WRITER, path, "down", limit, env=_env(tmp_path / "unused"))
    _result(a), _result(b)
    store = S.ExecutableStore.open(path, max_bytes=limit)
    import hashlib
    found = 0
    for i in range(300):
        blob = store.get(f"entry-{i}")
        if blob is not None:
            found += 1
            assert blob == hashlib.sha256(str(i).encode()).digest() * (1 + i % 97)
    assert not [p for p in _walk(path) if os.path.basename(p).startswith(".tmp-")]
    if limit > 1 << 29:
        assert found == 300
    else:   # each writer bounds what it counted; the other's puts since its scan add up
        assert 0 < found < 300 and store.stats()["bytes"] <= 2 * limit


def test_keys_name_their_parts_the_environment_and_the_source():
    key = C.text_key(("sum", "float64", (3, 4)))
    assert key == C.text_key(("sum", "float64", (3, 4)))
    assert key != C.text_key(("sum", "float64", (4, 3)))
    assert F.environment_fingerprint() in key and F.source_fingerprint() in key
    with pytest.raises(TypeError, match="text_key: expected a tuple"):
        C.text_key(["sum"])


def test_the_environment_fingerprint_follows_jax_settings():
    before = F.environment_fingerprint()
    previous = jax.config.jax_default_matmul_precision
    jax.config.update("jax_default_matmul_precision", "highest")
    try:
        assert F.environment_fingerprint() != before
    finally:
        jax.config.update("jax_default_matmul_precision", previous)
    assert F.environment_fingerprint() == before


_SOURCE = "from laxarray._core.runtime import fingerprint as F; print(F.source_fingerprint())"


def test_an_edit_of_laxarray_changes_the_source_fingerprint(tmp_path):
    import laxarray
    copy = tmp_path / "laxarray"
    shutil.copytree(os.path.dirname(laxarray.__file__), copy,
                    ignore=shutil.ignore_patterns("__pycache__"))
    env = dict(os.environ, PYTHONPATH=str(tmp_path), PYTHONDONTWRITEBYTECODE="1")

    def fingerprint():
        out = subprocess.run([sys.executable, "-c", _SOURCE + "; print(F.__file__)"],
                             env=env, cwd=tmp_path, capture_output=True, text=True,
                             timeout=600)
        assert out.returncode == 0, out.stderr[-3000:]
        value, where = out.stdout.split()
        assert where.startswith(str(tmp_path))     # the copy, not the installed package
        return value

    first = fingerprint()
    assert first == fingerprint()
    with open(copy / "_core" / "errors.py", "a") as f:
        f.write("\n# edited\n")
    assert fingerprint() != first



# ---- the key parts, computed at import -----------------------------------------------------

_KEY_PARTS = """
import json
import laxarray
from laxarray._core.runtime import fingerprint as F
print(json.dumps({"source": F._SOURCE[:1], "machine": "machine" in F._FINGERPRINTS}))
F._SOURCE.clear()
print(json.dumps({"hashed": F.source_fingerprint()}))
"""


@pytest.mark.parametrize("store_on", [True, False])
def test_key_parts_are_computed_at_import_where_the_store_is_on(tmp_path, store_on):
    # a fresh process's first call must not pay the source hash (10-16 ms here) and
    # libtpu's version lookup (on the chip, 58 ms against 5-7 ms for the calls after it)
    env = dict(os.environ, LAXARRAY_COMPILATION_CACHE=str(tmp_path) if store_on else "0",
               LAXARRAY_STORE_HINT="0", LAXARRAY_PREFETCH="0")
    out = subprocess.run([sys.executable, "-c", _KEY_PARTS], env=env, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    at_import, again = (json.loads(line) for line in out.stdout.strip().splitlines()[-2:])
    assert at_import["machine"] is store_on
    assert at_import["source"] == ([again["hashed"]] if store_on else [])
