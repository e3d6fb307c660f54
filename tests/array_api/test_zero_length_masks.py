"""Boolean masks whose shape has zero-length axes (issue 38), against NumPy.

NumPy's rule: a boolean index's axes have the lengths of the array axes they index, or
length 0 (such a mask has no True element and selects nothing, from an axis of any
length); a mask of higher rank than the axes left to index is "too many indices".  Every
case below runs on NumPy first: laxarray must return the same values, shape and dtype, or
raise an exception of NumPy's class (and name the function).  The mask shapes mix the
indexed axes' lengths, 0 and a wrong length, over arrays of rank 0 to 3 (some with empty
axes), in keys that also hold integers, integer arrays, slices, ``None`` and ``...``;
``__getitem__``, ``__setitem__``, and under ``jax.jit``: plain indexing (an empty mask's
selection is static) and ``x.at[mask].get(size=N, fill_value=...)``.
"""

import itertools
import re

import jax
import numpy as np
import pytest

import laxarray as xp

SHAPES = [(), (1,), (3,), (2, 3), (0, 3), (2, 0), (2, 3, 4)]
DTYPES = [np.float64, np.int32, np.bool_, np.float32]

# name -> (key from a mask, the axis of the result that the mask's selection occupies,
# from the array's rank and the mask's)
TEMPLATES = {
    "m": (lambda m: m, lambda nd, r: 0),
    "m,0": (lambda m: (m, 0), lambda nd, r: 0),
    "...,m": (lambda m: (Ellipsis, m), lambda nd, r: nd - r),
    ":,m": (lambda m: (slice(None), m), lambda nd, r: 1),
    "None,m,::-1": (lambda m: (None, m, slice(None, None, -1)), lambda nd, r: 1),
    "0,m": (lambda m: (0, m), lambda nd, r: 0),
    "m,[0]": (lambda m: (m, np.array([0])), lambda nd, r: 0),
}


def mask_cases(shape):
    """Boolean masks for an array of ``shape``: 0-d True and False; every shape of rank
    1..ndim whose axes are the indexed axis's length, 0 or that length + 1; two of rank
    ndim + 1 (too many indices).  Non-empty masks hold a fixed mix of True and False."""
    rng = np.random.default_rng(len(shape) * 10 + sum(shape))
    shapes = []
    for rank in range(1, len(shape) + 1):
        for choice in itertools.product(range(3), repeat=rank):
            s = tuple((shape[a], 0, shape[a] + 1)[c] for a, c in enumerate(choice))
            if s not in shapes:
                shapes.append(s)
    shapes += [(0,) * (len(shape) + 1), tuple(shape) + (2,)]
    return [np.asarray(True), np.asarray(False)] + [rng.random(s) < 0.5 for s in shapes]


def base(shape, dtype):
    return np.asarray((np.arange(int(np.prod(shape))) % 5 + 1).reshape(shape), dtype)


def numpy_set(a, key, v):
    """NumPy's ``a[key] = v`` on a copy.  A lone mask of ``a``'s full shape takes NumPy's
    boolean-assignment fast path, which refuses values of rank > 1 (``TypeError``) that
    its general rule broadcasts; laxarray keeps the general rule (the standard's
    broadcasting), so that case is read through the mask's ``nonzero()`` arrays."""
    out = a.copy()
    try:
        out[key] = v
    except TypeError:
        if key.ndim:
            out[np.nonzero(key)] = v
        else:            # x[b] is x[None][[0] if b else []] (a view of out: writes through)
            out[None][np.nonzero(np.reshape(key, (1,)))] = v
    return out


def as_xp(key, convert=xp.asarray):
    key = key if isinstance(key, tuple) else (key,)
    return tuple(convert(k) if isinstance(k, np.ndarray) else k for k in key)


def run(fn):
    """``(result, None)`` or ``(None, exception)``."""
    try:
        return fn(), None
    except Exception as exc:  # noqa: BLE001 -- the oracle's outcome, whatever it is
        return None, exc


def same(actual, expected):
    got = np.asarray(actual)
    assert got.dtype == expected.dtype and got.shape == expected.shape, (got, expected)
    np.testing.assert_array_equal(got, expected)


def raises_like(np_error, fn_name):
    """``pytest.raises`` for NumPy's exception class (IndexError or ValueError here), with
    laxarray's message naming the function."""
    assert isinstance(np_error, (IndexError, ValueError)), np_error
    return pytest.raises(type(np_error), match=re.escape(fn_name))


def cases(shape, template):
    key_fn, axis_fn = TEMPLATES[template]
    for m in mask_cases(shape):
        yield m, key_fn(m), axis_fn(len(shape), m.ndim)


def test_mask_cases_cover_zero_length_mixes():
    shapes = {m.shape for m in mask_cases((2, 3, 4))}
    assert {(2, 0), (0, 3), (2, 0, 4), (0, 3, 0), (0, 0, 0), (2, 3, 0)} <= shapes
    assert (2, 4) in shapes and (0, 0, 0, 0) in shapes             # wrong length, too many


@pytest.mark.parametrize("template", TEMPLATES)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_getitem_matches_numpy(shape, template):
    a = base(shape, DTYPES[SHAPES.index(shape) % len(DTYPES)])
    x = xp.asarray(a)
    for _mask, key, _ in cases(shape, template):
        want, error = run(lambda: a[key])
        for convert in (xp.asarray, np.asarray):        # laxarray masks and NumPy masks
            k = as_xp(key, convert)
            if error is not None:
                with raises_like(error, "Array.__getitem__"):
                    x[k]
            else:
                same(x[k], want)


