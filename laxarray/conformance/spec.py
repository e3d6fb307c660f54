"""Specs: one per public function, each a hypothesis check of a namespace against an oracle.

A :class:`Spec` has a ``check(xp, data)`` that draws inputs with hypothesis' ``data``
object, calls the function in namespace ``xp``, and raises :class:`ConformanceError` on a
mismatch.  The same specs drive the pytest suite and ``python -m laxarray.conformance``.
A spec may also pin explicit examples (:attr:`Spec.pinned`, run after the random ones:
the large arrays of the reduction-like specs, :func:`large_examples`).

Factories build the common shapes of spec (unary and binary elementwise functions) from
a row of data: the oracle, the dtype group, an optional input domain and the expected
result dtype rule; the error bound is the function's row in
:data:`~laxarray.conformance.tolerances.BOUNDS`, and expected dtypes come from the
standard's promotion table (:mod:`laxarray.conformance.promotion`) as it applies to the
run's device (:mod:`laxarray.conformance.device_dtypes`).
"""

from __future__ import annotations

import contextlib
import contextvars
import copy
import functools
import math
import threading
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
from hypothesis import strategies as st

from . import device_dtypes, promotion, strategies as S, tolerances
from .compare import (ConformanceError, assert_dtype, assert_shape,
                                          assert_values, flush_subnormals, to_numpy)
from .flushing import Calls, Draws, passes_flushed
from . import signatures
from .signatures import Reform
from .special_cases import standard_wins, unstated_nan_parts


@dataclass(frozen=True)
class Spec:
    """A conformance check for one public name: ``body(xp, data)`` draws one example, calls
    the namespace and raises :class:`ConformanceError` on a mismatch."""

    name: str
    body: Callable  # (xp, data) -> None
    dtypes: tuple = ()
    extension: str | None = None
    kind: str = "function"
    notes: str = ""
    tags: tuple = field(default_factory=tuple)
    #: the spec writes into arrays of the namespace (``x[k] = v``): on a namespace whose
    #: arrays are immutable the runner reports it "unsupported" instead of running it
    needs_mutation: bool = False
    #: optional features the whole spec depends on (:data:`NEEDS`): on a namespace that
    #: lacks one (its ``capabilities()``, array_api_strict's flags, a single device) the
    #: runner reports the spec "skipped" with the reason instead of running it
    needs: tuple = ()
    #: explicit examples, run after the random ones: ``pinned()`` returns them (built on
    #: first use: they hold large arrays), each a ``{label: value}`` of every draw the
    #: spec makes (:class:`Pinned`); None: none
    pinned: Callable | None = None

    def pinned_examples(self):
        """``[(i, draws)]``: the pinned examples (:attr:`pinned`, ``i`` their index there)
        that draw no dtype left out by :func:`excluding_dtypes`."""
        allowed = _Excluding(None, _EXCLUDED.get())._allowed
        return [(i, draws) for i, draws in enumerate(self.pinned() if self.pinned else ())
                if all(map(allowed, draws.values()))]

    def check(self, xp, data, drawn=None, calls=None):
        """Check one example drawn from hypothesis' ``data`` on namespace ``xp``; the
        ``(label, value)`` of each draw is appended to the list ``drawn`` when given, and
        each namespace call, as a :class:`~laxarray.conformance.flushing.Call`, to the list
        ``calls`` when given.  The calls of the spec's own function are made in a form drawn
        for the example (:class:`~laxarray.conformance.signatures.Reform`: as written, by
        keyword with defaults left out, by position with defaults passed).

        A failing example passes if the namespace computes as a flush-to-zero platform
        does: see :mod:`laxarray.conformance.flushing` (one rule for every spec).
        """
        excluded = _EXCLUDED.get()
        draws, results = Draws(_Excluding(data, excluded) if excluded else data, drawn), []
        forms = functools.partial(Reform, names=(self.name,))
        try:
            self.body(Calls(xp, results, log=calls, reform=forms(draws)), draws)
        except AssertionError:
            if not passes_flushed(self.body, xp, draws.values, results, data, forms):
                raise


