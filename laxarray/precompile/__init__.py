"""Precompiled workloads: fill the executable store ahead of use (as Julia's PrecompileTools).

An eager kernel call on a new input signature compiles once per machine and writes its
executable to the store (``LAXARRAY_COMPILATION_CACHE``); a later process loads it in about
a millisecond.  :func:`precompile` makes those first calls ahead of time, for a named
workload, in parallel worker processes::

    python -m laxarray.precompile [--workload sklearn|standard] [--jobs N] [--list]

Small arrays run bucketed (every axis padded to a power of two), so a workload run on one
shape per bucket serves every shape of that bucket.  Programs that run on exact shapes
(most linear algebra) are served only on the shapes the workload met.  The store's key
includes laxarray's source, jax and ``XLA_FLAGS``: an upgrade or another ``XLA_FLAGS``
needs a new run.
"""

from laxarray.precompile.runner import format_summary, precompile
from laxarray.precompile.workloads import describe, names

__all__ = ["describe", "format_summary", "names", "precompile"]
