"""The jaxpr interpreter that ``sparsify`` and ``checkify`` share.

A transformation traces the user's function to a jaxpr and evaluates it equation by equation
with a subclass of :class:`Interpreter`.  The class owns what every such evaluation does: the
walk (an environment from variables to values; a literal reads as its value) and the
structural primitives, whose sub-jaxprs it evaluates with the same interpreter:

* ``jit``, ``closed_call``, ``call``, ``custom_jvp_call``, ``custom_vjp_call``: inline, in the
  caller's trace (a custom derivative rule is not kept: it was written for the untransformed
  values; a transformation that keeps it supplies its own rule);
* ``remat``, ``cond``, ``while``, ``scan``: inside ``jax.checkpoint`` / ``lax.switch`` /
  ``lax.while_loop`` / ``lax.scan``, as functions ``(leaves, args) -> (leaves, outs)``.

Everything is bound as ordinary lax primitives, so the result can again be jitted, vmapped
and differentiated.  A subclass supplies its own rules through these hooks:

* the *state* threaded through the walk (every equation takes one and returns one):
  :meth:`begin` / :meth:`end` at the edges of a jaxpr, :meth:`enter` / :meth:`leave` around
  a sub-jaxpr evaluated inline, :meth:`leaves` / :meth:`from_leaves` across lax control
  flow (by default the state does not cross it);
* the equations: :meth:`primitive` (one with no structural rule, or one the interpreter does
  not descend into: :meth:`descends`), :meth:`on_outputs` (applied to every equation's
  outputs), :meth:`structural_rule` (extra structural primitives);
* what a value is: :meth:`own_value` (a value of the transformation's own kind, carried by
  lax control flow as a pytree), :meth:`plain` (a branch index or predicate as a jax value),
  :meth:`scanned` (an operand scanned over), :meth:`conform_branches` / :meth:`scan_carry`
  (one structure for branch outputs and loop carries), :meth:`while_loop` (how a ``while``
  runs: by default the condition is evaluated in the body, so that its state threads).

A structural rule is ``rule(interpreter, eqn, invals, state) -> (state, outs)``.
"""

from __future__ import annotations

import jax
import numpy as np
from jax import lax

from laxarray._core.jaxapi import Literal, eval_shape
from laxarray._core.jax_regions import region_p
from laxarray._core.jax_tracing import (body_and_consts, call_p, closed_call_p, cond_p,
                                           custom_jvp_call_p, custom_vjp_call_p, jit_p, remat_p,
                                           scan_counts, scan_p, while_p)


