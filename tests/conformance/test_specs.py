"""Every conformance spec, run against laxarray under the active hypothesis profile (and
its pinned examples: the reductions' large size class).

Specs of the NumPy surface (extension "numpy") run with at most ``NUMPY_SURFACE_EXAMPLES``
examples under the ``ci`` profile, to keep the CI suite within its time budget; the ``dev``
profile runs them as deep as the standard's.
"""


import pytest
from hypothesis import given, settings, strategies as st

import laxarray
from laxarray.conformance import SPECS
from laxarray.conformance.spec import Pinned
from profiles import CI

NUMPY_SURFACE_EXAMPLES = 6


def _max_examples(spec):
    default = settings.default.max_examples
    if spec.extension == "numpy" and CI:
        return min(default, NUMPY_SURFACE_EXAMPLES)
    return default


@pytest.mark.parametrize("name", sorted(SPECS))
def test_spec(name):
    spec = SPECS[name]

    @settings(max_examples=_max_examples(spec))
    @given(data=st.data())
    def run(data):
        spec.check(laxarray, data)

    run()


@pytest.mark.parametrize("name", sorted(n for n, spec in SPECS.items() if spec.pinned))
def test_pinned_examples(name):
    spec = SPECS[name]
    for _, draws in spec.pinned_examples():
        spec.check(laxarray, Pinned(draws))
