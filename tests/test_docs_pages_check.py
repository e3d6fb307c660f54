"""tools/docs_pages_check.py: each rule holds on the site's pages, and each fails on a page
that breaks it (a small site written in a temporary directory)."""

import importlib.util
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _tool():
    name = "docs_pages_check"
    module = sys.modules.get(name)
    if module is None:
        spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return module


INDEX = """# Home

```{toctree}
:caption: User guide

guide
Second page <second>
```

```{toctree}
:caption: Inside laxarray

inside
```
"""

GUIDE = """# The guide

Arrays can be written to.

```python
>>> import laxarray as xp
>>> xp.__version__ is not None
True

```
"""


def site(tmp_path, **pages):
    """A docs directory: the home page, a guide page, a second page and an inside page,
    any of them replaced by ``pages`` (``{stem: text}``)."""
    files = {"index": INDEX, "guide": GUIDE, "second": "# Second page\n\nText.\n",
             "inside": "# Inside\n\n```python\n>>> from laxarray._core.runtime import kernel\n"
                       ">>> kernel.compile_count()\n0\n```\n"}
    files.update(pages)
    for stem, text in files.items():
        (tmp_path / f"{stem}.md").write_text(text)
    return tmp_path


def rules(problems):
    return sorted({p[0] for p in problems})


def test_the_sites_pages_hold_every_rule():
    problems, counts = _tool().check()
    assert not problems, "\n".join(map(str, problems))
    assert counts["user pages"] >= 10 and counts["inside pages"] >= 3


def test_a_small_good_site_passes(tmp_path, capsys):
    tool = _tool()
    docs = site(tmp_path)
    problems, counts = tool.check(docs)
    assert problems == []
    assert counts == {"pages": 4, "user pages": 3, "inside pages": 1}   # (index, guide, second)
    assert tool.main(["--docs", str(docs)]) == 0
    assert "every rule holds" in capsys.readouterr().out


@pytest.mark.parametrize("text", [
    "# The guide\n\nAs issue 52 found, the TPU has no float64.\n",
    "# The guide\n\nIssues 40 and 41 asked for it.\n",
    "# The guide\n\n(see Issue #7)\n",
])
def test_issue_numbers_fail(tmp_path, text, capsys):
    tool = _tool()
    docs = site(tmp_path, guide=text)
    problems, _ = tool.check(docs)
    assert rules(problems) == ["issue"] and problems[0][1] == "guide.md:3"
    assert tool.main(["--docs", str(docs)]) == 1
    assert "[issue] guide.md:3" in capsys.readouterr().out


def test_a_linked_issue_of_another_project_and_other_numbers_pass(tmp_path):
    text = ("# The guide\n\njax's issues [#26890](https://github.com/jax-ml/jax/issues/26890) "
            "and [issue 40907](https://github.com/jax-ml/jax/issues/40907); 52 tissues 3.\n")
    problems, _ = _tool().check(site(tmp_path, guide=text))
    assert problems == []


def test_an_issue_number_in_an_included_file_fails_with_its_file(tmp_path):
    (tmp_path / "notes.md").write_text("# Notes\n\n## Part\n\nFixed in issue 12.\n\n## End\n")
    docs = site(tmp_path, second=('# Second page\n\n```{include} notes.md\n'
                                  ':start-after: "## Part"\n:end-before: "## End"\n```\n'))
    (docs / "notes.md").rename(docs / "notes.txt")   # (not a page itself)
    text = (docs / "second.md").read_text().replace("notes.md", "notes.txt")
    (docs / "second.md").write_text(text)
    problems, _ = _tool().check(docs)
    assert [(p[0], p[1]) for p in problems] == [("issue", "notes.txt (in second.md):5")]


@pytest.mark.parametrize("code", [
    ">>> from laxarray._core import backend",
    ">>> import laxarray._core.runtime.kernel as kernel",
    ">>> from laxarray.array_api._array import Array",
    ">>> from laxarray import _core",
    ">>> before = kernel.compile_count()",
    "x = laxarray._core.backend.TPU",
])
def test_private_names_in_a_user_pages_code_fail(tmp_path, code):
    text = f"# The guide\n\n```python\n{code}\n```\n"
    problems, _ = _tool().check(site(tmp_path, guide=text))
    assert rules(problems) == ["private"] and problems[0][1] == "guide.md:4"


def test_private_names_pass_in_prose_public_names_and_inside_pages(tmp_path):
    text = ("# The guide\n\nThe record is in `laxarray/_core/backend.py`.\n\n```python\n"
            ">>> import laxarray as xp\n>>> xp.__array_namespace_info__ is not None\nTrue\n"
            ">>> from laxarray.conformance import runner\n```\n")
    problems, _ = _tool().check(site(tmp_path, guide=text))
    assert problems == []   # (and inside.md imports laxarray._core: it may)


def test_a_page_reached_only_through_inside_laxarray_may_show_private_code(tmp_path):
    docs = site(tmp_path, inside="# Inside\n\n```{toctree}\ndeeper\n```\n")
    (docs / "deeper.md").write_text("# Deeper\n\n```python\n>>> from laxarray._core import "
                                    "kernel\n```\n")
    problems, counts = _tool().check(docs)
    assert problems == [] and counts["inside pages"] == 2


def test_a_sidebar_title_that_is_not_the_pages_fails(tmp_path):
    docs = site(tmp_path, index=INDEX.replace("Second page <second>", "Other name <second>"))
    problems, _ = _tool().check(docs)
    assert rules(problems) == ["title"]
    assert "'Other name'" in problems[0][2] and "'Second page'" in problems[0][2]


def test_a_listed_page_without_a_title_fails(tmp_path):
    problems, _ = _tool().check(site(tmp_path, second="Text only.\n"))
    assert [(p[0], p[1]) for p in problems] == [("title", "second.md")]


def test_an_include_of_a_file_the_build_generates_is_passed_over_before_the_build(tmp_path):
    docs = site(tmp_path, second="# Second page\n\n```{include} _generated/table.md\n```\n")
    problems, _ = _tool().check(docs)   # (a fresh clone: make docs-check runs this first)
    assert problems == []
