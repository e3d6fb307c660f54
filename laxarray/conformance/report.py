"""Reports of conformance runs: the text table and closing line, JSON, and one HTML page.

All functions take :class:`~laxarray.conformance.runner.Run` objects; several runs (one
per namespace, ``--compare``) are shown side by side.
"""

from __future__ import annotations

import html
import json

from . import chapters, coverage, strategies as S
from .runner import IMMUTABLE, OUTCOMES
from .spec import SPECS

_COLOURS = {"pass": "#8fd18f", "fail": "#f08080", "error": "#f4b266",
            "unsupported": "#c8c8c8", "xfail": "#e8d0a0", "xpass": "#c4e8a0",
            "skipped": "#eeeeee"}


def closing_line(runs):
    """``"N passed, N failed"`` (``", N skipped"``, ``", N xfailed"``, ``", N xpassed"``
    when any, and ``", with N untried"``: the cells no example of a passing spec met,
    :func:`untried_count`) over all ``runs``."""
    passed = failed = skipped = xfailed = xpassed = untried = 0
    for run in runs:
        p, f, s = run.totals()
        c = run.counts()
        passed, failed, skipped = passed + p, failed + f, skipped + s
        xfailed, xpassed = xfailed + c["xfail"], xpassed + c["xpass"]
        untried += untried_count(run)
    line = f"{passed} passed, {failed} failed"
    for n, word in ((skipped, "skipped"), (xfailed, "xfailed"), (xpassed, "xpassed")):
        if n:
            line += f", {n} {word}"
    if untried:
        line += f", with {untried} untried"
    return line


def untried_count(run):
    """The cells (parameters and kinds, rank pairs, value classes) that no example of a
    passing spec of ``run`` met (:attr:`~laxarray.conformance.runner.Result.untried`); a
    failing spec stops at its failure, so what it left untried is not counted."""
    return sum(r.untried_count for r in run.results if r.status in ("pass", "xpass"))


def verdict(run):
    """One namespace's verdict: ``"passed"``, ``"passed, with N untried"`` (cells no
    example met: :func:`untried_count`), or ``"failed (N specs)"``, with the same
    tail."""
    failed = run.totals()[1]
    n = untried_count(run)
    head = f"failed ({failed} specs)" if failed else "passed"
    return head + (f", with {n} untried" if n else "")


def untried_text(result, limit=6):
    """The cells ``result`` left untried, on one line: ``"untried: prepend: array,
    1-D x 2-D, equal lengths (+3)"`` (``""`` when none)."""
    cells = [c for group in result.untried.values() for c in group]
    if not cells:
        return ""
    more = f" (+{len(cells) - limit})" if len(cells) > limit else ""
    return "untried: " + "; ".join(cells[:limit]) + more


def unmapped_text(run):
    """The lines of ``--xfails``/``--skips`` files that name no spec, one per line."""
    return "\n".join(f"unmapped: {entry}" for entry in run.unmapped)


def text_table(run):
    """The per-function table of one run: outcome, examples run, time, and what the
    examples covered (:func:`laxarray.conformance.coverage.summary`)."""
    width = max([len(r.name) for r in run.results] + [8])
    lines = [f"== {run.namespace} (standard {run.version}, seed {run.seed}, "
             f"max_examples {run.max_examples}, {run.seconds:.1f} s) ==",
             f"{'function':<{width}}  {'outcome':<11}  {'examples':>8}  {'time':>7}  covered"]
    reasons = {}
    for r in run.results:
        if r.status == "skipped":
            reasons[r.message] = reasons.get(r.message, 0) + 1
            continue
        covered = "; ".join(p for p in (coverage.summary(r.coverage), untried_text(r)) if p)
        lines.append(f"{r.name:<{width}}  {r.status:<11}  {r.examples:>8}  {r.seconds:>6.2f}s"
                     f"  {covered}".rstrip())
    lines += [f"({n} skipped: {reason})" for reason, n in sorted(reasons.items())]
    if run.unmapped:
        lines.append(unmapped_text(run))
    c = run.counts()
    lines.append(", ".join(f"{c[o]} {o}" for o in OUTCOMES if c[o]))
    lines.append(f"{run.namespace}: {verdict(run)}")
    return "\n".join(lines)


