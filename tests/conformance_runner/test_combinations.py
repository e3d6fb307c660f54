"""Coverage of combinations (issue 56): value classes crossed with the code paths they met,
in the coverage record and the reports, and in the boundary phase's plans."""

import html
import io
import json

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from laxarray.conformance import SPECS, boundaries, coverage, runner, strategies as S
from laxarray.conformance.__main__ import main
from laxarray.conformance.special_cases_check import functions_only

cnp = pytest.importorskip("array_api_compat.numpy")

import test_broken_namespaces as more  # noqa: E402  (this folder is on sys.path)


def test_an_example_files_its_value_classes_under_its_path():
    x = np.array([1.0, 2.0, 1.0])  # a tie ...
    placed = np.array([1.0, np.nan, 3.0])  # ... that the placed array no longer has
    path, found = coverage.combination([("dtype", "float64"), ("shape", (3,)), ("x", x),
                                        ("axis", None), ("x placed", placed),
                                        ("keepdims", True)])
    assert path == ("1-D", "axis=None", "keepdims")
    assert found == {"any", "NaN"}
    path, found = coverage.combination([("x", np.zeros((2, 2))), ("axis", -1)])
    assert path == ("n-D", "axis<0") and "ties" in found and "-0.0" not in found
    path, found = coverage.combination([("x", np.array(-0.0))])
    assert path == ("0-d",) and found == {"any", "size 1", "-0.0"}
    path, found = coverage.combination([("x", np.arange(3)), ("explicit axis", False)])
    assert path == ("1-D", "axis=None") and found == {"any"}
    assert coverage.combination([("n", 3), ("dtype", "int8")]) == (None, set())


def test_the_table_names_the_combinations_not_met():
    record = coverage.Record()
    record.add([("x", np.array([[1, 1], [2, 3]])), ("axis", -1), ("keepdims", False)])
    record.add([("x", np.array([1, 2, 3])), ("axis", None), ("keepdims", False)])
    record.add([("x", np.array(5)), ("axis", None), ("keepdims", False)])
    # the headings alone say "ties: met" ...
    assert record.as_dict()["ties"] == ["repeated values"]
    table = record.table()  # ... the table says where
    assert table["paths"] == ["0-d x axis=None x no keepdims", "1-D x axis=None x no keepdims",
                              "n-D x axis<0 x no keepdims"]
    assert table["rows"]["any"] == dict.fromkeys(table["paths"], 1)
    assert table["rows"]["ties"] == {"n-D x axis<0 x no keepdims": 1}
    assert "ties x 1-D x axis=None x no keepdims" in table["not met"]
    assert not any(m.startswith("ties x 0-d") for m in table["not met"])  # cannot occur
    assert coverage.met(table, "ties", "n-D") == 1
    assert coverage.met(table, "ties", "1-D", "axis=None") == 0
    assert coverage.Record().table() == {}


def _seen(name):
    """The draws of spec ``name`` that its first boundary plan meets."""
    seen = {}

    @settings(max_examples=1, database=None)
    @given(st.data())
    def first(data):
        with functions_only():
            boundaries.check(SPECS[name], cnp, data, boundaries.plans({}, 0)[0], seen=seen)

    first()
    return seen


