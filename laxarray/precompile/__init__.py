"""Precompiled workloads: fill the executable store ahead of use (as Julia's PrecompileTools).

An eager kernel call on a new input signature compiles once per machine and writes its
executable to the store (``LAXARRAY_COMPILATION_CACHE``); a later process loads it in about
a millisecond.  :func:`precompile` makes those first calls ahead of time, in parallel worker
processes, for a named workload or for exactly the calls a program made::

    python -m laxarray.precompile [--workload sklearn|standard] [--jobs N] [--list]
    LAXARRAY_RECORD=calls.jsonl python my_script.py     # record what it looks up
    python -m laxarray.precompile --from calls.jsonl [--jobs N]
    python -m laxarray.precompile --portable [...]      # the portable tier (any x86-64-v3)

The module is callable too: ``laxarray.precompile(workload="standard", jobs=4)`` is
:func:`precompile` (the same arguments; it spawns processes, so nothing runs under
``jax.jit``).

Small arrays run bucketed (every axis padded to a power of two), so a workload run on one
shape per bucket serves every shape of that bucket.  Programs that run on exact shapes
(most linear algebra) are served only on the shapes the workload met -- or, with a record
file, on the shapes the recorded program met.  The store's key includes laxarray's source,
jax and ``XLA_FLAGS``: an upgrade or another ``XLA_FLAGS`` needs a new run, and a record
file is the way to repeat one after an upgrade (entries whose kernel is gone are listed as
failed; the rest are built).  Entries the store holds already are loaded, not built again.

``--portable`` (``portable=True``) fills the portable tier instead
(``LAXARRAY_PORTABLE_STORE``, default ``~/.cache/laxarray/portable``): its workers compile
for the CPU's instruction-set class (``--xla_cpu_max_isa=AVX2`` on x86-64) and key by the
class, not the CPU model, so the directory -- copied to a team's machines, restored as a CI
cache, shipped in the package's ``portable/`` folder -- serves every x86-64-v3 machine
whose own store misses (``laxarray._core.runtime.exec_store``).  On a TPU it builds in its
own process (one process holds the chip) and keys by the chip and libtpu's version, not the
host: the tier serves every host of that chip.
"""

import sys
import types

from laxarray.precompile.runner import format_summary, precompile
from laxarray.precompile.workloads import describe, names

__all__ = ["describe", "format_summary", "names", "precompile"]


class _CallableModule(types.ModuleType):
    """This package, which a call forwards to :func:`precompile`."""

    def __call__(self, *args, **kwargs):
        """Fill the executable store ahead of use: :func:`precompile`'s arguments."""
        return precompile(*args, **kwargs)


# ``laxarray.precompile(...)`` is the function, while ``laxarray.precompile.names`` and
# ``python -m laxarray.precompile`` keep working on the package
sys.modules[__name__].__class__ = _CallableModule
