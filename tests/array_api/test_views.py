"""Views against NumPy: random chains of views, random writes and reads through them.

One program -- a base array, views made from any alias (slices with steps, integers,
``None``, reshapes, transposes, ``squeeze``/``expand_dims``, ``.real``/``.imag``), writes
through any alias (``v[key] = c``, ``v[key] += c``, ``v += c``) -- runs on NumPy and on
laxarray, and after every step every alias must equal NumPy's.  Whether a reshape is a view
or a copy must agree with NumPy too.  The same programs run under ``jax.jit`` (a function of
the base that returns every alias).
"""

import jax
import numpy as np
import pytest
from hypothesis import given, strategies as st

import laxarray as xp
from laxarray.array_api._views import root_of


def _key(draw, shape):
    key = []
    for n in shape:
        kind = draw(st.sampled_from(["all", "slice", "int"] if n else ["all", "slice"]))
        if kind == "int":
            key.append(draw(st.integers(-n, n - 1)))
        elif kind == "slice":
            key.append(slice(draw(st.one_of(st.none(), st.integers(-n - 1, n + 1))),
                             draw(st.one_of(st.none(), st.integers(-n - 1, n + 1))),
                             draw(st.sampled_from([None, 1, 2, -1, -2]))))
        else:
            key.append(slice(None))
    if draw(st.booleans()):
        key.insert(draw(st.integers(0, len(key))), None)
    return tuple(key)


