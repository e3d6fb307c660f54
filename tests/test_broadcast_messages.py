"""Shapes that do not broadcast: laxarray's message keeps its own form (the function, what
it expected, the shapes) and carries NumPy's sentence for the same failure.

Code written for NumPy matches NumPy's wording (SciPy's tests: "shape mismatch: objects
cannot be broadcast to a single shape", "operands could not be broadcast together with").
Every row runs the same call on NumPy and on laxarray; NumPy's message, taken from NumPy
itself, must appear in laxarray's, with NumPy's class (``ValueError``).
"""

from __future__ import annotations

import re

import jax
import numpy as np
import pytest

import laxarray as xp


def _numpy_error(fn):
    try:
        fn()
    except ValueError as exc:
        return exc
    raise AssertionError("NumPy raised nothing")


def _setitem(mod, shape, key, value_shape, key_mask=None):
    def run():
        x = mod.ones(shape)
        k = key
        if key_mask is not None:
            k = np.asarray(key_mask) if mod is np else xp.asarray(np.asarray(key_mask))
        x[k] = mod.ones(value_shape)
    return run


def _iadd(mod, s1, s2):
    def run():
        x = mod.ones(s1)
        x += mod.ones(s2)
    return run


def _imatmul(mod, s1, s2):
    def run():
        x = mod.ones(s1)
        x @= mod.ones(s2)
    return run


def _copyto(mod, dst, src, where=True):
    def run():
        w = where if where is True else (np.ones(where, bool) if mod is np
                                         else xp.ones(where, dtype=xp.bool))
        mod.copyto(mod.ones(dst), mod.ones(src), where=w)
    return run


def _binary(name, s1, s2, dtype="float64"):
    def make(mod):
        def run():
            f = getattr(mod, name)
            a, b = np.ones(s1, dtype), np.ones(s2, dtype)
            return f(a, b) if mod is np else f(xp.asarray(a), xp.asarray(b))
        return run
    return make


#: (label, laxarray's function name in the message, call(mod) -> a callable raising)
CASES = [
    ("add 1-d", "add", _binary("add", (2,), (3,))),
    ("add 2-d", "add", _binary("add", (2, 3), (4, 3))),
    ("add ranks", "add", _binary("add", (2, 3), (4, 3, 1, 2))),
    ("subtract", "subtract", _binary("subtract", (2,), (3,))),
    ("multiply", "multiply", _binary("multiply", (5, 1), (2, 3))),
    ("divide", "divide", _binary("divide", (2,), (3,))),
    ("maximum", "maximum", _binary("maximum", (2,), (3,))),
    ("hypot", "hypot", _binary("hypot", (2,), (3,))),
    ("logaddexp", "logaddexp", _binary("logaddexp", (2,), (3,))),
    ("equal", "equal", _binary("equal", (2,), (3,))),
    ("less", "less", _binary("less", (2,), (3,))),
    ("bitwise_and", "bitwise_and", _binary("bitwise_and", (2,), (3,), "int64")),
    ("logical_or", "logical_or", _binary("logical_or", (2,), (3,), "bool")),
    ("operator +", "add", lambda mod: (lambda: mod.ones(2) + mod.ones(3))),
    ("broadcast_shapes", "broadcast_shapes",
     lambda mod: (lambda: mod.broadcast_shapes((2,), (3,)))),
    ("broadcast_shapes 2-d", "broadcast_shapes",
     lambda mod: (lambda: mod.broadcast_shapes((2, 3), (4, 3)))),
    ("broadcast_shapes three", "broadcast_shapes",
     lambda mod: (lambda: mod.broadcast_shapes((1,), (2,), (3,)))),
    ("broadcast_arrays", "broadcast_arrays",
     lambda mod: (lambda: mod.broadcast_arrays(mod.ones(2), mod.ones(3)))),
    ("broadcast_arrays three", "broadcast_arrays",
     lambda mod: (lambda: mod.broadcast_arrays(mod.ones(1), mod.ones((4, 2)), mod.ones(3)))),
    ("broadcast_to", "broadcast_to", lambda mod: (lambda: mod.broadcast_to(mod.ones(2), (3,)))),
    ("broadcast_to 2-d", "broadcast_to",
     lambda mod: (lambda: mod.broadcast_to(mod.ones((2, 1)), (5, 3, 4)))),
    ("broadcast_to fewer axes", "broadcast_to",
     lambda mod: (lambda: mod.broadcast_to(mod.ones((2, 3)), (3,)))),
    ("broadcast_to scalar", "broadcast_to",
     lambda mod: (lambda: mod.broadcast_to(mod.ones(2), ()))),
    ("where", "where", lambda mod: (lambda: mod.where(mod.ones(2, dtype=bool) if mod is np
                                                      else xp.ones(2, dtype=xp.bool),
                                                      mod.ones(3), mod.ones(4)))),
    ("where scalar", "where", lambda mod: (lambda: mod.where(mod.ones(2, dtype=bool) if mod
                                                             is np else xp.ones(2, dtype=xp.bool),
                                                             mod.ones(3), 1.0))),
    ("clip", "clip", lambda mod: (lambda: mod.clip(mod.ones(2), mod.ones(3), mod.ones(4)))),
    ("clip scalar min", "clip", lambda mod: (lambda: mod.clip(mod.ones(2), 0.5, mod.ones(3)))),
    ("x += y", "Array.__iadd__", lambda mod: _iadd(mod, (3,), (4,))),
    ("x += y (bigger)", "Array.__iadd__", lambda mod: _iadd(mod, (3,), (2, 3))),
    ("x @= y", "Array.__imatmul__", lambda mod: _imatmul(mod, (2, 2), (2, 3))),
    ("x[:] = v", "Array.__setitem__", lambda mod: _setitem(mod, (3,), slice(None), (2,))),
    ("x[:2] = v", "Array.__setitem__", lambda mod: _setitem(mod, (3, 3), slice(0, 2), (3, 3))),
    ("x[0] = v", "Array.__setitem__", lambda mod: _setitem(mod, (3, 3), 0, (2,))),
    ("x[idx] = v", "Array.__setitem__",
     lambda mod: _setitem(mod, (3, 3), None, (3, 3), key_mask=[0, 1])),
    ("x[mask] = v (mask of x's shape)", "Array.__setitem__",
     lambda mod: _setitem(mod, (3, 3), None, (5,), key_mask=np.ones((3, 3), bool))),
    ("x[mask] = v (rows)", "Array.__setitem__",
     lambda mod: _setitem(mod, (3, 3), None, (3, 3), key_mask=[True, True, False])),
    ("copyto", "copyto", lambda mod: _copyto(mod, (2, 2), (3, 2))),
    ("copyto where", "copyto", lambda mod: _copyto(mod, (2,), (), where=(3,))),
]


