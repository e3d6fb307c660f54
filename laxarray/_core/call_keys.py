"""The keys a kernel call is looked up by, besides its arguments' shapes: its static items
(equal values Python confuses kept apart) and its arguments' dtypes (what decides, with the
statics, whether its program is emitter-neutral).  Used by ``kernel.py``."""

#: Static value types whose equal values (``0 == 0.0 == -0.0 == 0j``) a kernel may treat
#: differently.  Not ``bool``: ``False``/``True`` act as ``0``/``1`` wherever both are
#: accepted, and boolean statics (``keepdims``, ``descending``) are on every call's path.
_EQUAL_ACROSS_TYPES = (float, complex)


def static_key(items):
    """``items`` as a dict key that keeps apart the static values Python calls equal --
    ``0.0``, ``-0.0``, ``0j`` and ``0`` -- which a kernel may treat differently (a
    ``fill_value`` of ``0j`` cannot fill a float16 result; ``-0.0`` keeps its sign)."""
    for _, v in items:
        if type(v) in _EQUAL_ACROSS_TYPES:
            break
    else:
        return items
    return tuple((k, type(v), repr(v)) if type(v) in _EQUAL_ACROSS_TYPES else (k, v)
                 for k, v in items)


def dtypes_key(args):
    """What decides whether a kernel's program is emitter-neutral, besides its statics.
    (Read on every eager call of a kernel with a fused program: the common case, arrays
    only, is one list comprehension.)"""
    try:
        return tuple([a.dtype for a in args])
    except AttributeError:  # a Python scalar among them
        return tuple(type(a) if getattr(a, "dtype", None) is None else a.dtype for a in args)


__all__ = ["static_key", "dtypes_key"]
