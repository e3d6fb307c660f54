"""Coverage by construction (issue 40): the boundary examples each spec runs before its
random phase, and the coverage record the reports carry."""

import io
import json
import textwrap

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.errors import DidNotReproduce

from laxarray.conformance import SPECS, boundaries, promotion, runner, strategies as S
from laxarray.conformance.__main__ import main
from laxarray.conformance.special_cases_check import functions_only

cnp = pytest.importorskip("array_api_compat.numpy")

import test_broken_namespaces as more  # noqa: E402  (this folder is on sys.path)


def test_options_reads_the_strategies_it_can():
    assert boundaries.options(st.integers(-2, 2)) == (-2, -1, 0, 1, 2)
    assert boundaries.options(st.booleans()) == (False, True)
    assert boundaries.options(st.sampled_from(["fro", "nuc"])) == ("fro", "nuc")
    assert boundaries.options(st.one_of(st.none(), st.integers(0, 2))) == (None, 0, 1, 2)
    assert boundaries.options(st.integers(0, 3).map(str)) is None  # mapped: unreadable
    assert boundaries.options(st.integers(0, 10 ** 6)) == (0, 1, 10 ** 6)
    axes = boundaries.options(S.axes(3))
    assert None in axes and -3 in axes and 2 in axes and (0, 1, 2) in axes


def test_steering_keeps_to_what_the_strategy_draws():
    seen = []

    @settings(max_examples=20, database=None)
    @given(st.data())
    def check(data):
        steered = boundaries.Steered(data, {"k": ("=", 7), "ord": ("=", "nuc"),
                                            "@shape": "batch", "@dtype": "floating"})
        k = steered.draw(st.integers(-5, 5), label="k")  # 7 is not an option: drawn
        ord_ = steered.draw(st.sampled_from(["fro", "nuc"]), label="ord")
        shape = steered.draw(S.shapes(min_dims=2, max_dims=3, max_side=4), label="shape")
        dtype = steered.draw(S.dtypes("numeric"), label="dtype")
        seen.append((k, ord_, shape, dtype))

    check()
    assert all(-5 <= k <= 5 for k, *_ in seen)
    assert {o for _, o, _, _ in seen} == {"nuc"}
    assert {s for *_, s, _ in seen} == {(2, 2, 3)}  # batch: leading sides 2
    assert {d for *_, d in seen} == {"float32"}


def _run(ns, name, seed=0, **kw):
    with functions_only():
        return runner.run_spec(ns, SPECS[name], seed=seed, **kw)


def test_binary_spec_covers_every_promotable_pair():
    result = _run(cnp, "add")
    assert result.status == "pass", result.message
    pairs = {f"{a}+{b}" for a in S.NUMERIC for b in S.NUMERIC if promotion.defined(a, b)}
    assert len(pairs) == 72
    assert set(result.coverage["dtype pairs"]) == pairs
    assert result.coverage["boundary examples"] >= 72


def test_reduction_covers_shapes_axes_ties_and_specials():
    cov = _run(cnp, "sum").coverage
    assert {"empty", "size 1", "batch"} <= set(cov["sizes"])
    assert {"0", "1", "2", "3"} <= set(cov["ranks"])
    assert {"None", "negative", "tuple", "keepdims"} <= set(cov["axes"])
    assert "repeated values" in cov["ties"]
    assert {"NaN", "+inf", "-inf", "-0.0"} <= set(cov["special values"])
    assert set(cov["dtypes"]) == set(S.NUMERIC)
    tril = _run(cnp, "tril").coverage
    assert {"k<0", "k>0"} <= set(tril["offsets"])


def test_no_boundary_examples_where_they_mean_nothing():
    for spec in SPECS.values():
        if spec.kind in boundaries.NO_BOUNDARIES:
            # (but a utility its axis shapes, tagged so: diff, issue 74)
            assert boundaries.applies(spec) == ("boundaries" in spec.tags), spec.name
    assert boundaries.applies(SPECS["diff"])
    assert boundaries.applies(SPECS["add"]) and boundaries.applies(SPECS["linalg.solve"])
    result = _run(cnp, "add", boundary=False)
    assert "boundary examples" not in result.coverage or \
        result.coverage["boundary examples"] == 0


def test_a_failing_boundary_example_shrinks_and_replays_its_plan():
    # nuc = fro differs only on matrices of rank 2 or more: at seed 6 the random phase
    # draws none, the boundary example of ord='nuc' (2 x 3 matrices) does
    name, ns = more._case("matrix_norm nuc is fro")
    result = runner.run_spec(ns, SPECS[name], seed=6, namespace_label="broken")
    assert result.status == "fail", result.message
    assert "minimal failing boundary example" in result.snippet
    assert "PLANS = [" in result.snippet and "boundaries.check_batch(SPECS[" in result.snippet
    if result.standalone:  # the replay follows a self-contained reproduction
        replay = textwrap.dedent(result.snippet.split("if REPLAY:\n", 1)[1])
    else:
        replay = result.snippet.replace("xp = importlib.import_module('broken')", "")
    with pytest.raises(AssertionError):
        exec(replay, {"xp": ns})  # the plan's example, replayed, fails again ...
    with pytest.raises(DidNotReproduce):  # ... and passes on the namespace without the
        exec(replay, {"xp": more.cnp})    # bug (hypothesis: the blob did not fail there)


def test_reports_carry_the_coverage_record(tmp_path):
    jpath, hpath = tmp_path / "r.json", tmp_path / "r.html"
    out = io.StringIO()
    status = main(["--namespace", "array_api_compat.numpy", "--functions", "argmax,abs",
                   "--seed", "1", "--no-progress", "--json", str(jpath), "--html",
                   str(hpath)], stdout=out)
    assert status == 0
    rows = [line for line in out.getvalue().splitlines() if line.startswith("argmax ")]
    assert rows and "boundary examples" in rows[0] and "axes" in rows[0]
    record = {r["name"]: r for r in json.loads(jpath.read_text())["runs"][0]["results"]}
    cov = record["argmax"]["coverage"]
    assert cov["boundary examples"] > 0 and "repeated values" in cov["ties"]
    assert set(cov) <= {"boundary examples", *boundaries_headings()}
    page = hpath.read_text()
    assert "<th>covered</th>" in page and 'class="n cov"' in page
    assert "special values: " in page  # the hover title lists every heading


def boundaries_headings():
    from laxarray.conformance import coverage
    return coverage.HEADINGS


def test_coverage_classes_of_one_example():
    from laxarray.conformance import coverage
    x = np.array([[np.nan, -0.0, 1.0], [1.0, np.inf, 2.0]])
    got = coverage.classes([("dtypes", ("int8", "uint8")), ("x", x), ("axis", -1),
                            ("keepdims", True), ("k", -2), ("batch", (2, 3))])
    assert got["dtype pairs"] == {"int8+uint8"} and got["dtypes"] == {"int8", "uint8"}
    assert got["ranks"] == {"2"} and got["ties"] == {"repeated values"}
    assert got["special values"] == {"NaN", "-0.0", "+inf"}
    assert got["axes"] == {"negative", "keepdims"} and got["offsets"] == {"k<0"}
    assert got["sizes"] == {"batch"}
