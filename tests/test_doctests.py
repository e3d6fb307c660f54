"""Every example in the library's docstrings and in docs/*.md runs and prints what it says."""

import doctest
import importlib
import pathlib
import pkgutil

import pytest

import laxarray

FLAGS = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS
ROOT = pathlib.Path(__file__).resolve().parents[1]
MODULES = sorted(m.name for m in pkgutil.walk_packages(laxarray.__path__, "laxarray.")
                 if not m.name.endswith("__main__"))
PAGES = sorted(p.name for p in (ROOT / "docs").glob("*.md"))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=FLAGS, report=True)
    assert result.failed == 0


@pytest.mark.parametrize("page", PAGES)
def test_docs_page_examples(page):
    result = doctest.testfile(str(ROOT / "docs" / page), module_relative=False,
                              optionflags=FLAGS, report=True)
    assert result.failed == 0
    if page not in ("design.md", "contributing.md", "changelog.md"):   # (the last two are
        # CONTRIBUTING.md and CHANGELOG.md, included)
        assert result.attempted > 0, f"docs/{page} has no example"
