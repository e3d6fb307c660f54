"""The Array object: attributes, operators, conversions, indexing and protocols.

Oracle: NumPy on the same data (or a stated property), never values read back from
laxarray itself.
"""

import copy
import operator
import pickle

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from hypothesis import given, strategies as st

import laxarray as xp
from laxarray.array_api._array import Array

A = np.array([[1.5, -2.0, 3.0], [4.0, 0.0, -6.25]])
I8 = np.array([[1, -2, 3], [4, 0, -6]], dtype=np.int8)
U8 = np.array([[1, 2, 3], [4, 0, 6]], dtype=np.uint8)
B = np.array([[True, False, True], [False, False, True]])


def same(got, expected):
    """``got`` (laxarray) equals NumPy ``expected`` in dtype, shape and values."""
    assert isinstance(got, Array), type(got)
    expected = np.asarray(expected)
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    assert got.shape == expected.shape
    np.testing.assert_array_equal(np.asarray(got), expected)


# ---- attributes -----------------------------------------------------------------------------
@pytest.mark.parametrize("shape", [(), (0,), (3,), (2, 3), (2, 3, 4), (1, 0, 2)])
def test_attributes_match_numpy(shape):
    a = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    x = xp.asarray(a)
    assert x.dtype == a.dtype and x.dtype == xp.float32
    assert x.shape == a.shape and isinstance(x.shape, tuple)
    assert x.ndim == a.ndim and x.size == a.size
    assert x.device == xp.__array_namespace_info__().default_device()
    same(x.T, a.T)
    if a.ndim >= 2:
        same(x.mT, np.swapaxes(a, -1, -2))
    else:
        with pytest.raises(ValueError, match="mT"):
            x.mT  # noqa: B018 (the attribute access is what raises)


def test_array_is_built_only_through_asarray():
    with pytest.raises(TypeError, match="asarray"):
        Array(np.zeros(2))
    with pytest.raises(TypeError):
        hash(xp.asarray([1]))


# ---- operators ------------------------------------------------------------------------------
BINARY = [
    ("add", A, A[::-1]), ("sub", A, A[::-1]), ("mul", A, A[::-1]), ("truediv", A, A + 10),
    ("floordiv", I8, np.int8(3)), ("mod", I8, np.int8(4)), ("pow", A, np.float64(2.0)),
    ("and", I8, I8[::-1]), ("or", U8, U8[::-1]), ("xor", B, B[::-1]),
    ("lshift", U8, np.uint8(2)), ("rshift", np.abs(I8), np.int8(1)),
    ("eq", A, A[::-1]), ("ne", I8, I8[::-1]), ("lt", A, A[::-1]), ("le", U8, U8[::-1]),
    ("gt", I8, I8[::-1]), ("ge", A, A[::-1]),
]


@pytest.mark.parametrize("stem,a,b", BINARY, ids=[r[0] for r in BINARY])
def test_binary_operator_forward_reflected_inplace(stem, a, b):
    op = getattr(operator, stem if stem not in ("and", "or") else f"{stem}_")
    x, y = xp.asarray(a), xp.asarray(np.asarray(b))
    expected = op(a, b)
    same(op(x, y), expected)
    scalar = np.asarray(b).flat[0].item()        # a weak Python scalar of b's kind
    with np.errstate(all="ignore"):
        same(op(x, scalar), op(a, type(scalar)(scalar)))
    if stem in ("eq", "ne", "lt", "le", "gt", "ge"):
        same(op(scalar, x), op(type(scalar)(scalar), a))
        return
    same(getattr(x, f"__r{stem}__")(scalar), op(np.asarray(scalar, a.dtype), a))
    # in place: the same handle, rebound; another name for the handle sees it, and so does
    # a view taken before (NumPy's rule: h[0] of a 2-D array is a view)
    h = xp.asarray(a)
    alias, before = h, h[0]
    h_id = id(h)
    iop = getattr(operator, f"i{stem}")
    h = iop(h, y)
    assert id(h) == h_id and alias is h
    same(h, expected)
    same(before, expected[0])


def test_matmul_operators():
    a, b = A, A.T.copy()
    x, y = xp.asarray(a), xp.asarray(b)
    same(x @ y, a @ b)
    same(y.__rmatmul__(x), a @ b)
    same(x @ b, a @ b)            # a NumPy operand on either side
    same(a @ y, a @ b)
    sq = xp.asarray(np.eye(3))
    sq @= xp.asarray(2 * np.eye(3))
    same(sq, 2 * np.eye(3))
    with pytest.raises(ValueError, match="matmul"):
        x @ x


