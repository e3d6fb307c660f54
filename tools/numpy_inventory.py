"""Write the offline intersphinx inventory of NumPy's documentation, from NumPy's doc sources.

    python tools/numpy_inventory.py --git PATH/TO/numpy/.git --ref v2.4.6 \
        [--out docs/_intersphinx/numpy.inv]

The documentation site links NumPy's names (``NumPy: numpy.corrcoef.`` in a docstring, a
re-exported NumPy function, a NumPy type) to NumPy's own pages through Sphinx's
intersphinx, and ``make docs`` is offline: the inventory Sphinx reads is kept in the
repository (``docs/_intersphinx/numpy.inv``, Sphinx's inventory format 2) instead of being
downloaded from numpy.org at each build.

It is made from the reStructuredText sources of NumPy's reference (``doc/source/reference``
at the tag of the NumPy release laxarray is tested with), read from a NumPy git repository
without a checkout: each name an ``autosummary`` with ``:toctree: generated/`` lists has
the page ``reference/generated/<name>.html`` (``reference/random/generated/...`` below
``random/``), and each name a ``data``/``attribute``/``function``/``class``/``autoclass``/
``autofunction``/``autodata`` directive documents has an anchor ``#<name>`` on its page --
the layout of ``https://numpy.org/doc/<version>/``. The kind of each name (function, class,
method ...) is read from the NumPy this Python imports; a name it does not have is kept
as ``py:obj`` (intersphinx's ``:py:obj:`` role finds any kind).
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import pathlib
import posixpath
import re
import subprocess
import zlib

ROOT = pathlib.Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "_intersphinx" / "numpy.inv"
SOURCE = "doc/source"

_MODULE = re.compile(r"^\.\. (?:current)?module:: (\S+)")
_AUTOSUMMARY = re.compile(r"^(\s*)\.\. autosummary::")
_AUTOMODULE = re.compile(r"^\.\. automodule:: (\S+)")
_DIRECTIVE = re.compile(
    r"^\s*\.\. (?:py:)?(data|attribute|function|class|method|autoclass|autofunction|"
    r"autodata|autoattribute|automethod|exception)::\s+([\w.]+)")


def _git(git, *args):
    return subprocess.run(["git", f"--git-dir={git}", *args], check=True,
                          capture_output=True, text=True).stdout


def sources(git, ref):
    """``{path below doc/source: text}`` of the reference's .rst files (no C API)."""
    names = _git(git, "ls-tree", "-r", "--name-only", ref, f"{SOURCE}/reference").split()
    return {n[len(SOURCE) + 1:]: _git(git, "show", f"{ref}:{n}") for n in names
            if n.endswith(".rst") and "/c-api/" not in n}


def entries(path, text, module="numpy"):
    """``[(full name, uri)]`` documented by the page ``path`` (below doc/source)."""
    page = path[:-len(".rst")] + ".html"
    folder = posixpath.dirname(path)
    out = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        m = _MODULE.match(line)
        if m:
            module = m.group(1)
        m = _AUTOMODULE.match(line)
        if m:   # the module's docstring is this page's text (numpy.fft)
            module = m.group(1)
            out += entries(path, importlib.import_module(module).__doc__ or "", module)
        m = _AUTOSUMMARY.match(line)
        if m:
            indent, toctree, names = len(m.group(1)), None, []
            i += 1
            while i < len(lines) and (not lines[i].strip()
                                      or len(lines[i]) - len(lines[i].lstrip()) > indent):
                item = lines[i].strip()
                if item.startswith(":toctree:"):
                    toctree = item.split(":", 2)[2].strip()
                elif item and not item.startswith((":", "..")):
                    names.append(item.split()[0].lstrip("~"))   # "name (a remark)"
                i += 1
            if toctree:
                for name in names:
                    full = name if name.startswith("numpy.") else f"{module}.{name}"
                    uri = posixpath.join(folder, toctree.rstrip("/"), f"{full}.html")
                    out.append((full, f"{uri}#{full}"))
            continue
        m = _DIRECTIVE.match(line)
        if m:
            name = m.group(2)
            full = name if name.startswith("numpy.") else f"{module}.{name}"
            out.append((full, f"{page}#{full}"))
        i += 1
    return out


def resolve(full):
    """``(object, parent)`` of a NumPy name in the installed NumPy, or ``None``."""
    import warnings
    parent, obj = None, None
    parts = full.split(".")
    try:
        obj = importlib.import_module(parts[0])
        for k, part in enumerate(parts[1:], 1):
            parent = obj
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                if hasattr(obj, part):
                    obj = getattr(obj, part)
                elif inspect.ismodule(obj):
                    obj = importlib.import_module(".".join(parts[:k + 1]))
                else:
                    return None
    except Exception:
        return None
    return obj, parent


def role(obj, parent):
    """Sphinx's ``py:`` role of a NumPy object whose attribute of ``parent`` it is."""
    if inspect.ismodule(obj):
        return "module"
    if isinstance(obj, type):
        return "exception" if issubclass(obj, BaseException) else "class"
    in_class = isinstance(parent, type)
    if callable(obj):
        return "method" if in_class else "function"
    return "attribute" if in_class else "data"


#: the namespaces whose aliases (``numpy.abs`` is ``numpy.absolute``, documented under the
#: latter's name only) get the page of the name NumPy documents
ALIAS_NAMESPACES = ("numpy", "numpy.linalg", "numpy.fft")


def inventory(texts, version):
    """The inventory file's bytes (Sphinx's format 2)."""
    seen = {}
    for path in sorted(texts):
        for full, uri in entries(path, texts[path]):
            found = resolve(full)
            if found is not None and full not in seen:
                seen[full] = (role(*found), uri)
    pages = {}
    for full, (_, uri) in seen.items():
        obj, _ = resolve(full)
        pages.setdefault(id(obj), uri)
    for ns in ALIAS_NAMESPACES:
        mod = importlib.import_module(ns)
        for name in dir(mod):
            full = f"{ns}.{name}"
            if name.startswith("_") or full in seen:
                continue
            found = resolve(full)
            if found and not isinstance(found[0], (int, float, str, bool, type(None))) and \
                    id(found[0]) in pages:
                seen[full] = (role(*found), pages[id(found[0])])
    head = ("# Sphinx inventory version 2\n# Project: NumPy\n"
            f"# Version: {version}\n"
            "# The remainder of this file is compressed using zlib.\n").encode()
    body = "".join(f"{name} py:{r} 1 {uri} -\n" for name, (r, uri) in sorted(seen.items()))
    return head + zlib.compress(body.encode(), 9)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--git", required=True, help="a NumPy git directory (bare is fine)")
    parser.add_argument("--ref", required=True, help="the release's tag, e.g. v2.4.6")
    parser.add_argument("--out", type=pathlib.Path, default=OUT)
    args = parser.parse_args(argv)
    version = ".".join(args.ref.lstrip("v").split(".")[:2])
    data = inventory(sources(args.git, args.ref), version)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(data)
    count = zlib.decompress(data.split(b"\n", 4)[4]).count(b"\n")
    print(f"{args.out}: {count} names of NumPy {version}")


if __name__ == "__main__":
    main()
