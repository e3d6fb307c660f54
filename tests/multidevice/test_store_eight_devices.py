"""The executable store in a process of 8 host devices: a second process loads what the
first wrote and gets the same results. A loaded executable was placed on every device of
the backend (jax's default) and then wanted 8 shards of a one-device argument."""

import json
import os
import subprocess
import sys
import textwrap

_CHILD = textwrap.dedent("""
    import json
    import numpy as np
    import laxarray as xp
    from laxarray._core.runtime import kernel

    a = np.arange(12.0).reshape(3, 4)
    x = xp.asarray(a)
    got = {"ones": np.asarray(xp.ones(5)).tolist() == np.ones(5).tolist(),
           "sum": float(xp.sum(x * 2.0 + 1.0)) == float((a * 2.0 + 1.0).sum()),
           "matmul": np.array_equal(np.asarray(x @ x.T), a @ a.T)}
    print(json.dumps({"ok": got, "loads": kernel.load_count(),
                      "compiles": kernel.compile_count()}))
""")


def test_a_second_process_loads_and_runs_on_eight_devices(tmp_path):
    env = dict(os.environ, LAXARRAY_COMPILATION_CACHE=str(tmp_path))
    assert "xla_force_host_platform_device_count=8" in env.get("XLA_FLAGS", "")
    runs = []
    for _ in range(2):
        proc = subprocess.run([sys.executable, "-c", _CHILD], env=env, capture_output=True,
                              text=True, timeout=600)
        assert proc.returncode == 0, proc.stderr[-3000:]
        runs.append(json.loads(proc.stdout.strip().splitlines()[-1]))
    assert all(all(r["ok"].values()) for r in runs), runs
    assert runs[0]["loads"] == 0 and runs[1]["loads"] == runs[1]["compiles"] > 0
