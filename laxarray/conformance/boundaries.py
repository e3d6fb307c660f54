"""Boundary examples: a small, fixed set of examples each spec runs before its random phase.

Random draws spread over 13 dtypes, many ranks and special-value modes leave to chance the
cases that expose a bug (an integer promotion of one dtype pair, a batch of more than one
matrix, ``k = -1``, a tie).  So before hypothesis' random search the runner runs, per spec,
examples *steered* towards those cases (:class:`Steered`): each is a plan, a dict naming,
for a draw of the spec, the value it takes.  A draw is steered only to a value its own
strategy can produce -- read from the strategy (:func:`options`: ``sampled_from``,
``booleans``, ``integers``, ``one_of`` of those) or from what the strategies of
:mod:`~laxarray.conformance.strategies` state about themselves (their ``_boundary``
attribute: dtypes, shapes, broadcast shapes, axes, arrays, placements) -- so a steered
example is an example the random phase could have drawn, and a correct namespace passes it.
Draws a plan does not name are drawn by hypothesis as usual.  The arrays a plan steers
hold random values (a batch of zeros hides most bugs) from one seed per batch, drawn from
hypothesis (:func:`begin`, :meth:`Steered._rng`): a hypothesis draw costs more than a
boundary example's call; a steered value that chooses nothing is no draw (:class:`_Just`).

The plans are derived from the draws of the spec itself (:func:`plans`), learnt as they
run: the first plan (small shapes) reveals which draws the spec makes, and the next ones
follow from them --

- **dtypes**: every option of the spec's first dtype draw, which for the binary
  elementwise specs is every dtype pair the standard's promotion table defines;
- **shapes**: a 0-d, an empty, an all-ones and a batched shape (leading dimensions of 2)
  for the first shape draw, within its bounds; a base shape with a unit axis and a
  broadcast operand with a dimension dropped for broadcasting specs (the other plans, of
  small shapes, give the second operand the first one's shape);
- **axes**: the most negative axis, ``axis=None``, ``keepdims=True``; every draw whose
  label names an axis (``axis``, ``source``, ``destination``);
- **offsets**: ``k``/``offset`` at ``+1`` and ``-1`` (with ``k given`` set);
- **enumerated keywords**: every value of a draw with a few non-numeric options (``ord``,
  ``side``, ``mode``, ``norm``);
- **ties**: the elements of every array of one dtype drawn from one pool of two values (so
  operands also tie with each other), and, for floating dtypes, from the special set
  (NaN, infinities, signed zeros) -- repeated NaN, ``-0.0`` beside ``+0.0`` -- and from
  the signed zeros in turn (``+0.0, -0.0, +0.0 ...``: both orders, not left to the draw);
- **special values**: each placement of :func:`~laxarray.conformance.strategies.placed`
  and :func:`~laxarray.conformance.strategies.placed_pair` the spec draws, on a floating
  dtype;
- **value classes x paths x keywords** (:func:`crossed`): for a spec drawing an axis (or
  an enumerated keyword) and an array, each value class (ties of two moderate values at the
  first and last positions, the special ties, each placement) on each code path
  (:data:`PATHS`: 0-d, 1-D, n-D x ``axis=None``, negative, largest, a tuple of two of three
  axes; :data:`RANK_PATHS` without an axis), and every value of each enumerated keyword
  (:func:`keywords`: ``keepdims``, ``descending``, ``side``, ``include_initial``, ``ord``,
  ...) met with every value of each other dimension (:func:`cover`: a covering design of
  strength 2).

The plans run in batches, each batch one hypothesis example (:func:`check_batch`: a
search's own cost, engine start and the rejected all-zeros example, is most of a small
example's), so a failing boundary example shrinks and gets a snippet like any other; its
snippet names its plan, and its replay runs its batch up to it.
Kinds of spec whose draws none of this steers (constants, inspection, device placement)
get none (:data:`NO_BOUNDARIES`).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
from hypothesis import assume, strategies as st
from hypothesis.errors import UnsatisfiedAssumption

from . import coverage, strategies as S
from .rank_pairs import broadcastable, rank_pair_plans
from .signatures import FORM_LABEL
from .spec import _EXCLUDED, _Excluding

#: kinds of spec that get no boundary examples: their draws are not shaped by dtypes,
#: shapes or axes of an argument (constants, inspection, devices: whole-namespace checks)
NO_BOUNDARIES = frozenset({"constant", "inspection", "device", "data type", "utility"})

#: the most options of one draw that get an example each (dtype pairs excepted)
MAX_ENUM = 8

_AXIS_WORDS = ("axis", "axes", "source", "destination")
_OFFSET_LABELS = ("k", "offset")
#: labels of integer draws that are sizes (when their options are non-negative); unlabelled
#: non-negative integer draws count as sizes too
_SIZE_LABELS = ("m", "n", "k", "n_rows", "n_cols", "num", "rows", "cols", "size", "len")


def _unwrap(strategy):
    """The strategy a lazily built one stands for; None where it maps or filters."""
    while type(strategy).__name__ == "LazyStrategy":
        if getattr(strategy, "_transformations", ()):
            return None
        strategy = strategy.wrapped_strategy
    if getattr(strategy, "_transformations", ()):
        return None
    return strategy


def options(strategy):
    """The values ``strategy`` can produce, where they are few and readable from it (a
    tuple), else None: a stated ``_boundary`` list, ``sampled_from``, ``just``,
    ``booleans``, ``integers`` over at most 64 values (else its ends and 0, +-1 within),
    ``one_of`` of those (the options of its readable branches)."""
    stated = getattr(strategy, "_boundary", None)
    if stated is not None:
        return stated[1] if stated[0] == "options" else None
    s = _unwrap(strategy)
    if s is None:
        return None
    name = type(s).__name__
    if name in ("SampledFromStrategy", "JustStrategy"):
        return tuple(s.elements)
    if name == "BooleansStrategy":
        return (False, True)
    if name == "IntegersStrategy":
        lo, hi = s.start, s.end
        if lo is None or hi is None:
            return None
        if hi - lo <= 64:
            return tuple(range(lo, hi + 1))
        return tuple(sorted({v for v in (lo, -1, 0, 1, hi) if lo <= v <= hi}))
    if name == "OneOfStrategy":
        out = []
        for branch in s.original_strategies:
            got = options(branch)
            if got is not None:
                out.extend(v for v in got if not any(_same(v, o) for o in out))
        return tuple(out) or None
    return None


def _same(a, b):
    return type(a) is type(b) and a == b


class _Just:
    """A steered draw's one value: :meth:`Steered.draw` returns it without asking
    hypothesis (a draw of ``st.just`` costs more than a boundary example's call, and
    chooses nothing: the plan, which the replay runs again, fixes the value)."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


