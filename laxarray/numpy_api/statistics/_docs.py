"""Numpydoc entries that the statistics families share, filled in by ``fill``.

Each constant is one Parameters or Raises entry as it reads in a docstring (its own
indentation removed); a docstring names it as ``{name}``, the constant's name in lower case
(:func:`laxarray._core.docstrings.fill`).  Entries the whole NumPy surface shares are in
``laxarray/numpy_api/_docs.py``.
"""

# ---- the NaN-ignoring reductions and the cumulative ones ------------------------------

ACCUMULATE = """
dtype : dtype, optional
    The dtype to accumulate in and return."""

ACCUMULATE_IN = """
dtype : dtype, optional
    The dtype to accumulate in."""

DDOF = """
ddof : int or float, optional
    The delta degrees of freedom: the divisor is ``count - ddof``; default 0."""

CORRECTION = """
correction : int or float, optional
    The Array API name of ``ddof``; give at most one of the two."""

DDOF_ERROR = """
ValueError
    If both ``ddof`` and ``correction`` are given."""

NO_ORDER_ERROR = """
TypeError
    If ``a`` is not array_like or complex (no order), or ``out`` is given."""

ALL_NAN_ERROR = """
ValueError
    Eagerly, for an all-NaN slice (as NumPy); under ``jax.jit``, where the values are
    not known, such slices give -1 (as jax.numpy's)."""

INDICES = """
Array
    The indices, of the index dtype."""

CUMULATIVE_AXIS = """
axis : int, optional
    The axis to accumulate along; default None: the flattened array."""

RUNNING = """
Array
    The running results, of ``a``'s shape (1-D for ``axis=None``)."""

# ---- the order statistics -------------------------------------------------------------

ORDER_AXES = """
axis : int or tuple of ints, optional
    The axes to reduce; default all (the flattened array)."""

OVERWRITE_INPUT = """
overwrite_input : bool, optional
    Accepted for NumPy's signature and ignored."""

METHOD = """
method : str, optional
    One of NumPy 2's 13 methods: ``'linear'`` (default), ``'lower'``, ``'higher'``,
    ``'midpoint'``, ``'nearest'``, ``'inverted_cdf'``, ``'averaged_inverted_cdf'``,
    ``'closest_observation'``, ``'interpolated_inverted_cdf'``, ``'hazen'``,
    ``'weibull'``, ``'median_unbiased'``, ``'normal_unbiased'``."""

ORDER_TYPE_ERROR = """
TypeError
    If ``a`` is not array_like or not real (complex is refused), or ``out`` is not None."""

REAL_TYPE_ERROR = """
TypeError
    If ``a`` is not array_like or not real, or ``out`` is not None."""

Q1_ERROR = """
ValueError
    If ``method`` is unknown, or (eagerly) a ``q`` is outside [0, 1]."""

Q100_ERROR = """
ValueError
    If ``method`` is unknown, or (eagerly) a ``q`` is outside [0, 100]."""

KTH = """
kth : int or sequence of ints
    The positions to put in sorted place."""

AXIS_LAST = """
axis : int, optional
    The axis; default -1."""

KTH_ERROR = """
ValueError
    If a ``kth`` is out of range."""
