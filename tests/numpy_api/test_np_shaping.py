"""The 'shaping' family of the NumPy surface: jit == eager, bad input, edge cases.

Oracle: NumPy.  Property checks live in laxarray.conformance.specs_numpy_shaping.
"""

import jax
import numpy as np
import pytest

import laxarray as lx

A = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
M = np.arange(12, dtype=np.int32).reshape(3, 4)
V = np.array([3.0, -1.0, 2.5])


def _same(got, expected):
    if isinstance(expected, (tuple, list)):
        assert isinstance(got, (tuple, list)) and len(got) == len(expected)
        for g, e in zip(got, expected):
            _same(g, e)
        return
    expected = np.asarray(expected)
    got_np = np.asarray(got)
    assert got_np.dtype == expected.dtype, (got_np.dtype, expected.dtype)
    assert got_np.shape == expected.shape, (got_np.shape, expected.shape)
    np.testing.assert_array_equal(got_np, expected)


def _close(got, expected, rtol=1e-13):
    got_np = np.asarray(got)
    assert got_np.dtype == np.asarray(expected).dtype
    np.testing.assert_allclose(got_np, expected, rtol=rtol, atol=1e-300)


# ---- under jax.jit: same as eager, same as NumPy ----------------------------------------------
JIT_CASES = {
    "split": (lambda a: lx.split(a, [1, 3], axis=-1), lambda a: np.split(a, [1, 3], axis=-1)),
    "array_split": (lambda a: lx.array_split(a, 3, axis=2),
                    lambda a: np.array_split(a, 3, axis=2)),
    "hsplit": (lambda a: lx.hsplit(a, 3), lambda a: np.hsplit(a, 3)),
    "vsplit": (lambda a: lx.vsplit(a, 2), lambda a: np.vsplit(a, 2)),
    "dsplit": (lambda a: lx.dsplit(a, [1]), lambda a: np.dsplit(a, [1])),
    "hstack": (lambda a: lx.hstack([a, a]), lambda a: np.hstack([a, a])),
    "vstack": (lambda a: lx.vstack([a[0], a[1, 0]]), lambda a: np.vstack([a[0], a[1, 0]])),
    "dstack": (lambda a: lx.dstack([a[0], a[1]]), lambda a: np.dstack([a[0], a[1]])),
    "column_stack": (lambda a: lx.column_stack([a[0, 0], a[1, 1]]),
                     lambda a: np.column_stack([a[0, 0], a[1, 1]])),
    "block": (lambda a: lx.block([[a[0], a[1]], [a[1], a[0]]]),
              lambda a: np.block([[a[0], a[1]], [a[1], a[0]]])),
    "atleast_3d": (lambda a: lx.atleast_3d(a[0, 0], a[0], a),
                   lambda a: np.atleast_3d(a[0, 0], a[0], a)),
    "r_": (lambda a: lx.r_[a[0, 0], 0:3, 7], lambda a: np.r_[a[0, 0], 0:3, 7]),
    "c_": (lambda a: lx.c_[a[0, 0], a[1, 0]], lambda a: np.c_[a[0, 0], a[1, 0]]),
    "diag": (lambda a: lx.diag(a[0], 1), lambda a: np.diag(a[0], 1)),
    "diagflat": (lambda a: lx.diagflat(a[0, :2], -1), lambda a: np.diagflat(a[0, :2], -1)),
    "diagonal": (lambda a: lx.diagonal(a, 1, 2, 0), lambda a: np.diagonal(a, 1, 2, 0)),
    "diag_indices_from": (lambda a: lx.diag_indices_from(a[0, :, :3]),
                          lambda a: np.diag_indices_from(a[0, :, :3])),
    "triu_indices_from": (lambda a: lx.triu_indices_from(a[0], 1),
                          lambda a: np.triu_indices_from(a[0], 1)),
    "fill_diagonal": (lambda a: lx.fill_diagonal(a[0], a[1, 0, :2], inplace=False),
                      lambda a: _np_fill(a[0], a[1, 0, :2])),
    "argwhere": (lambda a: lx.argwhere(a > 20, size=3), lambda a: np.argwhere(a > 20)),
    "flatnonzero": (lambda a: lx.flatnonzero(a > 20, size=3),
                    lambda a: np.flatnonzero(a > 20)),
    "array": (lambda a: lx.array(a[0, 0], lx.float64, ndmin=3),
              lambda a: np.array(a[0, 0], np.float64, ndmin=3)),
    "copy": (lambda a: lx.copy(a), lambda a: np.copy(a)),
    "fromfunction": (lambda a: lx.fromfunction(lambda i, j: i * 4 + j + a[0, 0, 0], (3, 4)),
                     lambda a: np.fromfunction(lambda i, j: i * 4 + j + a[0, 0, 0], (3, 4),
                                               dtype=np.float64).astype(np.float64)),
}


