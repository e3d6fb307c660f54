"""Importing this package under another top-level name (the standalone distribution,
``dist/conformance``: ``array_api_conformance``) without importing laxarray.

The package's modules import each other relatively, so they work under either name.  A
module that still imports ``laxarray.conformance.X`` absolutely would import laxarray (and
jax) and load a second copy of ``X``: :func:`install` makes those names aliases of this
package's modules instead -- ``laxarray.conformance`` is this package, and
``laxarray.conformance.X`` this package's ``X`` (one module object under two names, one
registry of specs) -- unless laxarray's own copy is already imported.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys

PREFIX = "laxarray.conformance"


class _Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds ``laxarray.conformance.X`` as the module ``<target>.X``."""

    def __init__(self, target):
        self.target = target

    def find_spec(self, name, path=None, target=None):
        """A spec whose module is ``<target>.X`` for ``name`` = ``laxarray.conformance.X``."""
        if name.startswith(PREFIX + "."):
            return importlib.util.spec_from_loader(name, self)
        return None

    def create_module(self, spec):
        """The module ``<target>.X`` itself (imported under its own name first)."""
        return importlib.import_module(self.target + spec.name[len(PREFIX):])

    def exec_module(self, module):
        """Nothing: the module ran under its own name."""


def install(package):
    """Make ``laxarray.conformance`` (and its submodules) aliases of ``package`` (the name
    this package is imported under), unless laxarray's own copy is imported already."""
    if package == PREFIX or PREFIX in sys.modules:
        return
    sys.modules[PREFIX] = sys.modules[package]
    sys.meta_path.insert(0, _Alias(package))
