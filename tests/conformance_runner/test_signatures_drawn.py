"""Every parameter of every signature is drawn with every kind it allows (issue 74).

The cells come from the signatures (``laxarray.conformance.signatures``: the standard's
2025.12 stubs, NumPy's own signatures for the NumPy surface), not from a list kept here:
each keyword passed and left out, ``int`` and ``tuple`` where both are allowed, each kind of
Python scalar an operand may be, ``None`` where allowed, each enumerated value; and, for a
function that broadcasts two operands, every rank pair
(``laxarray.conformance.coverage.RANK_PAIRS``).  ``test_triage.py`` runs the default
selection once on array_api_strict at seed 1 (the seed of the triage table), and every
passing spec must have met every cell there (:func:`never_drawn`), bar the few
:data:`EXEMPT` ones, each with its reason (a failing spec stops at its failure: what it
left untried is not the draws' doing).  The tests of the test drop
a cell from a spec (a keyword never passed, a call form never made, a scalar side never
drawn, a rank pair never met) and require that the check names it.
"""

import ast
import dataclasses
import json
import pathlib

import numpy as np
import pytest

from laxarray.conformance import SPECS, coverage, report, runner, signatures

strict = pytest.importorskip("array_api_strict")

SEED = 1
ROOT = pathlib.Path(__file__).resolve().parents[2]

#: ``{function: {cell: why}}``: cells no spec draws, each with its reason
EXEMPT = {
    "linalg.matrix_norm": {
        "ord: None": "the standard's signature allows None but says nothing of what it "
                     "means (its default is 'fro'): no oracle to compare with"},
}


def never_drawn(results, exempt=EXEMPT):
    """``{spec: [cell, ...]}``: the parameter cells and rank pairs that no example of a
    passing spec met, less the :data:`EXEMPT` ones."""
    out = {}
    for r in results:
        if r.status not in ("pass", "xpass"):
            continue
        cells = [c for kind in ("parameters", "rank pairs") for c in r.untried.get(kind, ())
                 if c not in exempt.get(r.name, {})]
        if cells:
            out[r.name] = cells
    return out


def test_the_exempt_cells_are_cells_of_their_signatures():
    for name, cells in EXEMPT.items():
        listed = {f"{p}: {k}" for p, k in signatures.signature(name).cells()}
        assert set(cells) <= listed, name


def test_binary_specs_and_where_have_rank_pairs():
    for name in ("add", "atan2", "equal", "logical_and", "where"):
        assert "broadcasting" in SPECS[name].tags
    result = _run(SPECS["where"])
    assert result.status == "pass" and "rank pairs" not in result.untried, result.untried


def test_clip_and_where_have_rank_pairs_of_their_other_operands():
    # clip's x against each bound, where's condition against x1 and x2: every rank on each
    # side, as the binary ones (coverage.OPERAND_PAIRS)
    assert "broadcasting" in SPECS["clip"].tags
    cells = coverage.pair_cells(["clip"])
    assert len(cells) == 2 * len(coverage.RANK_PAIRS)
    assert "x against max: 2-D x 1-D, equal lengths" in cells
    assert "x against min: 0-d x n-D" in cells and "0-d x n-D" not in cells
    cells = coverage.pair_cells(["where"])
    assert set(coverage.RANK_PAIRS) < set(cells)
    assert "condition against x1/x2: 1-D x 2-D, equal lengths" in cells
    for name in ("clip", "where"):
        result = _run(SPECS[name])
        assert result.status == "pass" and "rank pairs" not in result.untried, result.untried


def test_the_operand_pairs_are_read_from_the_call():
    x, row = np.zeros((3, 3)), np.zeros(3)
    assert coverage.operand_pairs("clip", (row,), {"max": x, "min": 1.0}) == {
        "x against max: 1-D x 2-D, equal lengths"}
    assert coverage.operand_pairs("clip", (x, None, row), {}) == {
        "x against max: 2-D x 1-D, equal lengths"}
    # x1 and x2 broadcast together (a Python scalar is no array of theirs)
    assert coverage.operand_pairs("where", (row > 0, 1.0, np.zeros((2, 1, 3))), {}) == {
        "condition against x1/x2: 1-D x n-D"}
    assert coverage.operand_pairs("where", (x > 0, np.zeros((1, 3)), np.zeros((3, 1))),
                                  {}) == {"condition against x1/x2: 2-D x 2-D"}