class Pinned:
    """A stand-in for hypothesis' ``data`` that answers each draw with a copy of the value
    pinned under its label: one pinned example of a spec (:attr:`Spec.pinned`)."""

    def __init__(self, draws):
        self._draws = draws

    def draw(self, strategy, label=None):
        """The value pinned under ``label`` (``strategy`` is not drawn from)."""
        if label not in self._draws:
            raise ValueError(f"Pinned: expected a pinned value for the draw {label!r}; "
                             f"got only {sorted(self._draws)}")
        return copy.deepcopy(self._draws[label])


def large_examples(**extra):
    """``Spec.pinned`` of the large size class of a reduction-like spec: for each array of
    :func:`~laxarray.conformance.strategies.large_arrays`, the draws ``dtype``, ``shape``,
    ``axis``, ``x`` and ``x placed`` (the same array), ``keepdims`` (alternating),
    ``dtype passed`` (False), and
    ``extra`` (label: value, or a function of the draws before it)."""
    def pinned():
        out = []
        for i, (axis, x) in enumerate(S.large_arrays()):
            draws = {"dtype": x.dtype.name, "shape": x.shape, "axis": axis, "x": x,
                     "x placed": x, "keepdims": i % 2 == 1, "dtype passed": False}
            for label, value in extra.items():
                draws[label] = value(draws) if callable(value) else value
            out.append(draws)
        return out
    return pinned


SPECS: dict[str, Spec] = {}

#: what :attr:`Spec.needs` may name: ``"boolean_indexing"`` (``x[mask]``, ``x[mask] = v``),
#: ``"data_dependent_shapes"`` (results whose shape depends on values: ``unique_*``,
#: ``nonzero``, ``repeat`` with array repeats), ``"multiple_devices"`` (the device specs).
NEEDS = ("boolean_indexing", "data_dependent_shapes", "multiple_devices")

_EXCLUDED = contextvars.ContextVar("laxarray_conformance_excluded_dtypes", default=frozenset())
_NOTES = contextvars.ContextVar("laxarray_conformance_notes", default=None)


@contextlib.contextmanager
def excluding_dtypes(names):
    """Within this block specs draw no dtype named in ``names`` (the dtypes a run's target
    device lacks): a drawn dtype name, or tuple of names, that mentions one is drawn again
    (hypothesis' ``filter``)."""
    token = _EXCLUDED.set(frozenset(names))
    try:
        yield
    finally:
        _EXCLUDED.reset(token)


class _Excluding:
    """A stand-in for hypothesis' ``data`` that filters out dtype names in ``excluded``."""

    def __init__(self, data, excluded):
        self._data, self._excluded = data, excluded

    def _allowed(self, value):
        if isinstance(value, (tuple, list)):
            return all(map(self._allowed, value))
        return not (isinstance(value, (str, np.dtype)) and str(value) in self._excluded)

    def draw(self, strategy, label=None):
        filtered = strategy.filter(self._allowed)
        stated = getattr(strategy, "_boundary", None)  # what boundary examples steer by
        if stated is not None:
            filtered._boundary = stated
        filtered._unfiltered = strategy  # (what boundary examples read a draw's options
        return self._data.draw(filtered, label=label)  # from: a filter hides them)


def note(topic, item):
    """Record ``item`` under ``topic`` for the runner's report of this spec (on a pass its
    message reads ``"topic: item, item"``): what a spec observed that the standard leaves
    open (the exception type a namespace raises for mixed devices).  Outside a run, nothing."""
    notes = _NOTES.get()
    if notes is not None:
        notes.setdefault(topic, set()).add(str(item))


@contextlib.contextmanager
def collecting_notes():
    """Collect the :func:`note` calls made within this block: yields ``{topic: {items}}``."""
    notes = {}
    token = _NOTES.set(notes)
    try:
        yield notes
    finally:
        _NOTES.reset(token)

try:  # where hypothesis (6.131 on) collects constants from the source of imported modules
    from hypothesis.internal.conjecture import providers as _providers
except ImportError:  # pragma: no cover -- another hypothesis
    _providers = None