def _np_fill(a, val):
    out = a.copy()
    np.fill_diagonal(out, val)
    return out


@pytest.mark.parametrize("name", sorted(JIT_CASES))
def test_jit_matches_eager_and_numpy(name):
    fn, oracle = JIT_CASES[name]
    x = lx.asarray(A)
    eager = fn(x)
    jitted = jax.jit(fn)(x)
    _same(jitted, eager)
    _same(eager, oracle(A))


def test_jit_index_functions_with_traced_indices():
    idx = (lx.asarray([0, 2, 1]), lx.asarray([3, 0, 1]))
    f = jax.jit(lambda i, j: lx.ravel_multi_index((i, j), (3, 4), order="F"))
    _same(f(*idx), np.ravel_multi_index(([0, 2, 1], [3, 0, 1]), (3, 4), order="F"))
    g = jax.jit(lambda i: lx.unravel_index(i, (3, 4)))
    _same(g(lx.asarray([0, 5, 11])), np.unravel_index([0, 5, 11], (3, 4)))
    h = jax.jit(lambda i, j: lx.ix_(i, j))
    _same(h(*idx), np.ix_([0, 2, 1], [3, 0, 1]))


def test_jit_spacing_with_traced_endpoints():
    f = jax.jit(lambda s, e: lx.logspace(s, e, 5, base=2.0, axis=-1))
    s, e = np.array([0.0, 1.0]), np.array([3.0, -1.0])
    _close(f(lx.asarray(s), lx.asarray(e)), np.logspace(s, e, 5, base=2.0, axis=-1))
    g = jax.jit(lambda s, e: lx.geomspace(s, e, 4))
    _close(g(lx.asarray(s + 1), lx.asarray(e + 2)), np.geomspace(s + 1, e + 2, 4))


def test_traced_out_of_range_indices_are_clipped():
    f = jax.jit(lambda i: lx.ravel_multi_index((i, i), (3, 4)))
    _same(f(lx.asarray([-1, 7])), np.ravel_multi_index(([-1, 7], [-1, 7]), (3, 4),
                                                        mode="clip"))
    g = jax.jit(lambda i: lx.unravel_index(i, (3, 4)))
    _same(g(lx.asarray([-3, 99])), np.unravel_index([0, 11], (3, 4)))


def test_nonzero_positions_see_subnormals_and_signed_zeros_as_numpy():
    # XLA on CPU flushes subnormals in arithmetic; the non-zero test must not
    for x in (np.array([1e-45, np.inf, -0.0], np.float32),
              np.array([0, 1e-45j, -0.0 + 0j], np.complex64), np.array([5e-324, np.nan, 0.0])):
        _same(lx.argwhere(x), np.argwhere(x))
        _same(lx.flatnonzero(x), np.flatnonzero(x))
        expected = np.zeros(2, np.int64)
        found = np.flatnonzero(x)[:2]
        expected[:found.size] = found
        _same(jax.jit(lambda a: lx.flatnonzero(a, size=2))(lx.asarray(x)), expected)


def test_argwhere_size_pads_with_fill_value():
    x = np.array([[0, 1], [2, 0]])
    got = jax.jit(lambda a: lx.argwhere(a, size=4, fill_value=-1))(lx.asarray(x))
    expected = np.full((4, 2), -1)
    expected[:2] = np.argwhere(x)
    _same(got, expected)
    got = lx.flatnonzero(x, size=1)
    _same(got, np.flatnonzero(x)[:1])


