"""``checkify``: trace the function to a jaxpr, then evaluate it while threading an ``Error`` value.

Every equation is re-bound as it is (so the result can again be jitted, vmapped and
differentiated); the rules of ``rules.py`` add checks after the primitives they know.  The
walk and the structural primitives (``jit``, ``cond``, ``while``, ``scan``, ``remat``) are
the interpreter that ``sparsify`` shares (:mod:`laxarray._core.interpret`); :class:`Context`
supplies checkify's part: the error state threaded through the walk and carried through
every sub-jaxpr, and its own rules for ``check``, ``shard_map``, ``custom_jvp_call`` and
``custom_vjp_call`` (the custom derivative is kept; the error state has zero tangents).

The error state is ``code`` (int32, 0 = no error), ``index`` (int64[3]: the offending index, its
axis and size, shared by all index checks) and one payload per user-check site that has format
arguments.  All payload slots are allocated up front (a static walk of the whole jaxpr), so the
state has one fixed structure for every branch and loop carry.
"""

from __future__ import annotations

import contextlib
import functools

import jax
import numpy as np
from jax import lax
from jax.sharding import PartitionSpec

from laxarray._core.dtypes import kind_of
from laxarray._core.errors import fail
from laxarray._core.interpret import Interpreter, select_by
from laxarray._core.jaxapi import Literal, Primitive
from laxarray._core.jax_tracing import (bind_eqn, custom_jvp_call_p, custom_vjp_call_p,
                                           define_batching_rule, define_lowering, jaxprs_in_params,
                                           scan_counts, scan_p, shard_map_params, source_frames,
                                           while_p)
from laxarray._core.runtime.kernel import jit_function
from laxarray.checkify import rules
from laxarray.checkify.checks import (
    check_error_p, check_p, first_failing, suppress_checks, tracing_checkify)
from laxarray.checkify.error import (
    CATEGORIES, Error, FailedCheckError, caller_frames, user_checks, user_location)
from laxarray._core import dtypes as _dt


# --- the error state ------------------------------------------------------------------------

def _spec(x, n_batch=0):
    return (tuple(x.shape[n_batch:]), np.dtype(x.dtype).str)


