"""Run-time checks from inside kernels, reported through ``laxarray.checkify``.

Some failures show only in the data, inside a compiled program: a capacity given under
``jax.jit`` that the data exceed (the ``nse`` bound of a sparse product).  A kernel then calls
:func:`report` with a traced predicate.  ``laxarray.checkify`` registers its ``debug_check``
here when it is imported: inside ``checkify(...)`` a failed predicate becomes the returned
``Error``; anywhere else (plain ``jax.jit``, or checkify never imported) nothing is bound and
the kernel's own fallback (documented where it reports) is all there is.  The hook keeps
imports flowing one way: the kernels below ``checkify`` never import it.
"""

from __future__ import annotations

_DEBUG_CHECK = [None]


def register(debug_check) -> None:
    """Called once by ``laxarray.checkify``: the function that binds a reported check."""
    _DEBUG_CHECK[0] = debug_check


def report(ok, msg: str, **fmt) -> None:
    """Inside a kernel: record that the boolean scalar ``ok`` must hold, with ``msg``
    (``str.format`` fields filled from ``fmt``, traced values allowed) as the message."""
    if _DEBUG_CHECK[0] is not None:
        _DEBUG_CHECK[0](ok, msg, **fmt)