if not hasattr(_providers, "_get_local_constants"):
    _providers = None
_CONSTANTS_LOCK = threading.Lock()
_CONSTANTS_STATE = {"depth": 0, "collector": None}


@contextlib.contextmanager
def without_local_constants():
    """Within this block hypothesis draws none of the constants it collects from the source
    of the modules the process has imported (hypothesis 6.131 on mixes them into its draws):
    a seed then gives the same examples in every process, whatever it imported before, so a
    verdict at a seed does not depend on which modules a test run happened to load first."""
    if _providers is None:
        yield
        return
    with _CONSTANTS_LOCK:
        if _CONSTANTS_STATE["depth"] == 0:
            empty = _providers.Constants()
            _CONSTANTS_STATE["collector"] = _providers._get_local_constants
            _providers._get_local_constants = lambda: empty
            _providers.CONSTANTS_CACHE.cache.clear()   # constants permitted, per kind of draw
        _CONSTANTS_STATE["depth"] += 1
    try:
        yield
    finally:
        with _CONSTANTS_LOCK:
            _CONSTANTS_STATE["depth"] -= 1
            if _CONSTANTS_STATE["depth"] == 0:
                _providers._get_local_constants = _CONSTANTS_STATE["collector"]
                _providers.CONSTANTS_CACHE.cache.clear()


_MUTABLE = contextvars.ContextVar("laxarray_conformance_mutable", default=True)


def arrays_mutable():
    """Whether the namespace being checked writes into its arrays (``x[k] = v``); the
    runner sets it per namespace (:func:`mutable_arrays`).  Checks that observe copies by
    writing into a namespace array (``asarray(copy=True)``) are left out where it is
    False: without writes, a copy and a view cannot be told apart."""
    return _MUTABLE.get()


@contextlib.contextmanager
def mutable_arrays(flag):
    """Within this block :func:`arrays_mutable` returns ``flag``."""
    token = _MUTABLE.set(bool(flag))
    try:
        yield
    finally:
        _MUTABLE.reset(token)


def register(spec: Spec) -> Spec:
    """Add ``spec`` to the registry (one spec per name)."""
    if spec.name in SPECS:
        raise ValueError(f"register: duplicate spec for {spec.name!r}")
    unknown = [n for n in spec.needs if n not in NEEDS]
    if unknown:
        raise ValueError(f"register: expected needs among {NEEDS}; got {unknown!r} "
                         f"for {spec.name!r}")
    SPECS[spec.name] = spec
    return spec


def resolve(xp, name):
    """The callable ``name`` (``"linalg.inv"`` style dotted names allowed) in namespace ``xp``."""
    obj = xp
    for part in name.split("."):
        obj = getattr(obj, part)
    return obj


def xp_dtype(xp, name):
    """The dtype object ``name`` of namespace ``xp``."""
    return getattr(xp, name)


def as_xp(xp, arr: np.ndarray):
    """``arr`` in namespace ``xp`` with the same dtype."""
    return xp.asarray(arr, dtype=xp_dtype(xp, arr.dtype.name))


# ---- expected dtype rules (the standard's promotion table, never np.promote_types) -------------
def same_dtype(*names):
    """The standard's result dtype of ``names`` on the run's device
    (:func:`device_dtypes.result_type`: :func:`promotion.result_type` where the device has
    it)."""
    return device_dtypes.result_type(*names)


def bool_result(*names):
    """``bool`` (comparisons, predicates)."""
    return "bool"


def real_of(*names):
    """The real dtype of the standard's result dtype of ``names`` (``abs``, ``real``)."""
    return promotion.real_of(device_dtypes.result_type(*names))


def promotable_pairs(group):
    """The dtype pairs of ``group`` drawn for binary specs: those the standard's table
    defines (:func:`promotion.defined`)."""
    names = S.DTYPE_GROUPS[group]
    return tuple((a, b) for a in names for b in names if promotion.defined(a, b))


def _draw_array(data, dtype, shape, domain, label="x"):
    kwargs = domain(dtype) if domain else {}
    return data.draw(S.arrays(dtype, shape, **kwargs), label=label)


