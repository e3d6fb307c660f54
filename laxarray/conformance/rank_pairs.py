"""The rank pairs of broadcast operands, as plans the boundary walk adds.

A binary elementwise function, ``where`` and ``clip`` broadcast their operands; a bug may
live in one pair of ranks alone (a 1-D operand along the rows of a square).  The coverage
record names each pair a cell (:data:`~laxarray.conformance.coverage.RANK_PAIRS`, per
operand pair of :data:`~laxarray.conformance.coverage.OPERAND_PAIRS`), and
:func:`rank_pair_plans` steers a spec's shape draws to meet every one of them;
:mod:`~laxarray.conformance.boundaries` adds those plans to its own.
"""

from __future__ import annotations

from . import coverage


def broadcastable(base, shape):
    """Whether :func:`~laxarray.conformance.strategies.broadcastable_shapes` of ``base``
    can draw ``shape``: ``base`` with leading dimensions dropped and at most two set to
    1."""
    base, shape = tuple(base or ()), tuple(shape)
    if len(shape) > len(base):
        return False
    tail = base[len(base) - len(shape):]
    ones = [i for i, (a, b) in enumerate(zip(tail, shape)) if a != b]
    return len(ones) <= 2 and all(shape[i] == 1 for i in ones)


#: the shapes of the first and second operand of each rank pair
#: (:data:`~laxarray.conformance.coverage.RANK_PAIRS`) in the rank pair plans
_RANK_SHAPES = {"0-d": (), "1-D": (3,), "2-D": (2, 3), "n-D": (2, 2, 3)}


def _pair_shapes(cell):
    """``(shape1, shape2)`` meeting the rank pair ``cell``."""
    if cell == "size-1 axis stretched in the first":
        return (1, 3), (2, 3)
    if cell == "size-1 axis stretched in the second":
        return (2, 3), (2, 1)
    ranks, _, lengths = cell.partition(", ")
    a, b = ranks.split(" x ")
    s1, s2 = _RANK_SHAPES[a], _RANK_SHAPES[b]
    if lengths == "equal lengths":
        s1, s2 = ((3,), (3, 3)) if a == "1-D" else ((3, 3), (3,))
    return s1, s2


#: the rank pairs whose plans meet the special ties too (NaN, infinities, signed zeros):
#: those where broadcasting moves values (a 1-D operand along the rows of a square, a
#: stretched size-1 axis), and the 0-d ones; the others meet moderate values
_SPECIAL_PAIRS = frozenset({"1-D x 2-D, equal lengths", "2-D x 1-D, equal lengths",
                            "size-1 axis stretched in the first",
                            "size-1 axis stretched in the second", "0-d x n-D", "n-D x 0-d"})


def _binary_shapes(big, small, swap):
    """The steering of a binary spec's shapes (``shape``, ``shape2`` of it, ``swap``:
    the first operand the smaller) to a rank pair; ``where``'s condition of the others'
    shape."""
    return {"@shape": ("exact", big), "shape2": ("exact", small), "swap": ("=", swap),
            "c swap": ("=", False)}


def _condition_shapes(big, small, swap):
    """The steering of ``where``'s shapes to a rank pair of its condition (first) against
    ``x1`` and ``x2`` (of one shape): ``c swap`` makes the condition the larger."""
    return {"@shape": ("exact", big), "c shape": ("exact", small), "c swap": ("=", not swap),
            "@bcast": "same", "swap": ("=", False)}


def _bound_shapes(bound, other):
    """The steering of ``clip``'s shapes to a rank pair of ``x`` (first) against the
    array bound ``bound``, ``other`` left out: ``x smaller`` broadcasts ``x`` against
    it."""
    def steer(big, small, swap):
        out = {"@shape": ("exact", big), "x smaller": ("=", swap),
               f"{bound} kind": ("=", "array"), f"{other} kind": ("=", "none")}
        if swap:
            out.update({"x shape": ("exact", small), f"{bound} shape": ("exact", big)})
        else:
            out[f"{bound} shape"] = ("exact", small)
        return out
    return steer


def rank_pair_plans(seen, has_class=lambda rule: False):
    """Plans meeting every rank pair (:data:`~laxarray.conformance.coverage.RANK_PAIRS`)
    of the broadcast operands of a spec (issue 74): of a spec that draws a shape, a second
    shape broadcast with it (labelled ``shape2``) and which of the two is whose (``swap``),
    the binary elementwise functions and ``where``'s ``x1`` and ``x2``; and the operand
    pairs of :data:`~laxarray.conformance.coverage.OPERAND_PAIRS`, ``where``'s condition
    (``c shape``, ``c swap``) against ``x1`` and ``x2``, ``clip``'s ``x`` (``x shape``,
    ``x smaller``) against each bound (``min shape``, ``max shape``) given as an array,
    the other left out.  Each pair meets moderate values, the dtype classes rotating over
    the pairs (integer, real floating, complex, bool, as the spec draws them: each dtype
    class many pairs, not every pair each dtype class), and the pairs of
    :data:`_SPECIAL_PAIRS` the special ties on a floating dtype too (every pair with
    every class would cost 40 examples a function).  ``has_class(rule)``: whether the
    spec draws a dtype of the class ``rule`` (``"integer"``, ``"floating"``, ``"complex"``,
    ``"bool"``)."""
    steering = []
    if seen.get("shape2", (None,))[0] == "bcast" and "swap" in seen:
        steering.append(_binary_shapes)
    if seen.get("c shape", (None,))[0] == "bcast" and "c swap" in seen:
        steering.append(_condition_shapes)
    if "x smaller" in seen:
        steering += [_bound_shapes(b, o) for b, o in (("min", "max"), ("max", "min"))
                     if f"{b} kind" in seen]
    if not steering:
        return []
    rules = [r for r in ("integer", "floating", "complex", "bool") if has_class(r)] or [None]
    base = {"@given": "true", "scalar x2": ("=", False), "@size": 2,
            "mirror specials": ("=", "off")}
    out = []
    for steer in steering:
        for i, cell in enumerate(coverage.RANK_PAIRS):
            s1, s2 = _pair_shapes(cell)
            swap = len(s1) < len(s2) or (len(s1) == len(s2) and broadcastable(s2, s1)
                                         and not broadcastable(s1, s2))
            big, small = (s2, s1) if swap else (s1, s2)
            shapes = steer(big, small, swap)
            moderate = dict(base, **shapes, **{"@array": "moderate"})
            if rules[i % len(rules)] is not None:
                moderate["@dtype"] = rules[i % len(rules)]
            out.append(moderate)
            if has_class("floating") and cell in _SPECIAL_PAIRS:
                out.append(dict(base, **shapes, **{"@array": "special ties",
                                                   "@dtype": "floating"}))
    return out