def failures_text(run):
    """The failures of one run: message and reproducing snippet of each."""
    out = []
    for r in run.results:
        if r.status in ("fail", "error"):
            out.append(f"--- {run.namespace}: {r.name} {r.status.upper()}: {r.message}")
            if r.snippet:
                out.append(r.snippet)
    return "\n".join(out)


def compare_table(runs):
    """Function x namespace outcomes of several runs, side by side."""
    by_run = [{r.name: r.status for r in run.results} for run in runs]
    # a spec skipped by every run (an extension not selected, say) is not a row
    names = sorted({r.name for run in runs for r in run.results
                    if any(b.get(r.name, "skipped") != "skipped" for b in by_run)})
    width = max([len(n) for n in names] + [8])
    cols = [max(len(run.namespace), 11) for run in runs]
    lines = [f"{'function':<{width}}  " + "  ".join(f"{run.namespace:<{w}}"
                                                   for run, w in zip(runs, cols))]
    for n in names:
        lines.append(f"{n:<{width}}  " + "  ".join(f"{b.get(n, '-'):<{w}}"
                                                  for b, w in zip(by_run, cols)))
    ran = [sum(b.get(n) != "skipped" for n in names) for b in by_run]
    lines.append(f"{'summary':<{width}}  " + "  ".join(
        f"{'%d/%d pass' % (run.counts()['pass'], n):<{w}}" for run, n, w in zip(runs, ran, cols)))
    return "\n".join(lines)


def to_json(runs):
    """A JSON document of ``runs``: ``{"runs": [...], "closing": "N passed, N failed"}``."""
    return json.dumps({"runs": [run.as_dict() for run in runs],
                       "closing": closing_line(runs)}, indent=1, default=repr)


# ---- HTML ------------------------------------------------------------------------------------
#: colours of the namespaces in the pass-rate plot, in run order (then round again).
_SERIES = ("#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#e15759", "#76b7b2", "#9c755f")
#: outcomes whose result has a failure to show (a ``<details>`` the tables link to).
_FAILED = ("fail", "error", "xfail")

_CSS = """body{font-family:sans-serif;margin:1.5em;color:#222;max-width:100%}
h2{margin-top:1.4em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;font-size:12px}
td,th{border:1px solid #bbb;padding:2px 5px;text-align:center}
td.n{text-align:left;white-space:nowrap}
td.cov{font-size:11px;color:#444}
th.v{writing-mode:vertical-rl;transform:rotate(180deg);white-space:nowrap;padding:5px 2px}
.scroll{overflow-x:auto;max-width:100%}
pre{background:#f6f6f6;padding:.5em;overflow-x:auto;font-size:12px;margin:.3em 0}
details{margin:.3em 0;border:1px solid #ddd;border-radius:3px;padding:.2em .5em}
details[open]{background:#fcfcfc}
summary{cursor:pointer;font-size:13px;overflow-wrap:anywhere}
summary .why{color:#555}
#filterbox{position:sticky;top:0;background:#fff;padding:.4em 0;z-index:1;margin:0}
#filter{font-size:14px;width:24em;padding:2px 4px}
#filtercount{color:#555;font-size:12px;margin-left:.6em}
svg text{font-family:sans-serif}"""

_SCRIPT = """(function () {
  var box = document.getElementById('filterbox'), input = document.getElementById('filter');
  var count = document.getElementById('filtercount');
  var rows = document.querySelectorAll('[data-filter]');
  box.hidden = false;
  function apply() {
    var words = input.value.toLowerCase().split(/\\s+/).filter(Boolean), shown = 0;
    rows.forEach(function (row) {
      var text = row.getAttribute('data-filter');
      var keep = words.every(function (w) { return text.indexOf(w) >= 0; });
      row.hidden = !keep;
      if (keep) { shown += 1; }
    });
    count.textContent = words.length ? shown + ' of ' + rows.length + ' rows shown' : '';
  }
  input.addEventListener('input', apply);
  function openTarget() {  // a link to a failure opens it
    var target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (target && target.tagName === 'DETAILS') { target.open = true; }
  }
  window.addEventListener('hashchange', openTarget);
  openTarget();
  apply();
})();"""

