"""The XLA:CPU compiler options of laxarray's kernels, read from each traced program (the
policy: ``laxarray._core.kernel``'s docstring; the measurements: ``docs/performance.md``).
Off the CPU there are none."""

from __future__ import annotations

import functools

import jax

from laxarray._core import primitives as _primitives
from laxarray._core.jaxapi import program_contents, without_scope
from laxarray._core.numerics import NAN_TEST

#: XLA options for every kernel on the CPU backend (see ``kernel``'s docstring).
COMPILER_OPTIONS = {"xla_backend_optimization_level": 1,
                    "xla_cpu_parallel_codegen_split_count": 1}

#: The options for kernels whose programs are emitter-neutral (see ``kernel``'s docstring).
NEUTRAL_OPTIONS = dict(COMPILER_OPTIONS, xla_cpu_use_fusion_emitters=False)

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
EXACT_EXTREMES = {"xla_cpu_experimental_ynn_fusion_type": "LIBRARY_FUSION_TYPE_DOT"}


@functools.lru_cache(maxsize=None)
def _options(neutral=False, extremes=False):
    if jax.default_backend() != "cpu":
        return None
    options = NEUTRAL_OPTIONS if neutral else COMPILER_OPTIONS
    return dict(options, **EXACT_EXTREMES) if extremes else options


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
