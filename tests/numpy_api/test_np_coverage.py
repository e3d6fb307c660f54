"""laxarray's namespace covers what jax.numpy offers that NumPy also has (issue: NumPy surface).

The names are computed, not listed: every public name of ``jax.numpy`` that NumPy also
exports must exist in laxarray, except the short, reasoned ``EXCLUDED`` table.
"""

import numpy as np
import pytest

import laxarray as la
from laxarray.numpy_api.aliases import ALIASES

jnp = pytest.importorskip("jax.numpy")

#: name -> why laxarray leaves it out (at most 15 names).
EXCLUDED = {
}


def _shared_names():
    return sorted(n for n in dir(jnp) if not n.startswith("_") and hasattr(np, n))


def test_exclusions_are_few_and_reasoned():
    assert len(EXCLUDED) <= 15
    assert all(isinstance(why, str) and len(why) > 20 for why in EXCLUDED.values())


def test_every_shared_name_exists():
    missing = [n for n in _shared_names() if n not in EXCLUDED and not hasattr(la, n)]
    assert not missing, f"{len(missing)} jax.numpy/NumPy names missing: {' '.join(missing)}"


def test_excluded_names_are_really_absent():
    present = [n for n in EXCLUDED if hasattr(la, n)]
    assert not present, f"remove from EXCLUDED (now provided): {present}"


@pytest.mark.parametrize("alias", sorted(ALIASES))
def test_aliases_are_the_standard_functions(alias):
    assert getattr(la, alias) is getattr(la, ALIASES[alias])
    assert getattr(np, alias) is not None  # a NumPy spelling, not an invented one


def test_alias_names_are_exported_once():
    from laxarray.numpy_api import aliases
    assert len(aliases.__all__) == len(set(aliases.__all__))
    assert set(ALIASES) <= set(aliases.__all__)
