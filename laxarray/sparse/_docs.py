"""The numpydoc parts the sparse conversions and canonical forms share, filled into their
docstrings by :func:`laxarray._core.docstrings.fill`: the ``mat`` operand, the layout
arguments of the ``fromdense`` family, the arguments and notes of the ``scipy.sparse``
conversions, and the ``nse`` of the canonical forms.

A part that opens its section (``MAT``, ``MAT_RAISES``, ``HOST_NOTES``) carries the
section's heading: the entries a function adds follow it in the docstring."""

MAT = """
Parameters
----------
mat : BCOO or BCSR
    The sparse array."""

MAT_RAISES = """
Raises
------
TypeError
    If ``mat`` is not a BCOO or BCSR."""

FROMDENSE_LAYOUT = """
nse : int, optional
    The number of stored entries per batch; default the largest number of non-zeros of a
    batch, computed from the data (so required under ``jax.jit``).  A smaller ``nse``
    keeps the first non-zeros in row-major order; a larger one adds padding entries.
n_batch : int, optional
    The number of leading batch dimensions; default 0.
n_dense : int, optional
    The number of trailing dense dimensions (stored as blocks); default 0.
index_dtype : dtype, optional
    An integer dtype for the indices; default int32 (int64 for dimensions beyond its range).
device : jax.sharding.NamedSharding, optional
    None (default), or a sharding whose spec partitions rows only
    (``PartitionSpec(axis)``), for a :class:`RowSharded` result (as :func:`shard_rows`;
    eager only)."""

FROMDENSE_TYPE_ERROR = """
TypeError
    If ``x`` is not array_like, ``nse`` is not a Python int, ``n_batch`` or ``n_dense``
    not a non-negative one, or ``index_dtype`` is not an integer dtype."""

HOST_NOTES = """
Notes
-----
Static under ``jax.jit``: not applicable: a host conversion, run eagerly.

Needs SciPy."""

FROM_SCIPY_PARAMS = """
index_dtype : dtype, optional
    An integer dtype for the indices; default int32 (int64 for dimensions beyond its range).
device : jax.sharding.NamedSharding, optional
    None (default), or a row-partitioning sharding for a :class:`RowSharded` result (as
    :func:`shard_rows`)."""

FROM_SCIPY_RAISES_NOTES = """
Raises
------
TypeError
    If ``mat`` is not a ``scipy.sparse`` array or matrix, or ``index_dtype`` is not an
    integer dtype.
""" + HOST_NOTES

NSE_RAISES_NOTES = """
Raises
------
TypeError
    If ``mat`` is not a BCOO or BCSR, or ``nse`` is not a Python int.
ValueError
    If ``nse`` is negative.

Notes
-----
Static under ``jax.jit``: ``nse``."""

LAYOUT_RAISES_NOTES = """
Raises
------
TypeError
    If ``mat`` is not a BCOO or BCSR, or a count is not a non-negative Python int.
ValueError
    If ``n_batch + n_dense`` exceeds the rank.

Notes
-----
Static under ``jax.jit``: ``n_batch``, ``n_dense``, ``nse``."""

MAT_NSE = MAT + """
nse : int, optional
    The entries per batch of the result; see :func:`bcoo_sum_duplicates`."""

TO_SCIPY_VALUE_NOTES = """
ValueError
    If ``format`` is not one of the three, or ``mat`` has batch or dense dimensions.
""" + HOST_NOTES
