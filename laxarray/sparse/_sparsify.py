"""``sparsify``: run a dense function on sparse (BCOO/BCSR) inputs via a jaxpr interpreter.

``f`` is traced once per input signature on dense abstract values (the sparse inputs'
shapes and dtypes) to a jaxpr; the jaxpr is then evaluated equation by equation by
:class:`_Sparsifier`, sparsify's rules on the interpreter that ``checkify`` shares
(:mod:`laxarray._core.interpret`: the walk, ``jit``, ``cond``, ``while``, ``scan``, ``remat``,
``custom_jvp_call`` and ``custom_vjp_call``).  Each value is dense (a raw jax value) or
sparse (BCOO/BCSR, or a row-sharded matrix, which has rules for products and its transpose
only: ``_sparsify_rules.sharded_rule``).  An equation with only dense inputs is re-bound
unchanged; one with a sparse input goes to the rule of its primitive
(``_sparsify_rules.RULES``) or, for a structural primitive, to the interpreter, which
evaluates the sub-jaxprs with the same rules (inside ``lax.switch`` / ``lax.while_loop`` /
``lax.scan`` / ``jax.checkpoint``: sparse values pass through them as pytrees).  What the
walk threads is what is known statically about the dense values (:class:`_Facts`: zeros
and broadcasts).  All the work is ordinary lax primitives, so the interpretation costs
trace time only under ``jax.jit`` and the result can again be jitted, vmapped and
differentiated.

Loop carries and branch outputs must have one structure: sparse values are padded to the
largest number of stored entries, and a value that is sparse on one side and dense on
the other is made dense.  A loop body that grows a sparse carry raises (or densifies it with
``densify=True``).
"""

from __future__ import annotations

import contextlib
import functools

import jax
import numpy as np
from jax import lax

from laxarray._core.errors import fail
from laxarray._core.interpret import Interpreter
from laxarray._core.jaxapi import Literal, eval_shape, is_tracer
from laxarray._core.jax_host_calls import host_call_p
from laxarray._core.jax_regions import as_64bit_code
from laxarray._core.jax_tracing import bind_eqn
from laxarray.array_api._array import Array, wrap
from laxarray.sparse import _sparsify_rules as R
from laxarray.sparse.bcoo import BCOO
from laxarray.sparse.bcsr import BCSR, bcsr_from_bcoo
from laxarray.sparse.sharded import is_sharded


def _is_input(x):
    """Whether ``x`` is evaluated by the sparse rules: a BCOO, a BCSR or a row-sharded
    matrix (the latter only by products and transposes, :func:`R.sharded_rule`)."""
    return R.is_sparse(x) or is_sharded(x)


def _densified(x):
    return R.todense(x) if R.is_sparse(x) else x


_KEEPS_ZERO = frozenset({lax.convert_element_type_p, lax.copy_p, lax.reshape_p, lax.squeeze_p,
                         lax.neg_p, lax.transpose_p, lax.broadcast_in_dim_p})


def _literal_fact(val):
    return R.Fact(zero=True) if R.is_zero(val, None) else None


class _Facts:
    """The walk state of one jaxpr: a ``Fact`` for each variable known to be zero or a
    broadcast (a literal's is read from its value).  Facts cross an inline call as lists,
    one per operand or result, and do not cross lax control flow."""

    __slots__ = ("known",)

    def __init__(self):
        self.known = {}

    def of(self, variables):
        """The facts of ``variables`` (``None`` where nothing is known)."""
        return [_literal_fact(v.val) if isinstance(v, Literal) else self.known.get(v)
                for v in variables]

    def learn(self, variables, facts):
        """Record ``facts`` (a list, or ``None``: nothing learned) of ``variables``."""
        if facts:
            self.known.update((v, f) for v, f in zip(variables, facts) if f is not None)


def _dense_facts(eqn, invals, infacts):
    """Facts about the outputs of a dense equation (zeros and broadcasts)."""
    prim = eqn.primitive
    if prim not in _KEEPS_ZERO:
        return None
    zero = infacts[0] is not None and infacts[0].zero
    if prim is lax.broadcast_in_dim_p and len(invals) == 1:
        p = eqn.params
        return [R.Fact(zero, (invals[0], tuple(p["broadcast_dimensions"]), tuple(p["shape"])))]
    return [R.Fact(True)] if zero else None


def _coerce_out(x, aval):
    dtype = getattr(aval, "dtype", None)
    if dtype is None:
        return x
    if R.is_sparse(x):
        if x.data.dtype != dtype:
            x = x._with_data(lax.convert_element_type(x.data, dtype))
        return x
    if getattr(x, "dtype", dtype) != dtype:
        return lax.convert_element_type(x, dtype)
    return x