def _free_signs(masks, *arrays):
    """``arrays`` (complex) with the real/imaginary parts selected by ``masks`` made
    non-negative: the standard leaves those signs unspecified."""
    re_free, im_free = masks
    out = []
    for arr in arrays:
        arr = np.array(arr, copy=True)
        if arr.dtype.kind == "c":
            shape = arr.shape
            re = np.where(np.broadcast_to(re_free, shape), np.abs(arr.real), arr.real)
            im = np.where(np.broadcast_to(im_free, shape), np.abs(arr.imag), arr.imag)
            arr = _complex(re, im, arr.dtype)
        out.append(arr)
    return out


def _complex(re, im, dtype):
    out = np.empty(re.shape, dtype)
    out.real, out.imag = re, im
    return out


def unary(name, oracle, group, *, result=same_dtype, domain=None, signed_zeros=True,
          postfilter=None, sign_free=None):
    """Spec of ``name(x)`` against NumPy ``oracle`` over dtypes of ``group``.

    ``domain(dtype) -> dict`` restricts values (``min_value``, ``finite``...);
    ``postfilter(x, expected) -> mask`` excludes elements where the standard leaves the
    result unspecified; ``sign_free(x) -> (real_mask, imag_mask)`` marks complex result
    parts whose sign the standard leaves unspecified (compared by magnitude).  Values
    compare within ``name``'s row of :data:`~laxarray.conformance.tolerances.BOUNDS`
    (its complex row for complex inputs).  Elements that one of the standard's special
    cases covers are judged by it, not by ``oracle``, where it fixes the value
    (:func:`~laxarray.conformance.special_cases.standard_wins`); complex NaN parts that none
    of them reaches are not compared
    (:func:`~laxarray.conformance.special_cases.unstated_nan_parts`), and at complex inputs
    with subnormal parts each part may be computed from either reading of them
    (:func:`_subnormal_readings`).
    """
    def check(xp, data):
        dtype = data.draw(S.dtypes(group), label="dtype")
        shape = data.draw(S.shapes(), label="shape")
        x = _draw_array(data, dtype, shape, domain)
        with np.errstate(all="ignore"):
            expected = np.asarray(oracle(x))
        out = resolve(xp, name)(as_xp(xp, x))
        assert_dtype(name, out, result(dtype))
        assert_shape(name, out, shape)
        got = to_numpy(out)
        fixed = standard_wins(name, (x,), got)  # the standard's special cases: its values
        readings = _subnormal_readings(oracle, x, expected)
        if sign_free is not None and x.dtype.kind == "c":
            got, expected, *readings = _free_signs(sign_free(x), got, expected, *readings)
        keep, inputs = None, (x,)
        if postfilter is not None:
            keep = postfilter(x, expected)
        left_out = unstated_nan_parts(name, x)  # NaN parts no special case reaches, and
        if fixed is not None:                     # where its value replaces NumPy's
            left_out = left_out | fixed
        if left_out.any():
            keep = ~left_out if keep is None else keep & ~left_out
        if keep is not None:
            got, expected, inputs = got[keep], expected[keep], (x[keep],)
            readings = [r[keep] for r in readings]
        _compare(name, got, expected, tolerances.lookup(name, dtype), signed_zeros, keep,
                 inputs, readings)
    return register(Spec(name, check, S.DTYPE_GROUPS[group], kind="elementwise"))


def _subnormal_readings(oracle, x, expected):
    """Other expectations of ``oracle`` at complex ``x`` with subnormal parts: each part of
    the result computed from ``x`` as drawn or with its subnormal parts read as zeros
    (``[]`` where ``x`` has none).  "Conforming implementations may vary in their support
    for subnormal numbers" and the standard does "not specify accuracy requirements" for
    complex operands: XLA's ``log(1e-45j)`` in complex64 takes ``|z|`` flushed (``-inf``)
    and ``arg z`` not (``pi/2``)."""
    if x.dtype.kind != "c" or np.array_equal(flush_subnormals(x), x, equal_nan=True):
        return []
    with np.errstate(all="ignore"):
        flushed = np.asarray(oracle(flush_subnormals(x))).astype(expected.dtype)
    if expected.dtype.kind != "c":
        return [flushed]
    return [flushed, _complex(flushed.real, expected.imag, expected.dtype),
            _complex(expected.real, flushed.imag, expected.dtype)]