class Interpreter:
    """A jaxpr evaluator with hooks (see the module notes); subclasses give it its rules."""

    def evaluate(self, jaxpr, consts, args, state, loop=None):
        """Evaluate ``jaxpr`` on ``args`` from ``state``; returns ``(state, outputs)``.

        ``state`` and the returned state are the *boundary* form (:meth:`begin`,
        :meth:`end`).  ``loop``: the ``while``/``scan`` equation whose body ``jaxpr`` is."""
        state = self.begin(jaxpr, consts, state)
        after = self.on_outputs(jaxpr, loop)
        env = dict(zip(jaxpr.constvars, consts))
        env.update(zip(jaxpr.invars, args))

        def read(v):
            return v.val if isinstance(v, Literal) else env[v]

        for eqn in jaxpr.eqns:
            invals = [read(v) for v in eqn.invars]
            rule = self.structural_rule(eqn)
            if rule is not None and self.descends(eqn, invals):
                state, outs = rule(self, eqn, invals, state)
            else:
                state, outs = self.primitive(eqn, invals, state)
            if after is not None:
                state, outs = after(eqn, outs, state)
            env.update(zip(eqn.outvars, outs))
        return self.end(jaxpr, state), [read(v) for v in jaxpr.outvars]

    def function(self, jaxpr, loop=None):
        """A sub-jaxpr (closed or open) as a function ``(leaves, args) -> (leaves, outs)``, to
        be traced by lax control flow; ``loop`` as in :meth:`evaluate`."""
        body, consts = body_and_consts(jaxpr)

        def fn(leaves, args):
            state, outs = self.evaluate(body, consts, list(args),
                                        self.from_leaves(list(leaves)), loop)
            return self.leaves(state), outs
        return fn

    # ---- the state --------------------------------------------------------------------------
    def begin(self, jaxpr, consts, state):
        """The walk's state at the start of ``jaxpr``, from the boundary ``state``."""
        return state

    def end(self, jaxpr, state):
        """The boundary state at the end of ``jaxpr``'s walk."""
        return state

    def enter(self, state, eqn):
        """The boundary state in which the sub-jaxpr of ``eqn`` is evaluated inline."""
        return state

    def leave(self, state, eqn, sub):
        """The state after ``eqn``, whose sub-jaxprs ended in the boundary state ``sub``."""
        return sub

    def leaves(self, state):
        """``state`` as a list of jax values, carried through lax control flow."""
        return []

    def from_leaves(self, leaves):
        """The boundary state that :meth:`leaves` gave ``leaves``."""
        return None

    # ---- the equations ----------------------------------------------------------------------
    def primitive(self, eqn, invals, state):
        """``(state, outs)`` of an equation that no structural rule takes."""
        raise NotImplementedError(f"{type(self).__name__} has no rule for primitive "
                                  f"'{eqn.primitive.name}'")

    def descends(self, eqn, invals):
        """Whether the structural ``eqn`` is evaluated by its rule (else :meth:`primitive`)."""
        return True

    def on_outputs(self, jaxpr, loop):
        """``None``, or ``f(eqn, outs, state) -> (state, outs)`` applied to the outputs of
        every equation of ``jaxpr`` (``loop`` as in :meth:`evaluate`)."""
        return None

    def structural_rule(self, eqn):
        """The structural rule of ``eqn``, or ``None``."""
        return STRUCTURAL_RULES.get(eqn.primitive)

    # ---- values in control flow -------------------------------------------------------------
    def own_value(self, x) -> bool:
        """Whether ``x`` is a value of the transformation's own kind (never cast to a dtype)."""
        return False

    def plain(self, x):
        """A branch index or loop predicate ``x`` as a plain jax value."""
        return x

    def scanned(self, x):
        """An operand of ``scan`` ready to be sliced along its leading axis."""
        return x

    def conform_branches(self, fns, leaves, operands):
        """The branch functions of a ``cond``, made to return one structure."""
        return fns

    def scan_carry(self, init, probe):
        """``(init, conform)``: the initial carry of a ``scan`` and the function applied to
        the carry its body returns, such that the carry keeps one structure.  ``probe(carry)``
        gives the abstract carry the body returns."""
        return init, _as_is

    def while_loop(self, leaves, init, cond, body):
        """Run a ``while``: ``cond``/``body`` map ``(leaves, carry)`` to ``(leaves, [pred])`` /
        ``(leaves, carry)``; returns ``(leaves, carry)``.

        The condition is evaluated before the loop and at the end of each iteration, so the
        state it changes threads through; under ``vmap`` (a batched predicate) see
        :func:`_batched_while`."""
        leaves, (pred,) = cond(leaves, init)
        if np.ndim(pred) > 0:
            return _batched_while(leaves, init, pred, cond, body)

        def step(carry):
            leaves, vals, _ = carry
            leaves, vals = body(leaves, vals)
            leaves, (pred,) = cond(leaves, vals)
            return leaves, vals, pred

        leaves, vals, _ = lax.while_loop(lambda carry: carry[2], step, (leaves, init, pred))
        return leaves, list(vals)


def _as_is(vals):
    return vals


def select_by(pred, new, old):
    """``new`` where ``pred`` holds, else ``old`` (``new`` cast to ``old``'s dtype; a ``pred``
    of fewer dimensions is broadcast along the leading dimensions of ``old``)."""
    new = lax.convert_element_type(new, old.dtype)
    if np.ndim(pred) and np.shape(old) != np.shape(pred):
        pred = lax.broadcast_in_dim(pred, old.shape, tuple(range(np.ndim(pred))))
    return lax.select(pred, new, old)


def _batched_while(leaves, init, pred, cond, body):
    """A while loop batched by ``vmap`` (``pred`` has the batch shape): lanes stop one by one.

    The batched loop runs its body on every lane until all have stopped; a stopped lane keeps
    its carry.  So that the state the body adds (checkify's checks) comes only from what the
    unbatched loop would have computed, a stopped lane's body is fed the input of its own
    last iteration again (the same values, so the same state, already recorded) rather than
    its final carry.  A lane that stops before its first iteration has no such input and is
    fed its initial carry.
    """
    axes = tuple(range(np.ndim(pred)))

    def step(carry):
        leaves, vals, prev, pred = carry
        inputs = [select_by(pred, v, p) for v, p in zip(vals, prev)]
        leaves, new_vals = body(leaves, inputs)
        new_vals = [select_by(pred, n, v) for n, v in zip(new_vals, vals)]
        leaves, (new_pred,) = cond(leaves, new_vals)
        return leaves, new_vals, inputs, lax.bitwise_and(pred, new_pred)

    leaves, vals, _, _ = lax.while_loop(lambda carry: lax.reduce_or(carry[3], axes), step,
                                        (leaves, init, list(init), pred))
    return leaves, list(vals)