class Context(Interpreter):
    """Per-trace facts: enabled categories, payload slots, memoised sites and sub-jaxpr needs;
    and the interpreter that evaluates a jaxpr with checkify's rules, threading a
    :class:`State` (what crosses control flow is :meth:`State.leaves`)."""

    def __init__(self, errors, jaxpr, fallback, fast=False):
        self.errors = errors
        self.fallback = fallback     # where a site with no user frame of its own is reported
        self.fast = fast             # flag pass: only "may have failed" (see ``checkify``)
        self.specs = {}
        self._sites = {}
        self._needs = {}
        self._sinks = {}
        self._deferred = {}          # id(loop eqn) -> carry outputs tested after the loop
        self._folded = set()         # output variables of rules.FOLDED primitives
        if not fast:
            self._collect(jaxpr)
        self.keys = tuple(self.specs)

    def _collect(self, jaxpr):
        for eqn in jaxpr.eqns:
            if eqn.primitive is check_p and FailedCheckError in self.errors:
                key = _check_key(eqn)
                if key[1]:
                    self.specs[key] = (((key[1],), "<i8"),) + key[2]
                elif key[2]:
                    self.specs[key] = key[2]
            elif eqn.primitive is check_error_p:
                nb, pos = eqn.params["n_batch"], 2
                for key, n in zip(eqn.params["keys"], eqn.params["lens"]):
                    vs = eqn.invars[pos:pos + n]
                    self.specs[key] = tuple(_spec(v.aval, nb) for v in vs)
                    pos += n
            for sub in jaxprs_in_params(eqn.params):
                self._collect(sub)

    @contextlib.contextmanager
    def inside(self, eqn):
        """Sites of a custom derivative's body, evaluated in this block, without a user frame
        of their own are reported at ``eqn``'s (jax traces such a body with a traceback that
        ends at the body: laxarray's own ``sqrt`` on the TPU reported the checkify call)."""
        saved = self.fallback
        self.fallback = user_location(source_frames(eqn), saved)
        try:
            yield
        finally:
            self.fallback = saved

    def site(self, eqn, category, make):
        """The site of ``category`` for ``eqn`` (one per equation and category, per trace)."""
        k = (id(eqn), category)
        if k not in self._sites:
            self._sites[k] = make()
        return self._sites[k]

    def needs(self, jaxpr) -> bool:
        """Whether evaluating ``jaxpr`` has anything to check (else it is bound unchanged)."""
        k = id(jaxpr)
        if k not in self._needs:
            self._needs[k] = any(
                eqn.primitive in (check_p, check_error_p)
                or any(cat in self.errors for cat, _ in rules.CHECK_RULES.get(eqn.primitive, ()))
                or any(self.needs(sub) for sub in jaxprs_in_params(eqn.params))
                for eqn in jaxpr.eqns)
        return self._needs[k]

    def sinks(self, jaxpr, deferred=()):
        """The variables of ``jaxpr`` whose non-finite elements the flag pass tests.

        Every NaN or inf that a checked primitive produces shows in at least one of them (see
        ``rules.sink_vars``), so testing only these gives a conservative "may have failed".
        ``deferred``: for a loop body, :meth:`deferred` of its loop.
        """
        k = (id(jaxpr), deferred)
        if k not in self._sinks:
            self._sinks[k] = rules.sink_vars(jaxpr, self.errors, deferred, self.deferred)
        return self._sinks[k]

    def deferred(self, eqn) -> frozenset:
        """Flag pass: the carry positions of a loop ``eqn`` that its body keeps non-finite once
        they are.  The body does not test them; the loop's outputs there are tested after
        the loop instead (they are sources of the enclosing jaxpr's sink analysis)."""
        k = id(eqn)
        if k not in self._deferred:
            self._deferred[k] = self._carried(eqn)
        return self._deferred[k]

    def _carried(self, eqn):
        p = eqn.params
        if not self.fast or not self.errors & rules.SINK_CATEGORIES:
            return frozenset()
        if eqn.primitive is while_p:
            body, first, count = p["body_jaxpr"].jaxpr, p["body_nconsts"], len(eqn.outvars)
        elif eqn.primitive is scan_p:
            body, (first, count) = p["jaxpr"].jaxpr, scan_counts(p)
        else:
            return frozenset()
        if not any(self.needs(j) for j in jaxprs_in_params(p)):
            return frozenset()
        return rules.carried_positions(body, self.errors, first, count)

    def initial_state(self):
        """No error; every payload slot zero."""
        payloads = {k: tuple(lax.full(shape, 0, np.dtype(dt)) for shape, dt in spec)
                    for k, spec in self.specs.items()}
        cls = FlagState if self.fast else State
        return cls(lax.full((), 0, np.int32), lax.full((3,), 0, _dt.default_index()), payloads)

    def from_leaves(self, leaves):
        """Rebuild a state from :meth:`State.leaves`."""
        payloads, pos = {}, 2
        for k in self.keys:
            n = len(self.specs[k])
            payloads[k] = tuple(leaves[pos:pos + n])
            pos += n
        cls = FlagState if self.fast else State
        return cls(leaves[0], leaves[1], payloads)

    # ---- checkify's rules on the shared interpreter (``_core.interpret``) -----------------
    def leaves(self, state):
        """``state`` as a flat list of arrays (:meth:`State.leaves`)."""
        return state.leaves(self)

    def end(self, jaxpr, state):
        """The state at the end of a jaxpr, deferred checks folded in."""
        return state.flush()

    def enter(self, state, eqn):
        """The state in which an inline call starts, deferred checks folded in."""
        return state.flush()

    def structural_rule(self, eqn):
        """checkify's own rules first (checks, custom derivatives, ``shard_map``), then the
        shared ones."""
        rule = CHECK_STRUCTURAL_RULES.get(eqn.primitive) or super().structural_rule(eqn)
        if rule is None and shard_map_params(eqn) is not None:
            rule = _shard_map_check_rule
        return rule

    def descends(self, eqn, invals):
        """A call or control flow is evaluated with checks only where it holds something to
        check; otherwise it is bound unchanged."""
        return (eqn.primitive in (check_p, check_error_p)
                or any(self.needs(j) for j in jaxprs_in_params(eqn.params)))

    def primitive(self, eqn, invals, state):
        """Re-bind ``eqn``; then the check rules of its primitive (``rules.CHECK_RULES``).
        With NaN or float checks, a value of a ``rules.FOLDED`` primitive reaches a
        ``rules.FOLDING`` one through an ``optimization_barrier``: XLA would fold the pair
        (``log(exp(a))`` to ``a``) and lose the NaN or infinity the checks are about."""
        if eqn.primitive in rules.FOLDING and self.errors & rules.SINK_CATEGORIES:
            invals = [lax.optimization_barrier(x)
                      if not isinstance(v, Literal) and v in self._folded else x
                      for v, x in zip(eqn.invars, invals)]
        outs = bind_eqn(eqn, invals)
        if eqn.primitive in rules.FOLDED:
            self._folded.update(eqn.outvars)
        for category, rule in rules.CHECK_RULES.get(eqn.primitive, ()):
            if category in self.errors and not (self.fast and category in rules.SINK_CATEGORIES):
                state = rule(self, eqn, state, invals, outs)
        return state, outs

    def on_outputs(self, jaxpr, loop):
        """Flag pass: the sink values of ``jaxpr`` (:meth:`sinks`) are tested for non-finite
        elements (``loop``: the loop whose body ``jaxpr`` is, see :meth:`deferred`)."""
        if not self.fast:
            return None
        sinks = self.sinks(jaxpr, () if loop is None else self.deferred(loop))

        def test_sinks(eqn, outs, state):
            for v, x in zip(eqn.outvars, outs):
                if v in sinks:
                    state = state.defer(rules.sink_test(x, self.errors), 1)
            return state, outs
        return test_sinks


