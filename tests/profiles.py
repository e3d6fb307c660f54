"""The hypothesis profile this run uses, read once: "ci" (derandomized, bounded; .ci/run),
"dev" (the default for local runs) or "deep" (make test-deep).  Test modules that size a
table by the profile read :data:`CI` or :data:`DEEP` from here (``from profiles import CI``:
pytest puts ``tests/`` on the path for its conftest), not the environment."""

import os

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "dev")
#: .ci/run: every kind still runs, the most compile-heavy tables take fewer rows
CI = PROFILE == "ci"
DEEP = PROFILE == "deep"
