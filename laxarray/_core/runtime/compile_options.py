"""The XLA compiler options of laxarray's kernels, read from each traced program: the
compiling platform's record lists them (``backend.Backend.xla_options``: XLA:CPU's; none
elsewhere); the policy: ``laxarray._core.runtime.kernel``'s docstring, the measurements:
``docs/performance.md``."""

from __future__ import annotations

import functools

from laxarray._core import backend as _backend
from laxarray._core import primitives as _primitives
from laxarray._core.jax_tracing import program_contents, without_scope
from laxarray._core.numerics import NAN_TEST

_CPU_OPTIONS = _backend.CPU.xla_options
#: XLA options for every kernel on the CPU backend (see ``kernel``'s docstring).
COMPILER_OPTIONS = dict(_CPU_OPTIONS["every"])

#: The options for kernels whose programs are emitter-neutral (see ``kernel``'s docstring).
NEUTRAL_OPTIONS = dict(COMPILER_OPTIONS, **_CPU_OPTIONS["neutral"])

#: Primitives whose CPU code gives the same bits with XLA's fusion emitters and without them
#: (the ``neutral`` rows of :mod:`.primitives`).
EMITTER_NEUTRAL = _primitives.names("neutral")


def _neutral_dtype(dtype) -> bool:
    return dtype is not None and (dtype.kind in "biu" or
                                  (dtype.kind == "f" and dtype.itemsize >= 4))


#: XLA:CPU's YNNPACK library fusion kept for matrix products, not reductions: from 4096
#: elements on, its float max/min drop NaN (jax.numpy's too); its sums differ from XLA's loop
#: only in rounding and run ~2x faster, so only programs that need NaN-exact extremes
#: (:func:`reduce_extreme`) take this option (audit: ``docs/performance.md``).
EXACT_EXTREMES = dict(_CPU_OPTIONS["exact_extremes"])


@functools.lru_cache(maxsize=None)
def _options(neutral=False, extremes=False):
    """The compiling platform's options for a program (``None``: XLA's defaults)."""
    record = _backend.compiling().xla_options
    if not record:
        return None
    options = dict(record["every"])
    if neutral:
        options.update(record["neutral"])
    if extremes:
        options.update(record["exact_extremes"])
    return options


def program_options(closed):
    """``(program, options)`` for the traced program ``closed`` (a closed jaxpr) of an eager
    call: :data:`NEUTRAL_OPTIONS` where it is emitter-neutral (only :data:`EMITTER_NEUTRAL`
    primitives, on real 32/64-bit or integer values), else :data:`COMPILER_OPTIONS`, each
    with :data:`EXACT_EXTREMES` where it holds a :func:`reduce_extreme` NaN test; ``program``
    is ``closed`` less the NaN tests of its top level (those options keep the NaN; ``None``
    off the CPU)."""
    program, exact = without_scope(closed, NAN_TEST)
    names, dtypes = program_contents(program)
    return program, _options(names <= EMITTER_NEUTRAL and all(map(_neutral_dtype, dtypes)),
                             exact)
