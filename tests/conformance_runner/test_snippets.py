"""Self-contained reproductions: a deliberately broken namespace (a module over
array_api_compat.numpy with a few functions broken) fails specs; each failure's snippet,
run in a fresh interpreter, fails with an AssertionError (or raises the spec's error) on
the broken namespace and passes on the correct one -- without laxarray or hypothesis.
"""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from laxarray.conformance import (SPECS, ConformanceError, compare, report, runner,
                                 snippets, tolerances)

cnp = pytest.importorskip("array_api_compat.numpy")

BROKEN_SOURCE = '''
"""array_api_compat.numpy with a few functions broken (the conformance runner's tests)."""
import numpy as np
import array_api_compat.numpy as _base

globals().update({k: getattr(_base, k) for k in dir(_base)
                  if not k.startswith("_") or k == "__array_namespace_info__"})


def sin(x, /):  # NaN not propagated: sin(nan) is 0
    out = _base.sin(x)
    return np.where(np.isnan(x), np.zeros((), out.dtype), out) if x.dtype.kind == "f" else out


def negative(x, /):  # negative(0.0) is 0.0, not -0.0
    out = _base.negative(x)
    return np.where(x == 0, x, out).astype(out.dtype) if x.dtype.kind == "f" else out


def argmax(x, /, *, axis=None, keepdims=False):  # ties: the last maximum, not the first
    idx = np.argmax(np.flip(x, axis=axis), axis=axis, keepdims=keepdims)
    return np.asarray((x.size if axis is None else x.shape[axis]) - 1 - idx)


def add(x1, x2, /):  # no promotion: x1's dtype
    return _base.add(x1, x2).astype(x1.dtype)


def sqrt(x, /):  # refuses float32
    if x.dtype == np.float32:
        raise TypeError("sqrt: float32 not supported")
    return _base.sqrt(x)
'''

#: spec -> (max_examples, shrink, expected status): a handful of bugs of different kinds
CASES = {
    "sin": (30, False, "fail"),        # NaN not propagated
    "negative": (30, True, "fail"),    # sign of zero (compares a selection: postfilter)
    "argmax": (20, True, "fail"),      # wrong value on ties
    "add": (20, False, "fail"),        # wrong result dtype
    "sqrt": (20, False, "error"),      # an unexpected exception
}


@pytest.fixture(scope="module")
def broken_module(tmp_path_factory):
    """The broken namespace as an importable module ``broken_ns`` in a temp directory."""
    folder = tmp_path_factory.mktemp("broken")
    (folder / "broken_ns.py").write_text(BROKEN_SOURCE)
    sys.path.insert(0, str(folder))
    try:
        import broken_ns
        yield folder, broken_ns
    finally:
        sys.path.remove(str(folder))
        sys.modules.pop("broken_ns", None)


def run_snippet(source, folder):
    """Run ``source`` in a fresh interpreter with ``folder`` importable."""
    env = dict(os.environ, PYTHONPATH=str(folder))
    return subprocess.run([sys.executable, "-c", source], capture_output=True, text=True,
                          env=env, timeout=120)


@pytest.fixture(scope="module")
def results(broken_module):
    _, ns = broken_module
    out = {}
    for name, (n, shrink, _) in CASES.items():
        for seed in range(6):  # a few seeds: finding the bug is not what is tested here
            out[name] = runner.run_spec(ns, SPECS[name], max_examples=n, seed=seed,
                                        namespace_label="broken_ns", shrink=shrink)
            if out[name].status != "pass":
                break
    return out


@pytest.mark.parametrize("name", sorted(CASES))
def test_snippet_fails_on_broken_and_passes_on_correct(name, results, broken_module):
    folder, _ = broken_module
    result = results[name]
    assert result.status == CASES[name][2], (result.status, result.message)
    assert result.standalone, result.snippet
    source = result.snippet
    assert "import_module('broken_ns')" in source
    broken = run_snippet(source, folder)
    assert broken.returncode != 0
    if result.status == "fail":
        assert "AssertionError" in broken.stderr, broken.stderr
        assert f"{name}:" in broken.stderr.splitlines()[-1]
    else:
        assert "TypeError: sqrt: float32 not supported" in broken.stderr, broken.stderr
    # the same snippet on the correct namespace passes, importing neither laxarray nor
    # hypothesis
    correct = source.replace("import_module('broken_ns')",
                             "import_module('array_api_compat.numpy')")
    correct += ("\nimport sys\nassert not {'laxarray', 'hypothesis'} & set(sys.modules), "
                "sorted(sys.modules)\n")
    ok = run_snippet(correct, folder)
    assert ok.returncode == 0, ok.stderr


def test_floating_inputs_are_exact_bytes(results):
    # NaN and signed zeros: the inputs are written as bytes, not decimal text
    for name in ("sin", "negative"):
        assert 'np.frombuffer(bytes.fromhex("' in results[name].snippet


def test_snippet_keeps_the_hypothesis_replay(results):
    source = results["negative"].snippet
    # (found by a boundary example, issue 40: the replay runs the spec under its plan)
    assert "minimal failing boundary example" in source
    assert "REPLAY = False" in source and "PLANS = [" in source
    assert "boundaries.check_batch(SPECS['negative'], xp, data, PLANS)" in source
    compile(source, "<snippet>", "exec")


def test_report_formats_carry_the_snippet(results):
    run = runner.Run("broken_ns", "2025.12", 0, 60, results=[results["sin"]])
    assert results["sin"].snippet in report.failures_text(run)
    assert '"standalone": true' in report.to_json([run])
    assert "np.frombuffer(bytes.fromhex(" in report.to_html([run])


def test_no_reproduction_without_an_oracle_value():
    source, why = snippets.reproduction(cnp, "array_api_compat.numpy", "add",
                                        ConformanceError("add: no error"), [])
    assert source is None and "spec's own" in why


@pytest.mark.parametrize("measure", tolerances.MEASURES)
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "int16", "bool"])
def test_inline_check_agrees_with_assert_values(dtype, measure):
    values_bad = snippets.helper_functions("values_bad")["values_bad"]
    rng = np.random.default_rng(0)
    special = np.array([0.0, -0.0, np.nan, np.inf, -np.inf, 1.0, 1e-40, -2.5])
    for trial in range(30):
        e = rng.choice(special, 6).astype(dtype) if dtype != "bool" else rng.random(6) < .5
        if np.dtype(dtype).kind == "c":
            e = e + 1j * rng.choice(special, 6).astype(dtype)
        a = e.copy()
        k = rng.integers(0, 6)
        if trial % 2:
            a[k] = rng.choice(special).astype(dtype) if dtype != "bool" else not a[k]
        for rel, signed in ((0.0, True), (4.0, False)):
            bound = tolerances.Bound(rel=rel, measure=measure)
            try:
                compare.assert_values("f", a, e, bound=bound, signed_zeros=signed)
                passed = True
            except ConformanceError as err:
                passed = False
                d = err.details
                assert d["measure"] == measure
                assert values_bad(a, e, d["rtol"], d["atol"], d["signed_zeros"],
                                  d["measure"]).any()
            if passed:
                eps = np.finfo(a.real.dtype).eps if a.dtype.kind in "fc" else 0.0
                assert not values_bad(a, e, rel * eps, 0.0, signed, measure).any()


def test_snippet_source_is_plain_numpy():
    # the pasted helpers only use NumPy
    for name, source in snippets.HELPERS.items():
        assert "laxarray" not in source and "import" not in textwrap.dedent(source), name