@pytest.mark.parametrize("label,fn,make", CASES, ids=[c[0] for c in CASES])
def test_message_has_numpys_sentence(label, fn, make):
    expected = _numpy_error(make(np))
    with pytest.raises(ValueError) as info:
        make(xp)()
    text = str(info.value)
    assert isinstance(info.value, type(expected))
    assert text.startswith(f"{fn}: expected "), text  # laxarray's own form, naming fn
    assert str(expected) in text, f"NumPy's {str(expected)!r} not in {text!r}"


def test_same_message_under_jit():
    expected = _numpy_error(lambda: np.add(np.ones(2), np.ones(3)))

    @jax.jit
    def f(a, b):
        return a + b

    with pytest.raises(ValueError, match=re.escape(str(expected))):
        f(xp.ones(2), xp.ones(3))


#: Patterns SciPy's own tests match (test_resampling's TestPower, test_chandrupatla's
#: TestChandrupatlaMinimize and TestFindRoot), with the call that reaches laxarray there
SCIPY_PATTERNS = [
    ("not be broadcast|Chunks do not add|Incompatible shapes",
     lambda: xp.broadcast_arrays(xp.ones(2), xp.ones(3))),
    ("...be broadcast...", lambda: xp.broadcast_shapes((2,), (3,))),
    ("(not be broadcast|Attempting to broadcast a dimension of length)",
     lambda: xp.broadcast_arrays(xp.asarray([-2, -3]), xp.asarray([3, 4, 5]))),
    ("shape mismatch: objects cannot be broadcast to a single shape",
     lambda: xp.broadcast_shapes((2,), (3,))),
    ("operands could not be broadcast together with...",
     lambda: xp.ones(2) * xp.ones(3)),
]


@pytest.mark.parametrize("pattern,call", SCIPY_PATTERNS, ids=[p for p, _ in SCIPY_PATTERNS])
def test_scipy_patterns_match(pattern, call):
    with pytest.raises(ValueError, match=pattern):
        call()