def _compare(name, got, expected, bound, signed_zeros, keep=None, inputs=(), readings=()):
    """``assert_values`` with the row ``bound``; ``keep``: the boolean selection of the
    result that ``got`` and ``expected`` hold, recorded on a failure (for the runner's
    reproduction); ``inputs``: the operands at those elements (for the row's ``cond``);
    ``readings``: other expectations the result may match instead, element by element."""
    if expected.dtype.kind == got.dtype.kind:
        expected = expected.astype(got.dtype, copy=False)
        readings = [r.astype(got.dtype, copy=False) for r in readings]
    try:
        assert_values(name, got, expected, bound=bound, inputs=inputs,
                      signed_zeros=signed_zeros, alternatives=readings)
    except ConformanceError as exc:
        if keep is not None and exc.where is None:
            exc.where = np.array(keep, dtype=bool)
        raise


#: how the second operand of a binary elementwise spec meets the first one's special values
#: (floating operands): "off" leaves it as drawn; "same" puts x1's special values (NaN,
#: infinities, zeros) at the same positions of x2, "negated" their negations (inf meets -inf,
#: +0 meets -0).
MIRRORS = ("off", "same", "negated")


def _draw_mirror(data, d1, d2):
    """A :data:`MIRRORS` mode for floating operands, None otherwise (nothing drawn)."""
    if np.dtype(d1).kind not in "fc" or np.dtype(d2).kind not in "fc":
        return None
    mode = data.draw(st.sampled_from(MIRRORS), label="mirror specials")
    return None if mode == "off" else mode


def _allowed(values, kwargs):
    """Where ``values`` (real) lie in the domain ``kwargs`` (``finite``, ``min_value``,
    ``max_value``) of :func:`~laxarray.conformance.strategies.arrays`."""
    ok = np.ones(values.shape, bool)
    with np.errstate(invalid="ignore"):
        if kwargs.get("finite"):
            ok &= np.isfinite(values)
        if kwargs.get("min_value") is not None:
            ok &= values >= kwargs["min_value"]
        if kwargs.get("max_value") is not None:
            ok &= values <= kwargs["max_value"]
    return ok


def _mirror_specials(x1, x2, mode, domain2):
    """``x2`` with the special values (NaN, infinities, zeros) of ``x1`` -- negated if
    ``mode`` is ``"negated"`` -- at the positions of the broadcast result where ``x1`` has
    them: NaN meets NaN, inf meets inf (or -inf), +0 meets +0 (or -0).  Values outside
    ``x2``'s domain are left as drawn.  A 0-d ``x2`` takes ``x1``'s first special value.
    Subnormal parts are copied as zeros of their sign."""
    out_shape = np.broadcast_shapes(x1.shape, x2.shape)
    if not math.prod(out_shape) or not x1.size:
        return x2
    if x2.ndim == 0:
        view = x1.reshape(-1)
        specials = _is_special(view)
        if not specials.any():
            return x2
        view = view[np.argmax(specials)].reshape(())
    else:
        # the elements of x1 that meet x2's elements (index 0 along x2's broadcast axes)
        b1 = np.broadcast_to(x1, out_shape)
        lead = len(out_shape) - x2.ndim
        sel = (0,) * lead + tuple(slice(0, 1) if n2 == 1 else slice(None)
                                  for n2 in x2.shape)
        view = b1[sel]
    if mode == "negated":
        view = -view
    if x2.dtype.kind != "c" and view.dtype.kind == "c":
        view = view.real
    with np.errstate(all="ignore"):
        # the other part of a complex special value is copied too, but a part subnormal in
        # x1's dtype as a zero of its sign: widened (complex64 into complex128) it would be
        # a normal value of x2 that a flush-to-zero platform's replay (which flushes x1
        # first, conformance/flushing.py) could not reproduce
        cast = flush_subnormals(view).astype(x2.dtype)
    parts = [cast.real, cast.imag] if cast.dtype.kind == "c" else [cast]
    kwargs = domain2(x2.dtype.name) if domain2 else {}
    ok = _is_special(view) & np.logical_and.reduce([_allowed(p, kwargs) for p in parts])
    return np.where(ok, cast, x2)