class State:
    """The threaded error value (see the module docstring).

    ``pending`` holds deferred elementwise checks of the current straight-line region: per
    output shape, an int32 array with, per element, the rank of the first failing check
    (``_NONE`` if none), and the site codes by rank.  :meth:`flush` reduces each shape group
    to one scalar, so a chain of elementwise checks costs one reduction, not one per check.
    """

    __slots__ = ("code", "index", "payloads", "pending", "ranked")

    def __init__(self, code, index, payloads, pending=None, ranked=()):
        self.code, self.index, self.payloads = code, index, payloads
        self.pending = pending or {}
        self.ranked = tuple(ranked)

    def leaves(self, ctx):
        """A flat list of arrays in the context's fixed order (deferred checks folded in)."""
        state = self.flush()
        return [state.code, state.index] + [x for k in ctx.keys for x in state.payloads[k]]

    def add(self, fail_pred, code, key=None, payload=None, index=None):
        """Record ``code`` if ``fail_pred`` holds and no earlier check failed."""
        state = self.flush()
        first = lax.bitwise_and(lax.eq(state.code, np.int32(0)),
                                lax.convert_element_type(fail_pred, np.bool_))
        code = lax.convert_element_type(code, np.int32)
        if np.ndim(code) != np.ndim(state.code) and not np.ndim(code):
            code = lax.full_like(state.code, code)
        new_code = lax.select(first, code, state.code)
        payloads = state.payloads
        if key is not None and key in payloads:
            payloads = dict(payloads)
            payloads[key] = tuple(select_by(first, new, old)
                                  for new, old in zip(payload, payloads[key]))
        new_index = state.index if index is None else select_by(first, index, state.index)
        return State(new_code, new_index, payloads)

    def defer(self, bad, code):
        """Record ``code`` for the elements where ``bad`` holds, reducing later (see ``flush``)."""
        shape = tuple(np.shape(bad))
        mark = self._mark(bad, len(self.ranked))
        pending = dict(self.pending)
        pending[shape] = mark if shape not in pending else self._merge(pending[shape], mark)
        return type(self)(self.code, self.index, self.payloads, pending, self.ranked + (code,))

    def flush(self):
        """Fold the deferred checks into ``code`` (first failing in execution order)."""
        if not self.pending:
            return self
        fail, code = self._fold(list(self.pending.values()))
        return type(self)(self.code, self.index, self.payloads).add(fail, code)

    # how deferred checks are held: per element, the rank of the first failing check
    @staticmethod
    def _mark(bad, rank):
        shape = tuple(np.shape(bad))
        return lax.select(bad, lax.full(shape, rank, np.int32), lax.full(shape, _NONE, np.int32))

    _merge = staticmethod(lax.min)

    def _fold(self, marks):
        firsts = [lax.reduce_min(r, tuple(range(r.ndim))) if r.ndim else r for r in marks]
        rank = functools.reduce(lax.min, firsts)
        codes = np.asarray(self.ranked + (0,), np.int32)
        code = lax.dynamic_index_in_dim(codes, lax.min(rank, np.int32(len(self.ranked))), 0, False)
        return lax.lt(rank, np.int32(_NONE)), code

    def to_error(self, ctx):
        """The public ``Error`` value."""
        return Error(self.code, self.index, [self.payloads[k] for k in ctx.keys], ctx.keys)


