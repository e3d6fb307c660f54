"""Calls on arrays committed to the home device are kept in the executable store.

scikit-learn's array-API code places new arrays on ``device(x)``; laxarray's host paths
and jax place results like their inputs, so a program's arrays are often committed to the
one device an uncommitted array would land on anyway.  Such calls have keys of their own
(the signature names the sharding) and are stored, loaded in a fresh process, recorded
(``LAXARRAY_RECORD``) and rebuilt by ``precompile --from``; a call on an array committed
to another device is not stored (``call_key.storable``).
"""

import json
import os
import subprocess
import sys
import textwrap

import jax
import numpy as np

from laxarray._core.runtime import call_key

MARK = "@@result@@ "

_CHILD = """
    import hashlib, json, warnings
    import jax
    import numpy as np
    import laxarray as xp
    from laxarray._core.runtime import kernel

    warnings.simplefilter("ignore")
    rng = np.random.default_rng(5)
    home = jax.devices()[0]
    a = xp.asarray(jax.device_put(rng.standard_normal((37, 5)), home))
    b = xp.asarray(jax.device_put(rng.standard_normal(5), home))
    assert a._v.committed and b._v.committed
    calls = {"sum": lambda: xp.sum(a, axis=0), "a * b + 1": lambda: a * b + 1.0,
             "matmul": lambda: a @ b, "sin": lambda: xp.sin(a), "mixed": lambda: a - xp.ones(5)}
    out = {k: hashlib.sha1(np.ascontiguousarray(np.asarray(f())).tobytes()).hexdigest()
           for k, f in calls.items()}
    out["_expected"] = {k: np.asarray(f()).tolist() for k, f in calls.items()}
    out["_built"] = kernel.compile_count() - kernel.load_count()
    out["_loaded"] = kernel.load_count()
    print("@@result@@ " + json.dumps(out))
"""


def _child(tmp_path, store, **extra):
    env = dict(os.environ, LAXARRAY_COMPILATION_CACHE=str(tmp_path / store),
               LAXARRAY_PORTABLE_STORE="0", LAXARRAY_STORE_HINT="0", LAXARRAY_PREFETCH="0",
               JAX_ENABLE_COMPILATION_CACHE="false", JAX_ENABLE_X64="1", **extra)
    for name in ("LAXARRAY_RECORD", "XLA_FLAGS") if "LAXARRAY_RECORD" not in extra else ():
        env.pop(name, None)
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(_CHILD)], env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.split(MARK)[-1].splitlines()[0])


def test_calls_on_arrays_committed_to_the_home_device_are_stored_and_recorded(tmp_path):
    record = tmp_path / "calls.jsonl"
    first = _child(tmp_path, "store", LAXARRAY_RECORD=str(record))
    assert first["_built"] > 0 and first["_loaded"] == 0
    second = _child(tmp_path, "store")
    assert second["_built"] == 0 and second["_loaded"] == first["_built"]
    results = {k: v for k, v in first.items() if not k.startswith("_")}
    assert {k: second[k] for k in results} == results
    # the oracle: NumPy, within float64 rounding
    rng = np.random.default_rng(5)
    a, b = rng.standard_normal((37, 5)), rng.standard_normal(5)
    expected = {"sum": a.sum(axis=0), "a * b + 1": a * b + 1.0, "matmul": a @ b,
                "sin": np.sin(a), "mixed": a - 1.0}
    for k, v in expected.items():
        np.testing.assert_allclose(np.asarray(first["_expected"][k]), v, rtol=1e-13,
                                   atol=1e-13)

    entries = [json.loads(line) for line in record.read_text().splitlines()]
    assert any(any(x[0] == "c" for x in e["sig"]) for e in entries)
    proc = subprocess.run([sys.executable, "-m", "laxarray.precompile", "--from", str(record),
                           "--jobs", "1"],
                          env=dict(os.environ, LAXARRAY_COMPILATION_CACHE=str(tmp_path / "pre"),
                                   LAXARRAY_PORTABLE_STORE="0", LAXARRAY_STORE_HINT="0",
                                   JAX_ENABLE_X64="1"),
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    rebuilt = _child(tmp_path, "pre")
    assert rebuilt["_built"] == 0 and rebuilt["_loaded"] == first["_built"]
    assert {k: rebuilt[k] for k in results} == results


def test_only_the_home_device_is_storable():
    home = jax.devices()[0]
    x = np.zeros(3)
    assert call_key.storable((jax.device_put(x), jax.device_put(x, home)))
    mesh = jax.sharding.Mesh(np.array(jax.devices()[:1]), ("i",))
    named = jax.device_put(x, jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec()))
    assert named.committed and not call_key.storable((named,))
    if len(jax.devices()) > 1:
        assert not call_key.storable((jax.device_put(x, jax.devices()[1]),))