# ---- the test of the test: a spec that drops a cell fails it ------------------------------------
class _Forcing:
    """A stand-in for hypothesis' ``data`` answering the draws labelled in ``forced``."""

    def __init__(self, data, forced):
        self._data, self._forced = data, forced

    def draw(self, strategy, label=None):
        if label in self._forced:
            return self._forced[label]
        return self._data.draw(strategy, label=label)


def _dropping(name, **forced):
    """``name``'s spec with the draws ``forced`` (label: value) fixed."""
    spec = SPECS[name]
    return dataclasses.replace(spec, body=lambda xp, data: spec.body(xp, _Forcing(data,
                                                                                  forced)))


def _run(spec, seed=SEED):
    return runner.run_spec(strict, spec, seed=seed, shrink=False)


def test_a_keyword_never_passed_is_named():
    result = _run(_dropping("diff", **{"prepend passed": False}))
    assert result.status == "pass"
    assert never_drawn([result]) == {"diff": ["prepend: array"]}


def test_a_call_form_never_made_is_named(monkeypatch):
    # no call by keyword: moveaxis's source and destination are never tuples
    monkeypatch.setattr(signatures, "CALL_FORMS", ("as written", "positions"))
    result = _run(SPECS["moveaxis"])
    assert result.status == "pass"
    assert never_drawn([result]) == {"moveaxis": ["source: tuple", "destination: tuple"]}


def test_a_scalar_side_never_drawn_is_named():
    result = _run(_dropping("subtract", **{"scalar side": "x2"}))
    assert result.status == "pass"
    assert never_drawn([result]) == {"subtract": ["x1: int", "x1: float", "x1: complex"]}


def test_a_rank_pair_never_met_is_named():
    # the second operand always of the first's shape (no swap, nothing dropped)
    spec = SPECS["add"]

    def same_shapes(xp, data):
        class Same(_Forcing):
            def draw(self, strategy, label=None):
                value = super().draw(strategy, label)
                if label == "shape1":
                    self._forced["shape2"] = value
                return value
        spec.body(xp, Same(data, {"swap": False}))
    result = _run(dataclasses.replace(spec, body=same_shapes))
    assert result.status == "pass"
    missing = never_drawn([result])["add"]
    assert "1-D x 2-D, equal lengths" in missing and "0-d x 0-d" not in missing
    assert set(missing) <= set(coverage.RANK_PAIRS)


def test_an_operand_rank_pair_never_met_is_named():
    # x never smaller than the shape its bounds broadcast to, the condition never larger
    # than x1 and x2 (which leaves the spec's own pair plans out too: the draw they steer
    # is not the spec's): the pairs with the other operand the larger are named
    clip = never_drawn([_run(_dropping("clip", **{"x smaller": False}))])["clip"]
    for bound in ("min", "max"):
        assert {f"x against {bound}: {c}" for c in ("0-d x 1-D", "1-D x 2-D, equal lengths",
                                                    "2-D x n-D")} <= set(clip)
    assert all(c.startswith(("x against min: ", "x against max: ")) for c in clip)
    where = never_drawn([_run(_dropping("where", **{"c swap": False}))])["where"]
    assert {"condition against x1/x2: n-D x 0-d", "condition against x1/x2: 2-D x 1-D, "
            "equal lengths"} <= set(where)
    assert all(c.startswith("condition against x1/x2: ") for c in where)


