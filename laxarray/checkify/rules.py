"""Per-primitive check rules: NaN production, division by zero, out-of-bounds indices, infinities.

A rule ``_<primitive>_check_rule(ctx, eqn, state, invals, outs) -> state`` runs after the
primitive was bound and adds one check to the threaded error state.  Elementwise checks are
*deferred*: they fold a per-element rank into one int32 array per shape, reduced once per
straight-line region (``State.defer``/``State.flush``); other checks reduce to one boolean scalar
(plus, for index checks, a 3-element payload from per-axis min/max of the indices).  No check
carries a per-element payload.

Rules are registered per category in ``CHECK_RULES[primitive]``; the families are listed once,
below, as reviewed tuples of primitives.
"""

from __future__ import annotations

import numpy as np
from jax import lax

from laxarray._core.jaxapi import Literal, source_frames
from laxarray.checkify.error import (
    DivisionByZeroError, FloatDivisionByZeroError, FloatError, NaNError, OOBError, new_site,
    user_location)

CHECK_RULES: dict = {}


def check_rule(category, *prims):
    """Register the decorated rule for ``category`` on each primitive in ``prims``."""
    def register(rule):
        for p in prims:
            CHECK_RULES.setdefault(p, []).append((category, rule))
        return rule
    return register


def _site_code(ctx, eqn, category) -> int:
    return ctx.site(eqn, category, lambda: new_site(
        category, eqn.primitive.name, user_location(source_frames(eqn), ctx.fallback))).code


# --- predicates -----------------------------------------------------------------------------

def _dtype(x):
    return np.dtype(getattr(x, "dtype", None) or np.asarray(x).dtype)


def _inexact(x) -> bool:
    return np.issubdtype(_dtype(x), np.inexact)


def _any(b):
    return lax.reduce_or(b, tuple(range(b.ndim))) if b.ndim else b


def _to_shape(x, shape):
    if np.shape(x) == tuple(shape):
        return x
    return lax.broadcast_in_dim(lax.convert_element_type(x, _dtype(x)), shape, ())


def _isnan(x):
    return lax.ne(x, x)


def _isinf(x):
    return lax.eq(lax.abs(x), lax.full_like(lax.abs(x), np.inf))


def _elementwise_produced(bad_out, bad_in, eqn, invals, outs):
    """Per element: ``bad_out(out)`` where no input element is ``bad_in`` (a boolean mask)."""
    out = outs[0]
    bad = bad_out(out)
    for x in invals:
        if _inexact(x):
            bad = lax.bitwise_and(bad, lax.bitwise_not(bad_in(_to_shape(x, out.shape))))
    return bad


def _whole_produced(bad_out, bad_in, eqn, invals, outs):
    """``bad_out`` anywhere in the outputs while no input has ``bad_in`` anywhere."""
    produced = _any(bad_out(outs[0]))
    for x in invals:
        if _inexact(x):
            produced = lax.bitwise_and(produced, lax.bitwise_not(_any(bad_in(x))))
    return produced


# --- NaN ------------------------------------------------------------------------------------

NAN_ELEMENTWISE = (
    lax.add_p, lax.sub_p, lax.mul_p, lax.div_p, lax.rem_p, lax.pow_p, lax.sin_p, lax.cos_p,
    lax.tan_p, lax.asin_p, lax.acos_p, lax.acosh_p, lax.atanh_p, lax.log_p, lax.log1p_p,
    lax.sqrt_p, lax.rsqrt_p, lax.lgamma_p, lax.digamma_p, lax.igamma_p, lax.igammac_p,
    lax.erf_inv_p, lax.exp_p, lax.atan2_p)
NAN_REDUCING = (lax.dot_general_p, lax.reduce_sum_p, lax.reduce_prod_p, lax.cumsum_p,
                lax.cumprod_p, lax.conv_general_dilated_p)


@check_rule(NaNError, *NAN_ELEMENTWISE)
def _elementwise_nan_check_rule(ctx, eqn, state, invals, outs):
    """NaN in an output element whose input elements are all NaN-free."""
    if not _inexact(outs[0]):
        return state
    bad = _elementwise_produced(_isnan, _isnan, eqn, invals, outs)
    return state.defer(bad, _site_code(ctx, eqn, NaNError))


