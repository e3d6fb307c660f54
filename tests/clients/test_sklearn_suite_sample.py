"""A fixed sample of scikit-learn's own array-API tests, run on laxarray in CI.

``make test-sklearn`` runs scikit-learn's whole array-API selection on laxarray (through
``tests/peers/sklearn_plugin.py``, float64 and float32); CI runs these modules of it: the
ones that failed before laxarray followed NumPy's mutation model (views, threads writing
one array); the whole selection takes minutes.
"""

import os
import pathlib
import subprocess
import sys

PEERS = pathlib.Path(__file__).resolve().parents[1] / "peers"
SAMPLE = [
    "sklearn.mixture.tests.test_gaussian_mixture",      # writes through a reshape view
    "sklearn.metrics.tests.test_pairwise",              # threads write one output array
]


def test_scikit_learn_array_api_sample_passes():
    env = dict(os.environ, SCIPY_ARRAY_API="1", OPENBLAS_NUM_THREADS="1",
               PYTHONPATH=os.pathsep.join([str(PEERS), os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "sklearn_plugin", "-p", "no:cacheprovider",
         "-o", "addopts=",
         "-q", "--pyargs", *SAMPLE, "-k", "array_api or array_namespace"],
        env=env, capture_output=True, text=True, timeout=900, cwd=PEERS)
    tail = proc.stdout[-3000:]
    assert proc.returncode == 0, tail
    assert " passed" in tail and "failed" not in tail, tail
