"""Conformance specs of ``x[key]`` and ``x[key] = value`` (oracle: NumPy's indexing).

Keys mix basic entries (integers, slices with negative steps, ``None``, ``...``) with
advanced ones (integer arrays of broadcasting shapes, negative values included; one boolean
mask of any rank; 0-d booleans), so both of NumPy's placement rules for the broadcast
index shape are drawn (adjacent advanced entries, and entries separated by a slice).  Index
arrays are passed as arrays of the namespace under test.  Values for ``__setitem__`` have a
dtype that promotes to the target's (the 2025.12 rule) or are Python scalars; when a key
selects an element twice the value is a scalar (NumPy and XLA differ on which write wins).
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from . import device_dtypes, promotion, strategies as S
from .compare import ConformanceError, assert_dtype, assert_shape, \
    assert_values, to_numpy
from .spec import Spec, as_xp, register


@st.composite
def index_keys(draw, shape):
    """A NumPy index key for ``shape`` with basic and advanced entries (a tuple or a bare
    entry); at most one boolean mask, never together with integer arrays."""
    bshape = draw(S.shapes(max_dims=2, max_side=3), label="index shape")
    use_mask = draw(st.sampled_from((False, False, True)), label="mask key")
    parts, d, ndim, used_mask, ellipsis = [], 0, len(shape), False, False
    lead = draw(st.sampled_from(("", None, True, False, "", "", "", "")), label="leading entry")
    if lead != "":
        parts.append(lead)
    while d < ndim and len(parts) < 6:
        kind = draw(st.sampled_from(("array", "slice", "int", "array", "mask", "array",
                                     "slice", "mask", "none", "ellipsis", "bool", "stop")))
        n = shape[d]
        if kind == "stop":
            break
        if kind == "none":
            parts.append(None)
        elif kind == "bool":
            parts.append(draw(st.sampled_from((True, False, np.True_))))
        elif kind == "ellipsis" and not ellipsis:
            ellipsis = True
            parts.append(Ellipsis)
            d = ndim - draw(st.integers(0, ndim - d), label="axes after ...")
        elif kind == "int" and n > 0:
            parts.append(draw(st.integers(-n, n - 1)))
            d += 1
        elif kind == "array" and n > 0 and not use_mask:
            ishape = draw(S.broadcastable_shapes(bshape), label="index array shape")
            parts.append(draw(S.arrays(device_dtypes.default("indexing"), ishape,
                                       min_value=-n, max_value=n - 1)))
            d += 1
        elif kind == "mask" and use_mask and not used_mask:
            k = draw(st.integers(1, ndim - d), label="mask rank")
            parts.append(draw(S.arrays("bool", tuple(shape[d:d + k]))))
            used_mask = True
            d += k
        else:
            bound = st.one_of(st.none(), st.integers(-n - 1, n + 1))
            step = st.one_of(st.none(), st.integers(-3, 3).filter(bool))
            parts.append(slice(draw(bound), draw(bound), draw(step)))
            d += 1
    if draw(st.booleans(), label="trailing None"):
        parts.append(None)
    if len(parts) == 1 and draw(st.booleans(), label="bare"):
        return parts[0]
    return tuple(parts)


def _as_xp_key(xp, key):
    """``key`` with its NumPy arrays converted to arrays of ``xp`` (0-d bools too)."""
    def conv(k):
        if isinstance(k, np.ndarray) or isinstance(k, np.bool_):
            return as_xp(xp, np.asarray(k))
        return k
    return tuple(conv(k) for k in key) if isinstance(key, tuple) else conv(key)


def _draw_x(data):
    dtype = data.draw(S.dtypes("any"), label="dtype")
    shape = data.draw(st.one_of(S.shapes(min_dims=1, max_dims=3, min_side=1, max_side=4),
                                S.shapes(max_dims=3, max_side=4)), label="shape")
    return data.draw(S.arrays(dtype, shape), label="x")


def _int_arrays(key):
    """Whether ``key`` holds an integer index array."""
    keys = key if isinstance(key, tuple) else (key,)
    return any(isinstance(k, np.ndarray) and k.dtype.kind in "iu" for k in keys)


def unspecified(key, shape, setting=False):
    """Whether the standard leaves ``x[key]`` on an array of ``shape`` unspecified (then a
    namespace may raise: array_api_strict does; what it returns is still compared with
    NumPy's result) -- ``indexing.rst``:

    - integer arrays beside slices, ``None``, ``...`` or boolean entries ("This
      specification does not currently address indexing tuples which combine slices and
      integer arrays"); for ``x[key] = v`` any integer array ("Indexing semantics when key
      is an integer array ... is currently unspecified");
    - fewer single-axis expressions than axes without an ellipsis (they "should" equal the
      rank);
    - a slice bound or an integer out of bounds ("the behavior of out-of-bounds indices is
      left unspecified");
    - a Python ``bool`` entry (only integers, slices, ``...``, ``None`` and arrays are
      specified), and ``None`` in the key of ``x[key] = v`` (not among its key types);
    - a boolean array beside other entries (a mask "must" be supported as "the sole
      index")."""
    keys = key if isinstance(key, tuple) else (key,)
    if any(isinstance(k, bool) for k in keys) or (setting and any(k is None for k in keys)):
        return True  # a Python bool index; None in x[key] = v (not among its key types)
    if len(keys) > 1 and any(isinstance(k, np.bool_) or
                             (isinstance(k, np.ndarray) and k.dtype.kind == "b")
                             for k in keys):
        return True  # a boolean mask beside other entries ("the sole index")
    ints = _int_arrays(key)
    if ints and (setting or any(
            k is None or k is Ellipsis or isinstance(k, (slice, np.bool_)) or
            (isinstance(k, np.ndarray) and k.dtype.kind == "b") for k in keys)):
        return True
    used = sum(k.ndim if isinstance(k, np.ndarray) and k.dtype.kind == "b" else
               0 if k is None or k is Ellipsis or isinstance(k, np.bool_) else 1
               for k in keys)
    if used < len(shape) and not any(k is Ellipsis for k in keys):
        return True
    axis = 0
    for k in keys:
        if k is Ellipsis:
            axis += len(shape) - used
        elif k is None or isinstance(k, np.bool_):
            continue
        elif isinstance(k, np.ndarray) and k.dtype.kind == "b":
            axis += k.ndim
        else:
            n = shape[axis] if axis < len(shape) else 0
            if isinstance(k, slice):
                if any(b is not None and not -n <= b <= n for b in (k.start, k.stop)):
                    return True
            elif np.any((np.asarray(k) < -n) | (np.asarray(k) >= n)):
                return True
            axis += 1
    return False


def _getitem(xp, data):
    x = _draw_x(data)
    key = data.draw(index_keys(x.shape), label="key")
    if unspecified(key, x.shape):
        try:
            as_xp(xp, x)[_as_xp_key(xp, key)]
        except (IndexError, TypeError, ValueError):
            return
    try:
        expected = np.asarray(x[key])
    except IndexError:
        try:
            as_xp(xp, x)[_as_xp_key(xp, key)]
        except IndexError:
            return
        if unspecified(key, x.shape):  # (NumPy's IndexError is not the standard's)
            return
        raise ConformanceError(f"__getitem__: no IndexError for key {key!r} on shape "
                               f"{x.shape}") from None  # the oracle's error is expected here
    out = as_xp(xp, x)[_as_xp_key(xp, key)]
    assert_dtype("__getitem__", out, x.dtype.name)
    assert_shape("__getitem__", out, expected.shape)
    assert_values("__getitem__", to_numpy(out), expected)


def _value_dtypes(target):
    """Value dtypes that the standard's table promotes to ``target`` (pairs it leaves
    undefined -- bool with numbers, integers with floats -- are never drawn)."""
    t = np.dtype(target).name
    return [d for d in S.ALL if promotion.defined(d, t) and promotion.result_type(d, t) == t]


def _setitem(xp, data):
    x = _draw_x(data)
    key = data.draw(index_keys(x.shape), label="key")
    try:
        where = np.arange(x.size).reshape(x.shape)[key]
    except IndexError:
        return
    target = np.shape(where)
    repeated = np.unique(where).size != np.size(where)
    as_scalar = repeated or data.draw(st.booleans(), label="python scalar")
    vdtype = x.dtype.name if as_scalar else data.draw(
        st.sampled_from(_value_dtypes(x.dtype)), label="value dtype")
    vshape = () if as_scalar else data.draw(
        st.sampled_from([target, target[1:], (1,) + target[1:] if target else ()]),
        label="value shape")
    value = data.draw(S.arrays(vdtype, vshape), label="value")
    expected = x.copy()
    if as_scalar:
        arg = value.item()
        expected[key] = arg
    else:
        arg = as_xp(xp, value)
        expected[key] = value
    y = as_xp(xp, x)
    try:
        y[_as_xp_key(xp, key)] = arg
    except (IndexError, TypeError, ValueError):
        if unspecified(key, x.shape, setting=True):
            return
        raise
    assert_dtype("__setitem__", y, x.dtype.name)
    assert_shape("__setitem__", y, x.shape)
    assert_values("__setitem__", to_numpy(y), expected)


register(Spec("__getitem__", _getitem, S.ALL, kind="array object",
              needs=("boolean_indexing",)))  # keys may hold a boolean mask
register(Spec("__setitem__", _setitem, S.ALL, kind="array object", needs_mutation=True,
              needs=("boolean_indexing",)))