@check_rule(NaNError, *NAN_REDUCING)
def _reducing_nan_check_rule(ctx, eqn, state, invals, outs):
    """NaN in the output of a reduction/contraction whose inputs have no NaN."""
    if not _inexact(outs[0]):
        return state
    fail = _whole_produced(_isnan, _isnan, eqn, invals, outs)
    return state.add(fail, _site_code(ctx, eqn, NaNError))


# --- infinities (float_checks) --------------------------------------------------------------

FLOAT_ELEMENTWISE = (
    lax.add_p, lax.sub_p, lax.mul_p, lax.div_p, lax.pow_p, lax.integer_pow_p, lax.square_p,
    lax.exp_p, lax.exp2_p, lax.expm1_p, lax.log_p, lax.log1p_p, lax.sinh_p, lax.cosh_p,
    lax.tan_p, lax.lgamma_p, lax.digamma_p, lax.rsqrt_p, lax.atanh_p, lax.convert_element_type_p)
FLOAT_REDUCING = (lax.dot_general_p, lax.reduce_sum_p, lax.reduce_prod_p, lax.cumsum_p,
                  lax.cumprod_p, lax.conv_general_dilated_p)


def _not_finite(x):
    return lax.bitwise_not(lax.is_finite(x))


def _real_floating(x) -> bool:
    return np.issubdtype(_dtype(x), np.floating)


@check_rule(FloatError, *FLOAT_ELEMENTWISE)
def _elementwise_float_check_rule(ctx, eqn, state, invals, outs):
    """An infinite output element whose input elements are all finite."""
    if not _real_floating(outs[0]) or not all(_real_floating(x) or not _inexact(x) for x in invals):
        return state
    bad = _elementwise_produced(_isinf, _not_finite, eqn, invals, outs)
    return state.defer(bad, _site_code(ctx, eqn, FloatError))


@check_rule(FloatError, *FLOAT_REDUCING)
def _reducing_float_check_rule(ctx, eqn, state, invals, outs):
    """An infinity in the output of a reduction/contraction whose inputs are finite."""
    if not _real_floating(outs[0]) or not all(_real_floating(x) or not _inexact(x) for x in invals):
        return state
    fail = _whole_produced(_isinf, _not_finite, eqn, invals, outs)
    return state.add(fail, _site_code(ctx, eqn, FloatError))


# --- division -------------------------------------------------------------------------------

def _nonzero_literal(var) -> bool:
    return isinstance(var, Literal) and bool(np.all(np.asarray(var.val) != 0))


@check_rule(DivisionByZeroError, lax.div_p, lax.rem_p)
def _div_check_rule(ctx, eqn, state, invals, outs):
    """Integer ``div``/``rem`` by zero (a nonzero literal divisor needs no check)."""
    y = invals[1]
    if _inexact(y) or _dtype(y) == np.bool_ or _nonzero_literal(eqn.invars[1]):
        return state
    fail = _any(lax.eq(y, lax.full_like(y, 0)))
    return state.add(fail, _site_code(ctx, eqn, DivisionByZeroError))


@check_rule(FloatDivisionByZeroError, lax.div_p)
def _float_div_check_rule(ctx, eqn, state, invals, outs):
    """Floating-point division by zero (opt-in category ``float_div_checks``)."""
    y = invals[1]
    if not _inexact(y) or _nonzero_literal(eqn.invars[1]):
        return state
    fail = _any(lax.eq(y, lax.full_like(y, 0)))
    return state.add(fail, _site_code(ctx, eqn, FloatDivisionByZeroError))


# --- indices --------------------------------------------------------------------------------

_HANDLED_MODES = (lax.GatherScatterMode.CLIP, lax.GatherScatterMode.FILL_OR_DROP)


