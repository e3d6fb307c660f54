"""Every public callable of laxarray, laxarray.linalg and laxarray.fft has a conformance
spec (laxarray.conformance.SPECS) or a written reason why not
(laxarray.conformance.unspecced); and every row of the error-bound table belongs to a
spec."""

import fnmatch
import types

import pytest

import laxarray
from laxarray.conformance import SPECS, tolerances
from laxarray.conformance.unspecced import UNSPECCED
from laxarray.numpy_api.aliases import ALIASES


def _public_callables():
    """``{dotted name: object}`` of the public callables (classes included, modules not)."""
    out = {}
    for prefix, module in (("", laxarray), ("linalg.", laxarray.linalg),
                           ("fft.", laxarray.fft)):
        for name in dir(module):
            obj = getattr(module, name)
            if name.startswith("_") or isinstance(obj, types.ModuleType) or not callable(obj):
                continue
            out[prefix + name] = obj
    return out


PUBLIC = _public_callables()


@pytest.mark.parametrize("name", sorted(PUBLIC))
def test_public_callable_has_a_spec_or_a_reason(name):
    if name in SPECS:
        assert name not in UNSPECCED and name not in ALIASES, f"{name}: has a spec now"
        return
    if name in ALIASES:
        target = ALIASES[name]
        assert target in SPECS, f"{name}: alias of {target}, which has no spec"
        assert PUBLIC[name] is PUBLIC[target], f"{name} is not the same object as {target}"
        return
    assert name in UNSPECCED, f"{name}: no conformance spec and no reason in unspecced.py"
    assert len(UNSPECCED[name]) > 10


def test_the_tables_name_only_public_callables():
    stale = sorted(set(UNSPECCED) - set(PUBLIC)) + sorted(set(ALIASES) - set(PUBLIC))
    assert stale == []


def _spec_of(key):
    """The spec names a BOUNDS key applies to (``name``, ``name:part`` or a pattern)."""
    name = key.split(":")[0]
    return [s for s in SPECS if fnmatch.fnmatchcase(s, name)] if "*" in name else \
        [name] if name in SPECS else []


@pytest.mark.parametrize("key", sorted(tolerances.BOUNDS))
def test_every_bound_row_belongs_to_a_spec_and_says_why(key):
    row = tolerances.BOUNDS[key]
    assert _spec_of(key), f"{key}: no spec uses this row"
    assert row.why and len(row.why) > 15, f"{key}: the row does not say why"
    if row.complex is not None:
        assert row.complex.why, f"{key}: the complex row does not say why"