@pytest.mark.parametrize("name", ["argmax", "sum", "argsort", "cumulative_sum"])
def test_crossed_plans_put_every_value_class_on_every_path(name):
    seen = _seen(name)
    plans = boundaries.crossed(seen)
    assert plans and all(p in boundaries.plans(seen, 1) for p in plans)
    path_keys = ("@shape", "@axis") + tuple(boundaries.keywords(seen))  # (keepdims too)
    cls = lambda p: tuple(sorted((k, v) for k, v in p.items()  # noqa: E731
                                 if k not in path_keys))
    classes = {cls(p) for p in plans}
    paths = {(p["@shape"], p["@axis"]) for p in plans}
    placements = {v[1] for p in plans for k, v in p.items()
                  if isinstance(v, tuple) and v[0] == "placement" and v[1] != "as drawn"}
    placed = [info[1] for kind, info in seen.values() if kind == "placed"]
    assert placements == {k for kinds in placed for k in kinds if k != "as drawn"}
    assert {p.get("@array") for p in plans} >= {"extreme ties", "special ties"}
    assert {"1d", "batch"} <= {shape for shape, _ in paths}
    met = {(cls(p), p["@shape"], p["@axis"]) for p in plans}
    for c in classes:  # every class on every path
        for shape, axis in paths:
            assert (c, shape, axis) in met, (c, shape, axis)
    others = [p for p in plans if p.get("@array") != "extreme ties"]
    assert len(others) == len({(cls(p), p["@shape"], p["@axis"]) for p in others})  # and
    # once, but the plain class (ties of moderate values): once more per keyword value
    if "keepdims" in seen:  # keepdims both ways for each class and each path
        for c in classes:
            assert {p["keepdims"][1] for p in plans if cls(p) == c} == {False, True}
        for path in paths:
            assert {p["keepdims"][1] for p in plans
                    if (p["@shape"], p["@axis"]) == path} == {False, True}


@pytest.mark.parametrize("name,keyword", [("argsort", "descending"), ("sort", "descending"),
                                          ("cumulative_sum", "include_initial"),
                                          ("cumulative_prod", "include_initial"),
                                          ("searchsorted", "side"),
                                          ("linalg.vector_norm", "ord")])
def test_crossed_plans_meet_every_keyword_value_with_every_class_and_path(name, keyword):
    seen = _seen(name)
    enum = boundaries.keywords(seen)
    assert keyword in enum and len(enum[keyword]) >= 2
    plans = boundaries.crossed(seen)
    assert plans and all(p in boundaries.plans(seen, 1) for p in plans)
    keys = set(enum) | {"@shape", "@axis"}
    cls = lambda p: tuple(sorted((k, v) for k, v in p.items()  # noqa: E731
                                 if k not in keys))
    path = lambda p: (p["@shape"], p.get("@axis"))  # noqa: E731
    classes, paths = {cls(p) for p in plans}, {path(p) for p in plans}
    assert len(classes) >= 2 and {shape for shape, _ in paths} >= {"1d", "batch"}
    # every pair of dimensions meets: each class and each path with each keyword's values,
    # each keyword's values with each other keyword's
    for label, values in enum.items():
        for v in values:
            with_v = [p for p in plans if p[label] == ("=", v)]
            assert {cls(p) for p in with_v} == classes, (label, v)
            assert {path(p) for p in with_v} == paths, (label, v)
            for other, others in enum.items():
                if other != label:
                    assert {p[other][1] for p in with_v} >= set(others), (label, v, other)
    # each path with each keyword's values on the plain class too (ties of moderate
    # values: no special value placed to hide a keyword's bug, issue 74)
    plain = [p for p in plans if p.get("@array") == "extreme ties"]
    for label, values in enum.items():
        for pth in paths:
            assert {p[label][1] for p in plain if path(p) == pth} == set(values), (label, pth)
    # as many plans as the largest product of two dimensions needs (a covering design,
    # not the product of all), a few more where the greedy design needs them, and the
    # plain class's rows: at most a path times a keyword's values
    sizes = [len(classes), len(paths)] + [len(v) for v in enum.values()]
    most = max(a * b for i, a in enumerate(sizes) for b in sizes[i + 1:])
    assert most <= len(plans) <= most + sum(sizes[2:]) + len(paths) * max(sizes[2:])


def test_searchsorted_crosses_ranks_without_an_axis():
    plans = boundaries.crossed(_seen("searchsorted"))
    assert {p["@shape"] for p in plans} == {"0d", "1d", "batch"}
    assert not any("@axis" in p for p in plans)
    ties = [p for p in plans if p["@array"] == "extreme ties"]
    assert {p["side"][1] for p in ties} == {"left", "right"}