def _coerce_outs(eqn, outs, facts):
    return facts, [_coerce_out(x, v.aval) for x, v in zip(outs, eqn.outvars)]


@contextlib.contextmanager
def _own_memo():
    """A memo of de-duplicated arrays (``R.unique``) for one evaluation: a jaxpr evaluated
    inline (a ``jit`` call) shares its caller's; a control-flow body has its own."""
    R.MEMO.append({})
    try:
        yield
    finally:
        R.MEMO.pop()


class _Sparsifier(Interpreter):
    """sparsify's rules on the shared interpreter: a value is dense (a raw jax value) or
    sparse; the walk state is the :class:`_Facts` of the jaxpr's dense values.
    ``densify``: a primitive with no sparse rule runs on the dense value of its sparse
    inputs instead of raising."""

    def __init__(self, densify):
        self.densify = densify

    # ---- the state: facts
    def begin(self, jaxpr, consts, arg_facts):
        """The facts of the arguments and of the constants (a concrete scalar the trace
        captured as a constant, not a literal, is as known as a literal: a zero among them
        keeps a select or an add sparse)."""
        facts = _Facts()
        facts.learn(jaxpr.constvars, [_literal_fact(c) for c in consts])
        facts.learn(jaxpr.invars, arg_facts)
        return facts

    def end(self, jaxpr, facts):
        """The facts of the results."""
        return facts.of(jaxpr.outvars)

    def enter(self, facts, eqn):
        """The facts of the operands."""
        return facts.of(eqn.invars)

    def leave(self, facts, eqn, sub):
        """``facts`` and those of the results (``sub``; none after control flow)."""
        facts.learn(eqn.outvars, sub)
        return facts

    def function(self, jaxpr, loop=None):
        """As :meth:`Interpreter.function`, with a memo of its own (:func:`_own_memo`)."""
        fn = super().function(jaxpr, loop)

        def memoised(leaves, args):
            with _own_memo():
                return fn(leaves, args)
        return memoised

    # ---- the equations
    def descends(self, eqn, invals):
        """Only a structural equation with a sparse input is interpreted."""
        return any(_is_input(x) for x in invals)

    def primitive(self, eqn, invals, facts):
        """An equation with dense inputs re-bound; else the sparse rule of its primitive."""
        infacts = facts.of(eqn.invars)
        if not any(_is_input(x) for x in invals):
            outs = bind_eqn(eqn, invals)
            facts.learn(eqn.outvars, _dense_facts(eqn, invals, infacts))
            return facts, outs
        rule = R.sharded_rule if any(is_sharded(x) for x in invals) else \
            R.RULES.get(eqn.primitive)
        try:
            if rule is None:
                raise R.NoSparseRule("")
            return facts, rule(eqn, invals, infacts)
        except R.NoSparseRule as e:
            return facts, self._no_rule(eqn, invals, str(e))

    def on_outputs(self, jaxpr, loop):
        """Every output takes the dtype of its variable."""
        return _coerce_outs

    def _no_rule(self, eqn, invals, reason):
        name = eqn.primitive.name
        if self.densify:
            dense = [R.todense(x) if _is_input(x) else x for x in invals]
            return bind_eqn(eqn, dense)
        if eqn.primitive in R.ZERO_DESTROYING_UNARY:
            why = (f"'{name}' maps 0 to a non-zero value, so its result is dense anyway; "
                   "todense() on the sparse input would help")
        elif eqn.primitive is host_call_p:   # laxarray's NumPy host call (host_calls.host_call)
            why = ("on CPU this function runs NumPy in a host call, which takes dense arrays "
                   "(sort, quantiles, unique, cumulative sums...); todense() on the sparse "
                   "input would help")
        elif reason:
            why = f"{reason}; todense() on the sparse input would help"
        else:
            why = "todense() on the sparse input would help"
        raise NotImplementedError(
            f"sparsify: no sparse rule for primitive '{name}' with these inputs ({why}). Call "
            ".todense() first, or use sparsify(f, densify=True) to densify such inputs "
            "automatically.")

    # ---- sparse values in control flow
    def own_value(self, x):
        """A sparse value (carried as a pytree)."""
        return R.is_sparse(x)

    def plain(self, x):
        """A sparse index or predicate made dense."""
        return _densified(x)

    def scanned(self, x):
        """A sparse operand in the form that ``scan`` slices."""
        return R.scan_ready(x) if R.is_sparse(x) else x

    def conform_branches(self, fns, leaves, operands):
        """Branches whose outputs are padded or densified to one structure."""
        templates = _branch_templates([eval_shape(fn, leaves, operands)[1] for fn in fns])

        def conformed(fn):
            def branch(leaves, args):
                leaves, outs = fn(leaves, args)
                return leaves, [_conform(o, t) for o, t in zip(outs, templates)]
            return branch
        return [conformed(fn) for fn in fns]

    def scan_carry(self, init, probe):
        """A carry that the body keeps in one structure (:func:`_fix_carry`)."""
        return _fix_carry(self, init, probe, "scan")

    def while_loop(self, leaves, init, cond, body):
        """``lax.while_loop`` with the condition as its own (facts do not cross the loop)."""
        init, conform = _fix_carry(
            self, init, lambda c: eval_shape(lambda cc: body(leaves, cc)[1], c),
            "while_loop")
        vals = lax.while_loop(lambda c: self.plain(cond(leaves, c)[1][0]),
                              lambda c: conform(body(leaves, c)[1]), list(init))
        return leaves, list(vals)