_FILTER = ("<p id='filterbox' hidden><label>Filter rows: <input id='filter' type='search' "
           "placeholder='words of a name, chapter or outcome: fail linalg' "
           "autocomplete='off'></label><span id='filtercount'></span></p>")


def _esc(text):
    return html.escape(str(text), quote=True)


def _anchor(namespace, name):
    """The id of a failure's ``<details>`` (links in the tables point at it)."""
    return _esc(f"{namespace}-{name}")


def _checked(result):
    """Whether ``result`` counts in a pass rate: not skipped, nor left out for immutable
    arrays (which count as skipped, see :meth:`Run.totals`)."""
    return result.status != "skipped" and not (result.status == "unsupported"
                                               and result.message == IMMUTABLE)


def chapter_rates(runs):
    """``{chapter: [(passed, checked), ...one per run]}`` over the chapters any run checked
    a spec of (:mod:`~laxarray.conformance.chapters`), in the standard's order.

    ``checked`` counts results that are not skipped (nor left out for immutable arrays);
    ``passed`` those of them that passed (``pass`` or an unexpected ``xpass``)."""
    counts = {}
    for i, run in enumerate(runs):
        for r in run.results:
            if not _checked(r):
                continue
            row = counts.setdefault(chapters.chapter_of_name(r.name, SPECS), [[0, 0] for _ in runs])
            row[i][0] += r.status in ("pass", "xpass")
            row[i][1] += 1
    return {c: [tuple(pc) for pc in counts[c]] for c in chapters.order(counts)}


def pass_rate_svg(runs):
    """An inline SVG bar chart of the pass rate per chapter per namespace: one
    ``<rect class="bar">`` per chapter x run (``data-chapter``, ``data-namespace``,
    ``data-passed``, ``data-checked``; a run that checked nothing of a chapter gets an empty
    bar), a legend of the namespaces, the rate above each bar and in its tooltip."""
    rates = chapter_rates(runs)
    n = max(len(runs), 1)
    bar = 16 if n <= 3 else 10
    gap, left, top, height, bottom = 14, 44, 54, 170, 92
    group = n * bar + gap
    width = left + max(len(rates), 1) * group + 10
    total_h = top + height + bottom
    out = [f'<svg id="pass-rate" xmlns="http://www.w3.org/2000/svg" width="{width}" '
           f'height="{total_h}" viewBox="0 0 {width} {total_h}" role="img" '
           f'aria-label="pass rate per chapter per namespace">',
           '<rect width="100%" height="100%" fill="#fff"/>']
    for pct in (0, 25, 50, 75, 100):
        y = top + height - height * pct / 100
        out.append(f'<line x1="{left}" x2="{width - 10}" y1="{y:.1f}" y2="{y:.1f}" '
                   f'stroke="{"#888" if pct == 0 else "#e4e4e4"}"/>'
                   f'<text x="{left - 6}" y="{y + 4:.1f}" font-size="11" '
                   f'text-anchor="end">{pct}%</text>')
    x_legend = left
    for i, run in enumerate(runs):
        colour = _SERIES[i % len(_SERIES)]
        out.append(f'<rect x="{x_legend}" y="6" width="12" height="12" fill="{colour}"/>'
                   f'<text x="{x_legend + 16}" y="16" font-size="12">{_esc(run.namespace)}</text>')
        x_legend += 16 + 8 * len(run.namespace) + 24
    for g, (chapter, per_run) in enumerate(rates.items()):
        x0 = left + g * group + gap / 2
        for i, (run, (passed, checked)) in enumerate(zip(runs, per_run)):
            colour = _SERIES[i % len(_SERIES)]
            x = x0 + i * bar
            h = height * passed / checked if checked else 0.0
            y = top + height - h
            if checked:
                label = f"{100 * passed / checked:.0f}"
                tip = (f"{run.namespace}, {chapter}: {passed} of {checked} passed "
                       f"({100 * passed / checked:.1f}%)")
            else:
                label, tip = "n/a", f"{run.namespace}, {chapter}: no spec checked"
            out.append(f'<rect class="bar" data-chapter="{_esc(chapter)}" '
                       f'data-namespace="{_esc(run.namespace)}" data-passed="{passed}" '
                       f'data-checked="{checked}" x="{x:.1f}" y="{y:.1f}" '
                       f'width="{bar - 2}" height="{h:.1f}" fill="{colour}">'
                       f"<title>{_esc(tip)}</title></rect>")
            tx, ty = x + (bar - 2) / 2 + 3, y - 3
            out.append(f'<text x="{tx:.1f}" y="{ty:.1f}" font-size="9" fill="#333" '
                       f'transform="rotate(-90 {tx:.1f} {ty:.1f})">{label}</text>')
        cx, cy = x0 + n * bar / 2, top + height + 12
        out.append(f'<text x="{cx:.1f}" y="{cy:.1f}" font-size="12" text-anchor="end" '
                   f'transform="rotate(-40 {cx:.1f} {cy:.1f})">{_esc(chapter)}</text>')
    out.append("</svg>")
    return "\n".join(out)