def _kind(strategy):
    """``(kind, info)`` a strategy states (``_boundary``), ``("options", values)`` for a
    readable one, else ``(None, None)``."""
    stated = getattr(strategy, "_boundary", None)
    if stated is not None:
        return stated
    got = options(getattr(strategy, "_unfiltered", strategy))  # (a dtype filter's source)
    if got is None:
        return None, None
    return ("dtype" if _is_dtype_options(got) else "options"), got


def _shape_for(bounds, rule):
    """A shape within ``bounds`` (``(min_dims, max_dims, min_side, max_side)``) of the
    class ``rule`` names, or None where the bounds exclude it."""
    lo_d, hi_d, lo_s, hi_s = bounds
    side = lambda n: min(max(n, lo_s), hi_s)  # noqa: E731
    if rule == "0d":
        return () if lo_d == 0 else None
    if rule == "small":
        nd = min(max(lo_d, 2), hi_d)
        return tuple(side(2 + (i % 2)) for i in range(nd))
    if rule == "1d":  # four elements: room for a tie at the first and last positions
        return (side(4),) if lo_d <= 1 <= hi_d else None
    if rule == "empty":
        if lo_s > 0:
            return None
        nd = min(max(lo_d, 1), hi_d)
        return None if nd == 0 else (0,) + tuple(side(2) for _ in range(nd - 1))
    if rule == "ones":
        if lo_s > 1 or hi_s < 1:
            return None
        nd = min(max(lo_d, 2), hi_d)
        return (1,) * nd if nd else None
    if rule == "batch":
        if hi_s < 2:
            return None
        nd = min(max(lo_d + 1, 3), hi_d)
        return tuple(side(2 + (i == nd - 1)) for i in range(nd)) if nd >= 1 else None
    if rule == "unit axis":  # a base shape broadcasting meets: a size-1 axis inside
        if hi_d < 2 or lo_s > 1 or hi_s < 2:
            return None
        nd = min(max(lo_d, 3), hi_d)
        return tuple(1 if i == nd - 2 else side(2 + (i == nd - 1)) for i in range(nd))
    raise ValueError(f"boundaries: expected a shape rule; got {rule!r}")