def eval_sparse(ctx, jaxpr, consts, args, arg_facts=None):
    """Evaluate ``jaxpr`` on dense/sparse ``args`` with the interpreter ``ctx`` and a memo of
    its own; returns ``(outputs, output facts)``."""
    with _own_memo():
        facts, outs = ctx.evaluate(jaxpr, consts, args, arg_facts)
    return outs, facts


# ---- one structure for branch outputs and loop carries ---------------------------------------
def _layout(x):
    return (type(x), tuple(x.shape), x.n_batch, x.n_dense, np.dtype(x.data.dtype),
            np.dtype(x.indices.dtype))


def _conform(x, template):
    """``x`` in the structure ``template``: None (dense) or (nse, sorted, unique)."""
    if template is None:
        return _densified(x)
    nse, sorted_, unique = template
    x = R.pad_nse(x, nse)
    return R.relabel(x, sorted_, unique)


def _branch_templates(outs_per_branch):
    templates = []
    for vals in zip(*outs_per_branch):
        if all(R.is_sparse(v) for v in vals) and len({_layout(v) for v in vals}) == 1:
            templates.append((max(v.nse for v in vals),
                              all(v.indices_sorted for v in vals),
                              all(v.unique_indices for v in vals)))
        else:
            templates.append(None)
    return templates


def _fix_carry(ctx, init, probe, where):
    """``(init, conform)``: the initial carry, and the function that conforms the carry the
    body returns to per-carry templates, such that the body keeps the structure."""
    init, templates = list(init), []
    for _ in range(2 * len(init) + 2):
        out = probe(init)
        templates, changed = [], False
        for i, (a, b) in enumerate(zip(init, out)):
            if not R.is_sparse(a):
                templates.append(None)
                continue
            if R.is_sparse(b) and _layout(a) == _layout(b) and b.nse <= a.nse:
                s, u = a.indices_sorted and b.indices_sorted, a.unique_indices and b.unique_indices
                if (s, u) != (a.indices_sorted, a.unique_indices):
                    changed = True
                # relabelled, hence without product layouts, like the body's conformed
                # outputs: the carry keeps one pytree structure
                init[i] = R.relabel(a, s, u)
                templates.append((a.nse, s, u))
                continue
            if R.is_sparse(b) and not ctx.densify:
                raise NotImplementedError(
                    f"sparsify: the {where} body changes the structure of a sparse carry "
                    f"({type(a).__name__} with nse={a.nse} becomes {type(b).__name__} with "
                    f"nse={b.nse}); densify it with .todense() before the loop, or use "
                    "sparsify(f, densify=True)")
            init[i], changed = R.todense(a), True
            templates.append(None)
        if not changed:
            break

    def conform(outs):
        return [_conform(o, t) for o, t in zip(outs, templates)]
    return init, conform


# ---- the transformation ---------------------------------------------------------------------
def _signature(leaf):
    if _is_input(leaf):
        return ("sparse", tuple(leaf.shape), np.dtype(leaf.dtype).str)
    return (tuple(np.shape(leaf)), str(getattr(leaf, "dtype", type(leaf).__name__)))


def _placeholder(leaf):
    return jax.ShapeDtypeStruct(tuple(leaf.shape), leaf.dtype) if _is_input(leaf) else leaf


def _bcoo_input(x, bcsr):
    """Sparse inputs are evaluated as BCOO (every sparse operation works on the BCOO form;
    intermediate results then need no conversion back); BCSR inputs are remembered by the
    identity of their converted indices."""
    if not isinstance(x, BCSR):
        return x
    a = x._as_bcoo()
    bcsr[id(a.indices)] = (a.indices, x)
    return a


