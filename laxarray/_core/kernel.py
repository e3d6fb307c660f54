"""The kernel pattern: validate in Python -> one cached jitted lax kernel -> wrap.

``@kernel(static=(...))`` turns a function over raw jax values into a :class:`Kernel`.
Calling it with the static keyword arguments binds (once per distinct static values) a
``jax.jit(functools.partial(f, **static), inline=True)``: the eager fast path then calls a
jitted function with array arguments only, and under an outer ``jax.jit`` the body is
inlined, so traced programs show bare lax primitives (what ``sparsify``/``checkify`` read).
"""

from __future__ import annotations

import functools

import jax


class Kernel:
    """A lax function with static (hashable) keyword arguments, jitted once per binding."""

    __slots__ = ("fn", "static", "_bound", "__name__", "__dict__")

    def __init__(self, fn, static):
        self.fn = fn
        self.static = frozenset(static)
        self._bound = {}
        self.__name__ = fn.__name__
        self.__doc__ = fn.__doc__

    def bind(self, static_items):
        """The jitted callable for one tuple of ``(name, value)`` static items."""
        try:
            return self._bound[static_items]
        except KeyError:
            pass
        names = {k for k, _ in static_items}
        if names != self.static:
            raise TypeError(f"{self.__name__}: static arguments {sorted(self.static)} "
                            f"expected; got {sorted(names)}")
        jitted = jax.jit(functools.partial(self.fn, **dict(static_items)), inline=True)
        self._bound[static_items] = jitted
        return jitted

    def __call__(self, *args, **static):
        return self.bind(tuple(static.items()))(*args)

    def __repr__(self):
        return f"<kernel {self.__name__} static={sorted(self.static)}>"


def kernel(static=()):
    """Decorator: make ``fn(*arrays, **static)`` a :class:`Kernel` with ``static`` names."""
    def deco(fn):
        return Kernel(fn, static)
    return deco


# The Array type registers its unwrap/wrap here on import (imports flow core -> Array).
_ARRAY_TYPE = None
_wrap = None


def register_array_type(array_type, wrap) -> None:
    """Called once by ``laxarray.array_api._array`` to let :func:`call` wrap results."""
    global _ARRAY_TYPE, _wrap
    _ARRAY_TYPE, _wrap = array_type, wrap


def call(kern: Kernel, *arrays, **static):
    """Run ``kern`` on the raw values of ``arrays`` and wrap the result(s) in ``Array``.

    ``arrays`` are laxarray arrays or raw jax values; a tuple/list result is wrapped
    element by element.
    """
    raw = [a._value if type(a) is _ARRAY_TYPE else a for a in arrays]
    out = kern.bind(tuple(static.items()))(*raw)
    if type(out) in (tuple, list):
        return tuple(_wrap(o) for o in out)
    return _wrap(out)
