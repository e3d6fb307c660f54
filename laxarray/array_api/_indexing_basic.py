"""Basic index keys on Arrays: ``x[key]`` as a view (NumPy's rule) and ``x[key] <op>= v``
as a new Array, padded arrays staying padded.

The plans and kernels are ``_index_plan``'s (they run on the buckets where the array and
the result fit one, declared on the kernels); here a get makes its result a view of ``x``
(``_views``); an update checks the value by ``__setitem__``'s rule
(``_convert.value_operand``) and NumPy's broadcasting, then runs one kernel.  Results of
updates are new Arrays: the caller rebinds.
"""

from __future__ import annotations

from laxarray._core.errors import broadcast_error, shape_text
from laxarray.array_api import _views
from laxarray.array_api._array import Array
from laxarray.array_api._broadcast import broadcastable
from laxarray.array_api._calls import call
from laxarray.array_api._convert import value_operand
from laxarray.array_api._index_plan import (_getitem_kernel, _setitem_kernel, basic_plan,
                                            dynamic_plan)

_NAME_GET = "Array.__getitem__"


def getitem_basic(x, key, fn=_NAME_GET, view=True):
    """``x[key]`` for a basic key: a view of ``x`` (NumPy's rule), except where every index
    is an integer (NumPy returns a scalar, a copy, then) or ``view`` is false; padded arrays
    stay padded."""
    axes, out_shape = basic_plan(fn, x.shape, key)
    plan, params = dynamic_plan(axes, x.shape, _placed(x))
    out = call(_getitem_kernel, x, params, plan=plan, out_shape=out_shape)
    if not view or (not out_shape and _only_integers(key)):
        return out
    return _views.make_view(x, ("index", plan, out_shape), params, out,
                            _views.index_layout(x, _views.key_sources(key, x.ndim), axes))


def _placed(x):
    """A raw value placed as ``x``'s (its root's value as held: a view's own value is not
    computed, a padded one not cut), for the placement of index params."""
    return _views.root_of(x)._held()


def _only_integers(key):
    """Whether a basic key indexes with integers alone (NumPy returns a scalar: a copy)."""
    return all(type(k) is int for k in key) if type(key) is tuple else type(key) is int


def update_basic(x, key, value, op, fn):
    """``x`` after ``x[key] <op>= value`` for a basic key, as a new Array (padded arrays
    stay padded); ``value`` is checked by ``__setitem__``'s rule first."""
    plan, params, out_shape, v = _update_operands(x, key, value, fn, _placed(x))
    return call(_setitem_kernel, x, v, params, plan=plan, out_shape=out_shape, dtype=x.dtype,
                op=op)


def update_in_view(view, key, value, op, fn):
    """``view[key] <op>= value`` for a basic key on the view ``view``, written through to its
    root by one kernel (``_views.update_view``); ``value`` is checked as by
    :func:`update_basic`."""
    plan, params, out_shape, v = _update_operands(view, key, value, fn,
                                                  _views.root_of(view)._value)
    _views.update_view(view, v._value if type(v) is Array else v, params, plan, out_shape, op)


def _update_operands(x, key, value, fn, like):
    """``(plan, params, out_shape, value)`` of ``x[key] = value``: the key's dynamic plan
    (params placed like the raw value ``like`` the kernel runs on) and the value checked by
    ``__setitem__``'s rule and NumPy's broadcasting."""
    axes, out_shape = basic_plan(fn, x.shape, key)
    v = value_operand(fn, value, x.dtype)
    if not broadcastable(tuple(v.shape), out_shape):
        # NumPy's sentence for the same failure
        text = ("setting an array element with a sequence." if not out_shape else
                f"could not broadcast input array from shape {shape_text(v.shape)} into "
                f"shape {shape_text(out_shape)}")
        raise broadcast_error(fn, f"a value broadcastable to shape {out_shape}", value, text)
    plan, params = dynamic_plan(axes, x.shape, like)
    return plan, params, out_shape, v


__all__ = ["getitem_basic", "update_basic", "update_in_view"]
