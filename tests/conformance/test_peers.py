"""The creation / data-type / inspection / constant / array-object (indexing) / set specs
are namespace-generic: run them against NumPy and array_api_strict too, so a spec that only
laxarray passes is caught.

Known non-conformances of the peers are listed with the reason (xfail: some are only hit
by a rare draw, so a passing run does not prove the peer conforms).
"""

import pytest
from hypothesis import HealthCheck, Phase, given, settings, strategies as st

from laxarray.conformance import SPECS

KINDS = ("creation", "data type", "inspection", "constant", "array object", "set")
KNOWN = {
    ("numpy", "finfo"): "np.finfo rejects arrays; float32 limits are NumPy scalars, not float",
    ("numpy", "iinfo"): "np.iinfo rejects arrays",
    ("numpy", "__array_namespace_info__"): "devices() returns a list (2024.12), not a tuple",
    ("array_api_strict", "asarray"): "a 0-d memoryview is read as a Python int",
    ("array_api_strict", "astype"): "refuses complex -> bool, which the standard specifies",
    ("array_api_strict", "__getitem__"): "only the standard's subset: integer arrays only with "
                                         "integers (no slices/None), one boolean mask",
    ("array_api_strict", "__setitem__"): "no integer-array (fancy) keys in __setitem__",
    ("array_api_strict", "isin"): "integer dtypes only (the standard says 'should'); "
                                  "isin(x, [], invert=True) gives False",
}
# the standard's specs only: NumPy-surface specs (extension "numpy") are not for
# array_api_strict, and NumPy is their oracle
CASES = [(ns, name) for ns in ("numpy", "array_api_strict") for name in sorted(SPECS)
         if SPECS[name].kind in KINDS and SPECS[name].extension != "numpy"]


@pytest.mark.parametrize("namespace,name", [
    pytest.param(ns, n, marks=pytest.mark.xfail(reason=KNOWN[(ns, n)], strict=False))
    if (ns, n) in KNOWN else (ns, n) for ns, n in CASES])
def test_peer_spec(namespace, name):
    xp = pytest.importorskip(namespace)

    # a known failure is not shrunk (shrinking only costs time there)
    phases = [Phase.generate] if (namespace, name) in KNOWN else list(Phase)

    @settings(max_examples=10, database=None, phases=phases,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(data=st.data())
    def run(data):
        SPECS[name].check(xp, data)

    run()
