"""Checks several test files share (imported as ``from checks import ...``: tests/ is on the
path, as for ``rounding``)."""

import numpy as np
import pytest


def fd_grad(f, x, h=1e-6):
    """Central differences of the scalar ``f`` (NumPy in, float out) at ``x``."""
    g = np.zeros_like(x)
    for idx in np.ndindex(x.shape):
        e = np.zeros_like(x)
        e[idx] = h
        g[idx] = (f(x + e) - f(x - e)) / (2 * h)
    return g


def raises_before_kernels(name, exc, call, kernels_run, package):
    """``call()`` raises ``exc`` with a message naming ``name`` first, and no kernel of
    ``package`` ran (building the arguments may run creation kernels)."""
    with pytest.raises(exc) as info:
        call()
    assert str(info.value).startswith(f"{name}:"), str(info.value)
    assert kernels_run(package) == []
