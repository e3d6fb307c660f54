"""Tests on several devices: run in their own pytest process (``make test`` starts it) with
``XLA_FLAGS=--xla_force_host_platform_device_count=8``; tests/conftest.py leaves this folder
out of a run that lacks the flag, and this file refuses one whose flag did not take."""

import jax
import numpy as np
import pytest
from jax.sharding import Mesh, NamedSharding, PartitionSpec

if len(jax.devices()) < 8:
    raise RuntimeError("tests/multidevice needs XLA_FLAGS=--xla_force_host_platform_device_count=8 "
                       f"(jax sees {len(jax.devices())} device(s))")


@pytest.fixture(scope="session")
def mesh():
    """A one-axis mesh ``("x",)`` over the 8 host devices."""
    return Mesh(np.array(jax.devices()[:8]), ("x",))


@pytest.fixture(scope="session")
def rows(mesh):
    """Rows split over the mesh axis."""
    return NamedSharding(mesh, PartitionSpec("x"))