def test_reductions_cross_an_axis_tuple_of_some_axes():
    plans = boundaries.crossed(_seen("sum"))
    tuples = [p for p in plans if p.get("@axis") == "tuple"]
    assert tuples and all(p["@shape"] == "batch" for p in tuples)
    assert {p["@array"] for p in tuples} >= {"extreme ties", "special ties"}
    assert not [p for p in boundaries.crossed(_seen("argmax")) if p.get("@axis") == "tuple"]

    @settings(max_examples=5, database=None)
    @given(st.data())
    def check(data):  # the first and the last of three axes: not axis=None in another form
        steered = boundaries.Steered(data, {"@shape": "batch", "@axis": "tuple"})
        shape = steered.draw(S.shapes(), label="shape")
        axis = steered.draw(S.axes(len(shape)), label="axis")
        assert len(shape) == 3 and axis == (0, 2)

    check()


@given(st.lists(st.integers(1, 5), min_size=0, max_size=5))
@settings(max_examples=30, database=None, deadline=None)
def test_cover_meets_every_pair_of_dimensions(sizes):
    rows = boundaries.cover(sizes)
    assert rows == boundaries.cover(sizes)  # deterministic
    assert all(len(r) == len(sizes) and all(0 <= v < n for v, n in zip(r, sizes))
               for r in rows)
    for a in range(len(sizes)):
        for b in range(a + 1, len(sizes)):
            assert {(r[a], r[b]) for r in rows} == {(i, j) for i in range(sizes[a])
                                                   for j in range(sizes[b])}, (a, b)
    if len(sizes) >= 2:  # the first two crossed in full, in order, once each
        assert [r[:2] for r in rows[:sizes[0] * sizes[1]]] == [
            (i, j) for i in range(sizes[0]) for j in range(sizes[1])]
        others = [(a, b) for a in range(len(sizes)) for b in range(a + 1, len(sizes))][1:]
        assert len(rows) <= sizes[0] * sizes[1] + sum(sizes[a] * sizes[b] for a, b in others)


def test_a_keyword_bug_meets_its_class_in_a_crossed_plan():
    # the extreme ties (first and last positions) meet descending=True on a 1-D path
    plans = boundaries.crossed(_seen("argsort"))
    assert [p for p in plans if p["@array"] == "extreme ties" and p["@shape"] == "1d"
            and p["descending"] == ("=", True)]


def test_the_table_has_a_column_per_keyword_value():
    record = coverage.Record()
    record.keywords = {"descending": (False, True)}
    record.add([("x", np.array([1, 1, 2])), ("axis", -1), ("descending", False)])
    record.add([("x", np.array([1, 2, 3])), ("axis", -1), ("descending", True)])
    table = record.table()
    assert table["keywords"] == ["descending=False", "descending=True"]
    assert table["keyword rows"]["ties"] == {"descending=False": 1}
    assert table["keyword rows"]["any"] == {"descending=False": 1, "descending=True": 1}
    assert "ties x descending=True" in table["not met"]
    assert "ties x descending=False" not in table["not met"]
    assert coverage.met(table, "ties", "descending=False") == 1
    assert coverage.met(table, "ties", "descending=True") == 0
    assert coverage.met(table, "ties") == 1  # (the paths' cells, counted once)
    assert coverage.keyword("side", "left") == "side='left'"
    # a value the spec draws but no example met is a column too
    record.keywords = {"descending": (False, True), "side": ("left", "right")}
    assert "any x side='right'" in record.table()["not met"]


def test_a_run_meets_ties_with_both_descending_values():
    with functions_only():
        result = runner.run_spec(cnp, SPECS["argsort"], seed=1)
    assert result.status == "pass", result.message
    table = result.combinations
    for value in ("descending=False", "descending=True"):
        assert value in table["keywords"]
        assert coverage.met(table, "ties", value) > 0, value
        assert coverage.met(table, "-0.0", value) > 0, value


def test_extreme_ties_tie_at_the_first_and_last_positions():
    @settings(max_examples=10, database=None)
    @given(st.data())
    def check(data):
        steered = boundaries.Steered(data, {"@array": "extreme ties", "@shape": "1d"})
        shape = steered.draw(S.shapes(), label="shape")
        x = steered.draw(S.arrays("int16", shape), label="x")
        assert x.shape == (4,) and x[0] == x[3] and x[1] == x[2]

    check()


