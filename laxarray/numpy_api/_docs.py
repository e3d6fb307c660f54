"""Numpydoc entries that functions across the NumPy surface share, filled in by ``fill``.

Each constant is one Parameters or Raises entry as it reads in a docstring (its own
indentation removed); a function's docstring names it on a line of its own as ``{name}``,
the constant's name in lower case, and the function is decorated with
``@fill(name=_docs.NAME)`` (:func:`laxarray._core.docstrings.fill`).  Entries of one family
alone live with that family (``statistics/_docs.py``, the window functions' module).
Where the functions of a family share whole sections, :func:`compose` makes of them one
part, and :func:`closing` builds the Raises and Notes sections with the Examples heading.

A family's composed part is the longest run of docstring lines its members have in common:
it takes the section headings next to it along (written out per function, the headings and
the entries between them repeat as a whole), so it may end on an entry's first line (a
Returns type, a Raises exception) whose description each member writes itself, or on a
heading whose entries follow in the docstring.
"""

import inspect
import textwrap

from laxarray._core.docstrings import compose  # noqa: F401  (the families' modules use _docs.compose)

ARRAY = """
a : array_like
    The input array."""

REAL_ARRAY = """
a : array_like
    The input array, of a real dtype."""

OUT_NONE = """
out : None
    NumPy's ``out``: only None is accepted (laxarray arrays are immutable values)."""

AXES_ALL = """
axis : int or tuple of ints, optional
    The axes to reduce; default all."""

AXIS_FLAT = """
axis : int, optional
    The axis; default None: the flattened array."""

KEEPDIMS = """
keepdims : bool, optional
    Keep the reduced axes with size one; default False."""

OUT_KEEPDIMS = OUT_NONE + KEEPDIMS

KEEPDIM = """
keepdims : bool, optional
    Keep the reduced axis with size one; default False."""

DTYPE_RESULT = """
dtype : dtype, optional
    The dtype of the result."""

DTYPE_PROMOTED = """
dtype : dtype, optional
    The result's dtype; default the promotion of the inputs'."""

SIZE = """
size : int, optional
    The static length of the result, required under ``jax.jit``: padded with
    ``fill_value`` or truncated."""

AXIS_ERROR = """
AxisError
    If an axis is out of range."""

AXIS_ERROR_AXIS = """
AxisError
    If ``axis`` is out of range."""

TYPE_ERROR_OPERAND = """
TypeError
    If an operand is not array_like."""

TYPE_ERROR_INPUT = """
TypeError
    If an input is not array_like."""

TYPE_ERROR_A = """
TypeError
    If ``a`` is not array_like."""

TYPE_ERROR_A_OUT = """
TypeError
    If ``a`` is not array_like, or ``out`` is given."""

SIZE_ERROR = """
ValueError
    Under ``jax.jit`` without ``size``."""

BROADCAST_ERROR = """
ValueError
    If the shapes do not broadcast."""


def closing(raises, static, notes=""):
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

    Returns
    -------
    str
        The sections, ending with the Examples heading and the line that imports laxarray
        as ``la``: each docstring's examples follow its ``{name}`` line.

    Examples
    --------
    >>> text = closing([AXIS_ERROR], "``axis``")
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
    lines += ["", "Examples", "--------", ">>> import laxarray as la"]
    return "\n".join(lines)
