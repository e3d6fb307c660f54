"""Checks several test files share (imported as ``from checks import ...``: tests/ is on the
path, as for ``rounding``)."""

import jax
import jax.extend
import numpy as np
import pytest

import laxarray as xp
from laxarray._core.runtime import kernel as _kernel


def fd_grad(f, x, h=1e-6):
    """Central differences of the scalar ``f`` (NumPy in, float out) at ``x``."""
    g = np.zeros_like(x)
    for idx in np.ndindex(x.shape):
        e = np.zeros_like(x)
        e[idx] = h
        g[idx] = (f(x + e) - f(x - e)) / (2 * h)
    return g


def kernels_ran(call):
    """The ``KernelId`` of every kernel ``call()`` ran, in order (the kernel helper's test
    spy; ``call``'s result is waited for)."""
    with _kernel.spy() as ran:
        jax.block_until_ready(call())
    return ran


def raises_before_kernels(name, exc, call, kernels_run, package):
    """``call()`` raises ``exc`` with a message naming ``name`` first, and no kernel of
    ``package`` ran (building the arguments may run creation kernels)."""
    with pytest.raises(exc) as info:
        call()
    assert str(info.value).startswith(f"{name}:"), str(info.value)
    assert kernels_run(package) == []


def assert_same_signs(got, want):
    """``got`` and ``want`` have the same sign bits wherever ``want`` is not NaN: IEEE 754
    leaves the sign of a NaN result unspecified (x86 makes ``-nan`` for an invalid
    operation, so NumPy does there; the TPU makes ``+nan``), and so does the standard."""
    got, want = np.asarray(got), np.asarray(want)
    keep = ~np.isnan(want)
    assert np.array_equal(np.signbit(got[keep]), np.signbit(want[keep])), (got, want)


# ---- the TPU's primitives, made worse on the CPU ------------------------------------------
# XLA:CPU's primitives are accurate, so on the CPU a kernel that still used XLA's complex
# ``log`` (or the chip's one-or-two-ulp division) would pass an accuracy test by luck.
# :func:`chip_like` evaluates a function's program with the chip's failures made large.

C64 = np.complex64
#: primitives whose float32/complex64 results the chip gets far wrong (100-6000 ulps:
#: docs/accelerators.md §5; its asin, acos, atan, cbrt, sin, cos are within 5)
FAR = {"exp", "exp2", "log", "log1p", "expm1", "tanh", "logistic", "pow", "asinh", "acosh",
       "atanh", "sinh", "cosh"}
#: primitives the chip gets one or two ulps off (laxarray refines them where it must)
ESTIMATED = {"div", "sqrt", "rsqrt"}
_SUB_JAXPR = ("jaxpr", "call_jaxpr")


def _moved(v, rel):
    dt = np.dtype(v.dtype)
    if dt == np.float32 or dt == C64:
        return v * np.float32(1 + rel) if dt == np.float32 else v * C64(1 + rel)
    return v


def _nan_at_infinity(z, out):
    """``out`` with NaN parts where the complex ``z`` has an infinite part and no NaN."""
    inf = (np.isinf(z.real) | np.isinf(z.imag)) & ~np.isnan(z.real) & ~np.isnan(z.imag)
    return np.where(inf, np.asarray(np.nan + 1j * np.nan, out.dtype), out)


def _eval(jaxpr, consts, args, nan_at_infinity=False):
    env = {}

    def read(v):
        return v.val if isinstance(v, jax.extend.core.Literal) else env[v]

    for v, c in zip(jaxpr.constvars, consts):
        env[v] = c
    for v, a in zip(jaxpr.invars, args):
        env[v] = a
    for eqn in jaxpr.eqns:
        vals = [read(v) for v in eqn.invars]
        sub = next((eqn.params[k] for k in _SUB_JAXPR if k in eqn.params), None)
        name = eqn.primitive.name
        if sub is not None and hasattr(sub, "consts") and name not in ("cond", "while", "scan"):
            outs = _eval(sub.jaxpr, sub.consts, vals, nan_at_infinity)
        elif sub is not None and name == "laxarray":   # a region (jaxapi): an open jaxpr
            outs = _eval(sub, (), vals, nan_at_infinity)
        else:
            outs = eqn.primitive.bind(*vals, **eqn.params)
            outs = outs if eqn.primitive.multiple_results else [outs]
            if name in FAR or (name == "abs" and np.dtype(eqn.invars[0].aval.dtype) == C64):
                outs = [_moved(o, 2.0 ** -13) for o in outs]
            elif name in ESTIMATED:
                outs = [_moved(o, 2.0 ** -23) for o in outs]
            if (nan_at_infinity and len(vals) == 1 and not eqn.primitive.multiple_results
                    and np.dtype(eqn.invars[0].aval.dtype) == C64
                    and np.dtype(outs[0].dtype) == C64):
                outs = [_nan_at_infinity(np.asarray(vals[0]), np.asarray(outs[0]))]
        for v, o in zip(eqn.outvars, outs):
            env[v] = o
    return [read(v) for v in jaxpr.outvars]


def chip_like(fn, *args, nan_at_infinity=False):
    """``fn(*args)`` (NumPy arrays in and out) evaluated with the chip's failures made large;
    with ``nan_at_infinity``, every complex64 primitive of one complex64 operand also gives
    NaN parts where its operand has an infinite part (and no NaN)."""
    def raw(*vals):
        out = fn(*(xp.asarray(v) for v in vals))
        return out.__jax_array__()
    closed = jax.make_jaxpr(raw)(*args)
    return np.asarray(_eval(closed.jaxpr, closed.consts, args, nan_at_infinity)[0])
