"""Decorators that turn a lax body into a public elementwise function, and NumPy's ufunc.

The decorator validates (dtype category), promotes (the standard's table for arrays, NEP 50
for Python scalars), checks broadcasting, unwraps, runs the function's one kernel, and
wraps.  The decorated body sees raw jax values already converted to the compute dtype and
broadcast to the result shape; the public name is the body's ``__name__``.

A binary function that is one of NumPy's ufuncs is built here as a :class:`ufunc`
(``elementwise_binary(ufunc=True)``, :func:`as_ufunc`).  Its facts (identity, reduction,
accumulation, ``at``: :class:`UfuncFacts`) name the reductions of a later chapter, so they
are declared in ``array_api._ufunc_facts``, imported after the elementwise chapters and the
reductions alike (:func:`declare`).  The bodies of the ufunc's methods use the reductions
and shape functions of later chapters, so the class finds them in
``_method_bodies.UFUNC_METHODS`` (filled by ``laxarray.numpy_api.ufuncs``), as the Array
finds its NumPy methods.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import inspect
import re
import sys
import textwrap
from typing import Any, Callable

from jax import lax

from laxarray._core import modes as _cfg
from laxarray._core import dtypes as _dt
from laxarray._core.runtime.kernel import Kernel, Pointwise, flush_subnormals, keep_divisor
from laxarray.array_api._array import Array, wrap
from laxarray.array_api._broadcast import broadcast_shapes2, broadcast_shapes2_cached
from laxarray.array_api._calls import call, call_pointwise2, run_padded
from laxarray.array_api._convert import scalar_operand, to_raw
from laxarray.array_api._method_bodies import UFUNC_METHODS
from laxarray.array_api._operators import check_out, finish_out
from laxarray.array_api.data_types import _astype_kernel

_PYTYPES = (bool, int, float, complex)


def _bcast(v, shape):
    if v.shape == shape:
        return v
    nd = len(shape)
    return lax.broadcast_in_dim(v, shape, tuple(range(nd - v.ndim, nd)))


def cast_broadcast(v, dtype, shape):
    """``v`` converted to ``dtype`` and broadcast (NumPy rules) to ``shape``, inside a kernel."""
    return _bcast(lax.convert_element_type(v, dtype), shape)


def _identity(dt):
    return dt


def to_float(dt):
    """Compute dtype of a floating-only function: integers and bool become float64."""
    return dt if _dt.kind_of(dt) in "fc" else _dt.default_float()


#: (module, family key) -> the one kernel of that elementwise function
_FAMILIES = {}


def _family_key(module, name):
    """The key of a new elementwise function ``module.name`` among :data:`_FAMILIES`:
    ``name``, or ``name~N`` for the N+1-th function of that name the module makes (numpy's
    angle in radians, then in degrees), in import order: the same in every process."""
    key, n = name, 0
    while (module, key) in _FAMILIES:
        n += 1
        key = f"{name}~{n}"
    return key


def family_kernel(module, name):
    """The kernel of elementwise function ``module.name`` (``name``: its family key,
    :func:`_family_key`), as a recorded replay names it."""
    importlib.import_module(module)
    return _FAMILIES[(module, name)]


def _one_kernel(kern, name, module, cast_first=None):
    """``kern`` as the one kernel of the elementwise function ``module.name`` (named
    ``_{name}_kernel``, found again by :func:`family_kernel`), declared elementwise
    (``kernel.Pointwise``: ``_calls.call`` runs it, padded where its inputs are)."""
    key = _family_key(module, name)
    kern.__name__ = f"_{name}_kernel"
    kern.__module__ = module
    made = _FAMILIES[(module, key)] = Kernel(
        kern, (), factory=(f"{__name__}:family_kernel", (module, key)),
        pointwise=Pointwise(name, cast_first))
    return made


def promoted_padded(p1, p2, dtype):
    """Two bucketed operands of different dtypes, each cast to ``dtype`` (their promoted
    dtype) by astype's kernel: one cast program per dtype pair, shared by astype and every
    elementwise function, whose own program then serves only equal dtypes, not each pair
    of the table (see :func:`elementwise_binary` for the measurements).  Exact: promotion
    widens, where astype's cast is a plain conversion, and the fused program casts the
    same way."""
    if p1.dtype != dtype:
        p1 = run_padded(_astype_kernel, (p1,), dtype=dtype)
    if p2.dtype != dtype:
        p2 = run_padded(_astype_kernel, (p2,), dtype=dtype)
    return p1, p2


#: the dtypes of each category of :data:`dtypes.CATEGORIES`, as a docstring says them
_CATEGORY_TEXT = {
    "numeric": "a numeric dtype (integer, real or complex floating; not bool)",
    "any": "any dtype",
    "real numeric": "a real numeric dtype (integer or real floating; not bool, not complex)",
    "real": "a real dtype (bool, integer or real floating; not complex)",
    "integer or boolean": "an integer or bool dtype",
    "integral": "an integer dtype",
    "floating-point": "a floating dtype (real or complex; not integer, not bool)",
    "real floating": "a real floating dtype (not integer, not bool, not complex)",
}
_SECTION = re.compile(r"^(Parameters|Returns|Raises|Notes|Examples)\n-{3,}\n", re.M)


def _entries(*pairs):
    """numpydoc entries: each ``(term, description)``, the description wrapped under it."""
    return "\n".join(f"{term}\n" + textwrap.fill(text, 92, initial_indent="    ",
                                                 subsequent_indent="    ")
                     for term, text in pairs)


def elementwise_doc(doc, category, binary):
    """``doc``, an elementwise body's numpydoc docstring (summary, ``Returns``, ``Notes``
    and ``Examples``), with the sections every elementwise function of ``category`` shares
    added where ``doc`` has none of its own: ``Parameters`` (the operands and ``out=``),
    ``Raises`` (what the decorator checks), and the first paragraph of ``Notes`` (nothing
    is static under ``jax.jit``: the operands' dtypes and shapes choose the program)."""
    parts = _SECTION.split(inspect.cleandoc(doc or ""))
    head, sections = parts[0].rstrip(), dict(zip(parts[1::2], (p.strip() for p in parts[2::2])))
    kinds = _CATEGORY_TEXT[category]
    out = ("out : Array or numpy.ndarray, optional", "Keyword only (NumPy's): the array the "
           "result is written into (of the result's shape, and a dtype the result's dtype "
           "casts to by ``same_kind``) and returned; default ``None``: a new array.")
    out_errors = ("``out`` is neither a laxarray nor a NumPy array, or the result's dtype "
                  "does not cast to its dtype (``same_kind``)")
    if binary:
        params = _entries(("x1, x2 : array_like", "The operands: arrays, or Python scalars "
                           "that take the other operand's dtype (NEP 50); promoted together, "
                           f"they are of {kinds}; their shapes broadcast together."), out)
        raises = _entries(
            ("TypeError", "If ``x1`` or ``x2`` is not array_like"
             + ("" if category == "any" else f", their promoted dtype is not {kinds}")
             + f", or {out_errors}."),
            ("ValueError", "If the shapes of ``x1`` and ``x2`` do not broadcast together (or "
             "differ in rank, under ``set_rank_promotion(\"raise\")``), or ``out`` does not "
             "have the result's shape."),
            ("OverflowError", "If a Python int operand is outside the range of the other "
             "operand's integer dtype."))
    else:
        params = _entries(("x : array_like", f"The input, of {kinds}."), out)
        raises = _entries(
            ("TypeError", "If ``x`` is not array_like"
             + ("" if category == "any" else f", its dtype is not {kinds}")
             + f", or {out_errors}."),
            ("ValueError", "If ``out`` does not have the result's shape."))
    sections.setdefault("Parameters", params)
    sections.setdefault("Raises", raises)
    notes = sections.get("Notes", "")
    if not notes.startswith("Static under ``jax.jit``"):
        sections["Notes"] = ("Static under ``jax.jit``: none (the operands' dtypes and shapes "
                             f"choose the program).\n\n{notes}").rstrip()
    order = ("Parameters", "Returns", "Raises", "Notes", "Examples")
    return "\n\n".join([head] + [f"{k}\n{'-' * len(k)}\n{sections[k]}" for k in order
                                  if k in sections]) + "\n"


def elementwise_unary(category="numeric", compute=_identity, flush_subnormals=False):
    """Decorator for ``f(x) -> array``: ``category`` of accepted input dtypes and ``compute``
    mapping the input dtype to the dtype the body sees (e.g. :func:`to_float`);
    ``flush_subnormals``: the body sees subnormal floats as signed zeros.

    One kernel serves every dtype (its table of executables is keyed by the input's dtype;
    the category check runs when a dtype is traced for the first time).  A bucketed input
    runs padded (elementwise bodies need no masking) and gives a padded result.
    """
    allowed = _dt.CATEGORIES[category]

    def deco(body):
        name = body.__name__
        inner = _flushed(body) if flush_subnormals else body

        def kern(x):
            dtype = x.dtype
            if dtype not in allowed:
                _dt.check_category(name, "x", dtype, category)
            return inner(lax.convert_element_type(x, compute(dtype)))
        made = _one_kernel(kern, name, body.__module__)

        @functools.wraps(body)
        def public(x, /, *, out=None):
            if out is not None:  # NumPy's out=: the result written into ``out``
                check_out(name, out)
                return finish_out(name, out, public(x))
            if type(x) is not Array:
                x = wrap(to_raw(name, x, "x"))
            return call(made, x)

        public.__doc__ = elementwise_doc(body.__doc__, category, binary=False)
        return public
    return deco


def binary_operands(fn, x1, x2, keep_arrays=False):
    """Raw values of two operands and their common dtype (weak Python scalars join by kind).

    ``keep_arrays``: laxarray arrays are returned as they are (for :func:`_calls.call`,
    which runs bucketed kernels on their padded form)."""
    if type(x1) is Array:
        v1 = x1 if keep_arrays else x1._value
    elif type(x1) in _PYTYPES:
        v1 = None
    else:
        v1 = None if _dt.scalar_pytype(x1) else to_raw(fn, x1, "x1")
    if type(x2) is Array:
        v2 = x2 if keep_arrays else x2._value
    elif type(x2) in _PYTYPES:
        v2 = None
    else:
        v2 = None if _dt.scalar_pytype(x2) else to_raw(fn, x2, "x2")
    if v1 is not None and v2 is not None:
        d1, d2 = v1.dtype, v2.dtype
        return v1, v2, (d1 if d1 is d2 or d1 == d2 else _dt.promote_types(d1, d2))
    if v1 is not None:
        dt = _dt.weak_promote(v1.dtype, _dt.scalar_pytype(x2))
        return v1, scalar_operand(fn, x2, dt, "x2"), dt
    if v2 is not None:
        dt = _dt.weak_promote(v2.dtype, _dt.scalar_pytype(x1))
        return scalar_operand(fn, x1, dt, "x1"), v2, dt
    dt = _dt.result_type(x1, x2)
    return scalar_operand(fn, x1, dt, "x1"), scalar_operand(fn, x2, dt, "x2"), dt


def _exact_divisor(v, dtype, shape):
    """``cast_broadcast`` for a divisor that stays a divisor (see ``kernel.exact_div``)."""
    out = cast_broadcast(v, dtype, shape)
    if tuple(v.shape) != tuple(shape):
        out = keep_divisor(out)
    return out


def _flushed(body):
    """``body`` with its float operands' subnormals read as zeros (``kernel.flush_subnormals``)."""
    @functools.wraps(body)
    def flushed(*args):
        return body(*[flush_subnormals(a) for a in args])
    return flushed


def elementwise_binary(category="numeric", compute=_identity, exact_divisor=False,
                       flush_subnormals=False, ufunc=False):
    """Decorator for ``f(x1, x2) -> array`` with promotion and broadcasting.

    One kernel per function, with no statics: promotion, the category check and the
    broadcast check are in it, run when a signature is traced for the first time (its
    table of executables is keyed by the operands' dtypes and shapes).  A Python scalar
    enters as a 0-d value of the dtype it promotes to with the array (NEP 50: it joins by
    kind, decided before the kernel), so the kernel's promotion of the two dtypes gives that
    same dtype.  Bucketed arrays run padded.

    Bucketed operands of different dtypes are cast to their promoted dtype first
    (:func:`promoted_padded`: a call more, the function's program shared by every pair)
    rather than promoted in the kernel (one call, a program per function and dtype pair),
    where the body computes in that dtype (a floating function of integers converts in its
    kernel).  Measured on an empty store: the scikit-learn cold start
    (``benchmarks/cold_start.py``) has no such operands (149 programs, 236 calls either
    way; on float32 data 162 programs and 239 calls against 161 and 238); the conformance
    runner on 20 binary functions built 674 programs in 23 s against 1341 in 49 s, and 7
    functions on 8 dtype pairs 29 programs (124 calls) in 0.57 s against 56 (56 calls) in
    1.28 s.  The call more costs a warm mixed call 14.4 us against 7.6 us
    (100 elements): a program of a pair pays back after some 5000 calls of it on an empty
    store, some 200 where the store holds it.

    ``exact_divisor``: ``x2`` divides (a broadcast ``x2`` must not become a reciprocal);
    ``flush_subnormals``: the body sees subnormal floats as signed zeros.  Both are the
    numerics policy of ``laxarray._core.runtime.kernel`` (XLA-on-CPU workarounds, declared here).
    ``ufunc``: the function is one of NumPy's ufuncs: the decorator returns a
    :class:`ufunc` (its :class:`UfuncFacts`, where it has any, are declared in
    ``array_api._ufunc_facts``).
    """
    allowed = _dt.CATEGORIES[category]
    second = _exact_divisor if exact_divisor else cast_broadcast

    def deco(outer):
        name = outer.__name__
        body = _flushed(outer) if flush_subnormals else outer

        def validate(dtype):
            if dtype not in allowed:
                _dt.check_category(name, "x1, x2", dtype, category)

        def kern(a, b):
            d1, d2 = a.dtype, b.dtype
            dtype = d1 if d1 == d2 else _dt.promote_types(d1, d2)
            validate(dtype)
            shape = a.shape if a.shape == b.shape else broadcast_shapes2_cached(
                name, a.shape, b.shape)
            target = compute(dtype)
            return body(cast_broadcast(a, target, shape), second(b, target, shape))
        def cast_first(p1, p2):   # two padded operands of different dtypes
            dtype = _dt.promote_types(p1.dtype, p2.dtype)
            validate(dtype)
            return promoted_padded(p1, p2, dtype) if compute(dtype) == dtype else (p1, p2)
        made = _one_kernel(kern, name, outer.__module__, cast_first)
        pw = made.pointwise

        def with_scalar(x, scalar, scalar_first):
            dt = _dt.weak_promote(x.dtype, type(scalar))
            s = scalar_operand(name, scalar, dt, "x1" if scalar_first else "x2")
            validate(dt)
            return call_pointwise2(pw, s, x) if scalar_first else call_pointwise2(pw, x, s)

        @functools.wraps(outer)
        def public(x1, x2, /, *, out=None):
            if out is not None:  # NumPy's out=: the result written into ``out``
                check_out(name, out)
                return finish_out(name, out, public(x1, x2))
            t1, t2 = type(x1), type(x2)
            if t1 is Array and t2 is Array:  # the common case: all in the kernel
                if _cfg.ACTIVE:
                    _cfg.check_ranks(name, x1.shape, x2.shape)
                return call_pointwise2(pw, x1, x2)
            if t1 is Array and t2 in _PYTYPES:
                return with_scalar(x1, x2, False)
            if t2 is Array and t1 in _PYTYPES:
                return with_scalar(x2, x1, True)
            v1, v2, dt = binary_operands(name, x1, x2)
            validate(dt)
            s1, s2 = v1.shape, v2.shape
            if s1 != s2:
                broadcast_shapes2(name, s1, s2)
            return call(made, v1, v2)

        public.__doc__ = elementwise_doc(outer.__doc__, category, binary=True)
        return as_ufunc(public) if ufunc else public
    return deco


# ---- NumPy's ufunc -----------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class UfuncFacts:
    """What NumPy's ufunc methods need to know of one of laxarray's binary ufuncs, declared
    for it in ``array_api._ufunc_facts`` (:func:`declare`); a ufunc declared nothing for
    has the defaults.

    ``identity``: NumPy's (``0`` for add; a reduction of no elements gives it, a fold without
    a fast reduction starts from it).  ``reorderable``: its reduction may run over several
    axes at once (NumPy's term: add, maximum, logical_and ...).  ``reduce``,
    ``accumulate``: the standard's reduction and accumulation that are its ``reduce`` and
    ``accumulate`` (``statistical.sum``, ``statistical.cumulative_sum``); else they fold
    with the function.  ``at``: the ``x.at[...]`` update that is its ``at``
    (``IndexUpdateRef.add``, ``.subtract``, ``.multiply``, ``.max``, ``.min``); else it has
    none.
    """

    identity: object = None
    reorderable: bool = False
    reduce: Callable | None = None
    accumulate: Callable | None = None
    at: Callable | None = None


#: the facts of one of laxarray's ufuncs that ``_ufunc_facts`` declares nothing for
NO_FACTS = UfuncFacts()


def declare(u, facts):
    """Give laxarray's ufunc ``u`` its :class:`UfuncFacts` (and so its ``identity``): once,
    from ``array_api._ufunc_facts``, before any call of laxarray can use them."""
    if type(u) is not ufunc or u._facts is not NO_FACTS:
        raise RuntimeError(f"{u!r}: facts declared twice, or not laxarray's ufunc")
    u._facts = facts
    u.identity = facts.identity


class _UfuncMethod:
    """A ufunc method declared on :class:`ufunc`: the body of that name in
    ``_method_bodies.UFUNC_METHODS``, bound to the ufunc (``ufunc.reduce`` is the body itself,
    with its signature and docstring)."""

    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __get__(self, obj, objtype=None):
        fn = UFUNC_METHODS[self.name]
        return fn if obj is None else fn.__get__(obj, objtype)


class ufunc:
    """A function with NumPy's ufunc methods (``reduce``, ``accumulate``, ``outer``, ``at``)
    and attributes (``nin``, ``nout``, ``identity``). NumPy: numpy.ufunc.

    laxarray's binary ufuncs (``add``, ``maximum``, ``hypot`` ...) are built so where they
    are defined (``elementwise_binary(ufunc=True)``; their :class:`UfuncFacts` are declared
    in ``array_api._ufunc_facts``);
    :func:`laxarray.frompyfunc` makes one from a Python function.  Calling one calls its
    function (the same arguments, ``out=`` included where the function takes it).  Differs from NumPy: no ``reduceat``; ``reduce`` takes no ``out`` or ``where``,
    ``accumulate`` no ``out``; only add, subtract, multiply, maximum and minimum have
    ``at``.  Under ``jax.jit`` a method's ``axis`` (and ``dtype``, ``keepdims``) is static.

    >>> import laxarray as lx
    >>> isinstance(lx.add, lx.ufunc), lx.add.identity, lx.maximum.accumulate([1, 3, 2])
    (True, 0, Array([1, 3, 3]))
    """

    # ``__call__`` is a slot holding the function: calling the ufunc calls it with no
    # Python frame of the ufunc's in between
    __slots__ = ("__call__", "__dict__", "__weakref__")
    __call__: Callable[..., Any]

    def __init__(self, func, nin=2, nout=1, *, name=None, identity=None, facts=None):
        self.__call__ = func
        # laxarray's own ufunc's (UfuncFacts: NO_FACTS until ``declare``), None for a user's
        self._facts = facts
        self.nin, self.nout = nin, nout
        self.identity = identity if facts is None else facts.identity
        self.__name__ = name or getattr(func, "__name__", "ufunc")
        self.__qualname__ = name or getattr(func, "__qualname__", self.__name__)
        self.__module__ = getattr(func, "__module__", None) or __name__
        self.__doc__ = getattr(func, "__doc__", None)
        self.__wrapped__ = func   # inspect.signature reads the function's

    reduce = _UfuncMethod("reduce")
    accumulate = _UfuncMethod("accumulate")
    outer = _UfuncMethod("outer")
    at = _UfuncMethod("at")

    def __repr__(self):
        return f"<laxarray.ufunc '{self.__name__}'>"

    def __reduce__(self):
        # a module's ufunc pickles as a reference to it, as a function does; another (from
        # frompyfunc) as its function, counts and attributes
        if getattr(sys.modules.get(self.__module__), self.__qualname__, None) is self:
            return self.__qualname__
        return ufunc, (self.__call__, self.nin, self.nout), self.__dict__


def as_ufunc(func):
    """The binary function ``func(x1, x2, /)`` as one of laxarray's :class:`ufunc` (its
    facts :data:`NO_FACTS` until ``_ufunc_facts`` declares them) -- for one that is not a
    single elementwise kernel (``pow``, with its ``x ** 2`` shortcut);
    :func:`elementwise_binary` takes ``ufunc=True``."""
    return ufunc(func, 2, 1, facts=NO_FACTS)


def plain(fn):
    """The function a call of ``fn`` runs: a :class:`ufunc`'s own, else ``fn`` itself (the
    Array's operators call it, a step shorter than the ufunc's call)."""
    return fn.__call__ if type(fn) is ufunc else fn
