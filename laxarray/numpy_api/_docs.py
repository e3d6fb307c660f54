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


from laxarray._core.docstrings import closing, compose  # noqa: F401  (the families' modules
#                                                   use _docs.closing, _docs.compose)

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