def _cell(status, title="", link=""):
    colour = _COLOURS.get(status, "#ffffff")
    text = _esc(status)
    if link:
        text = f'<a href="#{link}">{text}</a>'
    return f'<td style="background:{colour}" title="{_esc(title)}">{text}</td>'


def _compare_rows(runs):
    """The side-by-side table: function x namespace outcomes (rows skipped by every run
    left out, as :func:`compare_table` does)."""
    by_run = [{r.name: r for r in run.results} for run in runs]
    names = sorted({r.name for run in runs for r in run.results
                    if any(b[r.name].status != "skipped" for b in by_run if r.name in b)})
    rows = ['<div class="scroll"><table id="side-by-side"><tr><th>function</th>'
            "<th>chapter</th>" + "".join(f"<th>{_esc(run.namespace)}</th>" for run in runs)
            + "</tr>"]
    for name in names:
        chapter = chapters.chapter_of_name(name, SPECS)
        cells, words = [], [name, chapter]
        for run, b in zip(runs, by_run):
            r = b.get(name)
            if r is None:
                cells.append("<td>-</td>")
                continue
            words.append(r.status)
            link = _anchor(run.namespace, name) if r.status in _FAILED else ""
            cells.append(_cell(r.status, r.message, link))
        rows.append(f'<tr data-filter="{_esc(" ".join(words).lower())}"><td class="n">'
                    f"{_esc(name)}</td><td>{_esc(chapter)}</td>{''.join(cells)}</tr>")
    rows.append("</table></div>")
    return "\n".join(rows)



def _matrix(run):
    dtypes = list(S.ALL)
    extra = sorted({k for r in run.results for k in r.dtypes if k not in dtypes})
    cols = dtypes + extra
    rows = ['<div class="scroll"><table class="matrix"><tr><th>function</th><th>chapter</th>'
            "<th>outcome</th><th>examples</th><th>time</th>"
            + "".join(f'<th class="v">{_esc(c)}</th>' for c in cols) + "<th>covered</th></tr>"]
    for r in run.results:
        if r.status == "skipped":
            continue
        chapter = chapters.chapter_of_name(r.name, SPECS)
        cells = "".join(_cell(r.dtypes[c]) if c in r.dtypes else "<td></td>" for c in cols)
        name = _esc(r.name)
        if r.status in _FAILED:
            name = f'<a href="#{_anchor(run.namespace, r.name)}">{name}</a>'
        rows.append(f'<tr data-filter="{_esc(f"{r.name} {chapter} {r.status}".lower())}">'
                    f'<td class="n">{name}</td><td>{_esc(chapter)}</td>'
                    f"{_cell(r.status, r.message)}<td>{r.examples}</td>"
                    f"<td>{r.seconds:.2f}s</td>{cells}{_coverage_cell(r.coverage)}</tr>")
    rows.append("</table></div>")
    by_reason = {}
    for r in run.results:
        if r.status == "skipped":
            by_reason.setdefault(r.message, []).append(r.name)
    for reason, names in sorted(by_reason.items()):
        rows.append(f"<p><b>skipped ({len(names)}, {_esc(reason)}):</b> "
                    f"{_esc(', '.join(names))}</p>")
    return "\n".join(rows)


