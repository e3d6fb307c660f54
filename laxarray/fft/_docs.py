"""The numpydoc parts the transforms share, filled into their docstrings by
:func:`laxarray._core.docstrings.fill`: the ``n``/``axis``/``s``/``axes``/``norm`` parameters,
the errors of the 1-D and n-D families, and the note on precision and tracing."""

from laxarray._core.docstrings import closing

N = """
n : int, optional
    The length of the transform: ``x`` is zero-padded or truncated to it along ``axis``;
    default the input's length along ``axis``."""

N_HALF = """
n : int, optional
    The length of the real output along ``axis`` (the input holds ``n // 2 + 1`` terms,
    padded or truncated to that); default ``2 * (m - 1)`` for an input length ``m``."""

AXIS = """
axis : int, optional
    The axis to transform; default -1, the last."""

NORM_FORWARD = """
norm : {'backward', 'ortho', 'forward'} or None, optional
    The normalization: ``'backward'`` (the default, also ``None``) scales the inverse
    transform by ``1/n``, ``'forward'`` this one, ``'ortho'`` both by ``1/sqrt(n)``."""

NORM_INVERSE = """
norm : {'backward', 'ortho', 'forward'} or None, optional
    The normalization: ``'backward'`` (the default, also ``None``) scales this transform
    by ``1/n``, ``'forward'`` the forward one instead, ``'ortho'`` both by
    ``1/sqrt(n)``."""

S = """
s : sequence of ints, optional
    The length of the transform along each axis of ``axes``: the input is zero-padded or
    truncated to it; -1 keeps the input's length.  Default: the input's lengths.
    Requires ``axes``."""

S_HALF = """
s : sequence of ints, optional
    The length of the output along each axis of ``axes`` (the last one's input holds
    ``s[-1] // 2 + 1`` of them); -1 keeps the input's length.  Default: the input's
    lengths, and ``2 * (m - 1)`` along the last axis of ``axes`` for an input length
    ``m``.  Requires ``axes``."""

_REPEAT = "A repeated axis is\n    transformed again, as NumPy's axis-by-axis loop does."

AXES_ALL = f"""
axes : sequence of ints, optional
    The axes to transform, in order; default all of ``x``'s axes.  {_REPEAT}"""

AXES_2D = f"""
axes : sequence of ints, optional
    The axes to transform, in order; default ``(-2, -1)``.  {_REPEAT}"""

_AXIS_ERROR_1D = """
AxisError
    If ``axis`` is out of range for ``x`` (a 0-d ``x`` has none)."""

RAISES_1D = """
TypeError
    If ``x`` is not array_like or of no supported dtype, or ``n`` is not an integer.
ValueError
    If ``n`` is below 1, or ``norm`` is not one of the three names.""" + _AXIS_ERROR_1D

RAISES_1D_REAL = """
TypeError
    If ``x`` is complex, not array_like or of no supported dtype, or ``n`` is not an
    integer.
ValueError
    If ``n`` is below 1, or ``norm`` is not one of the three names.""" + _AXIS_ERROR_1D

RAISES_1D_HALF = """
TypeError
    If ``x`` is not array_like or of no supported dtype, or ``n`` is not an integer.
ValueError
    If ``n`` is below 1 (or, with no ``n``, ``x`` has fewer than two terms along
    ``axis``), or ``norm`` is not one of the three names.""" + _AXIS_ERROR_1D


def _raises_nd(real_input, needs_axes):
    kinds = "complex, not array_like" if real_input else "not array_like"
    empty = " ``axes`` is empty," if needs_axes else ""
    return f"""
TypeError
    If ``x`` is {kinds} or of no supported dtype, ``axes`` is not a
    sequence, or an entry of ``s`` is not an integer.
ValueError
    If ``s`` is given without ``axes`` (deprecated in NumPy 2.0, an error here), has
    ``None`` entries, differs from ``axes`` in length or has an entry below 1 (other
    than -1),{empty} or ``norm`` is not one of the three names.
AxisError
    If an axis is out of range for ``x``."""


RAISES_ND = _raises_nd(False, False)
RAISES_ND_REAL = _raises_nd(True, True)
RAISES_ND_HALF = _raises_nd(False, True)

PRECISION = """
Integer and bool input is transformed in the default floating dtype's complex type, half
precision in complex64; float32/complex64 input stays in complex64.  On a TPU, whose FFT
computes in float32/complex64 only, float64 or complex128 input raises ``TypeError``.
Traces to ``fft`` primitives (at most three axes each), transposes, pads and slices;
differentiable with ``laxarray.grad``.  Unlike NumPy, no ``out``."""

STATIC_1D = "``n``, ``axis``, ``norm``"
STATIC_ND = "``s``, ``axes``, ``norm``"


def params(x, *entries):
    """The Parameters section: ``x : array_like`` described by ``x``, then ``entries``."""
    lines = ["Parameters", "----------", "x : array_like"]
    lines += ["    " + line for line in x.split("\n")]
    return "\n".join(lines + [entry.strip("\n") for entry in entries])


def raises_notes(raises, static, intro=None):
    """The Raises and Notes sections: ``raises``, the ``static`` arguments under ``jax.jit``,
    the transform's own ``intro`` sentence (if any) and :data:`PRECISION`."""
    notes = PRECISION.strip("\n") if intro is None else intro + "\n" + PRECISION.strip("\n")
    return closing([raises.strip("\n")], static, notes, examples=False)