# ---- bad input ------------------------------------------------------------------------------
BAD = [
    ("split", lambda: lx.split(lx.arange(5), 2), ValueError),
    ("split", lambda: lx.split(lx.arange(5), 0), ValueError),
    ("split", lambda: lx.split(lx.asarray(1.0), 1), ValueError),
    ("split", lambda: lx.split(lx.arange(5), [1.5]), TypeError),
    ("hsplit", lambda: lx.hsplit(lx.asarray(1.0), 1), ValueError),
    ("vsplit", lambda: lx.vsplit(lx.arange(4), 2), ValueError),
    ("dsplit", lambda: lx.dsplit(lx.ones((2, 2)), 2), ValueError),
    ("hstack", lambda: lx.hstack(lx.asarray(1.0)), TypeError),
    ("hstack", lambda: lx.hstack([]), ValueError),
    ("hstack", lambda: lx.hstack([[1.5]], dtype=lx.int64, casting="same_kind"), TypeError),
    ("vstack", lambda: lx.vstack([lx.ones(2), lx.ones(3)]), ValueError),
    ("vstack", lambda: lx.vstack([lx.ones(2)], casting="bogus"), ValueError),
    ("block", lambda: lx.block((lx.ones(2), lx.ones(2))), TypeError),
    ("block", lambda: lx.block([]), ValueError),
    ("block", lambda: lx.block([[lx.ones(2)], lx.ones(2)]), ValueError),
    ("r_", lambda: lx.r_["bogus", 1:3], ValueError),
    ("r_", lambda: lx.r_[1:3, "0"], ValueError),
    ("r_", lambda: lx.r_[1:3:0], ValueError),
    ("r_", lambda: lx.r_[()], ValueError),
    ("c_", lambda: lx.c_[lx.ones(2), lx.ones(3)], ValueError),
    ("mgrid", lambda: lx.mgrid[0:3, 1], TypeError),
    ("mgrid", lambda: lx.mgrid[0:"a"], TypeError),
    ("ix_", lambda: lx.ix_(lx.ones((2, 2))), ValueError),
    ("indices", lambda: lx.indices((2, -1)), ValueError),
    ("diag", lambda: lx.diag(lx.ones((2, 2, 2))), ValueError),
    ("diag", lambda: lx.diag(lx.ones(2), 1.5), TypeError),
    ("diagonal", lambda: lx.diagonal(lx.ones(3)), ValueError),
    ("diagonal", lambda: lx.diagonal(lx.ones((2, 2)), 0, 1, -1), ValueError),
    ("diagonal", lambda: lx.diagonal(lx.ones((2, 2)), 0, 0, 2), lx.AxisError),
    ("diag_indices_from", lambda: lx.diag_indices_from(lx.ones((2, 3))), ValueError),
    ("tri", lambda: lx.tri(-1), ValueError),
    ("tril_indices", lambda: lx.tril_indices(3, 0.5), TypeError),
    ("tril_indices_from", lambda: lx.tril_indices_from(lx.ones(3)), ValueError),
    ("mask_indices", lambda: lx.mask_indices(3, "triu"), TypeError),
    ("fill_diagonal", lambda: lx.fill_diagonal(lx.ones(3), 1.0), ValueError),
    ("fill_diagonal", lambda: lx.fill_diagonal(lx.ones((2, 2, 3)), 1.0), ValueError),
    ("ravel_multi_index", lambda: lx.ravel_multi_index(([1],), (2, 2)), ValueError),
    ("ravel_multi_index", lambda: lx.ravel_multi_index(([1], [2]), (2, 2)), ValueError),
    ("ravel_multi_index", lambda: lx.ravel_multi_index(([1.0], [0]), (2, 2)), TypeError),
    ("ravel_multi_index", lambda: lx.ravel_multi_index(([1], [0]), (2, 2), mode="x"),
     ValueError),
    ("ravel_multi_index", lambda: lx.ravel_multi_index(([1], [0]), (2, 2), order="K"),
     ValueError),
    ("unravel_index", lambda: lx.unravel_index(4, (2, 2)), ValueError),
    ("unravel_index", lambda: lx.unravel_index(-1, (2, 2)), ValueError),
    ("unravel_index", lambda: lx.unravel_index(1.0, (2, 2)), TypeError),
    ("argwhere", lambda: jax.jit(lx.argwhere)(lx.ones(3)), ValueError),
    ("flatnonzero", lambda: lx.flatnonzero(lx.ones(3), size=-1), ValueError),
    ("array", lambda: lx.array([1, 2], copy=False), ValueError),
    ("array", lambda: lx.array([1, 2], dtype=object), TypeError),
    ("array", lambda: lx.array([1, 2], ndmin=-1), ValueError),
    ("copy", lambda: lx.copy([1], order="Z"), ValueError),
    ("identity", lambda: lx.identity(2.0), TypeError),
    ("geomspace", lambda: lx.geomspace(0, 10, 3), ValueError),
    ("geomspace", lambda: lx.geomspace(1, 10, -3), ValueError),
    ("logspace", lambda: lx.logspace(0, 1, 3, endpoint=1), TypeError),
    ("logspace", lambda: lx.logspace(0, 1, 3, axis=2), lx.AxisError),
    ("fromfunction", lambda: lx.fromfunction(3, (2, 2)), TypeError),
]


