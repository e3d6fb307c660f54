"""The one table of facts about jax's primitives (``laxarray._core.primitives``): its unary
zero facts hold when the primitive is evaluated, its NaN/infinity facts when an operand
without one gives one, and every row a consumer resolves is a primitive of that name."""

import numpy as np
import pytest
from jax import lax

from laxarray._core import primitives as P

C0 = np.complex64(0)
#: the call of a primitive at zero, where its lax function is not ``lax.<name>(0.0)``
CALLS = {"integer_pow": lambda: lax.integer_pow(np.float32(0), 2),
         "convert_element_type": lambda: lax.convert_element_type(np.float32(0), np.float16),
         "reduce_precision": lambda: lax.reduce_precision(np.float32(0), 8, 7),
         "real": lambda: lax.real(C0), "imag": lambda: lax.imag(C0), "conj": lambda: lax.conj(C0),
         "not": lambda: lax.bitwise_not(np.int32(0)),
         "copy": lambda: lax.copy_p.bind(np.float32(0))}


def _at_zero(p):
    return CALLS.get(p.name, lambda: getattr(lax, p.name)(np.float32(0)))()


def test_every_fact_names_primitives_of_that_name():
    for fact in P.FACTS:
        if fact == "neutral":       # names only (jit, scan ... are not lax attributes)
            continue
        for p, name in zip(P.primitives(fact), sorted(P.names(fact))):
            assert p.name == name


def test_linear_is_zero_keeping_and_zero_facts_exclude_each_other():
    assert P.names("linear") <= P.names("keeps-zero")
    assert not P.names("keeps-zero") & P.names("moves-zero")


@pytest.mark.parametrize("p", P.primitives("keeps-zero") + P.primitives("moves-zero"),
                         ids=lambda p: p.name)
def test_zero_facts_hold_at_zero(p):
    out = np.asarray(_at_zero(p))
    if p.name in P.names("keeps-zero"):
        assert out == 0
    else:
        assert out != 0


def test_nan_and_inf_facts_hold_for_their_classic_operands():
    with np.errstate(all="ignore"):
        assert np.isnan(lax.log(np.float32(-1.0)))
        assert np.isinf(lax.exp(np.float32(100.0)))
    assert {"log", "sqrt", "div", "exp"} <= P.names("nan")
    assert {"exp", "mul", "div"} <= P.names("inf")
    assert not {"neg", "abs", "max", "floor"} & (P.names("nan") | P.names("inf"))


#: ``f(x, y)`` for the primitives with the propagation facts that are not one elementwise
#: ``lax`` function of one or two operands
WHOLE = {
    "reduce_sum": lambda x, y: lax.reduce(x, np.float32(0), lax.add, (0, 1)),
    "cumsum": lambda x, y: lax.cumsum(x, 0),
    "dot_general": lambda x, y: lax.dot(x, y),
    "reshape": lambda x, y: lax.reshape(x, (4,)),
    "broadcast_in_dim": lambda x, y: lax.broadcast_in_dim(x, (3, 2, 2), (1, 2)),
    "transpose": lambda x, y: lax.transpose(x, (1, 0)),
    "squeeze": lambda x, y: lax.squeeze(lax.reshape(x, (1, 2, 2)), (0,)),
    "concatenate": lambda x, y: lax.concatenate([y, x], 0),
    "rev": lambda x, y: lax.rev(x, (0,)),
    "copy": lambda x, y: lax.copy_p.bind(x),
    "convert_element_type": lambda x, y: lax.convert_element_type(x, np.float16),
}
BINARY = {"add", "sub", "mul"}
#: finite operands, zeros of both signs among them (0 * inf is NaN)
FINITE = np.array([[0.0, -0.0], [1.5, -2.0]], np.float32)
KEPT = {"keeps-nonfinite": (lambda out: ~np.isfinite(out), (np.inf, -np.inf, np.nan)),
        "keeps-nan": (np.isnan, (np.nan,))}


def _not_kept(fact, names):
    """The names (of ``names``) whose results do not keep ``fact``'s values: an elementwise
    primitive on operands all such values (the other operand, if any, finite; each position)
    must give them in every element, a reduction or a reshaping of a finite array with one
    such element in some element."""
    kept, values = KEPT[fact]
    wrong = []
    with np.errstate(all="ignore"):
        for name in sorted(names):
            for v in values:
                bad = np.full_like(FINITE, v)
                if name in WHOLE:
                    one = FINITE.copy()
                    one[0, 0] = v
                    ok = kept(np.asarray(WHOLE[name](one, FINITE))).any()
                elif name in BINARY:
                    f = getattr(lax, name)
                    ok = kept(np.asarray(f(bad, FINITE))).all() and kept(
                        np.asarray(f(FINITE, bad))).all()
                else:
                    ok = kept(np.asarray(getattr(lax, name)(bad))).all()
                if not ok:
                    wrong.append((name, v))
    return wrong


def test_propagation_facts_nest():
    assert P.names("keeps-nonfinite") <= P.names("keeps-nan")
    # every row the check below reads is one it can call
    assert all(n in WHOLE or n in BINARY or hasattr(lax, n) for n in P.names("keeps-nan"))


@pytest.mark.parametrize("fact", sorted(KEPT))
def test_propagation_facts_hold(fact):
    assert _not_kept(fact, P.names(fact)) == []


def test_propagation_check_sees_a_primitive_that_drops_infinities():
    # exp(-inf) is 0 and tanh(inf) is 1: they keep NaN, not every non-finite value
    assert _not_kept("keeps-nonfinite", {"exp", "tanh", "add"}) == [("exp", -np.inf),
                                                                   ("tanh", np.inf),
                                                                   ("tanh", -np.inf)]
    assert _not_kept("keeps-nan", {"exp", "tanh"}) == []