def _index_error(ctx, eqn, state, mins, maxs, upper, axes, sizes):
    """Fail when a start index is below 0 or above ``upper`` (per index component).

    ``mins``/``maxs``: int64[K] per-component extremes; ``upper``/``axes``/``sizes``: static
    per-component bounds, operand axes and axis sizes.  Payload: (index, axis, size).
    """
    lo = lax.lt(mins, np.int64(0))
    hi = lax.gt(maxs, np.asarray(upper, np.int64))
    bad = lax.bitwise_or(lo, hi)
    fail = _any(bad)
    k = lax.argmax(lax.convert_element_type(bad, np.int32), 0, np.int64)
    value = lax.dynamic_index_in_dim(lax.select(lo, mins, maxs), k, 0, False)
    axis = lax.dynamic_index_in_dim(np.asarray(axes, np.int64), k, 0, False)
    size = lax.dynamic_index_in_dim(np.asarray(sizes, np.int64), k, 0, False)
    info = lax.concatenate([lax.broadcast(v, (1,)) for v in (value, axis, size)], 0)
    return state.add(fail, _site_code(ctx, eqn, OOBError), index=info)


def _extremes(indices):
    """Per-component min and max (int64[K]) of ``indices[..., K]``."""
    idx = lax.convert_element_type(indices, np.int64)
    axes = tuple(range(idx.ndim - 1))
    if not axes:
        return idx, idx
    return lax.reduce_min(idx, axes), lax.reduce_max(idx, axes)


@check_rule(OOBError, lax.gather_p)
def _gather_check_rule(ctx, eqn, state, invals, outs):
    """Out-of-bounds start indices of a ``gather`` whose mode does not clip or fill them."""
    if eqn.params["mode"] in _HANDLED_MODES:
        return state
    operand, indices = invals[:2]
    dn, sizes = eqn.params["dimension_numbers"], eqn.params["slice_sizes"]
    axes = dn.start_index_map
    mins, maxs = _extremes(indices)
    return _index_error(ctx, eqn, state, mins, maxs,
                        [operand.shape[d] - sizes[d] for d in axes], axes,
                        [operand.shape[d] for d in axes])


SCATTERS = (lax.scatter_p, lax.scatter_add_p, lax.scatter_sub_p, lax.scatter_mul_p,
            lax.scatter_min_p, lax.scatter_max_p)


@check_rule(OOBError, *SCATTERS)
def _scatter_check_rule(ctx, eqn, state, invals, outs):
    """Out-of-bounds indices of any ``scatter`` variant whose mode does not clip or drop them."""
    if eqn.params["mode"] in _HANDLED_MODES:
        return state
    operand, indices, updates = invals[:3]
    dn = eqn.params["dimension_numbers"]
    skipped = set(dn.inserted_window_dims) | set(dn.operand_batching_dims)
    window = [1] * operand.ndim
    for d, u in zip([d for d in range(operand.ndim) if d not in skipped], dn.update_window_dims):
        window[d] = updates.shape[u]
    axes = dn.scatter_dims_to_operand_dims
    mins, maxs = _extremes(indices)
    return _index_error(ctx, eqn, state, mins, maxs,
                        [operand.shape[d] - window[d] for d in axes], axes,
                        [operand.shape[d] for d in axes])


def _stack_starts(starts):
    return lax.concatenate([lax.broadcast(lax.convert_element_type(s, np.int64), (1,))
                            for s in starts], 0)


@check_rule(OOBError, lax.dynamic_slice_p)
def _dynamic_slice_check_rule(ctx, eqn, state, invals, outs):
    """Start indices of ``dynamic_slice`` outside ``[0, size - slice_size]`` (XLA would clamp)."""
    operand, *starts = invals
    if not starts:
        return state
    idx = _stack_starts(starts)
    shape, sizes = operand.shape, eqn.params["slice_sizes"]
    return _index_error(ctx, eqn, state, idx, idx, [n - s for n, s in zip(shape, sizes)],
                        range(len(shape)), shape)


@check_rule(OOBError, lax.dynamic_update_slice_p)
def _dynamic_update_slice_check_rule(ctx, eqn, state, invals, outs):
    """Start indices of ``dynamic_update_slice`` outside ``[0, size - update_size]``."""
    operand, update, *starts = invals
    if not starts:
        return state
    idx = _stack_starts(starts)
    shape = operand.shape
    return _index_error(ctx, eqn, state, idx, idx,
                        [n - u for n, u in zip(shape, update.shape)], range(len(shape)), shape)
