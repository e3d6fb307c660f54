"""The documentation site (issue 55): the API reference documents every public name, and the
site builds without a warning.

The build tests need the ``docs`` extra (Sphinx, myst-parser, furo) and run in
``make docs-check`` (``.ci/run`` calls it after ``make test``, which leaves this file out:
the build is a process of its own). The site is built into ``docs/_build/html`` from a
fresh environment (``-E``: an incremental build would not repeat an unchanged page's
warnings) with warnings as errors (``-W``). ``tools/docs_browser_check.py`` then opens the
built pages in headless Chromium.
"""

import importlib
import importlib.util
import json
import pathlib
import re
import subprocess
import sys
import zlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
HTML = DOCS / "_build" / "html"
#: the modules whose public names the reference covers (issue 55)
MODULES = ("laxarray", "laxarray.linalg", "laxarray.fft", "laxarray.sparse",
           "laxarray.sparse.linalg", "laxarray.checkify", "laxarray.optimize",
           "laxarray.precompile", "laxarray.conformance")


def _generator():
    """docs/_ext/laxarray_reference.py, imported by path (docs/ is no package)."""
    spec = importlib.util.spec_from_file_location(
        "laxarray_reference", DOCS / "_ext" / "laxarray_reference.py")
    module = sys.modules.get(spec.name)
    if module is None:
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module   # (its dataclasses look their module up there)
        spec.loader.exec_module(module)
    return module


def _expected(name):
    """The public names of module ``name``: its ``__all__``; where it has none (laxarray,
    laxarray.sparse) every attribute not starting with ``_`` that is not a laxarray
    module, and for laxarray the standard's names (``__array_namespace_info__``)."""
    import types
    module = importlib.import_module(name)
    if hasattr(module, "__all__"):
        return set(module.__all__)
    names = {n for n in dir(module) if not n.startswith("_") and not (
        isinstance(getattr(module, n), types.ModuleType)
        and getattr(module, n).__name__.startswith("laxarray."))}
    if name == "laxarray":
        import laxarray.array_api
        names |= set(laxarray.array_api.__all__)
    return names


def test_reference_documents_every_public_name():
    index = _generator().index()
    assert set(index) == set(MODULES)
    for name in MODULES:
        missing = _expected(name) - set(index[name])
        assert not missing, f"{name}: not in the reference: {sorted(missing)}"
        extra = set(index[name]) - _expected(name)
        assert not extra, f"{name}: the reference documents non-public names {sorted(extra)}"


def test_every_name_of_the_standard_is_on_its_chapters_page():
    ref = _generator()
    table = json.loads(ref.SIGNATURES.read_text())["functions"]
    on_pages = {e.standard for p in ref.pages() for _, entries in p.sections for e in entries
                if e.standard}
    assert set(table) == on_pages   # (an extension's names are "linalg.inv" there)


def test_differences_name_public_functions():
    ref = _generator()
    import laxarray
    for row in ref.differences():
        assert row["versus"] in ("NumPy", "the standard")
        for name in row["names"]:
            obj = laxarray
            for part in name.split("."):
                obj = getattr(obj, part)   # AttributeError: a row names a missing function
        if row.get("see"):
            assert (DOCS / row["see"]).is_file(), row["see"]


# ---- the built site ----------------------------------------------------------------------

@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """Build the site with warnings as errors; the HTML directory."""
    for tool in ("sphinx", "myst_parser", "furo"):
        pytest.importorskip(tool, reason=f"{tool} is not installed: the docs extra "
                            "(make docs-check installs it)")
    doctrees = tmp_path_factory.mktemp("doctrees")
    run = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-E", "-q",
                          "-b", "html", "-d", str(doctrees), str(DOCS), str(HTML)],
                         cwd=ROOT, capture_output=True, text=True, timeout=900)
    warnings = [line for line in run.stderr.splitlines()
                if "WARNING" in line or "ERROR" in line]
    assert run.returncode == 0 and not warnings, "\n".join(warnings) or run.stderr[-4000:]
    return HTML


