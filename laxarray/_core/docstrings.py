"""Numpydoc text that a family of functions shares, written once and filled into docstrings.

A family (the FFTs, the nan-reductions, the order statistics) documents the same parameters,
errors and notes in every member's docstring.  Written out in each, the copies drift apart;
written here once, each member's docstring names the part on a line of its own::

    NORM = '''
    norm : {'backward', 'ortho', 'forward'} or None, optional
        The normalization...'''

    @fill(norm=NORM)
    def fft(x, /, n=None, axis=-1, norm="backward"):
        '''Compute the one-dimensional discrete Fourier transform.

        Parameters
        ----------
        x : array_like
            The input array.
        {norm}
        ...
        '''

:func:`fill` replaces each line that is exactly ``{name}`` (after its indentation) with the
part's text, every line of it indented as that line was.  Nothing else of the docstring is
touched: braces elsewhere (``{'backward', 'ortho'}``) stay as written, and a ``{name}`` line
with no part raises at import, so a misspelt name never reaches the rendered page.  The filled
text is the function's ``__doc__``, which ``help``, the docs site and the doctests read.
"""

from __future__ import annotations

import inspect
import re
import textwrap
from typing import Callable, TypeVar

_T = TypeVar("_T")

_PLACE = re.compile(r"^(?P<indent>[ \t]*)\{(?P<name>[A-Za-z_][A-Za-z0-9_]*)\}[ \t]*$",
                    re.MULTILINE)


def fill(**parts: str) -> Callable[[_T], _T]:
    """A decorator that fills the shared ``parts`` into the decorated object's docstring.

    Parameters
    ----------
    **parts : str
        The texts to fill in, by name: each line of the docstring that is exactly
        ``{name}`` is replaced by ``parts[name]`` (its common indentation removed and the
        line's indentation put in front of each of its lines; leading and trailing blank
        lines dropped).

    Returns
    -------
    callable
        The decorator; it returns the object it is given, with its ``__doc__`` filled.

    Raises
    ------
    ValueError
        At import, where the docstring has a ``{name}`` line that ``parts`` does not name, or
        names a part that no line of the docstring asks for.

    Examples
    --------
    >>> @fill(axis="axis : int, optional\\n    The axis.")
    ... def f(x, axis=-1):
    ...     '''Do nothing.
    ...
    ...     Parameters
    ...     ----------
    ...     {axis}
    ...     '''
    >>> print(f.__doc__.strip())
    Do nothing.
    <BLANKLINE>
        Parameters
        ----------
        axis : int, optional
            The axis.
    """
    texts = {name: inspect.cleandoc(text) for name, text in parts.items()}

    def decorate(obj: _T) -> _T:
        obj.__doc__ = fill_text(obj.__doc__ or "", texts, getattr(obj, "__name__", repr(obj)))
        return obj

    return decorate


def fill_text(doc, parts, owner="docstring"):
    """``doc`` with each ``{name}`` line replaced by ``parts[name]`` (see :func:`fill`).

    Parameters
    ----------
    doc : str
        The docstring to fill.
    parts : mapping of str to str
        The texts, by name, their own indentation already removed.
    owner : str, optional
        What the docstring belongs to, for the error message.

    Returns
    -------
    str
        The filled docstring.

    Raises
    ------
    ValueError
        If a ``{name}`` line names no part, or a part is asked for by no line.

    Examples
    --------
    >>> fill_text("A.\\n    {p}\\n", {"p": "x : int\\n    An int."})
    'A.\\n    x : int\\n        An int.\\n'
    """
    used = set()

    def put(match):
        name = match.group("name")
        if name not in parts:
            raise ValueError(f"fill: the docstring of {owner} asks for {{{name}}}, which no "
                             f"part names; got parts {sorted(parts)}")
        used.add(name)
        indent = match.group("indent")
        return "\n".join(indent + line if line else line for line in parts[name].split("\n"))

    filled = _PLACE.sub(put, doc)
    unused = set(parts) - used
    if unused:
        raise ValueError(f"fill: the docstring of {owner} has no line for the parts "
                         f"{sorted(unused)}")
    return filled


def compose(template, **parts):
    """Sections that several functions of a family share whole, as one part for ``fill``.

    Parameters
    ----------
    template : str
        The sections as they read in a docstring (any common indentation is removed), with
        ``{name}`` lines where an entry of ``parts`` goes.
    **parts : str
        The entries, by name.

    Returns
    -------
    str
        The template with its ``{name}`` lines filled, ready to be a part itself.

    Raises
    ------
    ValueError
        If a ``{name}`` line of ``template`` has no entry in ``parts``, or an entry
        fills no line.

    Examples
    --------
    >>> print(compose('''
    ...     Raises
    ...     ------
    ...     {axis_error}''', axis_error="AxisError\\n    If an axis is out of range."))
    Raises
    ------
    AxisError
        If an axis is out of range.
    """
    texts = {name: inspect.cleandoc(text) for name, text in parts.items()}
    return fill_text(inspect.cleandoc(template), texts, "a composed part")


def closing(raises, static, notes="", examples=True):
    """The Raises and Notes sections and the Examples heading, as one part for ``fill``.

    A family whose members raise alike and keep the same arguments static shares these
    sections whole; built here, their headings are not written out once per family.

    Parameters
    ----------
    raises : sequence of str
        The Raises entries (the constants above, a family's, or written out as
        ``"TypeError\\n    If ..."``).
    static : str
        What is static under ``jax.jit``, as the Notes' first line says it (``"none"``, or
        the argument names in double backquotes).
    notes : str, optional
        More paragraphs of Notes, after that line.
    examples : bool, optional
        End with the Examples heading and the line that imports laxarray (default True);
        False: end with the Notes.

    Returns
    -------
    str
        The sections, ending with the Examples heading and the line that imports laxarray
        as ``la``: each docstring's examples follow its ``{name}`` line.

    Examples
    --------
    >>> text = closing(["AxisError\\n    If an axis is out of range."], "``axis``")
    >>> print(text.rsplit("\\n", 4)[0])
    Raises
    ------
    AxisError
        If an axis is out of range.
    <BLANKLINE>
    Notes
    -----
    Static under ``jax.jit``: ``axis``.
    >>> text.splitlines()[-3:]
    ['Examples', '--------', '>>> import laxarray as la']
    """
    lines = ["Raises", "------", *(textwrap.dedent(e).strip("\n") for e in raises), "",
             "Notes", "-----", f"Static under ``jax.jit``: {static}."]
    if notes:
        lines += ["", inspect.cleandoc(notes)]
    if examples:
        lines += ["", "Examples", "--------", ">>> import laxarray as la"]
    return "\n".join(lines)
