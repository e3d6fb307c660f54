"""A kernel body carries a numerics workaround only where the platform XLA compiles for has
the quirk it works around (``Backend.quirks``, read through ``numerics.quirk``).

Each workaround is traced under every platform's record (``backend.compiling`` patched to
return it) and its program is read: the fma barrier is a ``select`` of ``p == p``, the kept
divisor an ``optimization_barrier``, the NaN test of a float max a second reduction
(``reduce_or``).  What each record lists is measured: on the CPU by the rest of the suite (NumPy's
results: ``test_nan_extremes``, the rounding tests), on the chip by ``tools/device/tpu_probe.py``
("cpu quirks", ``docs/accelerators.md``).
"""

import numpy as np
import pytest

import jax

from laxarray._core import backend, numerics

RECORDS = {name: backend.for_platform(name) for name in ("cpu", "gpu", "tpu")}


def _primitives(fn, *args):
    return {eqn.primitive.name for eqn in jax.make_jaxpr(fn)(*args).eqns}


def _under(monkeypatch, record):
    monkeypatch.setattr(backend, "compiling", lambda: record)


@pytest.mark.parametrize("platform", sorted(RECORDS))
def test_the_fma_barrier_follows_the_record(monkeypatch, platform):
    record = RECORDS[platform]
    _under(monkeypatch, record)
    a = np.ones(8, np.float32)
    prims = _primitives(lambda a, b, c: numerics.rounded(a * b) + c, a, a, a)
    assert ("select_n" in prims) == ("fma" in record.quirks)


@pytest.mark.parametrize("platform", sorted(RECORDS))
def test_the_kept_divisor_follows_the_record(monkeypatch, platform):
    record = RECORDS[platform]
    _under(monkeypatch, record)
    prims = _primitives(lambda a, d: numerics.exact_div(a, d), np.ones(8, np.float32),
                        np.float32(3))
    assert ("optimization_barrier" in prims) == ("reciprocal" in record.quirks)
    # integers never take it: their division is exact everywhere
    prims = _primitives(lambda a, d: numerics.exact_div(a, d), np.ones(8, np.int32),
                        np.int32(3))
    assert "optimization_barrier" not in prims


@pytest.mark.parametrize("platform", sorted(RECORDS))
@pytest.mark.parametrize("find_max", [True, False])
def test_the_nan_test_follows_the_record(monkeypatch, platform, find_max):
    record = RECORDS[platform]
    _under(monkeypatch, record)
    x = np.ones((4, 5000), np.float32)
    prims = _primitives(lambda x: numerics.reduce_extreme(x, (1,), find_max), x)
    assert ("reduce_or" in prims) == ("nan_extremes" in record.quirks)


def test_a_quirk_is_read_from_the_compiling_platform_not_the_semantics(monkeypatch):
    """``LAXARRAY_PLATFORM=tpu`` on a CPU gives the TPU's dtypes but XLA:CPU still compiles:
    the workarounds are the compiler's, so they stay."""
    monkeypatch.setattr(backend, "current", lambda: RECORDS["tpu"])
    monkeypatch.setattr(backend, "compiling", lambda: RECORDS["cpu"])
    assert numerics.quirk("fma") and numerics.quirk("nan_extremes")