@pytest.mark.parametrize("name,call,exc", BAD, ids=[f"{n}-{i}" for i, (n, _, _) in
                                                    enumerate(BAD)])
def test_bad_input_names_the_function(name, call, exc):
    with pytest.raises(exc, match=rf"^{name}:"):
        call()


def test_ix_traced_boolean_needs_concrete_values():
    with pytest.raises(TypeError, match="^ix_:"):
        jax.jit(lambda m: lx.ix_(m))(lx.asarray([True, False]))


def test_grid_slice_fields_must_be_static():
    with pytest.raises(TypeError, match="^mgrid:"):
        jax.jit(lambda n: lx.mgrid[0:n])(lx.asarray(3))


# ---- edge cases -----------------------------------------------------------------------------
def test_split_with_array_indices_and_out_of_range_points():
    x = np.arange(10)
    _same(lx.split(lx.asarray(x), np.array([3, -2, 20])), np.split(x, np.array([3, -2, 20])))
    _same(lx.array_split(lx.asarray(x), 4), np.array_split(x, 4))
    _same(lx.array_split(lx.asarray(x), 12), np.array_split(x, 12))


@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")  # NumPy's 'r'/'c' matrices
def test_r_and_c_directives():
    a, b = np.array([1, 2, 3]), np.array([4, 5, 6])
    for key in [("0,2", a, b), ("1,2", a, b), ("0,2,0", a, b), ("-1,3,0", a, b), ("1", M, M),
                (a, 0, b, 7.5), (np.float32(1), np.array([2], np.float32)),
                (slice(0, 1, 4j), 5), (slice(3, 0, -1), a)]:
        lx_key = tuple(lx.asarray(k) if isinstance(k, np.ndarray) else k for k in key)
        _same(lx.r_[lx_key], np.r_[key])
    _same(lx.c_[a, b, 0:3], np.c_[a, b, 0:3])
    _same(lx.c_[M, M], np.c_[M, M])
    # 'r'/'c' give NumPy's matrix shapes, as plain 2-D arrays
    _same(lx.r_["r", a, b], np.asarray(np.r_["r", a, b]))
    _same(lx.r_["c", a, b], np.asarray(np.r_["c", a, b]))
    assert len(lx.r_) == 0 and len(lx.c_) == 0


def test_grids_and_index_expressions():
    keys = [(slice(0, 3), slice(-1, 1, 0.5)), (slice(0, 1, 5j), slice(2, 3, 1j)),
            (slice(2),), (slice(3, 0, -1), slice(0, 0))]
    for key in keys:
        _close(lx.mgrid[key], np.mgrid[key], rtol=1e-15)
        for g, e in zip(lx.ogrid[key], np.ogrid[key]):
            _close(g, e, rtol=1e-15)
    for key in (slice(1, 2, 3j), slice(1, 2, 1j), slice(0, 5, 2), slice(0.5, 2.5)):
        _close(lx.mgrid[key], np.mgrid[key])
        _close(lx.ogrid[key], np.ogrid[key])
    assert lx.s_[1:3, ..., None] == np.s_[1:3, ..., None]
    assert lx.index_exp[2] == np.index_exp[2] == (2,)
    assert lx.s_[::2] == slice(None, None, 2)


