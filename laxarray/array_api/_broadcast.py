"""NumPy's broadcasting of shapes: the rule, its errors, and the kernels' shape rules.

Shapes only (tuples of ints), no values: the elementwise decorators, the in-place
operators, indexing and the manipulation functions decide result shapes here.  A failure
raises ``ValueError`` naming the function, then NumPy's own sentence; the rank-promotion
guard (``laxarray._core.modes``) runs first where ranks differ.
"""

from __future__ import annotations

import functools

from laxarray._core import modes as _cfg
from laxarray._core.errors import broadcast_error, shape_text


def broadcast_rule(*shapes, **_):
    """The logical result shape of a broadcasting kernel (its bucket ``shape`` rule)."""
    out = shapes[0]
    for s in shapes[1:]:
        if s != out:
            out = broadcast_shapes2_cached("broadcast", out, s)
    return out


def same_shape_rule(shape, *_, **__):
    """The logical result shape of a kernel whose result has its first input's shape."""
    return shape


def broadcast_shapes2(fn, s1, s2):
    """Broadcast two shapes (NumPy rules) or raise ``ValueError`` naming ``fn``; warns or
    raises on implicit rank promotion when the rank-promotion guard is on."""
    if _cfg.ACTIVE and len(s1) != len(s2):
        _cfg.check_ranks(fn, s1, s2)
    return broadcast_shapes2_cached(fn, s1, s2)


@functools.lru_cache(maxsize=4096)
def broadcast_shapes2_cached(fn, s1, s2):
    """:func:`broadcast_shapes2` without the rank-promotion guard (the caller ran it, or
    the shapes are a kernel's), cached."""
    out = broadcast_pair(s1, s2)
    if out is None:
        broadcast_failure(fn, (s1, s2))
    return out


@functools.lru_cache(maxsize=4096)
def broadcast_pair(s1, s2):
    """The broadcast of two shapes (NumPy's rule), or None where they do not broadcast."""
    if len(s1) < len(s2):
        s1, s2 = s2, s1
    s2 = (1,) * (len(s1) - len(s2)) + s2
    out = []
    for a, b in zip(s1, s2):
        if a == b or b == 1:
            out.append(a)
        elif a == 1:
            out.append(b)
        else:
            return None
    return tuple(out)


def broadcastable(src, dst):
    """Whether shape ``src`` broadcasts to ``dst`` (extra leading 1-axes allowed)."""
    if len(src) > len(dst):
        return all(d == 1 for d in src[: len(src) - len(dst)]) and broadcastable(
            src[len(src) - len(dst):], dst)
    return all(s in (1, d) for s, d in zip(src[::-1], dst[::-1]))


def operands_text(shapes):
    """NumPy's sentence for operands of a ufunc (or ``where``, ``clip``) whose shapes do not
    broadcast: "operands could not be broadcast together with shapes (2,) (3,) "."""
    return "operands could not be broadcast together with shapes " + "".join(
        shape_text(s) + " " for s in shapes)


def broadcast_failure(fn, shapes, numpy_text=None):
    """Raise the ``ValueError`` for ``shapes`` that do not broadcast in ``fn``: laxarray's
    message, then NumPy's sentence (``numpy_text``; by default the ufunc one)."""
    shapes = tuple(tuple(s) for s in shapes)
    raise broadcast_error(fn, "shapes that broadcast together", shapes,
                          operands_text(shapes) if numpy_text is None else numpy_text)


def broadcast_many(fn, shapes, numpy_text=None):
    """The broadcast of several shapes, or :func:`broadcast_failure` naming ``fn`` with all
    of them (``numpy_text``: a callable giving NumPy's sentence for them, if not the ufunc
    one), after the rank-promotion guard."""
    if _cfg.ACTIVE:
        _cfg.check_ranks(fn, *shapes)
    out = ()
    for s in shapes:
        folded = broadcast_pair(out, tuple(s))
        if folded is None:
            broadcast_failure(fn, shapes, None if numpy_text is None else numpy_text(shapes))
        out = folded
    return out


__all__ = ["broadcast_rule", "same_shape_rule", "broadcast_shapes2", "broadcast_shapes2_cached",
           "broadcast_pair", "broadcastable", "operands_text", "broadcast_failure",
           "broadcast_many"]
