"""Per-primitive check rules: NaN production, division by zero, out-of-bounds indices, infinities,
linear-algebra failures.

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
from jax.lax import linalg as lax_linalg

from laxarray._core.dtypes import kind_of
from laxarray._core.jaxapi import Literal
from laxarray._core.jax_tracing import source_frames
from laxarray.checkify.error import (
    DivisionByZeroError, FloatDivisionByZeroError, FloatError, LinAlgCheckError, NaNError,
    OOBError, new_site, user_location)
from laxarray.linalg import _status as linalg_status
from laxarray._core import dtypes as _dt
from laxarray._core import primitives as _primitives

CHECK_RULES: dict = {}


def check_rule(category, *prims):
    """Register the decorated rule for ``category`` on each primitive in ``prims``."""
    def register(rule):
        for p in prims:
            CHECK_RULES.setdefault(p, []).append((category, rule))
        return rule
    return register


def _site_code(ctx, eqn, category) -> int:
    if ctx.fast:   # the flag pass only needs "failed"; sites are made by the precise pass
        return 1
    return ctx.site(eqn, category, lambda: new_site(
        category, eqn.primitive.name, user_location(source_frames(eqn), ctx.fallback))).code


# --- predicates -----------------------------------------------------------------------------

def _dtype(x):
    return np.dtype(getattr(x, "dtype", None) or np.asarray(x).dtype)


def _inexact(x) -> bool:
    return kind_of(_dtype(x)) in "fc"


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


# --- NaN and infinities: "produced here" ------------------------------------------------------
# A NaN (nan_checks) or an infinity (float_checks) is reported where an operation makes it
# from operands that had none: element by element for elementwise primitives, anywhere in
# the output for reductions and contractions.  The two errors differ only in their
# primitives, their predicates and the operands they apply to (:func:`_produced_rules`).

#: reductions and contractions: either error is reported for the whole output; the
#: elementwise primitives that can make a NaN, an infinity (:mod:`laxarray._core.primitives`)
REDUCING = _primitives.primitives("reduces")
NAN_ELEMENTWISE = _primitives.primitives("nan")
FLOAT_ELEMENTWISE = _primitives.primitives("inf")
#: producers XLA's simplifier may fold with one of ``FOLDING`` consuming them
#: (``_core.primitives``, "folds", "folding"): checkify puts a barrier between them
FOLDED = _primitives.primitives("folds")
FOLDING = _primitives.primitives("folding")


def _not_finite(x):
    return lax.bitwise_not(lax.is_finite(x))


def _real_floating(x) -> bool:
    return kind_of(_dtype(x)) == "f"


def _produced_rules(category, elementwise, bad_out, bad_in, applies):
    """Register ``category``'s two rules: ``bad_out`` in an output element (elementwise
    primitives: a per-element flag, deferred) or anywhere in the output (:data:`REDUCING`:
    one flag) whose inputs have no ``bad_in``; ``applies(invals, outs)`` says which
    operands the check is for."""
    def rule(produced, per_element):
        def check(ctx, eqn, state, invals, outs):
            if not applies(invals, outs):
                return state
            bad = produced(bad_out, bad_in, eqn, invals, outs)
            record = state.defer if per_element else state.add
            return record(bad, _site_code(ctx, eqn, category))
        return check
    check_rule(category, *elementwise)(rule(_elementwise_produced, True))
    check_rule(category, *REDUCING)(rule(_whole_produced, False))


# NaN: any inexact output (complex included)
_produced_rules(NaNError, NAN_ELEMENTWISE, _isnan, _isnan,
                lambda invals, outs: _inexact(outs[0]))
# an infinity from finite operands: real floating outputs and operands only
_produced_rules(FloatError, FLOAT_ELEMENTWISE, _isinf, _not_finite,
                lambda invals, outs: _real_floating(outs[0]) and all(
                    _real_floating(x) or not _inexact(x) for x in invals))


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
    lo = lax.lt(mins, _dt.default_index().type(0))
    hi = lax.gt(maxs, np.asarray(upper, _dt.default_index()))
    bad = lax.bitwise_or(lo, hi)
    fail = _any(bad)
    k = lax.argmax(lax.convert_element_type(bad, np.int32), 0, _dt.default_index())
    value = lax.dynamic_index_in_dim(lax.select(lo, mins, maxs), k, 0, False)
    axis = lax.dynamic_index_in_dim(np.asarray(axes, _dt.default_index()), k, 0, False)
    size = lax.dynamic_index_in_dim(np.asarray(sizes, _dt.default_index()), k, 0, False)
    info = lax.concatenate([lax.broadcast(v, (1,)) for v in (value, axis, size)], 0)
    return state.add(fail, _site_code(ctx, eqn, OOBError), index=info)


def _defer_out_of_bounds(state, indices, upper):
    """Flag pass: defer the per-index test ``index < 0 or index > upper`` (one or-reduction
    shared with the region's other deferred tests, instead of a min and a max)."""
    upper = np.asarray(upper, _dt.default_index())
    dt = _dtype(indices)
    if upper.size and upper.max() > np.iinfo(dt).max:
        indices, dt = lax.convert_element_type(indices, _dt.default_index()), _dt.default_index()
    k = indices.shape[-1] if indices.ndim else 1
    if not k:
        return state
    hi = lax.broadcast_in_dim(upper.astype(dt), indices.shape, (indices.ndim - 1,))
    bad = lax.bitwise_or(lax.lt(indices, lax.full_like(indices, 0)), lax.gt(indices, hi))
    if indices.ndim == 0:
        return state.defer(bad, 1)
    bad = (lax.reduce_or(bad, (indices.ndim - 1,)) if k > 1
           else lax.reshape(bad, indices.shape[:-1]))
    return state.defer(bad, 1)


def _extremes(indices):
    """Per-component min and max (int64[K]) of ``indices[..., K]``."""
    idx = lax.convert_element_type(indices, _dt.default_index())
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
    if ctx.fast:
        return _defer_out_of_bounds(state, indices, [operand.shape[d] - sizes[d] for d in axes])
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
    if ctx.fast:
        return _defer_out_of_bounds(state, indices, [operand.shape[d] - window[d] for d in axes])
    mins, maxs = _extremes(indices)
    return _index_error(ctx, eqn, state, mins, maxs,
                        [operand.shape[d] - window[d] for d in axes], axes,
                        [operand.shape[d] for d in axes])


def _stack_starts(starts):
    return lax.concatenate([lax.broadcast(lax.convert_element_type(s, _dt.default_index()), (1,))
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


# --- linear algebra (linalg_checks) --------------------------------------------------------
#
# The failures for which NumPy's linalg raises ``LinAlgError``, read from the primitives with
# the predicates the eager laxarray functions use (``laxarray.linalg._status``).  A singular
# matrix is reported where it is solved with (a triangular solve with a zero pivot, as in
# ``solve``/``inv``), not where it is factored: ``det``/``slogdet`` of a singular matrix
# factor it too, and are not an error.

def _linalg_site(ctx, eqn, message) -> int:
    if ctx.fast:
        return 1
    return ctx.site(eqn, (LinAlgCheckError, message), lambda: new_site(
        LinAlgCheckError, eqn.primitive.name,
        user_location(source_frames(eqn), ctx.fallback), message)).code


@check_rule(LinAlgCheckError, lax_linalg.triangular_solve_p)
def _triangular_solve_check_rule(ctx, eqn, state, invals, outs):
    """A triangular solve whose matrix has an exact zero on its (non-unit) diagonal."""
    if eqn.params["unit_diagonal"]:
        return state
    fail = _any(linalg_status.zero_on_diagonal(invals[0]))
    return state.add(fail, _linalg_site(ctx, eqn, linalg_status.SINGULAR))


def _failure_rule(failed, out, message):
    """A check rule that reports ``message`` where ``failed(input, outs[out])`` holds."""
    def rule(ctx, eqn, state, invals, outs):
        return state.add(failed(invals[0], outs[out]), _linalg_site(ctx, eqn, message))
    return rule


#: primitive -> (predicate of its input and one output, that output, NumPy's message):
#: ``potrf`` failed (not positive definite); the SVD did not converge (NaN singular
#: values, as NumPy reports them); ``syevd`` did not converge on a finite matrix
_FAILURES = {
    lax_linalg.cholesky_p: (linalg_status.cholesky_failed, 0,
                            linalg_status.NOT_POSITIVE_DEFINITE),
    lax_linalg.svd_p: (linalg_status.svd_failed, 0, linalg_status.SVD_NOT_CONVERGED),
    lax_linalg.eigh_p: (linalg_status.eigh_failed, 1,
                        linalg_status.EIGENVALUES_NOT_CONVERGED),
}
for _prim, _how in _FAILURES.items():
    check_rule(LinAlgCheckError, _prim)(_failure_rule(*_how))


@check_rule(LinAlgCheckError, lax_linalg.eig_p)
def _eig_check_rule(ctx, eqn, state, invals, outs):
    """``eig`` of input with inf/NaN (NumPy refuses it), or ``geev`` did not converge."""
    code = linalg_status.eig_status(invals[0], outs[0])
    for value, message in enumerate(linalg_status.EIG_MESSAGES):
        if value:
            state = state.add(lax.eq(code, np.int32(value)), _linalg_site(ctx, eqn, message))
    return state


# --- the flag pass: sinks of non-finite values ----------------------------------------------

SINK_CATEGORIES = frozenset({NaNError, FloatError})

#: primitives whose every output element is non-finite (NaN) when an input element it
#: depends on is (``_core.primitives``, "keeps-nonfinite", "keeps-nan"); ``div`` and
#: ``integer_pow`` keep them on a condition, read by :func:`propagates`
NONFINITE_PROPAGATING = _primitives.primitives("keeps-nonfinite")
NAN_PROPAGATING = _primitives.primitives("keeps-nan")


def propagates(eqn, position, nonfinite) -> bool:
    """Whether ``eqn`` keeps a non-finite (``nonfinite``) or NaN element of input ``position``:
    some output element is then non-finite (NaN) too."""
    prim = eqn.primitive
    if prim not in (NONFINITE_PROPAGATING if nonfinite else NAN_PROPAGATING):
        if prim is lax.div_p:
            ok = position == 0 or not nonfinite
        elif prim is lax.integer_pow_p:
            ok = eqn.params["y"] > 0
        else:
            return False
        if not ok:
            return False
    outs = [v.aval for v in eqn.outvars]
    return (all(kind_of(a.dtype) == "f" and a.size > 0 for a in outs)
            and kind_of(eqn.invars[position].aval.dtype) == "f")


def _checked_primitives(errors):
    checked = set()
    if NaNError in errors:
        checked.update(NAN_ELEMENTWISE + REDUCING)
    if FloatError in errors:
        checked.update(FLOAT_ELEMENTWISE + REDUCING)
    return checked


def _shows(jaxpr, errors, seeds, extra_sources):
    """``(shows, order)``: for each value, the sources whose non-finite elements it is sure to
    show (``seeds``: such sets for input variables; ``extra_sources(eqn)``: output positions
    of ``eqn`` that are sources although its primitive has no rule), in definition order."""
    nonfinite = FloatError in errors
    checked = _checked_primitives(errors)
    shows, order = dict(seeds), []
    for eqn in jaxpr.eqns:
        carried = set()
        for i, v in enumerate(eqn.invars):
            if not isinstance(v, Literal) and v in shows and propagates(eqn, i, nonfinite):
                carried |= shows[v]
        source = eqn.primitive in checked
        extra = extra_sources(eqn)
        for k, o in enumerate(eqn.outvars):
            own = source or k in extra
            if kind_of(o.aval.dtype) not in "fc" or not (own or carried):
                continue
            shows[o] = frozenset(carried | {o} if own else carried)
            order.append(o)
    return shows, order


def sink_vars(jaxpr, errors, deferred=(), extra_sources=lambda eqn: ()) -> frozenset:
    """The variables of ``jaxpr`` that the flag pass tests (see ``Context.sinks``).

    Each value gets the set of *sources* (outputs of primitives with a NaN/inf check rule) whose
    non-finite elements it is guaranteed to show, following ``propagates``.  The tested values
    are the outputs of ``jaxpr`` holding a source, plus, for each source not yet covered, the
    latest value that shows it (so a chain of elementwise primitives is tested once, at its end,
    and an intermediate value is tested only where a consumer such as ``exp`` or a comparison
    may drop a non-finite element).  Outputs at the positions ``deferred`` are not tested but
    count as covering what they show: a loop body's carry that its next step keeps non-finite
    is tested once, after the loop (``extra_sources`` marks such loop outputs as sources).
    """
    shows, order = _shows(jaxpr, errors, {}, extra_sources)
    tested, covered = set(), set()
    for k, v in enumerate(jaxpr.outvars):
        if isinstance(v, Literal) or v not in shows:
            continue
        covered |= shows[v]
        if k not in deferred:
            tested.add(v)
    for v in reversed(order):
        if not shows[v] <= covered:
            tested.add(v)
            covered |= shows[v]
    return frozenset(tested)


def carried_positions(jaxpr, errors, first, count) -> frozenset:
    """Positions ``k < count`` of ``jaxpr``'s outputs that show every non-finite element of
    input ``first + k`` (a loop carry that stays non-finite once it is)."""
    seeds = {}
    for k in range(count):
        v = jaxpr.invars[first + k]
        if kind_of(v.aval.dtype) == "f" and v.aval.size:
            seeds[v] = frozenset({("carry", k)})
    shows, _ = _shows(jaxpr, errors, seeds, lambda eqn: ())
    out = set()
    for k in range(count):
        v = jaxpr.outvars[k]
        if not isinstance(v, Literal) and ("carry", k) in shows.get(v, ()):
            out.add(k)
    return frozenset(out)


def sink_test(x, errors):
    """Per element: ``x`` is NaN (or non-finite, with ``float_checks``)."""
    if FloatError not in errors:
        return _isnan(x)
    if kind_of(_dtype(x)) == "c":
        return lax.bitwise_not(lax.bitwise_and(lax.is_finite(lax.real(x)),
                                               lax.is_finite(lax.imag(x))))
    return _not_finite(x)