def test_inplace_dtype_and_shape_errors_leave_the_handle_unchanged():
    x = xp.asarray(I8[0])
    with pytest.raises(TypeError, match="__iadd__"):
        x += 1.5
    with pytest.raises(TypeError, match="__itruediv__"):
        x /= xp.asarray(I8[0])
    with pytest.raises(ValueError, match="__imul__"):
        x *= xp.asarray(I8)          # would broadcast to (2, 3)
    same(x, I8[0])
    # a wider dtype of the same kind is cast back, as NumPy does (int16 -> int8 wraps)
    x += xp.asarray(I8[0].astype(np.int16) + 300)
    expected = I8[0].copy()
    expected += I8[0].astype(np.int16) + 300
    same(x, expected)
    f = xp.asarray(A)
    f += xp.asarray(A[0])             # broadcasting the other operand is fine
    same(f, A + A[0])


@pytest.mark.parametrize("name,fn,a", [
    ("abs", abs, A), ("neg", operator.neg, I8), ("pos", operator.pos, A),
    ("invert", operator.invert, I8), ("invert", operator.invert, B),
    ("neg", operator.neg, A.astype(np.complex64) * 1j), ("abs", abs, A * (1 - 2j)),
])
def test_unary_operators(name, fn, a):
    same(fn(xp.asarray(a)), fn(a))


def test_operators_reject_other_types():
    x = xp.asarray(A)
    with pytest.raises(TypeError):
        x + "a"
    with pytest.raises(TypeError):
        x < object()  # noqa: B015 (the comparison is what raises)
    with pytest.raises(TypeError, match="bitwise_invert"):
        ~x  # noqa: B018 (the operator is what raises)
    with pytest.raises(TypeError, match="bitwise_and"):
        x & x


def test_numpy_operands_defer_to_laxarray():
    x = xp.asarray(I8[0])
    same(np.arange(3) + x, np.arange(3) + I8[0])
    same(np.float64(1.5) * x, np.float64(1.5) * I8[0])


# ---- scalar conversions ---------------------------------------------------------------------
def test_python_scalar_conversions():
    assert bool(xp.asarray(True)) is True and bool(xp.asarray(0.0)) is False
    assert int(xp.asarray(-3.7)) == int(np.float64(-3.7)) == -3
    assert float(xp.asarray(np.int16(7))) == 7.0
    assert complex(xp.asarray(1 - 2j)) == 1 - 2j
    assert complex(xp.asarray(2.5)) == 2.5 + 0j
    assert operator.index(xp.asarray(np.uint8(4))) == 4
    assert list(range(10))[xp.asarray(3)] == 3


@pytest.mark.parametrize("conv,value,exc", [
    (bool, [1, 2], ValueError), (bool, [], ValueError), (int, [1, 2], TypeError),
    (float, np.zeros((2, 2)), TypeError), (int, 1j, TypeError), (float, 1j, TypeError),
    (operator.index, 2.0, TypeError), (operator.index, True, TypeError),
    (operator.index, [1], TypeError),
])
def test_python_scalar_conversion_errors(conv, value, exc):
    with pytest.raises(exc, match=r"Array\.__"):
        conv(xp.asarray(value))


@pytest.mark.parametrize("conv,op", [(bool, "__bool__"), (int, "__int__"),
                                     (float, "__float__"), (complex, "__complex__"),
                                     (operator.index, "__index__")])
def test_traced_scalar_conversion_names_the_operation(conv, op):
    @jax.jit
    def f(x):
        return xp.asarray(1.0) if conv(x) else xp.asarray(0.0)

    with pytest.raises(TypeError) as info:
        f(xp.asarray(1))
    text = str(info.value)
    assert op in text and "where" in text and "lax.cond" in text


# ---- indexing -------------------------------------------------------------------------------
@st.composite
def basic_keys(draw, shape):
    """A basic key for ``shape``: ints (negative too), slices (negative steps), ``...``,
    ``None``; a bare item or a tuple."""
    parts = []
    dims = list(shape)
    use_ellipsis = draw(st.booleans())
    n = draw(st.integers(0, len(dims)))
    for size in dims[:n]:
        kind = draw(st.sampled_from(("int", "slice", "slice", "none")))
        if kind == "none":
            parts.append(None)
        if kind == "int" and size > 0:
            parts.append(draw(st.integers(-size, size - 1)))
        else:
            bound = st.one_of(st.none(), st.integers(-size - 2, size + 2))
            step = st.one_of(st.none(), st.integers(-3, 3).filter(bool))
            parts.append(slice(draw(bound), draw(bound), draw(step)))
    if use_ellipsis:
        parts.insert(draw(st.integers(0, len(parts))), Ellipsis)
    if draw(st.booleans()):
        parts.append(None)
    if len(parts) == 1 and draw(st.booleans()):
        return parts[0]
    return tuple(parts)