def test_ix_with_booleans_and_empty_sequences():
    got = lx.ix_([True, False, True], [], np.array([], np.int8), lx.asarray([2, 0]))
    _same(got, np.ix_([True, False, True], [], np.array([], np.int8), [2, 0]))
    x = np.arange(20).reshape(4, 5)
    _same(lx.asarray(x)[lx.ix_([0, 3], [1, 2, 4])], x[np.ix_([0, 3], [1, 2, 4])])


def test_indices_and_fromfunction():
    _same(lx.indices((2, 0, 3)), np.indices((2, 0, 3)))
    _same(lx.indices(()), np.indices(()))
    _same(lx.indices((2, 3), dtype=lx.float32, sparse=True),
          np.indices((2, 3), dtype=np.float32, sparse=True))
    f = lambda i, j, k, scale: (i - j) * k * scale  # noqa: E731
    _same(lx.fromfunction(f, (2, 3, 2), dtype=lx.int32, scale=3),
          np.fromfunction(f, (2, 3, 2), dtype=np.int32, scale=3))


def test_fill_diagonal_in_place_or_as_a_new_array():
    a = lx.zeros((3, 3), dtype=lx.int16)
    out = lx.fill_diagonal(a, [1, 2], inplace=False)
    _same(a, np.zeros((3, 3), np.int16))
    _same(out, _np_fill(np.zeros((3, 3), np.int16), [1, 2]))
    assert lx.fill_diagonal(a, [1, 2]) is None        # NumPy's default: in place
    _same(a, _np_fill(np.zeros((3, 3), np.int16), [1, 2]))
    for shape, wrap in [((7, 3), True), ((7, 3), False), ((3, 6), True), ((3, 3, 3), False)]:
        expected = np.zeros(shape)
        np.fill_diagonal(expected, [5.0, 6.0, 7.0, 8.0], wrap=wrap)
        _same(lx.fill_diagonal(lx.zeros(shape), lx.asarray([5.0, 6.0, 7.0, 8.0]), wrap=wrap,
                               inplace=False), expected)
    _same(lx.fill_diagonal(lx.ones((2, 2)), [], inplace=False), np.ones((2, 2)))


def test_diag_family_and_triangles():
    for k in (-4, 0, 2):  # beyond the edge, main, above
        _same(lx.diag(M, k), np.diag(M, k))
        _same(lx.diag(V, k), np.diag(V, k))
    for k in (-1, 5):
        _same(lx.tril_indices(4, k, 3), np.tril_indices(4, k, 3))
        _same(lx.triu_indices(3, k), np.triu_indices(3, k))
    _same(lx.diag_indices(3, 4), np.diag_indices(3, 4))
    _same(lx.tri(3), np.tri(3))
    _same(lx.mask_indices(4, np.triu, 1), np.mask_indices(4, np.triu, 1))
    _same(lx.mask_indices(3, lx.tril, -1), np.mask_indices(3, np.tril, -1))
    _same(lx.diagonal(A, -1, -1, -2), np.diagonal(A, -1, -1, -2))
    _same(lx.linalg.diagonal(lx.asarray(A)), np.diagonal(A, 0, -2, -1))  # standard's form


