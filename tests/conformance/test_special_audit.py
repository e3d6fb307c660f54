"""The special-value audit (laxarray/conformance/special_audit.py) covers every spec of the
non-elementwise chapters, and the placement strategy puts specials where it says."""

import importlib

import numpy as np
from hypothesis import given, settings, strategies as st

from laxarray.conformance import SPECS, strategies as S
from laxarray.conformance.special_audit import AUDIT, MODULES


def _audited_specs():
    mods = {f"laxarray.conformance.{m}" for m in MODULES}
    for m in mods:
        importlib.import_module(m)
    return {name for name, spec in SPECS.items() if spec.body.__module__ in mods}


def test_every_spec_of_the_audited_chapters_has_an_entry():
    names = _audited_specs()
    assert len(names) > 100  # the modules register their specs under these names
    missing = sorted(names - set(AUDIT))
    assert not missing, f"no special-value audit entry for {missing}"


def test_no_entry_names_a_spec_that_does_not_exist():
    stale = sorted(set(AUDIT) - _audited_specs())
    assert not stale, stale


def test_every_entry_says_something():
    assert all(isinstance(v, str) and len(v) > 10 for v in AUDIT.values())


def test_the_official_suites_flaky_skips_are_checked():
    for name in ("reshape", "std", "var"):
        assert "flaky" in AUDIT[name] and name in SPECS


_SHAPES = st.sampled_from([(), (1,), (5,), (2, 3), (3, 1, 4), (2, 0)])


@settings(max_examples=60, deadline=None)
@given(st.data(), _SHAPES, st.sampled_from(["float32", "complex64"]))
def test_placed_puts_the_values_in_one_slice(data, shape, dtype):
    x = np.arange(float(np.prod(shape)) or 0.0).reshape(shape).astype(dtype) + 1
    ndim = len(shape)
    axis = data.draw(S.axes(ndim))
    kind = data.draw(st.sampled_from(S.PLACEMENTS[1:]))
    y = data.draw(S.placed(x, axis, (kind,)))
    assert y.shape == x.shape and y.dtype == x.dtype
    if x.size == 0:
        return
    changed = ~((y == x) & (np.signbit(y.real) == np.signbit(x.real)))
    assert changed.any()
    # every changed element lies in one slice along ``axis``: same index on the other axes
    axes = tuple(range(ndim)) if axis is None else \
        tuple(a % ndim for a in (axis if isinstance(axis, tuple) else (axis,)))
    if not axes and ndim:
        axes = (ndim - 1,)
    kept = [a for a in range(ndim) if a not in axes]
    where = np.argwhere(changed)
    assert len({tuple(w[kept]) for w in where}) == 1
    vals = y[changed]
    if kind == "nan slice":
        n = int(np.prod([shape[a] for a in axes])) if ndim else 1
        assert changed.sum() == n and np.isnan(vals).all()
    elif kind == "one nan":
        assert changed.sum() == 1 and np.isnan(vals).all()
    elif kind == "infinities":
        assert set(vals.real.tolist()) <= {np.inf, -np.inf} and np.isinf(vals).all()
        n = int(np.prod([shape[a] for a in axes])) if ndim else 1
        if n > 1:
            assert {np.inf, -np.inf} <= set(vals.real.tolist())
    else:  # signed zeros (x has no zeros: both are changes where the slice has two)
        assert (vals == 0).all()
        n = int(np.prod([shape[a] for a in axes])) if ndim else 1
        if n > 1:
            assert sorted(np.signbit(vals.real).tolist()) == [False, True]
