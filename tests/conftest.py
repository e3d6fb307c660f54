"""Hypothesis profiles: "ci" (derandomized, bounded; used by .ci/run) and "dev" (deeper)."""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", max_examples=25, derandomize=True, deadline=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile(
    "dev", max_examples=200, deadline=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))
