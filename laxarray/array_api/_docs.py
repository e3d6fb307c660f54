"""numpydoc parts that functions of several chapters share, filled into their docstrings by
``laxarray._core.docstrings.fill`` (a family's own parts stay in its module)."""

#: the Returns of a function whose result has the shape and dtype of its input ``x``
SAME_SHAPE_DTYPE = """
Returns
-------
Array
    An array of the shape and dtype of ``x``.
"""

#: the Notes of an elementwise function of the ``numeric`` category: NumPy takes bool
NO_BOOL_NOTES = """
Notes
-----
Unlike NumPy, bool input raises ``TypeError`` (the standard's dtype category).
"""

#: the Notes of an elementwise function of the ``real floating`` category
FLOATING_ONLY_NOTES = """
Notes
-----
Unlike NumPy, integer and bool input raise ``TypeError``.
"""

#: the Notes of a function whose one static argument is ``axis``
AXIS_STATIC = """
Notes
-----
Static under ``jax.jit``: ``axis``.
"""

#: the errors of a function of ``x`` and axes of it (each an int)
AXES_ERRORS = """
TypeError
    If ``x`` is not array_like, or an axis is not an int.
AxisError
    If an axis is out of range for ``x``.
"""

#: the errors of a function along one ``axis`` of an ``x`` of rank at least one
RANK0_AXIS_ERRORS = """
ValueError
    If ``x`` is 0-d.
AxisError
    If ``axis`` is out of range for ``x``.
"""
