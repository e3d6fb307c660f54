"""jaxapi's version-tolerant readers of jaxpr params: jax 0.10's form (installed here) and
jax 0.11's (stood in for by objects of the same shape as jax 0.11's source defines them:
``scan``'s operand groups as a flat tree ``ft_in``; one ``Jaxpr`` class carrying its
consts, whose ``.jaxpr`` is itself)."""

from __future__ import annotations

import jax
import numpy as np
from jax import lax

from laxarray._core import jaxapi
from laxarray._core import jax_tracing as tracing
from laxarray._core.runtime import serialize


def _scan_eqn():
    def f(c, xs):
        k = np.float32(2.0)                        # a const of the body
        return lax.scan(lambda carry, x: (carry * k + x, carry - x), c, xs)
    closed = jax.make_jaxpr(f)(np.float32(1), np.arange(4, dtype=np.float32))
    (eqn,) = [e for e in closed.jaxpr.eqns if e.primitive is tracing.scan_p]
    return eqn


def test_scan_counts_of_this_jax():
    eqn = _scan_eqn()
    nc, ncarry = tracing.scan_counts(eqn.params)
    assert ncarry == 1
    assert nc + ncarry + 1 == len(eqn.invars)      # consts, one carry, one xs


class _Group:
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n


class _FlatTree:                 # jax 0.11: ft_in = ft.pack((consts, carry, xs))
    def __init__(self, *sizes):
        self.sizes = sizes

    def unpack(self):
        return tuple(_Group(n) for n in self.sizes)


def test_scan_counts_of_jax_0_11():
    params = {"jaxpr": None, "length": 4, "reverse": False, "unroll": 1,
              "ft_in": _FlatTree(2, 3, 1), "ft_out": _FlatTree(3, 2)}
    assert tracing.scan_counts(params) == (2, 3)


def test_body_and_consts_closed_and_open():
    closed = jax.make_jaxpr(lambda x: x * np.arange(3.0))(np.ones(3))
    body, consts = tracing.body_and_consts(closed)
    assert body is closed.jaxpr and len(consts) == len(closed.consts)
    body, consts = tracing.body_and_consts(closed.jaxpr)       # an open jaxpr: no consts
    assert body is closed.jaxpr and consts == []


def test_body_and_consts_of_jax_0_11():
    class Jaxpr:                 # jax 0.11: ClosedJaxpr is Jaxpr; .jaxpr is the jaxpr itself
        consts = (np.float32(3),)

        @property
        def jaxpr(self):
            return self
    j = Jaxpr()
    body, consts = tracing.body_and_consts(j)
    assert body is j and consts == [np.float32(3)]


def test_fast_call_of_an_executable_that_never_ran_is_its_cpp_call():
    # an executable loaded from the store had not run: its kept callable was the Python
    # Compiled.__call__ for every call; fast_call makes the C++ call that call would make
    a = np.arange(8, dtype=np.float32)
    exe = jax.jit(lambda u: u * 2).lower(a).compile()
    blob = serialize.serialize_compiled(exe)
    loaded = serialize.load_compiled(blob)
    run = jaxapi.fast_call(loaded)
    assert not isinstance(run, jax.stages.Compiled)
    np.testing.assert_array_equal(np.asarray(run(a)), a * 2)
