"""The HTML report without a browser (tests/conformance_runner/test_browser.py looks at it in
one): every spec has a chapter, the pass-rate plot counts what the runs hold, failures are
``<details>`` with their snippet, and the page loads nothing from outside itself."""

import html.parser
import xml.etree.ElementTree as ET

import pytest

from laxarray.conformance import SPECS, chapters, report
from laxarray.conformance.runner import IMMUTABLE, Result, Run


def test_every_spec_has_a_chapter():
    unmapped = {name: (spec.kind, spec.extension) for name, spec in SPECS.items()
                if chapters.chapter_of(spec) not in chapters.CHAPTERS}
    assert not unmapped, f"add these kinds to laxarray/conformance/chapters.py: {unmapped}"
    used = {chapters.chapter_of(spec) for spec in SPECS.values()}
    assert {"elementwise", "creation", "manipulation", "statistical", "searching",
            "sorting", "sets", "indexing", "data types", "linalg", "fft", "utility",
            "numpy"} <= used


@pytest.mark.parametrize("name, chapter", [
    # the page of the standard each function is documented on
    ("add", "elementwise"), ("clip", "elementwise"), ("sum", "statistical"),
    ("cumulative_sum", "statistical"), ("all", "utility"), ("any", "utility"),
    ("diff", "utility"), ("count_nonzero", "searching"), ("where", "searching"),
    ("take", "indexing"), ("matmul", "linear algebra"), ("linalg.matmul", "linalg"),
    ("isin", "sets"), ("astype", "data types"), ("__array_namespace_info__", "inspection"),
    ("meshgrid", "creation"), ("fft.fftshift", "fft"), ("argsort", "sorting")])
def test_chapter_is_the_standards_page(name, chapter):
    assert chapters.chapter_of(SPECS[name]) == chapter


def test_unknown_kind_falls_back():
    spec = SPECS["add"].__class__("made_up", lambda xp, data: None, kind="no such kind")
    assert chapters.chapter_of(spec) == chapters.FALLBACK
    assert chapters.order(["numpy", "other", "elementwise"]) == ["elementwise", "numpy", "other"]


def _runs():
    a = Run("good", "2025.12", 0, 5, results=[
        Result("add", "pass"), Result("abs", "pass"), Result("flip", "pass"),
        Result("sum", "skipped", message="not selected"),
        Result("__setitem__", "pass")])
    b = Run("bad", "2025.12", 0, 5, results=[
        Result("add", "fail", message="add: <wrong> & worse\nsecond line",
               snippet="import numpy as np\nassert False  # <here>"),
        Result("abs", "xpass"), Result("flip", "error", message="boom"),
        Result("sum", "skipped", message="not selected"),
        Result("__setitem__", "unsupported", message=IMMUTABLE)])
    return [a, b]


class _Elements(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.elements, self.stack, self.text = [], [], {}

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))
        self.stack.append(len(self.elements) - 1)

    def handle_endtag(self, tag):
        if self.stack:
            self.stack.pop()

    def handle_data(self, data):
        for i in self.stack:
            self.text[i] = self.text.get(i, "") + data


def test_plot_counts_every_chapter_and_namespace():
    runs = _runs()
    svg = report.pass_rate_svg(runs)
    root = ET.fromstring(svg)  # well-formed XML, so it renders inline and standalone
    bars = [e.attrib for e in root.iter("{http://www.w3.org/2000/svg}rect")
            if e.get("class") == "bar"]
    # sum is skipped everywhere: no statistical bars; __setitem__ counts only where it ran
    assert sorted((b["data-chapter"], b["data-namespace"]) for b in bars) == sorted(
        (c, ns) for c in ("elementwise", "manipulation", "array object")
        for ns in ("good", "bad"))
    got = {(b["data-chapter"], b["data-namespace"]): (int(b["data-passed"]),
                                                      int(b["data-checked"]),
                                                      float(b["height"])) for b in bars}
    assert got["elementwise", "good"][:2] == (2, 2)
    assert got["elementwise", "bad"][:2] == (1, 2)  # xpass passed, fail did not
    assert got["manipulation", "bad"] == (0, 1, 0.0)
    assert got["array object", "bad"] == (0, 0, 0.0)  # immutable: left out, an empty bar
    assert got["elementwise", "bad"][2] == pytest.approx(got["elementwise", "good"][2] / 2)
    assert report.chapter_rates(runs)["elementwise"] == [(2, 2), (1, 2)]


def test_page_is_self_contained_with_expandable_failures():
    page = report.to_html(_runs())
    parser = _Elements()
    parser.feed(page)
    tags = [t for t, _ in parser.elements]
    # the plot comes first, before every table but the summary
    assert tags.index("svg") < [i for i, (t, a) in enumerate(parser.elements)
                                if a.get("id") == "side-by-side"][0]
    for tag, attrs in parser.elements:
        assert tag not in ("link", "img", "iframe") and "src" not in attrs, (tag, attrs)
        assert not attrs.get("href", "#").startswith(("http", "//")), attrs
    details = {a["id"]: i for i, (t, a) in enumerate(parser.elements) if t == "details"}
    assert set(details) == {"bad-add", "bad-flip"}
    text = parser.text[details["bad-add"]]
    assert "add: <wrong> & worse\nsecond line" in text
    assert "assert False  # <here>" in text
    assert "<wrong>" not in page and "# <here>" not in page  # escaped in the source
    # every table link points at a failure of this page
    links = {a["href"][1:] for t, a in parser.elements if t == "a" and "href" in a}
    assert links and links <= set(details)
    # rows the filter box acts on: name, chapter and outcomes
    rows = [a["data-filter"] for t, a in parser.elements if "data-filter" in a]
    assert "add elementwise pass fail" in rows and "flip manipulation error" in rows
    assert not any(r.startswith("sum ") for r in rows)
    box = [a for t, a in parser.elements if a.get("id") == "filterbox"]
    assert box and "hidden" in box[0]  # shown by the script only
    assert page.count("<script>") == 1
