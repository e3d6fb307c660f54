"""Reports of conformance runs: the text table and closing line, JSON, and one HTML page.

All functions take :class:`~laxarray.conformance.runner.Run` objects; several runs (one
per namespace, ``--compare``) are shown side by side.
"""

from __future__ import annotations

import html
import json

from laxarray.conformance import strategies as S
from laxarray.conformance.runner import OUTCOMES

_COLOURS = {"pass": "#8fd18f", "fail": "#f08080", "error": "#f4b266",
            "unsupported": "#c8c8c8", "xfail": "#e8d0a0", "xpass": "#c4e8a0",
            "skipped": "#eeeeee"}


def closing_line(runs):
    """``"N passed, N failed"`` (``", N skipped"``, ``", N xfailed"``, ``", N xpassed"``
    when any) over all ``runs``."""
    passed = failed = skipped = xfailed = xpassed = 0
    for run in runs:
        p, f, s = run.totals()
        c = run.counts()
        passed, failed, skipped = passed + p, failed + f, skipped + s
        xfailed, xpassed = xfailed + c["xfail"], xpassed + c["xpass"]
    line = f"{passed} passed, {failed} failed"
    for n, word in ((skipped, "skipped"), (xfailed, "xfailed"), (xpassed, "xpassed")):
        if n:
            line += f", {n} {word}"
    return line


def unmapped_text(run):
    """The lines of ``--xfails``/``--skips`` files that name no spec, one per line."""
    return "\n".join(f"unmapped: {entry}" for entry in run.unmapped)


def text_table(run):
    """The per-function table of one run: outcome, examples run, time."""
    width = max([len(r.name) for r in run.results] + [8])
    lines = [f"== {run.namespace} (standard {run.version}, seed {run.seed}, "
             f"max_examples {run.max_examples}, {run.seconds:.1f} s) ==",
             f"{'function':<{width}}  {'outcome':<11}  {'examples':>8}  {'time':>7}"]
    reasons = {}
    for r in run.results:
        if r.status == "skipped":
            reasons[r.message] = reasons.get(r.message, 0) + 1
            continue
        lines.append(f"{r.name:<{width}}  {r.status:<11}  {r.examples:>8}  {r.seconds:>6.2f}s")
    lines += [f"({n} skipped: {reason})" for reason, n in sorted(reasons.items())]
    if run.unmapped:
        lines.append(unmapped_text(run))
    c = run.counts()
    lines.append(", ".join(f"{c[o]} {o}" for o in OUTCOMES if c[o]))
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


_CSS = """body{font-family:sans-serif;margin:1.5em}table{border-collapse:collapse;font-size:12px}
td,th{border:1px solid #bbb;padding:2px 5px;text-align:center}td.n{text-align:left}
pre{background:#f6f6f6;padding:.5em;overflow-x:auto}th.v{writing-mode:vertical-rl}"""


def _cell(status, title=""):
    colour = _COLOURS.get(status, "#ffffff")
    return (f'<td style="background:{colour}" title="{html.escape(title)}">'
            f'{html.escape(status)}</td>')


def _matrix(run):
    dtypes = list(S.ALL)
    extra = sorted({k for r in run.results for k in r.dtypes if k not in dtypes})
    cols = dtypes + extra
    rows = ["<table><tr><th>function</th><th>outcome</th><th>examples</th><th>time</th>"
            + "".join(f'<th class="v">{html.escape(c)}</th>' for c in cols) + "</tr>"]
    for r in run.results:
        if r.status == "skipped":
            continue
        cells = "".join(_cell(r.dtypes[c]) if c in r.dtypes else "<td></td>" for c in cols)
        rows.append(f'<tr><td class="n"><a href="#{html.escape(run.namespace)}-'
                    f'{html.escape(r.name)}">{html.escape(r.name)}</a></td>'
                    f"{_cell(r.status, r.message)}<td>{r.examples}</td>"
                    f"<td>{r.seconds:.2f}s</td>{cells}</tr>")
    rows.append("</table>")
    by_reason = {}
    for r in run.results:
        if r.status == "skipped":
            by_reason.setdefault(r.message, []).append(r.name)
    for reason, names in sorted(by_reason.items()):
        rows.append(f"<p><b>skipped ({len(names)}, {html.escape(reason)}):</b> "
                    f"{html.escape(', '.join(names))}</p>")
    return "\n".join(rows)


def to_html(runs):
    """One self-contained HTML page: summary, function x dtype matrix per namespace,
    failures with their snippets (and a side-by-side table when several runs)."""
    parts = ["<!DOCTYPE html><html><head><meta charset='utf-8'>",
             "<title>laxarray.conformance report</title>", f"<style>{_CSS}</style></head><body>",
             "<h1>Array API conformance</h1>", f"<p><b>{html.escape(closing_line(runs))}</b></p>",
             "<table><tr><th>namespace</th><th>standard</th><th>seed</th><th>max_examples</th>"
             + "".join(f"<th>{o}</th>" for o in OUTCOMES) + "<th>time</th></tr>"]
    for run in runs:
        c = run.counts()
        parts.append(f"<tr><td class='n'>{html.escape(run.namespace)}</td><td>{run.version}"
                     f"</td><td>{run.seed}</td><td>{run.max_examples}</td>"
                     + "".join(f"<td>{c[o]}</td>" for o in OUTCOMES)
                     + f"<td>{run.seconds:.1f}s</td></tr>")
    parts.append("</table>")
    unmapped = sorted({entry for run in runs for entry in run.unmapped})
    if unmapped:
        parts.append("<h2>Unmapped expectation entries</h2><pre>"
                     + html.escape("\n".join(unmapped)) + "</pre>")
    if len(runs) > 1:
        parts.append(f"<h2>Side by side</h2><pre>{html.escape(compare_table(runs))}</pre>")
    for run in runs:
        parts.append(f"<h2>{html.escape(run.namespace)}: function &times; dtype</h2>")
        parts.append(_matrix(run))
        failed = [r for r in run.results if r.status in ("fail", "error", "xfail")]
        if failed:
            parts.append(f"<h2>{html.escape(run.namespace)}: failures</h2>")
        for r in failed:
            parts.append(f'<h3 id="{html.escape(run.namespace)}-{html.escape(r.name)}">'
                         f"{html.escape(r.name)} ({r.status})</h3>"
                         f"<p>{html.escape(r.message)}</p><pre>{html.escape(r.snippet)}</pre>")
    parts.append("</body></html>")
    return "\n".join(parts)
