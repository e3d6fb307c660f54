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


_MATMUL_SHAPES = st.sampled_from([((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 2)), ((1,), (1, 2)),
                                  ((2, 3), (3, 4)), ((2, 1, 2, 3), (3, 3, 2)),
                                  ((1, 2, 1), (4, 1, 2)), ((3, 2, 2), (2, 2)), ((2, 2), (2, 0))])


@settings(max_examples=80, deadline=None)
@given(st.data(), _MATMUL_SHAPES, st.sampled_from(S.PAIR_PLACEMENTS[1:]),
       st.sampled_from(["float32", "float64"]))
def test_placed_pair_meets_in_one_output_element(data, shapes, kind, dtype):
    s1, s2 = shapes
    # no zeros, no specials: a NaN in the product can only come from the placement
    x1 = np.arange(1, np.prod(s1) + 1).reshape(s1).astype(dtype)
    x2 = np.arange(1, np.prod(s2) + 1).reshape(s2).astype(dtype)
    n1, n2 = len(s1), len(s2)
    y1, y2 = data.draw(S.placed_pair(x1, x2, (-1,), (0 if n2 == 1 else -2,),
                                     batch1=tuple(range(n1 - 2)), batch2=tuple(range(n2 - 2)),
                                     kinds=(kind,)))
    assert y1.shape == x1.shape and y2.shape == x2.shape
    assert y1.dtype == x1.dtype and y2.dtype == x2.dtype
    if x1.size == 0 or x2.size == 0:
        assert np.array_equal(y1, x1) and np.array_equal(y2, x2)
        return
    with np.errstate(all="ignore"):
        out = np.matmul(y1, y2)
    specials = np.concatenate([y.ravel() for y in (y1, y2)])
    if kind == "opposite infinities" and s1[-1] == 1:  # one contracted index: one infinity
        assert np.isinf(out).any() and not np.isnan(out).any()
        assert np.isinf(specials).sum() == 1
    else:  # the specials meet in one output element: NaN there whatever the order
        assert np.isnan(out).any()
    if kind == "inf times zero":
        assert np.isinf(specials).sum() == 1 and (specials == 0).sum() == 1
    elif kind == "opposite infinities" and s1[-1] > 1:
        assert sorted(specials[np.isinf(specials)].tolist()) == [-np.inf, np.inf]
    elif kind == "one nan":
        assert np.isnan(specials).sum() == 1
    elif kind == "nan slice":
        assert np.isnan(specials).sum() == s1[-1]


@settings(max_examples=30, deadline=None)
@given(st.data(), st.sampled_from(S.PAIR_PLACEMENTS[1:]),
       st.sampled_from(["int64", "complex128"]), st.integers(1, 4), st.integers(1, 4))
def test_placed_pair_leaves_integer_and_complex_operands(data, kind, dtype, n, m):
    x1, x2 = np.ones(n, dtype), np.ones(m, dtype)
    y1, y2 = data.draw(S.placed_pair(x1, x2, (), (), kinds=(kind,)))
    assert np.array_equal(y1, x1) and np.array_equal(y2, x2)


@settings(max_examples=30, deadline=None)
@given(st.data(), st.integers(1, 4), st.integers(1, 4))
def test_placed_pair_outer_products_meet(data, n, m):
    x1, x2 = np.arange(1.0, n + 1), np.arange(1.0, m + 1)
    y1, y2 = data.draw(S.placed_pair(x1, x2, (), (), kinds=("inf times zero",)))
    with np.errstate(all="ignore"):
        assert np.isnan(np.outer(y1, y2)).sum() == 1


def _naive_tensordot(x1, x2, k):
    """Every product summed in order, one IEEE operation at a time."""
    free1, free2 = x1.shape[:x1.ndim - k], x2.shape[k:]
    a = x1.reshape(int(np.prod(free1)), -1) if x1.size else x1.reshape(int(np.prod(free1)), 0)
    b = x2.reshape(a.shape[1], int(np.prod(free2)))
    out = np.zeros((a.shape[0], b.shape[1]), x1.dtype)
    with np.errstate(all="ignore"):
        for i in range(a.shape[0]):
            for j in range(b.shape[1]):
                total = x1.dtype.type(0)
                for t in range(a.shape[1]):
                    total = total + a[i, t] * b[t, j]
                out[i, j] = total
    return out.reshape(free1 + free2)


@settings(max_examples=60, deadline=None)
@given(st.data(), st.sampled_from([((), 0, ()), ((2,), 0, ()), ((1,), 1, (3,)), ((3, 1), 1, (1,)),
                                   ((2, 2), 2, (2,)), ((1, 1), 1, (1, 4)), ((2, 3), 1, (2,))]))
def test_the_tensordot_oracle_sums_every_product(data, case):
    # np.tensordot makes NaN * 0 and inf * 0 zero where an operand reduces to 1x1 (np.dot
    # BLAS-scales by it); the specs' oracle must not
    from laxarray.conformance.specs_linalg_products import tensordot_oracle
    s1, k, tail = case
    x1 = data.draw(S.arrays("float64", s1, min_value=-10, max_value=10))
    x2 = data.draw(S.arrays("float64", s1[len(s1) - k:] + tail, min_value=-10, max_value=10))
    x1, x2 = data.draw(S.placed_pair(x1, x2, tuple(range(len(s1) - k, len(s1))),
                                     tuple(range(k))))
    got, want = tensordot_oracle(x1, x2, k), _naive_tensordot(x1, x2, k)
    assert got.shape == want.shape
    # bounded finite draws: NaN and inf come from the placements alone, order-free
    assert np.array_equal(np.isnan(got), np.isnan(want))
    infinite = np.isinf(want)
    assert np.array_equal(np.isinf(got), infinite)
    assert np.array_equal(got[infinite], want[infinite])