def _is_special(x):
    """Where ``x`` (floating) is NaN, infinite or zero (complex: in either part)."""
    with np.errstate(invalid="ignore"):
        return ~np.isfinite(x) | (x.real == 0) | (x.imag == 0 if x.dtype.kind == "c" else False)


def _first_kind(pair):
    """The class (:func:`strategies.kind_class`) of a dtype pair's first dtype."""
    return S.kind_class(pair[0])


#: the kinds of Python scalar that may meet an array of each kind of dtype (the standard,
#: 2024.12 on: a bool with a bool array, an int with an integer or floating one, a float
#: with a floating one, a complex with a complex one)
SCALAR_KINDS = {"b": ("bool",), "i": ("int",), "u": ("int",), "f": ("int", "float"),
                "c": ("int", "float", "complex")}


def scalar_sides(name):
    """``{parameter: scalar kinds}`` of the operands of ``name`` that its standard
    signature lets be a Python scalar (:mod:`~laxarray.conformance.signatures`:
    ``Union[array, int, float, complex, bool]``): ``{"x2": ("int", "float")}``; a function
    without a standard signature (NumPy's): ``x2`` of any kind."""
    sig = signatures.signature(name)
    if sig is None or sig.source != "standard":
        return {"x2": signatures.SCALARS}
    out = {}
    for p in sig.params[:2]:
        kinds = tuple(k for k in signatures.SCALARS if k in p.cells)
        if kinds:
            out[p.name] = kinds
    return out


def _draw_scalar(data, dtype, allowed, domain, other, side):
    """``(value, argument)`` of a Python-scalar operand meeting an array of ``dtype``
    (``other``, whose specials it may mirror): its kind drawn among those the dtype takes
    (:data:`SCALAR_KINDS`) and the signature ``allowed``; ``value``: the 0-d NumPy array
    of ``dtype`` the oracle computes with."""
    kinds = [k for k in SCALAR_KINDS[np.dtype(dtype).kind] if k in allowed] or \
        [SCALAR_KINDS[np.dtype(dtype).kind][-1]]
    kind = data.draw(st.sampled_from(kinds), label=f"scalar {side} kind") \
        if len(kinds) > 1 else kinds[0]
    kwargs = domain(dtype) if domain else {}
    if kind == "int" and np.dtype(dtype).kind in "fc":
        lo, hi = kwargs.get("min_value"), kwargs.get("max_value")
        lo = -8 if lo is None else max(-8, math.ceil(lo))
        hi = 8 if hi is None else min(8, math.floor(hi))
        if lo <= hi:
            pyscalar = data.draw(st.integers(lo, hi), label=side)
            return np.asarray(pyscalar, dtype=dtype), pyscalar
        kind = SCALAR_KINDS[np.dtype(dtype).kind][-1]
    value = _draw_array(data, dtype, (), domain, side)[()]
    mirror = _draw_mirror(data, dtype, dtype)
    if mirror:
        value = _mirror_specials(other, np.asarray(value), mirror, domain)[()]
    pyscalar = value.item()
    if kind == "float" and isinstance(pyscalar, complex):
        pyscalar = pyscalar.real
    if np.dtype(dtype).kind in "iu" and isinstance(pyscalar, bool):
        pyscalar = int(pyscalar)
    return np.asarray(pyscalar, dtype=dtype), pyscalar


