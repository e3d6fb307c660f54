"""complex64 ``tanh`` and ``tan`` next to the poles of ``tan(b)``: within an ulp of NumPy's
complex128 result on the CPU (computed in complex128 there; XLA's complex64 tanh was 1.8e5
ulps off).  The TPU's record (no complex128) is checked in tests/platform_tpu."""

import numpy as np
import pytest

import laxarray as xp
from laxarray._core import backend

pytestmark = pytest.mark.skipif(not backend.current().supports(np.complex128),
                                reason="the backend has no complex128")


def _points():
    rng = np.random.default_rng(4)
    n = 20_000
    a = np.concatenate([rng.uniform(-3, 3, n), rng.normal(0, 0.01, n)])
    b = np.concatenate([rng.uniform(-4, 4, n), np.pi / 2 + rng.normal(0, 1e-3, n)])
    return (a + 1j * b).astype(np.complex64)


@pytest.mark.parametrize("name", ["tanh", "tan"])
def test_complex64_within_one_ulp_next_to_the_poles(name):
    z = _points()
    got = np.asarray(getattr(xp, name)(xp.asarray(z)))
    want = getattr(np, name)(z.astype(np.complex128))
    for part in (np.real, np.imag):
        r = part(want)
        ok = np.abs(r) >= np.finfo(np.float32).tiny
        ulp = np.spacing(np.abs(r[ok]).astype(np.float32)).astype(np.float64)
        assert np.max(np.abs(part(got)[ok] - r[ok]) / ulp) <= 1.0
