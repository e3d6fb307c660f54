"""Hypothesis profiles: "ci" (derandomized, bounded; used by .ci/run) and "dev" (deeper)."""

import os

# SciPy reads this once, on first import; set before any test module imports SciPy
# (tests/clients needs it, and scikit-learn's array_api_dispatch requires it).
os.environ.setdefault("SCIPY_ARRAY_API", "1")

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", max_examples=20, derandomize=True, deadline=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile(
    "dev", max_examples=200, deadline=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))
