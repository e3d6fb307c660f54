"""Hypothesis profiles: "ci" (derandomized, bounded; .ci/run), "dev" (the default for local
runs) and "deep" (make test-deep)."""

import os

# SciPy reads this once, on first import; set before any test module imports SciPy
# (tests/clients needs it, and scikit-learn's array_api_dispatch requires it).
os.environ.setdefault("SCIPY_ARRAY_API", "1")

import jax
import pytest
from hypothesis import HealthCheck, settings
from profiles import PROFILE

# ci: derandomized and bounded, so `make test` fits its 10 minutes on the 2-core CI machine
# (most examples compile new programs there -- the store starts empty --: compiling and
# lowering are ~75% of the suite's time; 6 examples, not 10, since stop 47 took 605 s and
# a local run at 8 still came to about 595 s of CI time); dev and deep search
settings.register_profile(
    "ci", max_examples=6, derandomize=True, deadline=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile(
    "deep", max_examples=1000, deadline=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile(
    "dev", max_examples=200, deadline=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.load_profile(PROFILE)


@pytest.fixture(autouse=True, scope="session")
def _ci_draws_do_not_depend_on_imports():
    """Under the ci profile, hypothesis draws none of the constants it collects from the
    modules a worker happened to import before (they made a derandomized example depend on
    how pytest-xdist spread the files); dev and deep keep them."""
    if settings.default.derandomize:
        from laxarray.conformance.spec import without_local_constants
        with without_local_constants():
            yield
    else:
        yield

# tests/multidevice runs in its own process, on 8 host devices, and tests/platform_tpu in
# its own with the TPU's backend record (make test starts both)
collect_ignore = []
if "xla_force_host_platform_device_count" not in os.environ.get("XLA_FLAGS", ""):
    collect_ignore.append("multidevice")
if "tpu" not in (os.environ.get("LAXARRAY_PLATFORM", "") + os.environ.get("JAX_PLATFORMS", "")):
    collect_ignore.append("platform_tpu")


@pytest.fixture
def kernels_run():
    """Spy on every laxarray kernel run (``_core.runtime.kernel.spy``) for one test: returns
    ``ran(prefix="laxarray")``, the names of the kernels that ran so far whose defining
    module starts with ``prefix``."""
    from laxarray._core.runtime import kernel as _kernel
    with _kernel.spy() as ran:
        yield lambda prefix="laxarray": [kid.name for kid in ran
                                         if kid.module.startswith(prefix)]


@pytest.fixture
def jax_x64():
    """The test's own jax code is a 64-bit jax program: jax's 64-bit mode on (in this
    thread) for the test, as a user who turned it on would have it.  Its ``jax.numpy``
    oracles and the NumPy float64 arguments it gives ``jax.jit``/``vmap``/``grad`` stay
    float64.  laxarray needs nothing of it (it runs in 64-bit mode whatever the user's,
    ``docs/jax_interop.md``): the tests without it are a 32-bit user's program, jax's
    default, and ``tests/test_jax_interop.py`` tests that user's jax code beside laxarray."""
    with jax.enable_x64(True):
        yield
