"""A fixed sample of SciPy's own array-API tests, run on laxarray in CI.

``make test-scipy`` runs SciPy's whole array-API selection on laxarray (through
``tests/peers/scipy_plugin.py``); it takes tens of minutes.  CI runs this sample of it: the
test that needs NumPy's ``LinAlgError`` from ``linalg.solve`` (``RBFInterpolator``'s
``test_rank_error``), tests that take SciPy's ``devices`` fixture (which the plugin
repairs), and ``scipy.cluster``'s k-means tests.
"""

import os
import pathlib
import re
import subprocess
import sys

import scipy

PEERS = pathlib.Path(__file__).resolve().parents[1] / "peers"
SCIPY = pathlib.Path(scipy.__file__).resolve().parent
SAMPLE = [
    "interpolate/tests/test_rbfinterp.py::TestRBFInterpolatorNeighborsNone::test_rank_error",
    "stats/tests/test_device_dtype.py::test_describe",
    "stats/tests/test_device_dtype.py::test_zscore",
    "cluster/tests/test_vq.py",
]


def test_scipy_array_api_sample_passes():
    env = dict(os.environ, SCIPY_ARRAY_API="1", OPENBLAS_NUM_THREADS="1",
               PYTHONPATH=os.pathsep.join([str(PEERS), os.environ.get("PYTHONPATH", "")]))
    env.pop("SCIPY_ARRAY_NAMESPACE", None)
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "scipy_plugin", "-p", "no:cacheprovider",
         "-o", "addopts=", "-m", "array_api_backends", "-v", "-rfE",
         *(str(SCIPY / test) for test in SAMPLE)],
        env=env, capture_output=True, text=True, timeout=900, cwd=PEERS)
    tail = proc.stdout[-3000:]
    assert proc.returncode == 0, tail
    summary = proc.stdout.strip().splitlines()[-1]
    passed = re.search(r"(\d+) passed", summary)
    assert passed and int(passed.group(1)) >= 30, summary
    assert "failed" not in summary and "error" not in summary, summary
    assert re.search(r"test_rank_error\[laxarray\] PASSED", proc.stdout), tail
    assert re.search(r"test_describe\[laxarray-float64\] PASSED", proc.stdout), tail
