"""Hypothesis profiles: "ci" (derandomized, bounded; used by .ci/run) and "dev" (deeper)."""

import os

# SciPy reads this once, on first import; set before any test module imports SciPy
# (tests/clients needs it, and scikit-learn's array_api_dispatch requires it).
os.environ.setdefault("SCIPY_ARRAY_API", "1")

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", max_examples=20, derandomize=True, deadline=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile(
    "dev", max_examples=200, deadline=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


@pytest.fixture
def kernels_run(monkeypatch):
    """Spy on laxarray's ``@kernel`` kernels (``_core.kernel.Kernel``; the elementwise
    decorators jit theirs directly) for one test: returns ``ran(prefix="laxarray")``, the
    names of the kernels that ran so far whose defining module starts with ``prefix``."""
    from laxarray._core import kernel as _kernel
    ran = []
    original = _kernel.Kernel.bind

    def bind(self, static_items):  # record a kernel when it runs, not when it is looked up
        jitted = original(self, static_items)

        def run(*args):
            ran.append((self.fn.__module__, self.__name__))
            return jitted(*args)
        return run
    monkeypatch.setattr(_kernel.Kernel, "bind", bind)
    return lambda prefix="laxarray": [name for module, name in ran if module.startswith(prefix)]