class FlagState(State):
    """The state of the flag pass: ``code`` is 1 when some check *may* have failed.

    Checks are or-ed in any order (no payloads, no ranks); deferred elementwise tests are
    or-ed per shape and reduced once per region, as in :class:`State`.
    """

    __slots__ = ()

    def add(self, fail_pred, code, key=None, payload=None, index=None):
        """Set the flag if ``fail_pred`` holds (``code``, ``payload`` and ``index`` are unused)."""
        fail = lax.convert_element_type(fail_pred, np.int32)
        return FlagState(lax.bitwise_or(self.code, fail), self.index, self.payloads,
                         self.pending, self.ranked)

    # deferred tests are held as the boolean itself, or-ed per shape
    @staticmethod
    def _mark(bad, rank):
        return bad

    _merge = staticmethod(lax.bitwise_or)

    def _fold(self, marks):
        anys = [lax.reduce_or(b, tuple(range(b.ndim))) if b.ndim else b for b in marks]
        return functools.reduce(lax.bitwise_or, anys), 1


_NONE = 2 ** 30


def _check_key(eqn):
    nb = eqn.params["n_batch"]
    return (eqn.params["code"], nb, tuple(_spec(v.aval, nb) for v in eqn.invars[1:]))


# --- checkify's structural rules (``Context.structural_rule``) -----------------------------

def eval_checked(ctx, jaxpr, consts, state, args):
    """Evaluate ``jaxpr`` on ``args`` with the interpreter ``ctx``, threading ``state``;
    returns ``(state, outputs)``."""
    return ctx.evaluate(jaxpr, consts, args, state)