def binary(name, oracle, group, *, result=same_dtype, domain=None, domain2=None,
           signed_zeros=True, scalars=True, postfilter=None, pairs=None):
    """Spec of ``name(x1, x2)`` with broadcasting and (if ``scalars``) Python-scalar operands
    on either side its signature allows (:func:`scalar_sides`), of each kind the other
    operand's dtype takes (:data:`SCALAR_KINDS`).

    ``domain2`` restricts ``x2`` (default: ``domain``); ``postfilter(x1, x2, expected)``
    gets the operands broadcast to the result shape (so does the ``cond`` of ``name``'s
    row in :data:`~laxarray.conformance.tolerances.BOUNDS`); other arguments as for
    :func:`unary`.
    """
    pairs = pairs or promotable_pairs(group)
    domain2 = domain2 or domain

    sides = scalar_sides(name) if scalars else {}

    def check(xp, data):
        d1, d2 = data.draw(S.by_kind(pairs, key=_first_kind), label="dtypes")
        shape1 = data.draw(S.shapes(), label="shape1")
        shape2 = data.draw(S.broadcastable_shapes(shape1), label="shape2")
        if data.draw(st.booleans(), label="swap"):
            shape1, shape2 = shape2, shape1
        use_scalar = bool(sides) and data.draw(st.booleans(), label="scalar x2")
        side = "x2"  # (the label "scalar x2" kept: the boundary plans name it; the side is
        if len(sides) > 1:  # drawn whether or not, so that the first plan meets its draw)
            side = data.draw(st.sampled_from(sorted(sides, reverse=True)), label="scalar side")
        if not use_scalar:
            side = "x2"
        if side == "x1":  # the array operand is x2's, of x1's shape and dtype
            d2 = d1
            x2 = _draw_array(data, d2, shape1, domain2, "x2")
            x1, arg1 = _draw_scalar(data, d1, sides["x1"], domain, x2, "x1")
            arg2 = as_xp(xp, x2)
        else:
            x1 = _draw_array(data, d1, shape1, domain)
            arg1 = as_xp(xp, x1)
        if use_scalar and side == "x2":
            d2 = d1
            x2, arg2 = _draw_scalar(data, d1, sides["x2"], domain2, x1, "x2")
        elif not use_scalar:
            mirror = _draw_mirror(data, d1, d2)
            x2 = _draw_array(data, d2, shape2, domain2, "x2")
            if mirror:
                x2 = _mirror_specials(x1, x2, mirror, domain2)
            arg2 = as_xp(xp, x2)
        with np.errstate(all="ignore"):
            expected = np.asarray(oracle(x1, x2))
        out = resolve(xp, name)(arg1, arg2)
        assert_dtype(name, out, result(d1, d2))
        assert_shape(name, out, np.broadcast_shapes(x1.shape, x2.shape))
        got = to_numpy(out)
        b1, b2 = np.broadcast_to(x1, expected.shape), np.broadcast_to(x2, expected.shape)
        complex_in = "c" in (x1.dtype.kind, x2.dtype.kind)
        bound = tolerances.lookup(name, np.complex128 if complex_in else x1.dtype)
        fixed = standard_wins(name, (b1, b2), got)  # the standard's special cases: its
        keep = None                                   # values replace NumPy's there
        if postfilter is not None:
            keep = postfilter(b1, b2, expected)
        if fixed is not None and fixed.any():
            keep = ~fixed if keep is None else keep & ~fixed
        lost = device_dtypes.beyond((d1, d2), b1, b2)  # (values the device's narrower
        if lost is not None and lost.any():            # promoted dtype cannot hold)
            keep = ~lost if keep is None else keep & ~lost
        if keep is not None:
            got, expected, b1, b2 = got[keep], expected[keep], b1[keep], b2[keep]
        _compare(name, got, expected, bound, signed_zeros, keep, (b1, b2))
    return register(Spec(name, check, S.DTYPE_GROUPS[group], kind="elementwise",
                         tags=("broadcasting",)))


__all__ = ["Spec", "SPECS", "NEEDS", "Pinned", "large_examples", "register",
           "arrays_mutable", "mutable_arrays", "excluding_dtypes", "note", "collecting_notes",
           "unary", "binary", "ConformanceError", "resolve", "as_xp", "same_dtype",
           "bool_result", "real_of", "promotable_pairs"]
