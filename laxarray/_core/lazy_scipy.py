"""SciPy's sparse packages, imported on first use: ``import laxarray`` does not load them
(about 0.2 s); the host paths and conversions that need them call these."""

from __future__ import annotations


def scipy_sparse():
    """``scipy.sparse``, imported on the first host path or conversion that needs it
    (``import laxarray`` does not load SciPy's sparse package: about 0.2 s)."""
    import scipy.sparse  # local: the one deferred import of it (see the docstring)
    return scipy.sparse


def scipy_sparse_linalg():
    """``scipy.sparse.linalg``, imported on first use (as :func:`scipy_sparse`)."""
    import scipy.sparse.linalg  # local: the one deferred import of it
    return scipy.sparse.linalg