def _shard_map_check_rule(ctx, eqn, invals, state):
    """``jax.shard_map``: the body runs with checks on every device, each starting from the
    state that reaches the ``shard_map`` (passed in replicated); each device's state comes
    back stacked along the manual axes, and the first device in mesh order whose state
    holds an error gives the result -- the first failing shard, which on one device is
    the first failing block of the data.  (jax's own checkify fails on a check before or
    inside a ``shard_map``: jax issues 26890, 40907.)"""
    body, mesh, in_specs, out_specs, manual, check_vma = shard_map_params(eqn)
    fn = ctx.function(body)
    leaves = ctx.leaves(state)
    n = len(leaves)

    def local(*args):
        out_leaves, outs = fn(list(args[:n]), list(args[n:]))
        return (*[lax.expand_dims(x, (0,)) for x in out_leaves], *outs)

    stacked = PartitionSpec(manual)
    outs = jax.shard_map(local, mesh=mesh, in_specs=(PartitionSpec(),) * n + tuple(in_specs),
                         out_specs=(stacked,) * n + tuple(out_specs), axis_names=set(manual),
                         check_vma=check_vma)(*leaves, *invals)
    per_device, outs = outs[:n], outs[n:]
    first = lax.argmax(lax.ne(per_device[0], np.int32(0)), 0, np.int32)
    leaves = [lax.dynamic_index_in_dim(x, first, 0, keepdims=False) for x in per_device]
    return ctx.from_leaves(leaves), list(outs)


def _zero_tangent(x):
    if kind_of(x.dtype) in "fc":
        return lax.full_like(x, 0)
    return np.zeros(x.shape, jax.dtypes.float0)


def _custom_jvp_call_check_rule(ctx, eqn, invals, state):
    primal = ctx.function(eqn.params["call_jaxpr"])
    wrapped = jax.custom_jvp(primal)

    @wrapped.defjvp
    def _jvp(primals, tangents):
        leaves, args = primals
        leaves_out, outs = primal(leaves, args)
        with suppress_checks():
            _, touts = jax.jvp(lambda *a: bind_eqn(eqn, list(a)), tuple(args), tuple(tangents[1]))
        return (leaves_out, outs), ([_zero_tangent(x) for x in leaves_out], list(touts))

    with ctx.inside(eqn):
        leaves, outs = wrapped(ctx.leaves(state), list(invals))
    return ctx.from_leaves(leaves), outs


def _custom_vjp_call_check_rule(ctx, eqn, invals, state):
    primal = ctx.function(eqn.params["call_jaxpr"])
    wrapped = jax.custom_vjp(primal)
    leaf_avals = [(x.shape, x.dtype) for x in ctx.leaves(state)]

    def fwd(leaves, args):
        leaves_out, outs = primal(leaves, args)
        with suppress_checks():
            _, vjp_fn = jax.vjp(lambda *a: bind_eqn(eqn, list(a)), *args)
        return (leaves_out, outs), vjp_fn

    def bwd(vjp_fn, cts):
        zeros = [_zero_tangent(np.zeros(s, d) if kind_of(d) not in "fc"
                               else lax.full(s, 0, d)) for s, d in leaf_avals]
        return zeros, list(vjp_fn(list(cts[1])))

    wrapped.defvjp(fwd, bwd)
    with ctx.inside(eqn):
        leaves, outs = wrapped(ctx.leaves(state), list(invals))
    return ctx.from_leaves(leaves), outs


def _check_check_rule(ctx, eqn, invals, state):
    state = state.flush()
    if FailedCheckError not in ctx.errors:
        return state, []
    pred, *fmt = (lax.convert_element_type(x, np.asarray(x).dtype if not hasattr(x, "dtype")
                                           else x.dtype) for x in invals)
    key = _check_key(eqn)
    nb = key[1]
    if nb == 0:
        return state.add(lax.bitwise_not(pred), key[0], key, fmt), []
    fail_pred = lax.bitwise_not(lax.reduce_and(pred, tuple(range(pred.ndim))))
    pos = first_failing(pred)
    bshape = pred.shape
    strides = np.cumprod((1,) + bshape[:0:-1])[::-1]
    bidx = lax.concatenate([lax.broadcast(lax.rem(lax.div(pos, _dt.default_index().type(s)), _dt.default_index().type(n)), (1,))
                            for s, n in zip(strides, bshape)], 0)
    payload = [bidx] + [
        lax.dynamic_index_in_dim(lax.reshape(x, (pred.size,) + x.shape[nb:]), pos, 0, False)
        for x in fmt]
    return state.add(fail_pred, key[0], key, payload), []


