"""Where the portable tiers of the executable store are: the directories ``exec_store``
opens, in order, and which users besides this one may own each.

1. The user's: ``LAXARRAY_PORTABLE_STORE`` (unset: ``$XDG_CACHE_HOME/laxarray/portable``;
   ``0``: none).  Only this user may own it.
2. laxarray's own: the folder ``portable/`` of the installed ``laxarray`` package.
3. A wheel's: the folder ``tier/`` of an installed ``laxarray_portable`` package (the wheel
   of executables that ``tools/portable_wheel.py`` builds, ``make portable-wheel``).  It is
   found on the import path (:func:`importlib.util.find_spec`, tens of microseconds once
   the path's folders are listed) and never imported: its ``__init__.py`` runs no code of
   laxarray's choosing.

The two installed tiers may also belong to the owner of the folder that holds them (who
owns that package's code already: root for a system-wide install).  ``LAXARRAY_PORTABLE_STORE=0``
turns off the user's tier only: an installed tier stays until it is uninstalled.  This module
only names directories; ``exec_store`` checks them (``_unsafe``) and reads them.
"""

from __future__ import annotations

import importlib.util
import os

from laxarray._core import env_vars as _env_vars

#: The environment variable that names the user's tier.
PORTABLE_ENV = "LAXARRAY_PORTABLE_STORE"
#: The tier installed with the package: this folder of the ``laxarray`` package.
PACKAGE_TIER = "portable"
#: The distribution of executables (a wheel): its top-level package and the tier's folder.
WHEEL_PACKAGE, WHEEL_TIER = "laxarray_portable", "tier"


def portable_dir():
    """The user's portable tier directory, from ``LAXARRAY_PORTABLE_STORE`` (unset:
    ``$XDG_CACHE_HOME/laxarray/portable``; ``0``: ``None``, no tier of the user's)."""
    setting = _env_vars.value(PORTABLE_ENV)
    if setting == "0":
        return None
    return os.path.abspath(setting) if setting else os.path.join(
        _env_vars.cache_home(), "laxarray", "portable")


def package_dir():
    """The portable tier installed with the package (it may not exist)."""
    package = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return os.path.join(package, PACKAGE_TIER)


def wheel_dir():
    """The ``tier/`` folder of the installed ``laxarray_portable`` package, found on the
    import path without importing it; ``None`` where none is installed (or it has none)."""
    try:
        spec = importlib.util.find_spec(WHEEL_PACKAGE)
    except (ImportError, ValueError):   # a broken entry of sys.modules or of the path
        return None
    for folder in (spec.submodule_search_locations or ()) if spec is not None else ():
        path = os.path.join(folder, WHEEL_TIER)
        if os.path.isdir(path):
            return os.path.abspath(path)
    return None


def tier_dirs() -> list:
    """``(directory, owners, remedy)`` of each tier, in the order they are read: the uids
    besides this user's that may own it, and what silences its refusal.  A directory is
    ``None`` (the user's, turned off; no wheel installed) or may not exist."""
    found = [(portable_dir(), (), f"or set {PORTABLE_ENV}=0 to silence this")]
    for path, remedy in ((package_dir(), "or remove it from the installed package"),
                         (wheel_dir(), f"or uninstall {WHEEL_PACKAGE}")):
        if path is not None:
            try:   # the package's owner may own its tier: it owns the package's code
                owners = (os.stat(os.path.dirname(path)).st_uid,)
            except OSError:
                owners = ()
            found.append((path, owners, remedy))
    return found
