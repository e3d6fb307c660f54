"""Every conformance spec, run against laxarray under the active hypothesis profile."""

import pytest
from hypothesis import given, strategies as st

import laxarray
from laxarray.conformance import SPECS


@pytest.mark.parametrize("name", sorted(SPECS))
def test_spec(name):
    spec = SPECS[name]

    @given(data=st.data())
    def run(data):
        spec.check(laxarray, data)

    run()