shapes = st.lists(st.integers(0, 4), max_size=3).map(tuple)


@given(data=st.data())
def test_getitem_matches_numpy(data):
    shape = data.draw(shapes, label="shape")
    a = np.arange(int(np.prod(shape)), dtype=np.int32).reshape(shape)
    key = data.draw(basic_keys(shape), label="key")
    try:
        expected = a[key]
    except IndexError:
        with pytest.raises(IndexError, match="__getitem__"):
            xp.asarray(a)[key]
        return
    same(xp.asarray(a)[key], expected)


@given(data=st.data())
def test_setitem_matches_numpy_and_rebinds(data):
    shape = data.draw(shapes, label="shape")
    a = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape)
    key = data.draw(basic_keys(shape), label="key")
    try:
        target = a[key].shape
    except IndexError:
        with pytest.raises(IndexError, match="__setitem__"):
            xp.asarray(a)[key] = 0.0
        return
    vshape = data.draw(st.sampled_from([(), target, target[1:], (1,) + target]),
                       label="value shape")
    value = -1.0 - np.arange(int(np.prod(vshape)), dtype=np.float64).reshape(vshape)
    use_scalar = vshape == () and data.draw(st.booleans(), label="python scalar")
    x = xp.asarray(a)
    alias, view_before = x, x[...]
    x[key] = value.item() if use_scalar else xp.asarray(value)
    expected = a.copy()
    # (NumPy refuses a (1,) value for a 0-d target under key (); the leading 1 drops)
    expected[key] = value.reshape(target) if vshape == (1,) + target else value
    same(x, expected)
    assert alias is x                  # the handle is rebound, not replaced
    same(view_before, expected)        # an earlier x[...] is a view: it sees the write


def test_index_errors():
    x = xp.asarray(A)
    with pytest.raises(IndexError, match="__getitem__"):
        x[2]
    with pytest.raises(IndexError, match="__getitem__"):
        x[0, 0, 0]
    with pytest.raises(IndexError, match="__getitem__"):
        x[..., ...]
    with pytest.raises(IndexError, match="__getitem__"):
        x[1.0]
    with pytest.raises(IndexError, match="__setitem__"):
        x[-3] = 0.0
    with pytest.raises(ValueError, match="__setitem__"):
        x[0] = xp.zeros((2, 3))
    with pytest.raises(TypeError, match="__setitem__"):
        x[0] = 1j
    same(x, A)


# ---- protocols ------------------------------------------------------------------------------
def test_array_namespace():
    x = xp.asarray(A)
    assert x.__array_namespace__() is xp
    assert x.__array_namespace__(api_version="2025.12") is xp
    with pytest.raises(ValueError, match="__array_namespace__"):
        x.__array_namespace__(api_version="1999.01")


@pytest.mark.parametrize("a", [A, I8, U8, B, A.astype(np.complex64)])
def test_dlpack_round_trip(a):
    x = xp.asarray(a)
    kind, dev_id = x.__dlpack_device__()
    assert int(kind) == 1 and dev_id == 0          # kDLCPU, device 0
    back = np.from_dlpack(x)
    assert back.dtype == a.dtype
    np.testing.assert_array_equal(back, a)
    same(xp.from_dlpack(back, copy=True), a)
    same(xp.from_dlpack(x), a)


def test_to_device():
    x = xp.asarray(A)
    dev = xp.__array_namespace_info__().devices()[0]
    y = x.to_device(dev)
    same(y, A)
    assert y.device == dev
    with pytest.raises(ValueError, match="to_device"):
        x.to_device("no-such-device")
    with pytest.raises(ValueError, match="to_device"):
        x.to_device(dev, stream=1)


def test_array_conversion_is_writable_and_independent():
    x = xp.asarray(A)
    n = np.asarray(x)
    assert n.flags.writeable
    n[0, 0] = 99.0
    same(x, A)
    same(xp.asarray(np.array(x, dtype=np.float32)), A.astype(np.float32))


def test_jax_array_protocol():
    x = xp.asarray(A)
    out = jnp.sin(x)
    np.testing.assert_allclose(np.asarray(out), np.sin(A))
    assert isinstance(x.__jax_array__(), jax.Array)