def _check_error_check_rule(ctx, eqn, invals, state):
    state = state.flush()
    nb = eqn.params["n_batch"]
    code, index, *rest = invals
    if ctx.fast:
        failed = lax.ne(code, np.int32(0))
        return state.add(lax.reduce_or(failed, tuple(range(failed.ndim))) if failed.ndim
                         else failed, 1), []
    if nb:
        n = int(np.prod(code.shape))
        pos = lax.argmax(lax.ne(lax.reshape(code, (n,)), np.int32(0)), 0, _dt.default_index())

        def pick(x):
            return lax.dynamic_index_in_dim(lax.reshape(x, (n,) + x.shape[nb:]), pos, 0, False)
        code, index, rest = pick(code), pick(index), [pick(x) for x in rest]
    failed = lax.ne(code, np.int32(0))
    first = lax.bitwise_and(lax.eq(state.code, np.int32(0)), failed)
    payloads, pos = dict(state.payloads), 0
    for key, n in zip(eqn.params["keys"], eqn.params["lens"]):
        vals = rest[pos:pos + n]
        pos += n
        if key in payloads:
            payloads[key] = tuple(select_by(first, v, o) for v, o in zip(vals, payloads[key]))
    return State(lax.select(first, code, state.code), select_by(first, index, state.index),
                 payloads), []


#: checkify's own structural rules, before the shared ones (``_core.interpret``)
CHECK_STRUCTURAL_RULES = {
    custom_jvp_call_p: _custom_jvp_call_check_rule,
    custom_vjp_call_p: _custom_vjp_call_check_rule,
    check_p: _check_check_rule,
    check_error_p: _check_error_check_rule,
}


# --- the transformation ---------------------------------------------------------------------
#
# With automatic checks, checking every primitive precisely costs several passes over every
# value (and an index check a min, a max and a payload per gather).  ``checkify`` then evaluates the function twice over: a *flag pass* computes the outputs
# and one boolean, "some check may have failed" (user, division and index checks exactly; NaN and
# inf production conservatively, by testing only the sink values of ``Context.sinks``); only when
# it is set does a ``lax.cond`` run the *precise pass*, which re-evaluates the function with
# every check in execution order to find the first failure and its message.  The result is the
# same as the precise pass alone; the cost when nothing fails is close to the unchecked function
# (and when the inputs already hold NaNs, the precise pass always runs).

def _two_pass(ctx, closed) -> bool:
    """Whether to use the flag pass + precise pass scheme for this function."""
    return (bool(ctx.errors - user_checks) and not closed.jaxpr.effects
            and ctx.needs(closed.jaxpr))


def _any_lane_batch(args, dims):
    (flag,), (d,) = args, dims
    if d is None:
        return flag, None
    return lax.reduce_or(flag, (d,)), None


# ``any_lane(flag)``: the flag itself, and under ``vmap`` the "or" of all lanes (unbatched), so
# the cond of the two-pass scheme stays a cond (not a select running both passes) when a
# checkified function is vmapped.
any_lane_p = Primitive("checkify_any_lane")
any_lane_p.def_impl(lambda flag: flag)
any_lane_p.def_abstract_eval(lambda flag: flag)
define_batching_rule(any_lane_p, _any_lane_batch)
define_lowering(any_lane_p, lambda ctx, flag: [flag])


def _validate_errors(errors):
    if not isinstance(errors, (set, frozenset)):
        fail(TypeError, "checkify", "a set of error categories for 'errors' "
             "(e.g. checkify.user_checks | checkify.nan_checks)", errors)
    unknown = [e for e in errors if e not in CATEGORIES]
    if unknown:
        fail(ValueError, "checkify", "error categories from laxarray.checkify for 'errors'",
             unknown[0])
    return frozenset(errors)