def _coverage_cell(record):
    """The coverage record of a result as a cell: its one-line summary, every class under
    its heading in the hover title."""
    if not record:
        return "<td></td>"
    title = "; ".join(f"{h}: {', '.join(record[h])}" for h in coverage.HEADINGS if record.get(h))
    return (f'<td class="n cov" title="{_esc(title)}">'
            f"{_esc(coverage.summary(record))}</td>")


def _combinations(run):
    """Per function of ``run``, its combination table
    (:meth:`laxarray.conformance.coverage.Record.table`) as a ``<details>``: a row per value
    class, a column per code path and per value of an enumerated keyword, each cell the
    examples that met both or "not met"."""
    out = []
    for r in run.results:
        table = r.combinations
        if not table or not table.get("paths"):
            continue
        paths, missing = table["paths"], set(table.get("not met", ()))
        columns = table.get("keywords", [])  # (the enumerated keywords' values, after)
        head = "".join(f'<th class="v">{_esc(p)}</th>' for p in paths + columns)
        rows = []
        for value, cells in table["rows"].items():
            tds = []
            cells = dict(cells, **table.get("keyword rows", {}).get(value, {}))
            for p in paths + columns:
                key = coverage.SEP.join((value, p))
                if p in cells:
                    tds.append(f'<td style="background:{_COLOURS["pass"]}" '
                               f'title="{_esc(key)}: met">{cells[p]}</td>')
                elif key in missing:
                    tds.append(f'<td style="background:{_COLOURS["fail"]}" '
                               f'title="{_esc(key)}: not met">not met</td>')
                else:
                    tds.append(f'<td title="{_esc(key)}: cannot occur">n/a</td>')
            rows.append(f'<tr><td class="n">{_esc(value)}</td>{"".join(tds)}</tr>')
        word = f"{len(missing)} not met" if missing else "all met"
        out.append(f'<details class="combinations" data-filter="{_esc(r.name.lower())}">'
                   f"<summary><b>{_esc(r.name)}</b>: {len(table['rows'])} value classes "
                   f"&times; {len(paths)} paths"
                   + (f" and {len(columns)} keyword values" if columns else "") +
                   f", {word}</summary>"
                   f'<div class="scroll"><table class="matrix"><tr><th>value class</th>'
                   f"{head}</tr>{''.join(rows)}</table></div></details>")
    return "\n".join(out)


def _untried(run):
    """Per function of ``run`` that left cells untried, a ``<details>`` listing them by
    kind (parameters and kinds, rank pairs, value classes x code paths)."""
    out = []
    for r in run.results:
        if not r.untried_count:
            continue
        groups = "".join(f"<p><b>{_esc(kind)}</b>: {_esc('; '.join(cells))}</p>"
                         for kind, cells in r.untried.items())
        out.append(f'<details class="untried" data-filter="{_esc(r.name.lower())} untried '
                   f'{_esc(r.status)}"><summary><b>{_esc(r.name)}</b> ({_esc(r.status)}): '
                   f"{r.untried_count} untried</summary>{groups}</details>")
    return "\n".join(out)


