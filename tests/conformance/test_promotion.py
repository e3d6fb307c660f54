"""The conformance package's promotion table (laxarray.conformance.promotion) against the
rules of the standard's "Type Promotion Rules" section, stated as properties, and against
NumPy wherever the standard defines a pair (so a disagreement between the two shows)."""

import itertools

import numpy as np
import pytest

from laxarray.conformance import promotion
from laxarray.conformance.promotion import PROMOTION_TABLE, UndefinedPromotion

SIGNED = ("int8", "int16", "int32", "int64")
UNSIGNED = ("uint8", "uint16", "uint32", "uint64")
REAL = ("float32", "float64")
COMPLEX = ("complex64", "complex128")
ALL = ("bool",) + SIGNED + UNSIGNED + REAL + COMPLEX
PAIRS = list(itertools.product(ALL, ALL))


def _bits(name):
    return np.dtype(name).itemsize * 8


def _kind(name):
    return {"b": "bool", "i": "signed", "u": "unsigned", "f": "real", "c": "complex"}[
        np.dtype(name).kind]


def _standard_defines(a, b):
    """The pairs the text defines: same kind; signed with unsigned except uint64; real and
    complex floating in any mix; bool only with bool."""
    ka, kb = _kind(a), _kind(b)
    if ka == kb:
        return True
    if {ka, kb} == {"signed", "unsigned"}:
        return "uint64" not in (a, b)
    return {ka, kb} == {"real", "complex"}


def test_the_table_holds_exactly_the_pairs_the_standard_defines():
    assert set(promotion.DTYPES) == set(ALL)
    assert {p for p in PAIRS if _standard_defines(*p)} == set(PROMOTION_TABLE)


@pytest.mark.parametrize("a,b", PAIRS)
def test_undefined_pairs_raise(a, b):
    if _standard_defines(a, b):
        assert promotion.promote(a, b) == PROMOTION_TABLE[(a, b)]
    else:
        with pytest.raises(UndefinedPromotion, match="defines no promotion"):
            promotion.promote(a, b)
        assert not promotion.defined(a, b)


def test_symmetric_and_idempotent():
    for (a, b), r in PROMOTION_TABLE.items():
        assert PROMOTION_TABLE[(b, a)] == r, (a, b)
    for a in ALL:
        assert PROMOTION_TABLE[(a, a)] == a


def test_bool_promotes_with_bool_only():
    assert [p for p in PROMOTION_TABLE if "bool" in p] == [("bool", "bool")]


@pytest.mark.parametrize("pair", sorted(PROMOTION_TABLE))
def test_result_kind_and_size_rules(pair):
    a, b = pair
    r = PROMOTION_TABLE[pair]
    ka, kb, kr = _kind(a), _kind(b), _kind(r)
    if ka == kb and ka in ("signed", "unsigned", "real", "complex"):
        # within a kind: the wider of the two
        assert kr == ka and _bits(r) == max(_bits(a), _bits(b))
    elif {ka, kb} == {"signed", "unsigned"}:
        # the smallest signed integer holding both ranges
        s, u = (a, b) if ka == "signed" else (b, a)
        assert kr == "signed" and _bits(r) == max(_bits(s), 2 * _bits(u))
    elif {ka, kb} == {"real", "complex"}:
        # complex, of the larger precision (a complex type's parts are half its size)
        precision = max(_bits(x) // (2 if _kind(x) == "complex" else 1) for x in pair)
        assert kr == "complex" and _bits(r) == 2 * precision


@pytest.mark.parametrize("pair", sorted(PROMOTION_TABLE))
def test_the_result_holds_both_operands(pair):
    # the lattice's join: every value of either operand is representable in the result
    r = np.dtype(PROMOTION_TABLE[pair])
    for x in map(np.dtype, pair):
        if x.kind in "iu":
            assert r.kind in "iu"
            assert np.iinfo(r).min <= np.iinfo(x).min and np.iinfo(x).max <= np.iinfo(r).max
        elif x.kind in "fc":
            assert r.kind in "fc" and np.finfo(r).precision >= np.finfo(x).precision


def test_associative_where_defined():
    for a, b, c in itertools.product(ALL, repeat=3):
        try:
            left = promotion.result_type(promotion.result_type(a, b), c)
        except UndefinedPromotion:
            left = None
        try:
            right = promotion.result_type(a, promotion.result_type(b, c))
        except UndefinedPromotion:
            right = None
        if left is not None and right is not None:
            assert left == right, (a, b, c)
            assert promotion.result_type(a, b, c) == left


@pytest.mark.parametrize("pair", sorted(PROMOTION_TABLE))
def test_agrees_with_numpy_where_the_standard_defines_the_pair(pair):
    assert np.promote_types(*pair).name == PROMOTION_TABLE[pair]


def test_helpers():
    assert promotion.real_of("complex64") == "float32"
    assert promotion.real_of("complex128") == "float64"
    assert promotion.real_of("int8") == "int8"
    assert promotion.result_type(np.dtype("uint8"), "int8") == "int16"
    assert promotion.numpy_result_type("int8", "float32") == "float32"
    with pytest.raises(ValueError, match="result_type"):
        promotion.result_type()