def checkify(f, errors=user_checks):
    """Functionalize checks: return a function that computes ``(Error, f(*args))``.

    jax: jax.experimental.checkify.checkify.

    Parameters
    ----------
    f : callable
        The function to check.
    errors : frozenset of error classes, optional
        The categories to check: ``user_checks`` (default: the :func:`check` calls),
        ``nan_checks``, ``div_checks``, ``index_checks``, ``float_checks``,
        ``float_div_checks``, ``linalg_checks``, ``automatic_checks``, ``all_checks``, or
        their unions (``|``).

    Returns
    -------
    callable
        A function of ``f``'s arguments returning ``(error, result)``: an :class:`Error` (no
        error, or the first failed check and its message) and ``f``'s result.

    Raises
    ------
    TypeError
        If ``f`` is not callable or ``errors`` is not a set of error categories.

    Notes
    -----
    Static under ``jax.jit``: none: every argument of the checked function is traced.

    The checked function can be jitted, vmapped (the error then reports every failing
    example index) and differentiated.  With automatic checks it runs once with cheap "may
    have failed" flags and, only when one is set, again inside a ``lax.cond`` with every
    check, to find the first failure (so inputs that already hold NaN/inf pay for both
    passes).  Every message names the primitive (or the user's check) and the user's source
    file and line.

    Examples
    --------

    >>> import laxarray as la
    >>> from laxarray.checkify import checkify, nan_checks, index_checks
    >>> err, y = checkify(la.sqrt, errors=nan_checks)(la.asarray(-1.0))
    >>> err.get()
    'NaN generated by primitive sqrt at ...'
    >>> err, y = checkify(lambda x, i: x[i], errors=index_checks)(la.arange(3), la.asarray(5))
    >>> err.get()
    'out-of-bounds index 5 for axis 0 with size 3 in primitive gather at ...'
    >>> checkify(la.sqrt, errors=nan_checks)(la.asarray(4.0))
    (Error(no error), Array(2.))
    """
    if not callable(f):
        fail(TypeError, "checkify", "a callable for 'f'", f)
    errors = _validate_errors(errors)

    def run(*args, **kwargs):
        flat, in_tree = jax.tree_util.tree_flatten((args, kwargs))
        out_trees = []

        def flat_fun(*flat_args):
            a, k = jax.tree_util.tree_unflatten(in_tree, flat_args)
            leaves, tree = jax.tree_util.tree_flatten(f(*a, **k))
            out_trees.append(tree)
            return leaves

        with tracing_checkify():
            closed = jax.make_jaxpr(flat_fun)(*flat)
        fallback = user_location(caller_frames(0))
        ctx = Context(errors, closed.jaxpr, fallback)
        if not _two_pass(ctx, closed):
            state, outs = eval_checked(ctx, closed.jaxpr, closed.consts, ctx.initial_state(), flat)
            return state.to_error(ctx), jax.tree_util.tree_unflatten(out_trees[-1], outs)
        flag_ctx = Context(errors, closed.jaxpr, fallback, fast=True)
        flag, outs = eval_checked(flag_ctx, closed.jaxpr, closed.consts,
                                  flag_ctx.initial_state(), flat)

        def precise(args):
            state, _ = eval_checked(ctx, closed.jaxpr, closed.consts, ctx.initial_state(),
                                    list(args))
            return state.leaves(ctx)

        def clean(args):
            return ctx.initial_state().leaves(ctx)

        failed = any_lane_p.bind(lax.ne(flag.code, np.int32(0)))
        leaves = lax.cond(failed, precise, clean, flat)
        return (ctx.from_leaves(leaves).to_error(ctx),
                jax.tree_util.tree_unflatten(out_trees[-1], outs))

    jitted = jit_function(run, inline=True)

    @functools.wraps(f)
    def checked(*args, **kwargs):
        return jitted(*args, **kwargs)
    return checked


__all__ = ["checkify", "eval_checked", "Context", "State"]