def _reshape_target(draw, shape):
    size = int(np.prod(shape))
    options = [(size,), (1, size), shape + (1,)]
    for k in range(2, 5):
        if size and size % k == 0:
            options.append((k, size // k))
    return draw(st.sampled_from(options))


@st.composite
def programs(draw):
    """A base shape and dtype, and a list of steps over the aliases made so far."""
    shape = tuple(draw(st.lists(st.integers(1, 5), min_size=1, max_size=3)))
    dtype = draw(st.sampled_from(["float64", "complex128"]))
    steps, shapes, dtypes, arrays_ = [], [shape], [dtype], [0]
    for _ in range(draw(st.integers(1, 8))):
        # NumPy gives a scalar for an integer-only key (laxarray: a 0-d array, a copy of the
        # element); NumPy's views of a scalar are copies of it: only arrays are sources
        i = draw(st.sampled_from(arrays_))
        src = shapes[i]
        kind = draw(st.sampled_from(["index", "reshape", "transpose", "expand", "squeeze",
                                     "real", "set", "iadd", "setadd"]))
        if kind == "index":
            arg = _key(draw, src)
        elif kind == "reshape":
            arg = _reshape_target(draw, src)
        elif kind == "transpose":
            arg = tuple(draw(st.permutations(range(len(src)))))
        elif kind == "expand":
            arg = draw(st.integers(-len(src) - 1, len(src)))
        elif kind == "squeeze":
            ones = [a for a, n in enumerate(src) if n == 1]
            if not ones:
                continue
            arg = draw(st.sampled_from(ones))
        elif kind == "real":
            arg = draw(st.sampled_from(["real", "imag"]))
        else:
            arg = (_key(draw, src), float(draw(st.integers(-9, 9))))
        # .real/.imag of a complex alias only (of a real one NumPy's .imag is read-only)
        if kind == "real" and dtypes[i] != "complex128":
            continue
        made = _apply_np(np.zeros(src, dtypes[i]), kind, arg)
        if made is not None:
            if isinstance(made, np.ndarray):
                arrays_.append(len(shapes))
            shapes.append(made.shape)
            dtypes.append(str(made.dtype))
        steps.append((i, kind, arg))
    return shape, dtype, steps


def _apply_np(a, kind, arg):
    """A new alias of ``a`` (NumPy), or None for a write (done in place)."""
    if kind == "index":
        return a[arg]
    if kind == "reshape":
        return np.reshape(a, arg)
    if kind == "transpose":
        return np.transpose(a, arg)
    if kind == "expand":
        return np.expand_dims(a, arg)
    if kind == "squeeze":
        return np.squeeze(a, arg)
    if kind == "real":
        return a.real if arg == "real" else a.imag
    return _write(a, kind, arg)


def _write(a, kind, arg):
    """A write through ``a`` (NumPy's or laxarray's: the same syntax); returns None."""
    key, c = arg
    if kind == "set":
        a[key] = c
    elif kind == "setadd":
        a[key] += c
    else:
        a += c
    return None


def _apply_lx(a, kind, arg):
    if kind == "index":
        return a[arg]
    if kind == "reshape":
        return xp.reshape(a, arg)
    if kind == "transpose":
        return xp.permute_dims(a, arg)
    if kind == "expand":
        return xp.expand_dims(a, axis=arg)
    if kind == "squeeze":
        return xp.squeeze(a, axis=arg)
    if kind == "real":
        return a.real if arg == "real" else a.imag
    return _write(a, kind, arg)


def _base(shape, dtype):
    n0 = np.arange(np.prod(shape), dtype=dtype).reshape(shape)
    return n0 + 1j * n0[::-1].reshape(shape) if dtype == "complex128" else n0


def _run(shape, dtype, steps, base, lx_apply, check=None):
    """The program on NumPy and on laxarray (``base``: laxarray's base); ``check(step,
    numpy aliases, laxarray aliases)`` after every step; returns laxarray's aliases."""
    n0 = _base(shape, dtype)
    np_aliases, lx_aliases = [n0.copy()], [base]
    for step, (i, kind, arg) in enumerate(steps):
        if kind in ("set", "setadd", "iadd") and np_aliases[i].size == 0:
            continue
        out = _apply_np(np_aliases[i], kind, arg)
        lx_out = lx_apply(lx_aliases[i], kind, arg)
        if out is not None:
            np_aliases.append(out)
            lx_aliases.append(lx_out)
            if check is not None and kind == "reshape" and out.size:
                # a view of the base exactly where NumPy gives one (empty ones share nothing)
                assert (root_of(lx_out) is lx_aliases[0]) == np.shares_memory(
                    out, np_aliases[0])
        if check is not None:
            check(step, np_aliases, lx_aliases)
    return np_aliases, lx_aliases


def _compare(step, np_aliases, lx_aliases):
    for k, (n, x) in enumerate(zip(np_aliases, lx_aliases)):
        np.testing.assert_array_equal(np.asarray(x), n, err_msg=f"alias {k} after step {step}")


@given(programs())
def test_views_match_numpy_step_by_step(program):
    shape, dtype, steps = program
    n0 = _base(shape, dtype)
    _run(shape, dtype, steps, xp.asarray(n0), _apply_lx, _compare)


@given(programs())
def test_views_match_numpy_under_jit(program):
    shape, dtype, steps = program
    n0 = _base(shape, dtype)

    @jax.jit
    def f(base):
        return tuple(_run(shape, dtype, steps, base, _apply_lx)[1])

    expected, _ = _run(shape, dtype, steps, xp.asarray(n0), _apply_lx)
    for k, (got, want) in enumerate(zip(f(xp.asarray(n0)), expected)):
        np.testing.assert_array_equal(np.asarray(got), want, err_msg=f"alias {k}")


def test_grad_through_writes_into_views():
    def f(w):
        a = xp.zeros((3, 4))
        flat = xp.reshape(a, (-1,))
        flat[::5] += w              # the diagonal of a, through a reshape view
        return xp.sum(a * a)
    g = xp.grad(f)(xp.asarray(1.5))
    assert float(g) == pytest.approx(2 * 1.5 * 3)   # three diagonal elements of a


def test_read_only_views_raise_and_change_nothing():
    x = xp.asarray(np.arange(6.0).reshape(2, 3))
    for ro in (xp.broadcast_to(x[0], (4, 3)), xp.linalg.diagonal(x)):
        with pytest.raises(ValueError, match="read-only"):
            ro[0] = 1.0
        with pytest.raises(ValueError, match="read-only"):
            ro += 1.0
    np.testing.assert_array_equal(np.asarray(x), np.arange(6.0).reshape(2, 3))


def test_copies_stay_independent():
    x = xp.asarray(np.arange(6.0).reshape(2, 3))
    copies = [xp.asarray(x, copy=True), x[np.array([0, 1])], x.flatten(), x.copy(),
              xp.reshape(x, (6,), copy=True)]
    x[...] = -1.0
    for c in copies:
        assert c.base is None
        assert float(xp.max(c)) == 5.0
    with pytest.raises(ValueError, match="reshape"):
        xp.reshape(x.T, (6,), copy=False)   # a transposed view cannot be flattened in place


@pytest.mark.parametrize("dtype", ["complex128", "float64", "int32"])
@pytest.mark.parametrize("part", ["real", "imag"])
def test_assigning_to_real_and_imag_is_numpys(dtype, part):
    # NumPy: x.real = v and x.imag = v write the part; a real array's .imag is read-only
    # zeros and assigning to it is a TypeError
    values = np.array([1 + 2j, -3 + 0.5j, 0j]).astype(dtype) if dtype.startswith(
        "complex") else np.array([1, -3, 0]).astype(dtype)
    outcomes = []
    for ns in (np, xp):
        x = ns.asarray(values.copy())
        try:
            setattr(x, part, 7)
            outcomes.append(("set", np.asarray(x).tolist()))
        except (TypeError, ValueError) as exc:
            outcomes.append((type(exc), np.asarray(x).tolist()))
        y = ns.asarray(values.copy())
        view = getattr(y, part)
        outcomes.append((np.asarray(view).tolist(), np.asarray(view).dtype))
        try:
            view[...] = 5
            outcomes.append(("write", np.asarray(y).tolist()))
        except (TypeError, ValueError) as exc:
            outcomes.append((type(exc), np.asarray(y).tolist()))
    assert outcomes[:3] == outcomes[3:]


@pytest.mark.parametrize("through_view", [False, True])
def test_a_real_arrays_imag_is_new_zeros_sharing_nothing(through_view):
    # NumPy: a real array's .imag is a new read-only array of zeros; it shares no memory
    # with the array (nor with the complex array a .real view of which it may be)
    n0 = np.arange(4.0).reshape(2, 2) * (1 + 1j) if through_view else np.arange(4.0)
    nb, lb = n0.copy(), xp.asarray(n0)
    nr, lr = (nb.real, lb.real) if through_view else (nb, lb)
    nz, lz = nr.imag, lr.imag
    for shaped_n, shaped_lx in ((nz, lz), (np.reshape(nz, (-1,)), xp.reshape(lz, (-1,)))):
        assert np.shares_memory(shaped_n, nb) is False
        assert root_of(shaped_lx) is not lb
        assert root_of(shaped_lx) is not lr
    with pytest.raises(ValueError, match="read-only"):
        lz[...] = 1.0
    nb[...], lb[...] = 7.0, 7.0                  # a write to the base leaves them zeros
    np.testing.assert_array_equal(np.asarray(lz), nz)
    np.testing.assert_array_equal(np.asarray(xp.reshape(lz, (-1,))), np.zeros(nz.size))
