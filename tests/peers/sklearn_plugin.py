"""pytest plugin: scikit-learn's own array-API tests, run on laxarray (or another namespace).

scikit-learn parametrizes its array-API tests over a hard-coded list of namespaces
(``sklearn.utils._array_api.yield_namespaces`` and ``yield_namespace_device_dtype_combinations``:
numpy, array_api_strict, cupy, torch, dpnp).  This plugin replaces both before the test
modules are collected, so that every such test runs on ``laxarray`` in float64 and float32
-- the ones the default device has: float32 alone on a TPU --
(``SKLEARN_ARRAY_NAMESPACE=array_api_strict`` runs the same selection on array_api_strict,
for comparison).  Used by ``make test-sklearn``:

    SCIPY_ARRAY_API=1 PYTHONPATH=tests/peers python -m pytest -p sklearn_plugin \\
        --pyargs sklearn -k "array_api or array_namespace"
"""

import os

import pytest
import sklearn.utils._array_api as _array_api

NAMESPACE = os.environ.get("SKLEARN_ARRAY_NAMESPACE", "laxarray")


def _namespaces(include_numpy_namespaces=True):
    yield NAMESPACE


def _combinations(include_numpy_namespaces=True):
    if NAMESPACE == "array_api_strict":  # scikit-learn's own pairs for it
        yield NAMESPACE, "CPU_DEVICE", "float64"
        yield NAMESPACE, "device1", "float32"
        return
    # the dtypes the default device has (no float64 on a TPU: scikit-learn's own pairs for
    # such a device, torch on "mps", are float32 alone)
    import importlib
    dtypes = importlib.import_module(NAMESPACE).__array_namespace_info__().dtypes()
    for name in ("float64", "float32"):
        if name in dtypes:
            yield NAMESPACE, None, name


_array_api.yield_namespaces = _namespaces
_array_api.yield_namespace_device_dtype_combinations = _combinations


@pytest.hookimpl(trylast=True)     # after -k has deselected: shares of what runs
def pytest_collection_modifyitems(config, items):
    """``SKLEARN_SHARD=K/N`` keeps the K-th of N contiguous shares of the selected tests (a
    whole run on a TPU is longer than one device call; contiguous shares keep a module's
    tests, and the programs they share, together).  ``SKLEARN_SHARD=K/N+M`` leaves out the
    share's first M tests (the rest of a share a device call's limit cut off)."""
    shard = os.environ.get("SKLEARN_SHARD", "").strip()
    if not shard:
        return
    shard, _, skip = shard.partition("+")
    k, n = (int(v) for v in shard.split("/"))
    if not 1 <= k <= n:
        raise ValueError(f"SKLEARN_SHARD: expected K/N with 1 <= K <= N; got {shard!r}")
    size = -(-len(items) // n)
    keep = items[(k - 1) * size:k * size][int(skip or 0):]
    config.hook.pytest_deselected(items=[i for i in items if i not in keep])
    items[:] = keep