def test_the_reports_say_what_was_never_tried():
    result = _run(_dropping("diff", **{"prepend passed": False}))
    run = runner.Run("array_api_strict", "2025.12", SEED, 25, [result])
    n = report.untried_count(run)
    assert n >= 1 and report.verdict(run) == f"passed, with {n} untried"
    text = report.text_table(run)
    assert "untried: prepend: array" in text
    assert text.splitlines()[-1] == f"array_api_strict: passed, with {n} untried"
    assert report.closing_line([run]) == f"1 passed, 0 failed, with {n} untried"
    doc = json.loads(report.to_json([run]))
    got = doc["runs"][0]
    assert got["summary"]["untried"] == n
    assert "prepend: array" in got["results"][0]["untried"]["parameters"]
    page = report.to_html([run])
    assert "what no example met" in page and "prepend: array" in page


# ---- the signatures themselves --------------------------------------------------------------------
def test_the_signature_table_is_the_standards():
    # the shipped stub signatures against the parameter table of tests/data (the stubs
    # parsed by tools/gen_signatures.py): the same names, kinds and defaults
    table = json.loads((ROOT / "tests" / "data" /
                        "array_api_2025_12_signatures.json").read_text())["functions"]
    assert set(signatures.standard_names()) == set(table)
    for name, entry in table.items():
        sig = signatures.signature(name)
        got = [(p.name, p.kind, p.default) for p in sig.params]
        want = [(n, k, d) for n, k, d in entry["params"]]
        assert [(n, k) for n, k, _ in got] == [(n, k) for n, k, _ in want], name
        for (n, _, d1), (_, _, d2) in zip(got, want):
            same = d1 == d2 or (d1 is not None and d2 is not None and
                                ast.literal_eval(d1) == ast.literal_eval(d2))
            assert same, (name, n, d1, d2)


@pytest.mark.parametrize("name,cells", [
    ("moveaxis", {"source": ("int", "tuple"), "destination": ("int", "tuple")}),
    ("where", {"x1": ("array", "int", "float", "complex", "bool")}),
    ("diff", {"prepend": ("array", "None", "omitted"), "n": ("int", "omitted")}),
    ("argsort", {"stable": ("True", "False", "omitted")}),
    ("linalg.qr", {"mode": ("'reduced'", "'complete'", "omitted")}),
    ("clip", {"min": ("int", "float", "array", "None", "omitted", "positional", "keyword")}),
])
def test_cells_read_from_the_annotations(name, cells):
    sig = signatures.signature(name)
    for param, want in cells.items():
        assert sig.param(param).cells == want


def test_the_call_forms_mean_the_same_call():
    x = np.zeros((2, 3, 4))
    for form in signatures.CALL_FORMS:
        args, kwargs = signatures.reform(signatures.signature("moveaxis"), form, (x, 2, 0), {})
        assert np.moveaxis(*args, **kwargs).shape == (4, 2, 3), form
        args, kwargs = signatures.reform(signatures.signature("sum"), form, (x,),
                                         {"axis": 2, "keepdims": False})
        assert np.sum(*args, **kwargs).shape == (2, 3), form
        args, kwargs = signatures.reform(signatures.signature("linalg.tensordot"), form,
                                         (x, np.zeros((4, 5))), {"axes": 1})
        assert np.tensordot(*args, **kwargs).shape == (2, 3, 5), form
        args, kwargs = signatures.reform(signatures.signature("roll"), form,
                                         (np.arange(4),), {"shift": 1, "axis": 0})
        assert np.roll(*args, **kwargs).tolist() == [3, 0, 1, 2], form
    # what each form does: defaults left out and keywords, or defaults passed by position
    sig = signatures.signature("sort")
    assert signatures.reform(sig, "keywords", (x,), {"axis": 2, "stable": True}) == ((x,), {})
    assert signatures.reform(sig, "positions", (x,), {}) == (
        (x,), {"axis": -1, "descending": False, "stable": True})
    assert signatures.reform(signatures.signature("concat"), "keywords", ([x, x],), {}) == \
        (((x, x),), {})
    # a float equal to an int default is not left out (arange's dtype follows its
    # arguments), an int equal to a float one is (std's correction)
    assert signatures.reform(signatures.signature("arange"), "keywords", (0, 3, 1.0), {}) \
        == ((0,), {"stop": 3, "step": 1.0})
    assert signatures.reform(signatures.signature("std"), "keywords", (x,),
                             {"correction": 0}) == ((x,), {})