def test_iter_and_len():
    x = xp.asarray(I8)
    assert len(x) == 2
    rows = list(x)
    assert len(rows) == 2
    for row, expected in zip(rows, I8):
        same(row, expected)
    for fn in (len, iter):
        with pytest.raises(TypeError, match="Array"):
            fn(xp.asarray(1))


@pytest.mark.parametrize("a", [A, I8, U8, B, np.float64(2.5), np.zeros((0, 3)),
                               np.zeros((0,), np.float32), A.astype(np.complex128),
                               np.arange(2000.0), np.int64(7), np.array(True)])
def test_repr_like_numpy(a):
    a = np.asarray(a)
    assert repr(xp.asarray(a)) == "Array" + repr(a)[len("array"):]
    assert str(xp.asarray(a)) == str(a)


@pytest.mark.parametrize("clone", [lambda x: pickle.loads(pickle.dumps(x)), copy.copy,
                                   copy.deepcopy], ids=["pickle", "copy", "deepcopy"])
def test_pickle_copy_deepcopy(clone):
    x = xp.asarray(I8)
    y = clone(x)
    assert y is not x
    same(y, I8)
    x[0, 0] = 100                      # updating the original leaves the clone alone
    same(y, I8)


# ---- pytrees --------------------------------------------------------------------------------
def test_pytree_round_trips():
    x = xp.asarray(A)
    leaves, tree = jax.tree_util.tree_flatten(x)
    assert len(leaves) == 1 and isinstance(leaves[0], jax.Array)
    same(jax.tree_util.tree_unflatten(tree, leaves), A)
    out = jax.jit(lambda v: v * 2 + 1)(x)
    same(out, A * 2 + 1)
    out = jax.vmap(lambda row: -row)(x)
    same(out, -A)
    carry, ys = jax.lax.scan(lambda c, row: (c + row, row * 2), xp.zeros(3), x)
    same(carry, A.sum(axis=0))
    same(ys, A * 2)
    pair = jax.jit(lambda d: {"s": d["a"] + d["b"], "t": d["a"]})({"a": x, "b": x})
    same(pair["s"], A + A)
    same(pair["t"], A)


def test_numpy_behaviours_scipy_relies_on():
    one = xp.asarray([[2.5]])
    assert bool(one) is True and bool(xp.asarray([0.0])) is False   # one element: NumPy's
    with pytest.raises(ValueError, match="ambiguous"):
        bool(xp.asarray([1.0, 2.0]))
    a, b = np.array([True, False, True]), np.array([True, True, False])
    same(xp.asarray(a) + xp.asarray(b), a + b)                      # logical or
    same(xp.asarray(a) * xp.asarray(b), a * b)                      # logical and
    with pytest.raises(TypeError, match="subtract"):
        xp.asarray(a) - xp.asarray(b)                                # NumPy refuses too
    with pytest.raises(xp.AxisError, match="is out of bounds for array of dimension 1"):
        xp.sum(xp.ones(3), axis=2)
    for dtype in (np.int64, np.int32, np.uint8, np.float32):
        x = np.array([[1.5, -2.0], [0.25, 8.0]])
        same(xp.asarray(x).view(dtype), x.view(dtype))
    z = np.array([[1 + 2j, 3 - 4j]])
    v = xp.asarray(z)
    parts = v.view(np.float64)
    same(parts, z.view(np.float64))
    parts[0, 3] = 9.0                                                # writes reach v
    z.view(np.float64)[0, 3] = 9.0
    same(v, z)


def test_dlpack_to_the_host_from_a_device_dlpack_cannot_name(monkeypatch):
    """On a TPU (no DLPack device type) an export asked for the host is a NumPy copy, and
    one for the array's own device a BufferError naming it (as NumPy's from_dlpack expects);
    simulated on the CPU by a device DLPack declines, as jax's TPU arrays do."""
    x = xp.asarray(A)
    monkeypatch.setattr(type(x), "_own_dlpack_device", lambda self: None)
    back = np.from_dlpack(x, device="cpu")
    np.testing.assert_array_equal(back, A)
    assert back.flags.writeable
    with pytest.raises(BufferError, match="__dlpack_device__"):
        x.__dlpack_device__()
    with pytest.raises(BufferError, match="__dlpack"):
        np.from_dlpack(x)
    with pytest.raises(BufferError, match="copy=False"):
        x.__dlpack__(dl_device=(1, 0), copy=False)
    with pytest.raises(BufferError, match=r"\(2, 0\)"):
        x.__dlpack__(dl_device=(2, 0))