def _coerce_carry(interp, vals, avars):
    """Loop-carried initial values with the dtypes of the jaxpr's variables (a literal's may
    differ); the interpreter's own values are left as they are."""
    return [x if interp.own_value(x) or getattr(x, "dtype", None) == v.aval.dtype
            else lax.convert_element_type(x, v.aval.dtype) for x, v in zip(vals, avars)]


def _step_abstract(x):
    """The abstract value of one step of ``x`` scanned over its leading axis."""
    leaves, tree = jax.tree_util.tree_flatten(x)
    return jax.tree_util.tree_unflatten(
        tree, [jax.ShapeDtypeStruct(tuple(v.shape[1:]), v.dtype) for v in leaves])


# ---- the structural rules -------------------------------------------------------------------
def _call_rule(interp, eqn, invals, state):
    """``jit``, ``closed_call``, ``call``, laxarray's regions and the custom-derivative
    calls: the sub-jaxpr evaluated inline."""
    sub = eqn.params["jaxpr" if eqn.primitive is jit_p else "call_jaxpr"]
    body, consts = body_and_consts(sub)
    out_state, outs = interp.evaluate(body, consts, invals, interp.enter(state, eqn))
    return interp.leave(state, eqn, out_state), outs


def _remat_rule(interp, eqn, invals, state):
    p = eqn.params
    fn = jax.checkpoint(interp.function(p["jaxpr"]), prevent_cse=p["prevent_cse"],
                        policy=p["policy"])
    leaves, outs = fn(interp.leaves(state), list(invals))
    return interp.leave(state, eqn, interp.from_leaves(leaves)), list(outs)


def _cond_rule(interp, eqn, invals, state):
    index, *ops = invals
    index = interp.plain(index)
    leaves = interp.leaves(state)
    fns = [interp.function(br) for br in eqn.params["branches"]]
    leaves, outs = lax.switch(index, interp.conform_branches(fns, leaves, ops), leaves, ops)
    return interp.leave(state, eqn, interp.from_leaves(leaves)), list(outs)


def _while_rule(interp, eqn, invals, state):
    p = eqn.params
    cn, bn = p["cond_nconsts"], p["body_nconsts"]
    cconsts, bconsts, init = invals[:cn], invals[cn:cn + bn], invals[cn + bn:]
    init = _coerce_carry(interp, init, body_and_consts(p["body_jaxpr"])[0].invars[bn:])
    cond_fn = interp.function(p["cond_jaxpr"])
    body_fn = interp.function(p["body_jaxpr"], loop=eqn)
    leaves, vals = interp.while_loop(
        interp.leaves(state), init,
        lambda leaves, carry: cond_fn(leaves, cconsts + list(carry)),
        lambda leaves, carry: body_fn(leaves, bconsts + list(carry)))
    return interp.leave(state, eqn, interp.from_leaves(leaves)), list(vals)


def _scan_rule(interp, eqn, invals, state):
    p = eqn.params
    nc, ncarry = scan_counts(p)
    consts, init, xs = invals[:nc], invals[nc:nc + ncarry], invals[nc + ncarry:]
    init = _coerce_carry(interp, init, body_and_consts(p["jaxpr"])[0].invars[nc:nc + ncarry])
    xs = [interp.scanned(x) for x in xs]
    fn = interp.function(p["jaxpr"], loop=eqn)
    leaves = interp.leaves(state)

    def step(leaves, carry, x):
        leaves, outs = fn(leaves, list(consts) + list(carry) + list(x))
        return leaves, outs[:ncarry], outs[ncarry:]

    def probe(carry):
        x_abs = [_step_abstract(x) for x in xs]
        return eval_shape(lambda c, x: step(leaves, c, x)[1], carry, x_abs)

    init, conform = interp.scan_carry(init, probe)

    def body(carry, x):
        leaves, c, y = step(*carry, x)
        return (leaves, conform(c)), y

    (leaves, carry), ys = lax.scan(body, (leaves, list(init)), xs, length=p["length"],
                                   reverse=p["reverse"], unroll=p["unroll"])
    return interp.leave(state, eqn, interp.from_leaves(leaves)), list(carry) + list(ys)


STRUCTURAL_RULES = {
    jit_p: _call_rule,
    closed_call_p: _call_rule,
    call_p: _call_rule,
    custom_jvp_call_p: _call_rule,
    custom_vjp_call_p: _call_rule,
    region_p: _call_rule,       # laxarray's own call in a 32-bit caller's program (jaxapi)
    remat_p: _remat_rule,
    cond_p: _cond_rule,
    while_p: _while_rule,
    scan_p: _scan_rule,
}


__all__ = ["Interpreter", "STRUCTURAL_RULES", "select_by"]