def test_stacking_promotion_and_dtype_keyword():
    _same(lx.hstack([np.int8([1]), np.uint8([2])]), np.hstack([np.int8([1]), np.uint8([2])]))
    _same(lx.vstack([[1, 2], [3.5, 4]], dtype=lx.float32),
          np.vstack([[1, 2], [3.5, 4]], dtype=np.float32))
    _same(lx.hstack([[1.7, -2.2]], dtype=lx.int32, casting="unsafe"),
          np.hstack([[1.7, -2.2]], dtype=np.int32, casting="unsafe"))
    _same(lx.column_stack([1, np.array([2])]), np.column_stack([1, np.array([2])]))
    _same(lx.block(3), np.block(3))
    _same(lx.block([1, [2, 3]][0:1] + [np.array([4.5])]), np.block([1, np.array([4.5])]))
    _same(lx.block([[np.ones((1, 2, 2))], [np.zeros((1, 1, 2))]]),
          np.block([[np.ones((1, 2, 2))], [np.zeros((1, 1, 2))]]))
    _same(lx.atleast_1d(5), np.atleast_1d(5))
    _same(lx.atleast_2d(5, [1, 2]), np.atleast_2d(5, [1, 2]))


def test_ravel_and_unravel_modes_orders():
    idx = (np.array([[3, -4], [0, 2]]), np.array([5, -1]))
    for mode in ("wrap", "clip", ("clip", "wrap")):
        for order in ("C", "F"):
            _same(lx.ravel_multi_index(tuple(lx.asarray(i) for i in idx), (3, 4), mode=mode,
                                       order=order),
                  np.ravel_multi_index(idx, (3, 4), mode=mode, order=order))
    _same(lx.ravel_multi_index((1, 2), (3, 4)), np.ravel_multi_index((1, 2), (3, 4)))
    _same(lx.unravel_index(np.uint8(17), (2, 3, 4), order="F"),
          np.unravel_index(np.uint8(17), (2, 3, 4), order="F"))
    _same(lx.unravel_index(lx.asarray([[0, 23]]), (2, 3, 4)),
          np.unravel_index([[0, 23]], (2, 3, 4)))
    _same(lx.argwhere(np.float32(0.0)), np.argwhere(np.float32(0.0)))
    _same(lx.argwhere(7), np.argwhere(7))
    _same(lx.argwhere(np.zeros((2, 0))), np.argwhere(np.zeros((2, 0))))


def test_creation_functions():
    base = np.array([[1, 2]], np.int8)
    _same(lx.array(base), np.array(base))
    _same(lx.array([[1, 2]], ndmin=3, dtype=lx.complex64),
          np.array([[1, 2]], ndmin=3, dtype=np.complex64))
    _same(lx.array(True), np.array(True))
    x = lx.asarray([1.0, 2.0])
    assert lx.array(x, copy=False) is x
    src = np.array([1.0, 2.0])
    c = lx.copy(src)
    src[0] = 9.0
    _same(c, np.array([1.0, 2.0]))
    _same(lx.identity(3, dtype=lx.bool), np.identity(3, dtype=bool))
    _same(lx.identity(0), np.identity(0))
    for s, e in [(1, 1000), (-1, -16), (1j, 1000j), (2 + 2j, 10 - 1j), (8, 1)]:
        for endpoint in (True, False):
            _close(lx.geomspace(s, e, 5, endpoint=endpoint),
                   np.geomspace(s, e, 5, endpoint=endpoint), rtol=1e-12)
    _close(lx.geomspace(np.float32(1), np.float32(8), 4, dtype=lx.float32),
           np.geomspace(np.float32(1), np.float32(8), 4, dtype=np.float32), rtol=1e-6)
    # float -> int truncates: values that NumPy computes a hair below an integer may land
    # on either side here, as in NumPy across platforms
    got = lx.geomspace(1, 256, 9, dtype=lx.int64)
    assert got.dtype == lx.int64
    assert np.abs(np.asarray(got) - np.geomspace(1, 256, 9, dtype=np.int64)).max() <= 1
    _close(lx.logspace(0, [1, 2], 3, base=[2, 3], axis=1),
           np.logspace(0, [1, 2], 3, base=[2, 3], axis=1))
    _close(lx.logspace(np.float32(0), np.float32(1), 4),
           np.logspace(np.float32(0), np.float32(1), 4), rtol=1e-6)
    _close(lx.logspace(0, 1j, 4), np.logspace(0, 1j, 4), rtol=1e-12)
    _same(lx.logspace(0, 2, 0), np.logspace(0, 2, 0))
