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