@pytest.mark.parametrize("template", TEMPLATES)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", [np.float64, np.int32])
def test_setitem_matches_numpy(shape, template, dtype):
    a = base(shape, dtype)
    for _mask, key, _ in cases(shape, template):
        result, error = run(lambda: a[key])
        r = () if error is not None else result.shape
        values = [np.asarray(7, dtype)]
        if error is None:
            values += [(-1 - np.arange(int(np.prod(s)))).reshape(s).astype(dtype)
                       for s in (r, r[1:], (1,) * len(r), (2,) + r[1:], (1,) + r, (5,))]
        for v in values:
            want, set_error = run(lambda: numpy_set(a, key, v))
            y = xp.asarray(a)
            if set_error is not None:
                with raises_like(set_error, "Array.__setitem__"):
                    y[as_xp(key)] = xp.asarray(v)
                same(y, a)                                     # nothing half-updated
            else:
                y[as_xp(key)] = xp.asarray(v)
                same(y, want)


@pytest.mark.parametrize("template", TEMPLATES)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_empty_traced_mask_under_jit_matches_numpy(shape, template):
    """A traced mask with a zero-length axis selects nothing: no ``size=`` needed."""
    a = base(shape, np.float64)
    key_fn = TEMPLATES[template][0]
    for m in mask_cases(shape):
        if m.size:
            continue
        want, error = run(lambda: a[key_fn(m)])

        def get(x, mask):
            return x[as_xp(key_fn(mask), lambda k: k)]
        v = np.asarray(-3.0)

        def put(x, mask, v):
            x = x + 0.0
            x[as_xp(key_fn(mask), lambda k: k)] = v
            return x
        if error is not None:
            with raises_like(error, "Array.__getitem__"):
                jax.jit(get)(xp.asarray(a), xp.asarray(m))
            with raises_like(error, "Array.__setitem__"):
                jax.jit(put)(xp.asarray(a), xp.asarray(m), xp.asarray(v))
            continue
        same(jax.jit(get)(xp.asarray(a), xp.asarray(m)), want)
        same(jax.jit(put)(xp.asarray(a), xp.asarray(m), xp.asarray(v)), a)
        for bad in (np.ones((7,) + want.shape), np.ones(want.shape[:-1] + (7,))):
            expected, set_error = run(lambda: numpy_set(a, key_fn(m), bad))
            if set_error is None:
                same(jax.jit(put)(xp.asarray(a), xp.asarray(m), xp.asarray(bad)), expected)
            else:
                with raises_like(set_error, "Array.__setitem__"):
                    jax.jit(put)(xp.asarray(a), xp.asarray(m), xp.asarray(bad))


def padded_to(result, axis, size, fill):
    """NumPy's ``result`` cut or padded with ``fill`` to ``size`` along ``axis``: what
    ``x.at[key].get(size=size, fill_value=fill)`` returns."""
    taken = np.take(result, np.arange(min(size, result.shape[axis])), axis=axis)
    pad_shape = list(result.shape)
    pad_shape[axis] = size - taken.shape[axis]
    return np.concatenate([taken, np.full(pad_shape, fill, result.dtype)], axis=axis)


@pytest.mark.parametrize("template", TEMPLATES)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_at_get_with_size_matches_numpy(shape, template):
    a = base(shape, DTYPES[SHAPES.index(shape) % len(DTYPES)])
    x = xp.asarray(a)
    fill = a.dtype.type(9)
    for m, key, axis in cases(shape, template):
        want, error = run(lambda: a[key])
        for size in (0, 2) if m.size == 0 else (2,):    # non-empty masks: the old path
            def get(x, mask):
                k = as_xp(TEMPLATES[template][0](mask), lambda k: k)
                return x.at[k].get(size=size, fill_value=fill)
            if error is not None:
                with raises_like(error, "Array.at.get"):
                    jax.jit(get)(x, xp.asarray(m))
                continue
            expected = padded_to(want, axis, size, fill)
            _, any_error = run(lambda: a[TEMPLATES[template][0](np.ones_like(m))])
            if any_error is not None:
                # a traced mask's count is unknown: the other index arrays are checked as
                # if it selected something (x[b, [0]] on an empty axis, b traced)
                with raises_like(any_error, "Array.at.get"):
                    jax.jit(get)(x, xp.asarray(m))
            else:
                same(jax.jit(get)(x, xp.asarray(m)), expected)
            same(get(x, xp.asarray(m)), expected)
            same(get(x, m), expected)                                   # a NumPy mask


def test_the_issue_examples():
    x = xp.zeros((2, 3))
    same(x[xp.zeros((2, 0), dtype=xp.bool)], np.zeros((2, 3))[np.zeros((2, 0), bool)])
    got = xp.asarray([False])[xp.asarray([], dtype=xp.bool)]
    same(got, np.asarray([False])[np.asarray([], dtype=bool)])
    with pytest.raises(IndexError, match=r"Array.__getitem__: expected a boolean index of "
                       r"shape \(2, 3\)"):
        x[xp.zeros((0, 4), dtype=xp.bool)]