def test_a_run_meets_ties_and_nan_on_every_path_of_argmax():
    with functions_only():
        result = runner.run_spec(cnp, SPECS["argmax"], seed=1)
    assert result.status == "pass", result.message
    table = result.combinations
    for path in (("1-D", "axis=None"), ("1-D", "axis<0"), ("n-D", "axis=None"),
                 ("n-D", "axis<0"), ("n-D", "axis>=0")):
        for value in ("ties", "NaN", "-0.0", "+inf"):
            assert coverage.met(table, value, *path) > 0, (value, path)
    assert table["rows"]["any"] and set(table["paths"]) >= {
        "1-D x axis=None x keepdims", "n-D x axis<0 x no keepdims"}


@pytest.mark.parametrize("bug", ["argmax of a 1-D tie is the last (axis=None only)",
                                 "stable argsort reverses ties of 1-D inputs only"])
def test_a_single_path_bug_is_caught_by_its_crossed_plan(bug):
    # a plan of the crossing (a 1-D input) catches it, in the boundary phase, at each seed
    name, ns = more._case(bug)
    for seed in range(3):
        result = runner.run_spec(ns, SPECS[name], seed=seed, namespace_label="broken",
                                 shrink=False)
        assert result.status == "fail", (seed, result.message)
        assert "PLANS = [" in result.snippet, seed
        lines = result.snippet.split("PLANS = [", 1)[1].splitlines()[1:]
        failing = lines[[line.strip() for line in lines].index("]") - 1]
        assert "'@shape': '1d'" in failing, (seed, failing)  # (crossed's rule alone)


def test_a_keyword_bug_on_an_axis_tuple_is_caught_by_its_crossed_plan():
    # ord=-inf over two of three axes: the batch x axis-tuple path meets every ord (the
    # runner before the keywords were crossed caught it at none of seeds 0-9)
    name, ns = more._case("vector_norm over two of three axes: ord=-inf is ord=-1")
    for seed in range(3):
        result = runner.run_spec(ns, SPECS[name], seed=seed, namespace_label="broken",
                                 shrink=False)
        assert result.status == "fail", (seed, result.message)
        lines = result.snippet.split("PLANS = [", 1)[1].splitlines()[1:]
        failing = lines[[line.strip() for line in lines].index("]") - 1]
        assert "'@axis': 'tuple'" in failing and "'ord': ('=', -inf)" in failing, failing


def _reports(tmp_path, function):
    """The combination table of ``function``'s JSON report and the HTML page (NumPy)."""
    jpath, hpath = tmp_path / "r.json", tmp_path / "r.html"
    status = main(["--namespace", "array_api_compat.numpy", "--functions", function,
                   "--seed", "1", "--no-progress", "--json", str(jpath), "--html",
                   str(hpath)], stdout=io.StringIO())
    assert status == 0
    result = json.loads(jpath.read_text())["runs"][0]["results"][0]
    return result["combinations"], hpath.read_text()


def test_reports_carry_the_combination_table(tmp_path):
    table, page = _reports(tmp_path, "argmax")
    assert set(table) == {"paths", "rows", "not met"}
    assert coverage.met(table, "ties", "1-D", "axis=None") > 0
    for value, cells in table["rows"].items():
        assert set(cells) <= set(table["paths"]), value
    assert "value classes &times; code paths" in page
    assert "<summary><b>argmax</b>:" in page
    for path in table["paths"]:
        assert f">{html.escape(path)}</th>" in page
    assert "keywords" not in table  # argmax draws no enumerated keyword (keepdims: a path)


def test_reports_carry_the_keyword_columns(tmp_path):
    table, page = _reports(tmp_path, "searchsorted")
    assert table["keywords"] == ["side='left'", "side='right'"]
    assert coverage.met(table, "ties", "side='right'") > 0
    assert "2 keyword values" in page
    assert ">" + html.escape("side='right'") + "</th>" in page
