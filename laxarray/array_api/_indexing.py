"""``Array.__getitem__`` / ``__setitem__``: the key decides the path.

A basic key (integers, slices, ``...``, ``None``) takes a static plan and a dynamic start
per axis (``_index_plan``; on Arrays, views and buckets: ``_indexing_basic``).  Keys with
integer arrays or boolean masks go to :mod:`laxarray.array_api._indexing_advanced` (which
documents the tracing rule).  Results of basic keys are views (NumPy's rule), of advanced
keys copies.  ``x[key] = v`` rebinds the handle ``x`` (a view writes through to its root).
"""

from __future__ import annotations

from laxarray.array_api import _indexing_advanced as _adv
from laxarray.array_api import _views
from laxarray.array_api._array import check_writable
from laxarray.array_api._method_bodies import provide
from laxarray.array_api._index_plan import is_basic
from laxarray.array_api._indexing_basic import (_NAME_GET, getitem_basic, update_basic,
                                                 update_in_view)

_NAME_SET = "Array.__setitem__"


def getitem(x, key):
    """``x[key]``: basic keys take a static plan; others go to the advanced path."""
    if not is_basic(key):
        key = _adv.classify_key(_NAME_GET, key)
        if not _adv.is_advanced(key):
            key = _adv.basic_key(key)
        else:
            return _adv.getitem(x, key)
    return getitem_basic(x, key)


def setitem(x, key, value):
    """``x[key] = value``: rebinds the handle ``x`` to the updated value (a view writes
    through to its root, ``_views``).

    ``value`` must broadcast to ``x[key].shape`` (``None`` axes included), as in NumPy, and
    an array value's dtype must promote to ``x.dtype`` (the 2025.12 rule); Python scalars
    and sequences of them are weak.
    """
    check_writable(_NAME_SET, x)
    if not is_basic(key):
        entries = _adv.classify_key(_NAME_SET, key)
        if _adv.is_advanced(entries):
            x._rebind(_adv.updated(_adv.setitem_value(x, entries, value)))
            return
        key = _adv.basic_key(entries)
    if _views.root_of(x) is not x:  # a view: one kernel writes through to its root
        update_in_view(x, key, value, "set", _NAME_SET)
        return
    x._rebind(update_basic(x, key, value, "set", _NAME_SET))


provide(getitem, setitem)

__all__ = ["getitem", "setitem"]
