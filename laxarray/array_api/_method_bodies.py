"""The bodies of the Array's methods (and the ufunc's) that live above it, looked up by name.

Every operation builds Arrays, so every operation module imports ``Array``
(``laxarray.array_api._array``); the class cannot import them back.  Its operators,
indexing, in-place writes, views' write-back, ``.T`` and ``.at`` call their bodies through
:data:`OPERATIONS`, which the module defining each body fills when it is imported
(:func:`provide`); NumPy's ``ndarray`` methods, a layer up, are :data:`NUMPY_METHODS`
(filled by ``laxarray.numpy_api.methods``).  The ufunc (``array_api._ufunc``, under the
elementwise chapters) finds its methods' bodies in :data:`UFUNC_METHODS` the same way.
``import laxarray`` imports all of those modules before any Array can exist, so a lookup
never misses.  Which names the Array has is declared in its class body; only the bodies
are found here.
"""

from __future__ import annotations

from typing import Callable

#: name -> body of an Array method defined in a module above ``_array``
OPERATIONS: dict[str, Callable] = {}

#: NumPy's ``ndarray`` methods and properties by name (``laxarray.numpy_api.methods``)
NUMPY_METHODS: dict[str, Callable] = {}

#: the bodies of the ufunc's methods (``reduce``, ``accumulate``, ``outer``, ``at``), by
#: name: the ufunc is built by the elementwise decorators (``array_api._ufunc``), its
#: methods use the reductions and shape functions above them (``laxarray.numpy_api.ufuncs``)
UFUNC_METHODS: dict[str, Callable] = {}


def provide(*functions: Callable, **named: Callable) -> None:
    """Register the bodies of Array methods: ``functions`` under their ``__name__``,
    ``named`` under their keywords.  Called once by the module that defines them."""
    for fn in functions:
        OPERATIONS[fn.__name__] = fn
    OPERATIONS.update(named)


__all__ = ["OPERATIONS", "NUMPY_METHODS", "UFUNC_METHODS", "provide"]
