"""Check the site's written pages (docs/*.md and the files they include), as a user meets them.

    python tools/docs_pages_check.py [--docs DIR]

``make docs-check`` runs it beside ``tools/docs_check.py`` (which checks the generated API
reference); it exits 1 on a broken rule and names the page and line. The rules, each a
function of this module that ``tests/test_docs_pages_check.py`` breaks on purpose:

- ``issue``: no page mentions a bare issue number ("issue 52", "Issues 40 and 41"): a user
  has no tracker to look it up in. Say what the issue was about; a linked issue of another
  project (``[#26890](https://github.com/...)``) is fine (:func:`check_issue_numbers`);
- ``private``: the code of a user page -- every page the home page's toctrees reach, except
  those under the caption "Inside laxarray" -- imports nothing private: no
  ``laxarray._core``, no ``from laxarray import _x``, no module path with a part that
  starts with one underscore (``laxarray.array_api._array``), and no ``compile_count``
  (:func:`check_private_imports`);
- ``title``: a toctree entry's own title (``Arrays <dense>``) is the page's title, so the
  sidebar and the page say the same; every page a toctree lists has a ``# title``
  (:func:`check_titles`).

Included text (MyST's ``{include}`` with ``:start-after:``/``:end-before:``) is read as
part of the page that includes it; a file the build generates (``docs/_generated/``), not
there before the first build, is passed over.
"""

from __future__ import annotations

import argparse
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
#: the toctree caption whose pages may show laxarray's insides
INSIDE = "Inside laxarray"

_ISSUE = re.compile(r"\b[Ii]ssues?\s+#?\d+")
_LINK = re.compile(r"\[[^\]]*\]\([^)]*\)")
_PRIVATE = (
    re.compile(r"\blaxarray(?:\.[A-Za-z]\w*)*\._[A-Za-z0-9]\w*"),   # laxarray._core, ...a._b
    re.compile(r"\bfrom\s+laxarray(?:\.\w+)*\s+import\s+(?:\(\s*)?_[A-Za-z0-9]"),
    re.compile(r"\bcompile_count\b"),
)
_FENCE = re.compile(r"^(```+|~~~+)\s*\{?([\w-]*)\}?(.*)$")
_INCLUDE_OPTION = re.compile(r"^:([\w-]+):\s*(.*)$")


class Problem(tuple):
    """``(rule, where, detail)``."""

    def __new__(cls, rule, where, detail):
        return super().__new__(cls, (rule, where, detail))

    def __str__(self):
        return f"[{self[0]}] {self[1]}: {self[2]}"


# ---- reading pages ----------------------------------------------------------------------------

def _unquote(value):
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1]
    return value


def blocks(text):
    """``[(kind, argument, body lines, first line number)]`` of the fenced blocks of a
    Markdown text: ``kind`` the fence's language or directive (``python``, ``include``,
    ``toctree``), ``argument`` what follows it."""
    out, lines, i = [], text.split("\n"), 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence, kind, arg = m.group(1), m.group(2), m.group(3).strip()
        start, i = i + 1, i + 1
        while i < len(lines) and not lines[i].startswith(fence):
            i += 1
        out.append((kind, arg, lines[start:i], start + 1))
        i += 1
    return out


def expand(path, text=None):
    """``[(source, line number, line)]`` of a page with its ``{include}`` blocks replaced
    by the lines they include (``source`` names the included file and the page)."""
    text = path.read_text() if text is None else text
    lines = text.split("\n")
    out, i = [], 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if m and m.group(2) == "include":
            fence, target = m.group(1), m.group(3).strip()
            options, i = {}, i + 1
            while i < len(lines) and not lines[i].startswith(fence):
                o = _INCLUDE_OPTION.match(lines[i])
                if o:
                    options[o.group(1)] = _unquote(o.group(2))
                i += 1
            i += 1
            included = (path.parent / target).resolve()
            if not included.is_file():   # generated at the build (docs/_generated/, before
                continue                 # it on a fresh clone); the build reports a missing one
            body = included.read_text()
            offset = 0
            if "start-after" in options:
                k = body.index(options["start-after"]) + len(options["start-after"])
                offset, body = body[:k].count("\n"), body[k:]
            if "end-before" in options:
                body = body[:body.index(options["end-before"])]
            name = f"{included.name} (in {path.name})"
            out += [(name, offset + n + 1, line) for n, line in enumerate(body.split("\n"))]
            continue
        out.append((path.name, i + 1, lines[i]))
        i += 1
    return out