def _output(x, bcsr, all_bcsr):
    """A sparse result in the format of the inputs: a result on the pattern of a BCSR input
    reuses its ``indices``/``indptr``; other 2-D-sparse results of all-BCSR inputs are
    converted."""
    hit = bcsr.get(id(x.indices))
    if hit is not None and hit[0] is x.indices and tuple(x.shape) == tuple(hit[1].shape) \
            and tuple(x.data.shape) == tuple(hit[1].data.shape):
        src = hit[1]
        return BCSR._new(x.data, src.indices, src.indptr, src.shape, src.indices_sorted,
                         src.unique_indices)
    if all_bcsr and x.n_sparse == 2:
        return bcsr_from_bcoo(x)
    return x


def sparsify(f, *, densify=False):
    """Transform a function written for dense arrays into one that accepts sparse arrays.

    jax: jax.experimental.sparse.sparsify.

    Parameters
    ----------
    f : callable
        The function, written with laxarray or with ``jax.numpy``.
    densify : bool, optional
        False (default): a primitive with no sparse rule raises ``NotImplementedError``
        naming it.  True: such a primitive runs on the dense value of its sparse inputs.

    Returns
    -------
    callable
        A function of the same arguments, where BCOO/BCSR arrays (and row-sharded matrices)
        may appear anywhere.  Results that stay sparse are returned as BCOO/BCSR (BCSR where
        every sparse input was BCSR and the result is a 2-D-sparse array); dense ones as the
        type ``f`` returned.

    Raises
    ------
    TypeError
        If ``f`` is not callable or ``densify`` is not a bool.
    NotImplementedError
        When called, if ``densify`` is False and a primitive of ``f`` has no sparse rule for
        its sparse operands.

    Notes
    -----
    Static under ``jax.jit``: ``densify``; ``f`` is traced on dense abstract values of the
    arguments' shapes, once per input signature.

    The traced jaxpr is evaluated with sparse rules (see the module notes).  Custom
    derivative rules (``custom_jvp``/``custom_vjp``) applied to sparse operands are replaced
    by differentiation of their implementation.  A row-sharded matrix (:func:`shard_rows`)
    is seen by ``f`` as a dense array: only its products with a dense operand of rank 1 or 2
    and its transpose have rules.  Under ``jax.jit`` the interpretation happens at trace
    time only and the compiled program is plain lax; eagerly each rule runs its own compiled
    kernels and data-dependent sizes (``nse`` of sparse + sparse) are exact.  The result can
    be jitted, vmapped and differentiated with respect to dense arguments.

    Examples
    --------
    >>> import laxarray as la, laxarray.sparse as sp
    >>> m = sp.BCOO.fromdense([[0.0, 1.0], [2.0, 0.0]])
    >>> sp.sparsify(lambda a, v: 2 * la.matmul(a, v) + 1)(m, la.asarray([1.0, 1.0]))
    Array([3., 5.])
    >>> sp.sparsify(lambda a: la.sin(a) * 2)(m)
    BCOO(float64[2, 2], nse=2)
    """
    if not callable(f):
        fail(TypeError, "sparsify", "a callable for 'f'", f)
    if not isinstance(densify, (bool, np.bool_)):
        fail(TypeError, "sparsify", "a bool for 'densify'", densify)
    ctx = _Sparsifier(bool(densify))
    cache = {}

    @as_64bit_code   # (traced and interpreted in 64-bit mode, as laxarray's kernels are)
    @functools.wraps(f)
    def sparsified(*args, **kwargs):
        leaves, in_tree = jax.tree_util.tree_flatten((args, kwargs), is_leaf=_is_input)
        key = (in_tree, tuple(_signature(x) for x in leaves))
        hit = cache.get(key)
        if hit is None:
            out_info = []

            def flat_fun(*flat):
                a, k = jax.tree_util.tree_unflatten(in_tree, flat)
                outs, out_tree = jax.tree_util.tree_flatten(
                    f(*a, **k), is_leaf=lambda x: isinstance(x, Array))
                out_info.append((out_tree, [isinstance(o, Array) for o in outs]))
                return [o._value if isinstance(o, Array) else o for o in outs]

            closed = jax.make_jaxpr(flat_fun)(*[_placeholder(x) for x in leaves])
            hit = (closed, out_info[-1])
            if not any(is_tracer(c) for c in closed.consts):
                cache[key] = hit
        closed, (out_tree, was_array) = hit
        bcsr = {}
        inputs = [_bcoo_input(x, bcsr) for x in leaves]
        all_bcsr = bool(bcsr) and not any(isinstance(x, BCOO) for x in leaves)
        outs, _ = eval_sparse(ctx, closed.jaxpr, closed.consts, inputs)
        outs = [_output(o, bcsr, all_bcsr) if R.is_sparse(o) else wrap(o) if w else o
                for o, w in zip(outs, was_array)]
        return jax.tree_util.tree_unflatten(out_tree, outs)

    return sparsified


__all__ = ["sparsify", "eval_sparse"]