def _inventory(html):
    """``{name: (role, uri)}`` of the site's ``objects.inv`` (Sphinx's format: four header
    lines, then zlib-compressed ``name domain:role priority uri dispname`` lines)."""
    data = (html / "objects.inv").read_bytes()
    body = zlib.decompress(data.split(b"\n", 4)[4]).decode()
    out = {}
    for line in body.splitlines():
        m = re.match(r"(.+?)\s+(\S+:\S+)\s+(-?\d+)\s+(\S+)\s+(.*)", line)
        if m:
            out[m.group(1)] = (m.group(2), m.group(4))
    return out


def test_every_public_name_is_an_object_of_the_site(site):
    inventory = _inventory(site)
    for module in MODULES:
        missing = {n for n in _expected(module) if f"{module}.{n}" not in inventory}
        assert not missing, f"{module}: no entry in the built reference: {sorted(missing)}"
    assert inventory["laxarray.unique_values"][0] == "py:function"


def test_search_index_and_an_api_page(site):
    assert "unique_values" in (site / "searchindex.js").read_text()
    page = (site / "reference" / "standard-sets.html").read_text()
    assert 'id="laxarray.unique_values"' in page
    assert re.search(r"unique_values</span></span>.*size.*fill_value", page)
    assert "array_api.unique_values.html" in page   # the standard's page
    assert "Under jax.jit" in page and "Dtypes and devices" in page


def test_the_guide_pages_and_pictures_are_built(site):
    for page in sorted(DOCS.glob("*.md")):
        assert (site / f"{page.stem}.html").is_file(), page.name
    assert list((site / "_images").glob("cold_start*.png"))
    assert "float64" in (site / "reference" / "backends.html").read_text()


def test_no_page_shows_an_address_and_every_page_its_version(site):
    import laxarray
    for page in sorted(site.rglob("*.html")):
        text = page.read_text()
        assert not re.search(r"\bat 0x[0-9a-f]{6,}|object at 0x", text), page
        assert f"laxarray {laxarray.__version__}" in text, f"{page}: no version"


def test_the_array_page(site):
    page = (site / "reference" / "standard-array-object.html").read_text()
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))
    assert "class laxarray. Array ¶" in text and "Array(*args" not in text
    for heading in ("Making arrays", "Attributes", "Operators", "Indexing",
                    "Conversions and protocols", "NumPy’s methods"):
        assert heading in text, heading
    for member in ("laxarray.Array.dtype", "laxarray.Array.__getitem__",
                   "laxarray.Array.__setitem__", "laxarray.Array.mT", "laxarray.Array.sum"):
        assert f'id="{member}"' in page, member
    assert "x // y" in text and "__rfloordiv__" in text
    getitem = page[page.index('id="laxarray.Array.__getitem__"'):]
    assert re.search(r'<dl class="field-list[^"]*">\s*<dt class="field-odd">Parameters',
                     getitem[:4000])


def test_numpy_names_link_to_numpy_and_module_notes_are_links(site):
    page = (site / "reference" / "numpy-statistics.html").read_text()
    assert "https://numpy.org/doc/2.4/reference/generated/numpy.corrcoef.html" in page
    # the Array page still points at its module's notes (the set functions' docstrings,
    # numpydoc now, no longer do)
    arr = (site / "reference" / "standard-array-object.html").read_text()
    assert 'href="module-notes.html#module-notes-laxarray-array-api-array"' in arr
    assert "see the module docstring" not in re.sub(r"<[^>]+>", "", arr)
    notes = (site / "reference" / "module-notes.html").read_text()
    assert 'id="module-notes-laxarray-array-api-array"' in notes


def test_the_users_pages(site):
    def text(name):
        return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", (site / name).read_text()))
    install = text("install.html")
    for needed in ("python -m pip install .", "make dist", "jax[tpu]", "make test-install",
                   "3.11"):
        assert needed in install, needed
    gaps = _generator_gaps()
    page = text("numpy_missing.html")
    for names in gaps.missing().values():
        for name in names:
            assert f" {name} " in page or f" {name}," in page, name
    assert "errstate" in page and "random" in page and "datetime64" in page
    assert "Unreleased" in text("changelog.html")
    index = (site / "index.html").read_text()
    for page in ("install.html", "why.html", "numpy_missing.html", "changelog.html",
                 "contributing.html"):
        assert f'href="{page}"' in index, page


def _generator_gaps():
    spec = importlib.util.spec_from_file_location(
        "laxarray_numpy_gaps", DOCS / "_ext" / "laxarray_numpy_gaps.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