def code_lines(expanded):
    """The lines of code in an expanded page: the bodies of ``python``, ``pycon``, ``sh``
    and ``bash`` blocks, and every ``>>>``/``...`` line."""
    out, fence = [], None
    for source, n, line in expanded:
        m = _FENCE.match(line)
        if fence is None and m:
            fence = (m.group(1), m.group(2))
            continue
        if fence is not None and line.startswith(fence[0]):
            fence = None
            continue
        if fence is not None and fence[1] in ("python", "pycon", "py", "sh", "bash", ""):
            out.append((source, n, line))
        elif re.match(r"\s*(>>>|\.\.\.) ", line):
            out.append((source, n, line))
    return out


def title(path):
    """The page's first ``# `` heading, or ``None``."""
    for kind_line in path.read_text().split("\n"):
        if kind_line.startswith("# "):
            return kind_line[2:].strip()
    return None


def toctrees(path):
    """``[(caption, [(own title or None, document)])]`` of a page's toctrees."""
    out = []
    for kind, _, body, _ in blocks(path.read_text()):
        if kind != "toctree":
            continue
        caption, entries = None, []
        for line in body:
            line = line.strip()
            o = _INCLUDE_OPTION.match(line)
            if o:
                if o.group(1) == "caption":
                    caption = o.group(2).strip()
                continue
            if not line:
                continue
            m = re.match(r"(.*?)\s*<([^>]+)>$", line)
            entries.append((m.group(1), m.group(2)) if m else (None, line))
        out.append((caption, entries))
    return out


def user_pages(docs):
    """The pages a user reads: every page the home page's toctrees reach (and their own
    toctrees), less those under the caption :data:`INSIDE`; generated pages
    (``reference/``) are left to tools/docs_check.py."""
    seen, todo = [], [("index", None)]
    while todo:
        doc, caption = todo.pop(0)
        path = docs / f"{doc}.md"
        if caption == INSIDE or doc in seen or not path.is_file():
            continue
        seen.append(doc)
        for cap, entries in toctrees(path):
            todo += [(d, cap if doc == "index" else caption) for _, d in entries]
    return [docs / f"{d}.md" for d in seen]


# ---- the rules ---------------------------------------------------------------------------

def check_issue_numbers(expanded):
    """``issue``: no line of the page names an issue number outside a link."""
    out = []
    for source, n, line in expanded:
        m = _ISSUE.search(_LINK.sub("", line))
        if m:
            out.append(Problem("issue", f"{source}:{n}", f"a bare issue number: {m.group(0)!r} "
                               "(say what it was about)"))
    return out


def check_private_imports(expanded):
    """``private``: no line of the page's code reaches a private module or name."""
    out = []
    for source, n, line in code_lines(expanded):
        for pattern in _PRIVATE:
            m = pattern.search(line)
            if m:
                out.append(Problem("private", f"{source}:{n}", f"a user page's example uses "
                                   f"laxarray's insides: {line.strip()!r} (use the public "
                                   f"API, or move it to a page under '{INSIDE}')"))
                break
    return out


def check_titles(docs, path):
    """``title``: each toctree entry of ``path`` names a page with a title, and its own
    title, where it gives one, is that title."""
    out = []
    for _, entries in toctrees(path):
        for own, doc in entries:
            target = docs / f"{doc}.md"
            if not target.is_file():
                continue   # (a generated page: reference/index)
            page_title = title(target)
            if page_title is None:
                out.append(Problem("title", f"{doc}.md", "no '# ' title"))
            elif own is not None and own != page_title:
                out.append(Problem("title", f"{path.name}", f"the sidebar says {own!r}, the "
                                   f"page {doc}.md says {page_title!r}"))
    return out


def check(docs=DOCS):
    """Every rule on every page: ``(problems, counts)``."""
    pages = sorted(docs.glob("*.md"))
    users = {p.name for p in user_pages(docs)}
    problems = []
    for path in pages:
        expanded = expand(path)
        problems += check_issue_numbers(expanded)
        if path.name in users:
            problems += check_private_imports(expanded)
        problems += check_titles(docs, path)
    counts = {"pages": len(pages), "user pages": len(users),
              "inside pages": len(pages) - len(users)}
    return problems, counts


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--docs", type=pathlib.Path, default=DOCS,
                        help="the directory of the pages (default: docs/)")
    args = parser.parse_args(argv)
    problems, counts = check(args.docs)
    for p in problems:
        print(p)
    print("; ".join(f"{k}: {v}" for k, v in counts.items()))
    print(f"{len(problems)} problems" if problems else "every rule holds")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
