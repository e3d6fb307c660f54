"""The shared docstring parts: filled where a line asks for them, nothing else touched."""

import inspect

import pytest

from laxarray._core.docstrings import fill, fill_text

NORM = """
    norm : {'backward', 'ortho'} or None, optional
        The normalization.
"""


def test_a_part_takes_the_indentation_of_its_line():
    @fill(norm=NORM)
    def f():
        """Summary.

        Parameters
        ----------
        {norm}
        x : {1, 2}
            Braces elsewhere stay.
        """

    lines = inspect.cleandoc(f.__doc__).splitlines()
    assert lines[4:8] == ["norm : {'backward', 'ortho'} or None, optional",
                          "    The normalization.",
                          "x : {1, 2}",
                          "    Braces elsewhere stay."]


def test_a_part_asked_for_twice_is_filled_twice():
    doc = fill_text("A\n  {p}\nB\n    {p}\n", {"p": "one\n  two"})
    assert doc == "A\n  one\n    two\nB\n    one\n      two\n"


def test_a_line_that_names_no_part_is_an_error_at_import():
    with pytest.raises(ValueError, match=r"asks for \{nrom\}"):
        @fill(norm=NORM)
        def f():
            """Summary.

            {nrom}
            {norm}
            """


def test_a_part_no_line_asks_for_is_an_error():
    with pytest.raises(ValueError, match=r"no line for the parts \['axis'\]"):
        fill(axis="axis : int")(lambda: None).__doc__   # noqa: B018


def test_an_inline_brace_name_is_not_a_part_line():
    assert fill_text("Use {p} here.\n", {}) == "Use {p} here.\n"
