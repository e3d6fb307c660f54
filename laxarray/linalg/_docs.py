"""The numpydoc parts the linalg functions share, filled into their docstrings by
:func:`laxarray._core.docstrings.fill`: the operand ``x``, its errors, the note on the dtypes
linalg computes in, and the note on what an eager call raises where ``jax.jit`` cannot.

A part that opens its section (``PARAMS_*``, ``RAISES_TYPE``) carries the section's heading:
the entries a function adds follow it in the docstring."""

import textwrap

PARAMS_SQUARE = """
Parameters
----------
x : array_like
    A stack of square matrices ``(..., M, M)``."""

PARAMS_MATRICES = """
Parameters
----------
x : array_like
    A stack of matrices ``(..., M, N)``, rank at least two."""

RAISES_TYPE = """
Raises
------
TypeError
    If ``x`` is not array_like or of a dtype linalg does not compute in here."""

NOT_SQUARE = """
LinAlgError
    If ``x`` has rank below two or its matrices are not square."""

SVD_ERROR = """
LinAlgError
    If ``x`` has rank below two; eagerly, if the SVD does not converge (input with NaN):
    ``"SVD did not converge"``."""

EIG_ERROR = """
LinAlgError
    If ``x`` has rank below two or its matrices are not square.  Eagerly, input with
    inf/NaN (``"Array must not contain infs or NaNs"``) or eigenvalues that do not
    converge (``"Eigenvalues did not converge"``), as in NumPy."""

EIGH_ERROR = """
LinAlgError
    If ``x`` has rank below two or its matrices are not square.  Eagerly, if the
    eigenvalues of a finite matrix do not converge (input with inf/NaN gives NaN, as in
    NumPy)."""

DTYPES = """
Bool and integer input is computed in the default floating dtype (float64 where the
backend has it); float32/complex64 stay single precision.  Half precision raises
``TypeError`` (LAPACK has none, NumPy refuses it too), and so does float64/complex128 on
a TPU, whose linalg computes in float32/complex64 only."""

HOST_EIG = """
On the CPU this is ``jax.lax.linalg.eig`` (LAPACK); where XLA has no nonsymmetric
eigensolver (a TPU) NumPy's LAPACK runs on the host, the matrices copied there and back
(a host callback, which runs under ``jax.jit`` too)."""


def eager(failure, result="the result holds inf/NaN"):
    """The note on an eager call's ``LinAlgError`` for ``failure`` (``'a singular matrix'``),
    and what stands in the ``result`` under ``jax.jit`` instead."""
    return textwrap.fill(
        f"Called eagerly, {failure} raises ``LinAlgError`` with NumPy's message, after "
        f"computing; under ``jax.jit`` and ``vmap`` nothing can be raised: {result}, and "
        "``laxarray.checkify.linalg_checks`` reports the failure.", width=88,
        break_on_hyphens=False, break_long_words=False)