def _failure(run, r):
    """One failure as a ``<details>``: the summary names it, the body shows the message
    and the reproducing snippet."""
    chapter = chapters.chapter_of_name(r.name, SPECS)
    first = r.message.splitlines()[0] if r.message else ""
    if len(first) > 160:
        first = first[:157] + "..."
    snippet = (f'<pre class="snippet">{_esc(r.snippet)}</pre>' if r.snippet
               else "<p>(no snippet)</p>")
    return (f'<details class="failure" id="{_anchor(run.namespace, r.name)}" '
            f'data-filter="{_esc(f"{r.name} {chapter} {r.status}".lower())}">'
            f"<summary><b>{_esc(r.name)}</b> ({_esc(r.status)}) "
            f'<span class="why">{_esc(first)}</span></summary>'
            f'<pre class="message">{_esc(r.message)}</pre>{snippet}</details>')


def to_html(runs):
    """One self-contained HTML page (no external files, works offline): a plot of the pass
    rate per chapter per namespace, the summary, a side-by-side table when several runs,
    then per namespace a function x dtype matrix and its failures, each a ``<details>``
    with the message and the reproducing snippet.  A filter box (the page's only script)
    hides the rows whose name, chapter and outcomes lack a word typed into it; without
    JavaScript the page reads the same, with no filter box."""
    parts = ["<!DOCTYPE html><html><head><meta charset='utf-8'>",
             "<meta name='viewport' content='width=device-width, initial-scale=1'>",
             "<title>laxarray.conformance report</title>", f"<style>{_CSS}</style></head><body>",
             "<h1>Array API conformance</h1>", f"<p><b>{_esc(closing_line(runs))}</b></p>",
             "<div class='scroll'><table id='summary'><tr><th>namespace</th><th>standard</th>"
             "<th>seed</th><th>max_examples</th>"
             + "".join(f"<th>{o}</th>" for o in OUTCOMES) + "<th>untried</th><th>verdict</th>"
             "<th>time</th></tr>"]
    for run in runs:
        c = run.counts()
        parts.append(f"<tr><td class='n'>{_esc(run.namespace)}</td><td>{_esc(run.version)}"
                     f"</td><td>{run.seed}</td><td>{run.max_examples}</td>"
                     + "".join(f"<td>{c[o]}</td>" for o in OUTCOMES)
                     + f"<td>{untried_count(run)}</td><td>{_esc(verdict(run))}</td>"
                     + f"<td>{run.seconds:.1f}s</td></tr>")
    parts.append("</table></div>")
    parts.append("<h2>Pass rate by chapter</h2>")
    parts.append(f'<div class="scroll">{pass_rate_svg(runs)}</div>')
    parts.append("<p style='font-size:12px;color:#555'>Passed (pass or xpass) over checked "
                 "specs (skipped ones and those left out for immutable arrays excluded); "
                 "hover a bar for the counts.</p>")
    parts.append(_FILTER)
    unmapped = sorted({entry for run in runs for entry in run.unmapped})
    if unmapped:
        parts.append("<h2>Unmapped expectation entries</h2><pre>"
                     + _esc("\n".join(unmapped)) + "</pre>")
    if len(runs) > 1:
        parts.append("<h2>Side by side</h2>")
        parts.append(_compare_rows(runs))
    for run in runs:
        parts.append(f"<h2>{_esc(run.namespace)}: function &times; dtype</h2>")
        parts.append(_matrix(run))
        table = _combinations(run)
        if table:
            parts.append(f"<h2>{_esc(run.namespace)}: value classes &times; code paths</h2>")
            parts.append(table)
        untried = _untried(run)
        if untried:
            parts.append(f"<h2>{_esc(run.namespace)}: what no example met "
                         f"({untried_count(run)} cells of passing specs)</h2>")
            parts.append(untried)
        failed = [r for r in run.results if r.status in _FAILED]
        if failed:
            parts.append(f"<h2>{_esc(run.namespace)}: failures ({len(failed)})</h2>")
        parts.extend(_failure(run, r) for r in failed)
    parts.append(f"<script>{_SCRIPT}</script></body></html>")
    return "\n".join(parts)