def _within(bounds, shape):
    """Whether :func:`~laxarray.conformance.strategies.shapes` of ``bounds`` can draw
    ``shape``."""
    lo_d, hi_d, lo_s, hi_s = bounds
    return lo_d <= len(shape) <= hi_d and all(lo_s <= n <= hi_s for n in shape)


class Steered:
    """A stand-in for hypothesis' ``data`` that steers the draws a plan names and draws the
    others from ``data``; it records what it met (:attr:`seen`: label -> ``(kind, info)``,
    the first time each label is drawn)."""

    def __init__(self, data, plan, seed=(0,)):
        self._data, self.plan = data, plan
        self.seen = {}
        self._pools = {}
        self._dtype_draws = 0
        self._axis_draws = 0
        self._seed = tuple(seed)
        self._arrays = 0

    def _rng(self):
        """A NumPy generator for the next steered array: from ``seed`` (the example's one
        draw, :func:`begin`, so it shrinks and replays, and the plan's place in its
        batch) and the array's index.  No hypothesis draw per array: a draw costs more
        than the example's call, per-element draws more still."""
        self._arrays += 1
        return np.random.default_rng((*self._seed, self._arrays))

    def _rule(self, label, kind):
        plan = self.plan
        if label in plan:
            return plan[label]
        if kind == "dtype":
            self._dtype_draws += 1
            if self._dtype_draws == 1 and "@dtype" in plan:
                return plan["@dtype"]
        if label and any(w in label for w in _AXIS_WORDS) and "@axis" in plan:
            self._axis_draws += 1  # the first axis the most negative, a second the largest
            rule = plan["@axis"]
            return "largest" if rule == "negative" and self._axis_draws > 1 else rule
        if kind == "options" and "@size" in plan and (label is None or label in _SIZE_LABELS) \
                and all(isinstance(v, int) and not isinstance(v, bool) and v >= 0
                        for v in self._info):
            return ("=", 3) if label == "n" and 3 in self._info else ("=", 2)
        if label and label.endswith(" given") and "@given" in plan:
            return plan["@given"]
        return plan.get("@" + kind) if kind else None

    def draw(self, strategy, label=None):
        """Draw ``strategy`` (``label``: the spec's name of the draw), steered where the
        plan names it and the strategy can produce the value."""
        kind, info = _kind(strategy)
        self.seen.setdefault(label, (kind, info))
        self._info = info or ()
        rule = self._rule(label, kind)
        steered = None if rule is None else self._steer(kind, info, rule)
        if steered is None:
            return self._data.draw(strategy, label=label)
        value = steered.value if type(steered) is _Just else \
            self._data.draw(steered, label=label)
        excluded = _EXCLUDED.get()
        if excluded and not _Excluding(None, excluded)._allowed(value):
            # a dtype the target device lacks: the plan does not apply (check passes it
            # over); a filter would make the whole example invalid, its batch with it
            assume(False)
        return value

    def _steer(self, kind, info, rule):
        """The strategy replacing a draw of ``(kind, info)`` under ``rule``, or None."""
        if isinstance(rule, tuple) and rule[0] == "=":
            values = info if kind in ("options", "dtype") else ()
            return _Just(rule[1]) if any(_same(rule[1], v) for v in values) else None
        if kind in ("options", "dtype"):
            return _pick(info, rule)
        if isinstance(rule, tuple) and rule[0] == "exact":  # one shape, where it can be
            ok = _within(info, rule[1]) if kind == "shape" else \
                broadcastable(info, rule[1]) if kind == "bcast" else False
            return _Just(tuple(rule[1])) if ok else None
        if kind == "shape":
            shape = _shape_for(info, rule) if isinstance(rule, str) else None
            return None if shape is None else _Just(shape)
        if kind == "bcast" and rule in ("drop", "same"):
            return _Just(tuple(info[1:] if rule == "drop" else info) if info else ())
        if kind == "array" and rule in ("ties", "extreme ties", "special ties", "zero ties",
                                        "moderate"):
            return self._pooled(info, rule)
        if kind in ("placed", "placed pair") and isinstance(rule, tuple) and \
                rule[0] == "placement":
            build, kinds = info
            return build((rule[1],)) if rule[1] in kinds else None
        return None

    def _pooled(self, info, rule):
        dtype, shape, bounds = info
        n = math.prod(shape)
        dt = np.dtype(dtype)
        build = lambda vals: np.asarray(vals, dtype=dt).reshape(shape)  # noqa: E731
        if rule == "moderate":  # each element finite, within [-10, 10]: no constant array,
            return _Just(_moderate_values(dt, shape, bounds, self._rng()))  # no overflow
        if rule in ("special ties", "zero ties"):
            if dt.kind not in "fc":
                return None
            want = _SPECIAL_POOL if rule == "special ties" else (0.0, -0.0)
            allowed = S.dense_floats(**bounds)
            vals = [v for v in want if any(_same_float(v, a) for a in allowed)]
            if not vals:
                return None
            pool = tuple(complex(v, w) for v in vals for w in (0.0, v)) \
                if dt.kind == "c" else tuple(vals)
            if rule == "zero ties":  # +0.0 and -0.0 in turn, in both orders from 3 elements
                # on: not left to the draw, which puts +0.0 before -0.0 in a quarter of the
                # arrays of two elements (a fresh array per draw: the spec may write to it)
                return _Just(build([pool[i % len(pool)] for i in range(n)]))
        elif rule == "extreme ties":  # a b b a a b b a ...: each value of the pool at
            # least twice from 4 elements on, one of them at the first and the last position
            # of 4 (whichever is the extreme, it ties; a b b a along a row).  The pool is two
            # moderate values (NaN's ties are the special ties', overflow and underflow the
            # placements'): a tie is about equality, and a spec may reject NaN on a keyword's
            # path (a descending sort) or round an extreme differently on another
            key = ("extreme", dtype, tuple(sorted(bounds.items())))
            if key not in self._pools:
                self._pools[key] = tuple(_moderate_values(dt, (2,), bounds,
                                                          self._rng()).tolist())
            pool = self._pools[key]
            return _Just(build([pool[(i + 1) // 2 % 2] for i in range(n)]))
        else:
            key = (dtype, tuple(sorted(bounds.items())))
            if key not in self._pools:
                drawn = self._data.draw(st.lists(S.scalars(dtype, **bounds), min_size=2,
                                                 max_size=2), label="tie pool")
                self._pools[key] = tuple(drawn)
            pool = self._pools[key]
        at = self._rng().integers(0, len(pool), n)
        return _Just(build([pool[i] for i in at]))


def _moderate_values(dt, shape, bounds, rng):
    """An array of ``dt`` and ``shape`` whose elements are finite, within ``bounds`` and
    ``[-10, 10]`` (no constant array, no overflow), from the generator ``rng``: integers
    uniform there; floats (each part of a complex) a quarter whole numbers, the rest
    uniform."""
    lo, hi = bounds.get("min_value"), bounds.get("max_value")
    lo = -10 if lo is None else max(lo, -10)
    hi = 10 if hi is None else min(hi, 10)
    n = math.prod(shape)
    if dt.kind == "b":  # (both values from two elements on: a constant condition of
        vals = rng.integers(0, 2, n)  # where's hides which of its elements goes where)
        if n >= 2 and vals.min() == vals.max():
            vals[rng.integers(0, n)] ^= 1
        return vals.astype(dt).reshape(shape)
    if dt.kind in "iu":
        lo, hi = max(int(np.ceil(lo)), int(np.iinfo(dt).min)), min(int(np.floor(hi)),
                                                                     int(np.iinfo(dt).max))
        lo, hi = (lo, hi) if lo <= hi else (int(np.iinfo(dt).min), int(np.iinfo(dt).max))
        return rng.integers(lo, hi, n, endpoint=True).astype(dt).reshape(shape)
    lo, hi = (float(lo), float(hi)) if lo <= hi else (-10.0, 10.0)
    real = np.dtype(f"float{dt.itemsize * 4}") if dt.kind == "c" else dt

    def part():
        vals = rng.uniform(lo, hi, n)
        whole = rng.random(n) < 0.25
        vals[whole] = np.clip(np.round(vals[whole]), np.ceil(lo), np.floor(hi)) \
            if np.ceil(lo) <= np.floor(hi) else vals[whole]
        vals = vals.astype(real)  # rounded into the bounds, not past them
        vals = np.where(vals < lo, np.nextafter(vals, real.type(np.inf)), vals)
        return np.where(vals > hi, np.nextafter(vals, real.type(-np.inf)), vals)
    vals = part() + 1j * part() if dt.kind == "c" else part()
    return vals.astype(dt).reshape(shape)


#: the pool of the special ties: NaN meets NaN, an infinity itself, -0.0 beside +0.0
_SPECIAL_POOL = (np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0)


def _same_float(a, b):
    return (a != a and b != b) or (a == b and np.signbit(a) == np.signbit(b))


def _pick(values, rule):
    """``just`` the option of ``values`` that ``rule`` chooses, or None."""
    if not values:
        return None
    if isinstance(rule, int) and not isinstance(rule, bool):
        return _Just(values[rule]) if rule < len(values) else None
    if rule in ("floating", "complex", "integer", "bool"):
        want = {"floating": "f", "complex": "c", "integer": "iu", "bool": "b"}[rule]
        for v in values:
            names = v if isinstance(v, tuple) else (v,)
            if all(np.dtype(n).kind in want for n in names):
                return _Just(v)
        return None
    ints = [v for v in values if isinstance(v, int) and not isinstance(v, bool)]
    if rule == "negative":
        neg = [v for v in ints if v < 0]
        return _Just(min(neg)) if neg else None
    if rule == "largest":
        return _Just(max(ints)) if ints else None
    if rule == "none":
        return _Just(None) if any(v is None for v in values) else None
    if rule == "true":
        return _Just(True) if any(v is True for v in values) else None
    if rule == "all":  # the longest tuple of axes
        tuples = [v for v in values if isinstance(v, tuple)]
        return _Just(max(tuples, key=len)) if tuples else None
    if rule == "tuple":  # a tuple of some of the axes (the first and the last of three)
        tuples = [v for v in values if isinstance(v, tuple) and len(v) >= 2]
        if not tuples:
            return None
        longest = max(len(v) for v in tuples)
        return _Just(min([v for v in tuples if len(v) < longest] or tuples, key=len))
    return None


_DTYPE_NAMES = frozenset(S.ALL)


def _is_dtype_options(info):
    """Whether ``info`` lists dtype names, or tuples of them (pairs)."""
    return bool(info) and all(
        v in _DTYPE_NAMES if isinstance(v, str) else
        isinstance(v, tuple) and bool(v) and all(isinstance(n, str) and n in _DTYPE_NAMES
                                                  for n in v)
        for v in info)


#: the dtype rules and Python scalar kinds of a binary spec's scalar plans: each kind
#: with the dtypes it meets first (an int with a floating array too: the promotion that
#: differs from its array's)
SCALAR_PLANS = (("bool", "bool"), ("integer", "int"), ("floating", "int"),
                ("floating", "float"), ("complex", "complex"))


def plans(seen, done):
    """The next plans to run, given ``seen`` (label -> ``(kind, info)`` of the draws met so
    far) after ``done`` plans: the first plan (small shapes, the first dtype) alone, then
    all the others at once."""
    base = {"@given": "true", "scalar x2": ("=", False), "@array": "moderate",
            "@size": 2}
    # (small plans: the second operand of the first's shape, the broadcasting left to the
    # shape plans; no mirrored specials, each mode has its plan: a draw costs more than
    # the example's call)
    small = dict(base, **{"@shape": "small", "@bcast": "same", "swap": ("=", False),
                          "mirror specials": ("=", "off")})
    if done == 0:
        return [dict(small, **{"@dtype": 0})]
    if done > 1:
        return []
    out = []
    kinds = {label: kind for label, (kind, _) in seen.items()}
    dtype_info = next((info for kind, info in seen.values() if kind == "dtype"), None)
    for i in range(1, len(dtype_info or ())):  # every dtype (pair) of the first dtype draw
        out.append(dict(small, **{"@dtype": i}))
    shape_info = next((info for kind, info in seen.values() if kind == "shape"), None)
    if shape_info is not None:
        for rule in ("0d", "empty", "ones", "batch"):
            if _shape_for(shape_info, rule) is not None:
                out.append(dict(base, **{"@shape": rule}))
    if "bcast" in kinds.values() and shape_info is not None and \
            _shape_for(shape_info, "unit axis") is not None:
        out.append(dict(base, **{"@shape": "unit axis", "@bcast": "drop",
                                 "swap": ("=", False)}))
    if "scalar x2" in seen:  # a Python scalar of each kind on each side it may be on
        sides = seen.get("scalar side", (None, ("x2",)))[1] or ("x2",)
        for side in sides:
            for rule, kind in SCALAR_PLANS:
                if _pick(dtype_info, rule) is not None:
                    out.append(dict(small, **{"scalar x2": ("=", True),
                                              "scalar side": ("=", side), "@dtype": rule,
                                              f"scalar {side} kind": ("=", kind)}))
    axis_labels = [label for label, (kind, info) in seen.items()
                   if label and kind == "options" and any(w in label for w in _AXIS_WORDS)]
    if axis_labels:
        batch = shape_info is not None and _shape_for(shape_info, "batch") is not None
        out.append(dict(base, **{"@shape": "batch" if batch else "small", "@axis": "negative",
                                 "keepdims": ("=", True)}))
        out.append(dict(small, **{"@axis": "none"}))
        out.append(dict(small, **{"@axis": "all", "keepdims": ("=", True)}))
    for label in _OFFSET_LABELS:
        info = seen.get(label, (None, None))[1]
        if seen.get(label, (None,))[0] == "options" and info:
            for k in (1, -1):
                if k in info:
                    out.append(dict(small, **{label: ("=", k)}))
            if 0 in info and FORM_LABEL in seen:  # the default offset, left out
                out.append(dict(small, **{label: ("=", 0), FORM_LABEL: ("=", "keywords")}))
    if axis_labels and FORM_LABEL in seen:  # the last axis, left out where it is the default
        out.append(dict(small, **{"@axis": "largest", FORM_LABEL: ("=", "keywords")}))
    for label, (kind, info) in seen.items():  # enumerated keywords: each value once
        if kind == "options" and info and 2 <= len(info) <= MAX_ENUM and \
                not _is_dtype_options(info) and \
                all(v is None or isinstance(v, (str, float)) or
                    (isinstance(v, int) and label in ("ord",)) for v in info) and \
                any(isinstance(v, str) for v in info + (("",) if label == "ord" else ())):
            for v in info:
                out.append(dict(small, **{label: ("=", v)}))
    if "array" in kinds.values():  # (placements left as drawn: they would hide the ties)
        keep = {"@placed": ("placement", "as drawn"), "@placed pair": ("placement", "as drawn")}
        out.append(dict(small, **keep, **{"@array": "ties"}))
        out.append(dict(small, **keep, **{"@array": "special ties", "@dtype": "floating"}))
        out.append(dict(small, **keep, **{"@array": "zero ties", "@dtype": "floating"}))
    for label, (kind, info) in seen.items():  # special values where they change the answer
        if kind in ("placed", "placed pair"):
            for placement in info[1]:
                if placement != "as drawn":
                    out.append(dict(small, **{"@dtype": "floating",
                                              label: ("placement", placement)}))
    out.extend(crossed(seen))  # the value classes on every code path
    out.extend(rank_pair_plans(   # the rank pairs of a broadcasting spec
        seen, lambda rule: _pick(dtype_info, rule) is not None))
    return out


#: the code paths the value classes are crossed with (:func:`crossed`): a shape rule and
#: an axis rule; an axis is read against the rank, so the two are one dimension (a tuple
#: of two of three axes where the axis draw offers tuples)
PATHS = (("0d", "none"), ("1d", "none"), ("1d", "negative"), ("batch", "none"),
         ("batch", "negative"), ("batch", "largest"), ("batch", "tuple"))
#: the paths of a spec that draws no axis: the rank alone
RANK_PATHS = (("0d", None), ("1d", None), ("batch", None))

#: the keywords whose every value the value classes are crossed with (:func:`keywords`):
#: the standard's (and NumPy's) keyword arguments that take one of a few values, by the
#: label a spec draws them under (its other few-valued draws are its own choices: which
#: operand is swapped, which form of a call is made)
KEYWORDS = frozenset(coverage.KEYWORDS) | {"keepdims"}
#: the most values of an enumerated keyword that are crossed (``vector_norm``'s ``ord``: 9)
MAX_KEYWORD = 12
#: the most keyword-value combinations a row of the covering design searches at once (past
#: it, one keyword at a time)
_MAX_COMBOS = 512


def keywords(seen):
    """``{label: values}`` of the enumerated keywords among the draws ``seen`` (label ->
    ``(kind, info)``): a draw labelled by a name of :data:`KEYWORDS` whose options are 2 to
    :data:`MAX_KEYWORD` readable values (``descending``, ``side``, ``include_initial``,
    ``ord``, ``keepdims``, ...)."""
    out = {}
    for label, (kind, info) in seen.items():
        if label in KEYWORDS and kind == "options" and info and \
                2 <= len(info) <= MAX_KEYWORD and not _is_dtype_options(info) and \
                all(v is None or isinstance(v, (bool, int, float, str)) for v in info):
            out[label] = tuple(info)
    return out


def crossed(seen):
    """Plans crossing the value classes of a spec that draws an array with its code paths
    and the values of its enumerated keywords (issue 56): a class drawn beside a path is
    not a class met on it (ties met on a 2-D input along an axis say nothing of a 1-D
    input with ``axis=None``, nor of ``descending=True``).

    The dimensions: the value class (ties of two moderate values at the first and last
    positions, ``"extreme ties"``, on an integer dtype where the spec always places a
    special value, which would overwrite them; the special ties, NaN, infinities and signed
    zeros; each placement of :func:`~laxarray.conformance.strategies.placed` the spec
    draws), the path (:data:`PATHS`: rank x axis, within the spec's shape bounds, where it
    draws an axis; else :data:`RANK_PATHS`, where it draws an enumerated keyword) and each
    enumerated keyword (:func:`keywords`: ``keepdims``, ``descending``, ``side``, ...).
    Every class runs on every path, once; the keywords' values are spread over those
    plans, and plans added where they do not suffice, so that every value of each
    dimension meets every value of each other one at least once (:func:`cover`, a
    covering design of strength 2): ``classes x paths`` plans as a rule, not ``x 2`` per
    boolean keyword (as many as the largest product of two dimensions where a keyword has
    more values than a class has paths: ``vector_norm``'s 9 ``ord`` x 7 paths)."""
    axis_labels = [label for label, (kind, _) in seen.items()
                   if label and kind == "options" and any(w in label for w in _AXIS_WORDS)]
    kinds = {kind for kind, _ in seen.values()}
    shape_info = next((info for kind, info in seen.values() if kind == "shape"), None)
    enum = keywords(seen)
    if not (axis_labels or enum) or "array" not in kinds or shape_info is None:
        return []
    keep = {"@placed": ("placement", "as drawn"), "@placed pair": ("placement", "as drawn")}
    # where a placement is always made (no "as drawn" among its kinds), it would overwrite
    # the ties of a floating array: they are drawn on an integer dtype, which it leaves be
    fixed = any(kind in ("placed", "placed pair") and "as drawn" not in info[1]
                for kind, info in seen.values())
    values = [dict(keep, **{"@array": "extreme ties"}, **({"@dtype": "integer"} if fixed
                                                         else {})),
              dict(keep, **{"@array": "special ties", "@dtype": "floating"})]
    for label, (kind, info) in seen.items():
        if kind == "placed":
            values += [{"@dtype": "floating", label: ("placement", p)}
                       for p in dict.fromkeys(info[1]) if p != "as drawn"]
    tuples = any(isinstance(v, tuple) for label in axis_labels for v in seen[label][1] or ())
    paths = [(shape, axis) for shape, axis in (PATHS if axis_labels else RANK_PATHS)
             if _shape_for(shape_info, shape) is not None and (axis != "tuple" or tuples)]
    if not paths:
        return []
    base = {"@given": "true", "scalar x2": ("=", False), "@array": "moderate", "@size": 2}
    labels = list(enum)
    rows = cover([len(values), len(paths)] + [len(enum[k]) for k in labels])
    rows += _plain_rows(rows, len(paths), [len(enum[k]) for k in labels])
    out = []
    for row in rows:  # (0-d "ties" too: the path runs)
        shape, axis = paths[row[1]]
        plan = dict(base, **values[row[0]], **{"@shape": shape})
        if axis is not None:
            plan["@axis"] = axis
        for label, i in zip(labels, row[2:]):
            plan[label] = ("=", enum[label][i])
        out.append(plan)
    return out


def _plain_rows(rows, paths, sizes):
    """Rows to add to a covering design ``rows`` (value class, path, keywords of ``sizes``
    values) so that every path meets every value of each keyword on the first class too
    (ties of moderate values: no NaN, infinity or zero that a placement puts there, which
    can hide a keyword's bug -- ``vector_norm``'s tuple path with ``ord=-inf`` met only on
    an all-NaN slice beside a zero, where ``ord=-1`` gives the same).  Each added row
    takes one missing value of every keyword at once."""
    out = []
    for p in range(paths):
        missing = [[v for v in range(n)
                    if not any(r[0] == 0 and r[1] == p and r[2 + j] == v for r in rows)]
                   for j, n in enumerate(sizes)]
        for i in range(max(map(len, missing), default=0)):
            out.append((0, p) + tuple(m[i] if i < len(m) else 0 for m in missing))
    return out


def cover(sizes):
    """Rows of a covering design of strength 2 over dimensions of ``sizes`` values: tuples
    of value indices in which every value of each dimension meets every value of each
    other one at least once.  The first two dimensions are crossed in full (every pair,
    in order: a row per pair), the others' values are chosen row by row to meet the most
    pairs not met yet, and rows are added (each starting from a pair not met) until every
    pair is.  Deterministic."""
    if len(sizes) < 2:
        return [(i,) for i in range(sizes[0])] if sizes else []
    dims = range(len(sizes))
    todo = {(a, va, b, vb) for a in dims for b in dims if a < b
            for va in range(sizes[a]) for vb in range(sizes[b])}

    def pairs(row):
        return {(a, row[a], b, row[b]) for a in dims for b in dims
                if a < b and row[a] is not None and row[b] is not None}

    def complete(row, free):
        """Fill the dimensions ``free`` of ``row`` (a list) to meet the most pairs."""
        combos = math.prod(sizes[d] for d in free)
        groups = [free] if combos <= _MAX_COMBOS else [[d] for d in free]
        for group in groups:
            best, gain = None, -1
            for choice in itertools.product(*(range(sizes[d]) for d in group)):
                for d, v in zip(group, choice):
                    row[d] = v
                got = len(pairs(row) & todo)
                if got > gain:
                    best, gain = choice, got
            for d, v in zip(group, best):
                row[d] = v
        return tuple(row)

    out = []
    extra = [d for d in dims if d > 1]
    for i in range(sizes[0]):
        for j in range(sizes[1]):
            row = complete([i, j] + [None] * len(extra), extra)
            todo -= pairs(row)
            out.append(row)
    while todo:
        a, va, b, vb = min(todo)
        row = [None] * len(sizes)
        row[a], row[b] = va, vb
        row = complete(row, [d for d in dims if d not in (a, b)])
        todo -= pairs(row)
        out.append(row)
    return out


def begin(data):
    """The first draw of a boundary example, the seed of the arrays its plans steer
    (:meth:`Steered._rng`): it rejects hypothesis' all-zeros example (seed 0), so that the
    one example of a boundary search is a random one (its unsteered values are not all
    zero)."""
    seed = data.draw(st.integers(0, 2**32 - 1), label="boundary seed")
    assume(seed != 0)
    return seed


def check(spec, xp, data, plan, drawn=None, calls=None, seen=None, first=True, seed=None):
    """Run ``spec`` on ``xp`` with its draws steered by ``plan`` (:class:`Steered`): True,
    or False where the spec rejected the example (it ``assume``-s what the plan steered
    to: the plan does not apply; passed over, not retried).  The draws met are added to
    ``seen`` (a dict) when given.  ``first``: the example's first draw is :func:`begin`'s
    (False: a plan of a batch, :func:`check_batch`, whose ``seed`` is its batch's and its
    place there)."""
    if first:
        seed = (begin(data),)
    steered = Steered(data, plan, seed)
    try:
        spec.check(xp, steered, drawn, calls)
        return True
    except UnsatisfiedAssumption:
        return False
    finally:
        if seen is not None:
            for label, value in steered.seen.items():
                seen.setdefault(label, value)


def check_batch(spec, xp, data, plans):
    """Run the boundary examples of ``plans`` in turn in one hypothesis example, as the
    runner runs a batch of them (one search for several plans: a search's own cost is
    most of a small example's): the replay of a failing one runs the plans of its batch up
    to it, which draw what they drew in the runner."""
    seed = begin(data)
    for at, plan in enumerate(plans):
        check(spec, xp, data, plan, first=False, seed=(seed, at))


def applies(spec):
    """Whether ``spec`` gets boundary examples (:data:`NO_BOUNDARIES`, but for a spec
    tagged ``"boundaries"``: a utility whose draws an array's shape and axes shape,
    ``diff``)."""
    return spec.kind not in NO_BOUNDARIES or "boundaries" in spec.tags


__all__ = ["Steered", "options", "plans", "crossed", "cover", "rank_pair_plans", "keywords", "PATHS", "RANK_PATHS",
           "KEYWORDS", "begin", "check", "check_batch", "applies",
           "NO_BOUNDARIES"]
