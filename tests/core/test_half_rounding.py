"""No program converts float64 straight to float16 or bfloat16 (issue 57).

XLA:CPU converts float64 to a half-precision float through float32 on some instruction sets
(rounding twice: ``log10(float16(126.0625))`` came out 2.1015625 with AVX2) and in one step
on others (2.099609375, the correctly rounded value, with AVX-512 FP16).  laxarray's kernels
narrow with ``numerics.cast_value``, which rounds to odd in float32 first, so the second
rounding is exact and the result is the same on every CPU.  This reads the traced programs
of every elementwise function and of the functions that compute in float64 and return a
caller's dtype, and fails on a direct ``float64 -> float16/bfloat16`` convert.  (The values
are checked in ``tests/array_api/test_log_base.py`` and by ``make test-isa``.)
"""

import jax
import ml_dtypes
import numpy as np
import pytest

import laxarray as xp
from laxarray._core.jax_tracing import jaxprs_in_params
from laxarray.array_api import (elementwise, elementwise_bitwise, elementwise_compare,
                                elementwise_floating, elementwise_math, elementwise_pairwise)

HALF = (np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16))
F64 = np.dtype(np.float64)


def _direct_narrowing(closed):
    """The ``convert_element_type`` equations from float64 to a half-precision float."""
    found = []

    def walk(jaxpr):
        for eqn in jaxpr.eqns:
            if eqn.primitive.name == "convert_element_type":
                src = np.dtype(eqn.invars[0].aval.dtype)
                dst = np.dtype(eqn.params["new_dtype"])
                if src == F64 and dst in HALF:
                    found.append(str(eqn))
            for sub in jaxprs_in_params(eqn.params):
                walk(sub)
    walk(closed.jaxpr)
    return found


def _positional(fn):
    import inspect
    return sum(p.kind == p.POSITIONAL_ONLY for p in inspect.signature(fn).parameters.values())


ELEMENTWISE = sorted(n for m in (elementwise, elementwise_bitwise, elementwise_compare,
                                 elementwise_floating, elementwise_math, elementwise_pairwise)
                     for n in m.__all__
                     if callable(getattr(xp, n, None)) and _positional(getattr(xp, n)) in (1, 2)
                     and not n.startswith("bitwise"))  # integer-only


@pytest.mark.parametrize("dtype", HALF, ids=lambda d: d.name)
@pytest.mark.parametrize("name", ELEMENTWISE)
def test_elementwise_functions_narrow_once(name, dtype):
    fn = getattr(xp, name)
    x = np.linspace(0.5, 4, 8).astype(dtype)
    nargs = _positional(fn)
    closed = jax.make_jaxpr(lambda a: fn(a, a) if nargs == 2 else fn(a))(xp.asarray(x))
    assert _direct_narrowing(closed) == []


CALLS = {
    "astype": lambda a: xp.astype(xp.astype(a, xp.float64), a.dtype),
    "linspace": lambda a: xp.linspace(0.1, 7.3, 9, dtype=a.dtype),
    "arange": lambda a: xp.arange(0.1, 7.3, 0.7, dtype=a.dtype),
    "full": lambda a: xp.full(3, 0.1, dtype=a.dtype),
    "fftfreq": lambda a: xp.fft.fftfreq(9, d=0.3, dtype=a.dtype),
    "rfftfreq": lambda a: xp.fft.rfftfreq(9, d=0.3, dtype=a.dtype),
    "mean": lambda a: xp.mean(a),
    "var": lambda a: xp.var(a, correction=1),
    "std": lambda a: xp.std(a),
    "sum": lambda a: xp.sum(a),
    "cumulative_sum": lambda a: xp.cumulative_sum(a),
    "average": lambda a: xp.average(a, weights=xp.astype(a, xp.float64)),
    "nanmean": lambda a: xp.nanmean(a),
    "nanvar": lambda a: xp.nanvar(a),
    "quantile": lambda a: xp.quantile(a, 0.3),
    "fill_diagonal": lambda a: xp.fill_diagonal(xp.reshape(a, (2, 4)), 0.1, inplace=False),
    "add_float64": lambda a: xp.astype(a + xp.asarray(0.1), a.dtype),
    "round": lambda a: xp.round(a, decimals=2),
    "interp": lambda a: xp.interp(a, xp.asarray([0.0, 9.0]), xp.asarray([1.0, 3.0])),
    "float_power": lambda a: xp.astype(xp.float_power(a, 0.3), a.dtype),
}


@pytest.mark.parametrize("dtype", HALF, ids=lambda d: d.name)
@pytest.mark.parametrize("name", CALLS)
def test_float64_computations_narrow_once(name, dtype):
    x = xp.asarray(np.linspace(0.5, 4, 8).astype(dtype))
    closed = jax.make_jaxpr(CALLS[name])(x)
    assert _direct_narrowing(closed) == []
