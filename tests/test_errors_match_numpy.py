"""Bad calls raise the class NumPy raises (or a subclass of it), and never a jax error.

Each case is written once as ``f(ns)`` and run on NumPy and on laxarray with the same
inputs; the table holds only calls that NumPy refuses.  laxarray's error may be a subclass
that is also the standard's (``AxisError`` is a ``ValueError`` and an ``IndexError``,
``IndexTypeError`` an ``IndexError`` and a ``TypeError``...), and its message must name the
function (``"name: ..."``).
"""

import numpy as np
import pytest

import laxarray as xp


def _arrays(ns):
    a = ns.asarray(np.arange(6.0).reshape(2, 3))
    i = ns.asarray(np.arange(6).reshape(2, 3))
    v = ns.asarray(np.arange(4.0))
    b = ns.asarray(np.array([True, False, True]))
    return a, i, v, b


CASES = {
    # shapes and broadcasting
    "add-shapes": lambda ns, a, i, v, b: ns.add(a, v),
    "multiply-shapes": lambda ns, a, i, v, b: ns.multiply(a, ns.ones((3, 2))),
    "where-shapes": lambda ns, a, i, v, b: ns.where(b, a, v),
    "matmul-inner": lambda ns, a, i, v, b: ns.matmul(a, a),
    "matmul-scalar": lambda ns, a, i, v, b: ns.matmul(a, 2.0),
    "matmul-vectors": lambda ns, a, i, v, b: ns.matmul(v, ns.ones(3)),
    "reshape-size": lambda ns, a, i, v, b: ns.reshape(a, (4,)),
    "reshape-two-unknown": lambda ns, a, i, v, b: ns.reshape(a, (-1, -1)),
    "broadcast_to-shape": lambda ns, a, i, v, b: ns.broadcast_to(a, (3, 3)),
    "broadcast_to-fewer": lambda ns, a, i, v, b: ns.broadcast_to(a, (3,)),
    "broadcast_arrays": lambda ns, a, i, v, b: ns.broadcast_arrays(a, v),
    "broadcast_shapes": lambda ns, a, i, v, b: ns.broadcast_shapes((2, 3), (4,)),
    "concat-shapes": lambda ns, a, i, v, b: ns.concatenate([a, v], axis=0),
    "concat-ranks": lambda ns, a, i, v, b: ns.concatenate([a, ns.ones(3)], axis=0),
    "concat-empty": lambda ns, a, i, v, b: ns.concatenate([], axis=0),
    "stack-shapes": lambda ns, a, i, v, b: ns.stack([a, v]),
    "stack-empty": lambda ns, a, i, v, b: ns.stack([]),
    "squeeze-not-one": lambda ns, a, i, v, b: ns.squeeze(a, axis=0),
    "tensordot-axes": lambda ns, a, i, v, b: ns.tensordot(a, a, axes=3),
    "tensordot-sizes": lambda ns, a, i, v, b: ns.tensordot(a, a, axes=([1], [0])),
    "vecdot-sizes": lambda ns, a, i, v, b: ns.vecdot(a, v),
    "tile-negative": lambda ns, a, i, v, b: ns.tile(a, -1),
    "repeat-negative": lambda ns, a, i, v, b: ns.repeat(v, -1),
    "repeat-counts": lambda ns, a, i, v, b: ns.repeat(v, [1, 2]),
    "take_along_axis-rank": lambda ns, a, i, v, b: ns.take_along_axis(a, ns.asarray([0]),
                                                                      axis=1),
    # axes
    "sum-axis": lambda ns, a, i, v, b: ns.sum(a, axis=2),
    "sum-axis-negative": lambda ns, a, i, v, b: ns.sum(a, axis=-3),
    "sum-axis-repeated": lambda ns, a, i, v, b: ns.sum(a, axis=(0, 0)),
    "mean-axis": lambda ns, a, i, v, b: ns.mean(a, axis=5),
    "max-axis": lambda ns, a, i, v, b: ns.max(a, axis=2),
    "argmax-axis": lambda ns, a, i, v, b: ns.argmax(a, axis=2),
    "cumsum-axis": lambda ns, a, i, v, b: ns.cumsum(a, axis=3),
    "sort-axis": lambda ns, a, i, v, b: ns.sort(a, axis=2),
    "argsort-axis": lambda ns, a, i, v, b: ns.argsort(a, axis=-3),
    "flip-axis": lambda ns, a, i, v, b: ns.flip(a, axis=2),
    "expand_dims-axis": lambda ns, a, i, v, b: ns.expand_dims(a, axis=4),
    "squeeze-axis": lambda ns, a, i, v, b: ns.squeeze(a, axis=3),
    "moveaxis-axis": lambda ns, a, i, v, b: ns.moveaxis(a, 0, 5),
    "moveaxis-repeated": lambda ns, a, i, v, b: ns.moveaxis(a, (0, 0), (0, 1)),
    "swapaxes-axis": lambda ns, a, i, v, b: ns.swapaxes(a, 0, 2),
    "concat-axis": lambda ns, a, i, v, b: ns.concatenate([a, a], axis=2),
    "stack-axis": lambda ns, a, i, v, b: ns.stack([a, a], axis=4),
    "diff-axis": lambda ns, a, i, v, b: ns.diff(a, axis=2),
    "take-axis": lambda ns, a, i, v, b: ns.take(a, ns.asarray([0]), axis=2),
    "transpose-axes": lambda ns, a, i, v, b: ns.transpose(a, (0, 0)),
    "var-axis": lambda ns, a, i, v, b: ns.var(a, axis=2),
    "any-axis": lambda ns, a, i, v, b: ns.any(a, axis=2),
    "prod-axis": lambda ns, a, i, v, b: ns.prod(a, axis=-4),
    "count_nonzero-axis": lambda ns, a, i, v, b: ns.count_nonzero(a, axis=2),
    "linalg.norm-axis": lambda ns, a, i, v, b: ns.linalg.norm(a, axis=2),
    "fft.fft-axis": lambda ns, a, i, v, b: ns.fft.fft(a, axis=2),
    # indexing
    "getitem-range": lambda ns, a, i, v, b: a[2],
    "getitem-range-negative": lambda ns, a, i, v, b: a[0, -4],
    "getitem-too-many": lambda ns, a, i, v, b: a[0, 0, 0],
    "getitem-float": lambda ns, a, i, v, b: a[1.0],
    "getitem-float-step": lambda ns, a, i, v, b: a[::1.5],
    "getitem-zero-step": lambda ns, a, i, v, b: a[::0],
    "getitem-two-ellipsis": lambda ns, a, i, v, b: a[..., ...],
    "getitem-index-array-range": lambda ns, a, i, v, b: v[ns.asarray([0, 9])],
    "getitem-float-index-array": lambda ns, a, i, v, b: v[ns.asarray([0.5])],
    "getitem-mask-shape": lambda ns, a, i, v, b: a[b],
    "getitem-string": lambda ns, a, i, v, b: a["x"],
    "setitem-range": lambda ns, a, i, v, b: a.__setitem__(5, 1.0),
    "setitem-shape": lambda ns, a, i, v, b: a.__setitem__(0, ns.ones(4)),
    "setitem-complex": lambda ns, a, i, v, b: a.__setitem__(0, 1j),
    "take-range": lambda ns, a, i, v, b: ns.take(v, ns.asarray([7])),
    "take-float": lambda ns, a, i, v, b: ns.take(v, ns.asarray([0.5])),
    "put-range": lambda ns, a, i, v, b: ns.put(ns.zeros(3), [5], [1.0]),
    # dtypes and kinds
    "bitwise_and-float": lambda ns, a, i, v, b: ns.bitwise_and(a, a),
    "bitwise_or-float": lambda ns, a, i, v, b: ns.bitwise_or(v, 1.0),
    "invert-float": lambda ns, a, i, v, b: ns.invert(a),
    "left_shift-float": lambda ns, a, i, v, b: ns.left_shift(a, 1),
    "subtract-bool": lambda ns, a, i, v, b: ns.subtract(b, b),
    "negative-bool": lambda ns, a, i, v, b: ns.negative(b),
    "floor_divide-complex": lambda ns, a, i, v, b: ns.floor_divide(a + 1j, a),
    "remainder-complex": lambda ns, a, i, v, b: ns.remainder(a + 1j, 2.0),
    "astype-bad": lambda ns, a, i, v, b: a.astype("nope"),
    "zeros-bad-dtype": lambda ns, a, i, v, b: ns.zeros(3, dtype="nope"),
    "asarray-bad-dtype": lambda ns, a, i, v, b: ns.asarray([1], dtype="nope"),
    "arange-zero-step": lambda ns, a, i, v, b: ns.arange(0, 10, 0),
    "arange-huge": lambda ns, a, i, v, b: ns.arange(1e20),
    "full-bad-shape": lambda ns, a, i, v, b: ns.full((2, -1), 0.0),
    "zeros-negative": lambda ns, a, i, v, b: ns.zeros((-1,)),
    "ones-float-shape": lambda ns, a, i, v, b: ns.ones((2.5,)),
    "empty-string-shape": lambda ns, a, i, v, b: ns.empty("3"),
    "eye-negative": lambda ns, a, i, v, b: ns.eye(-1),
    "linspace-negative-num": lambda ns, a, i, v, b: ns.linspace(0, 1, -2),
    "asarray-ragged": lambda ns, a, i, v, b: ns.asarray([[1, 2], [3]]),
    "asarray-object": lambda ns, a, i, v, b: ns.asarray([{}], dtype=float),
    "iinfo-float": lambda ns, a, i, v, b: ns.iinfo(np.float64),
    "finfo-int": lambda ns, a, i, v, b: ns.finfo(np.int64),
    # values and scalars
    "bool-of-many": lambda ns, a, i, v, b: bool(a),
    "int-of-many": lambda ns, a, i, v, b: int(a),
    "float-of-many": lambda ns, a, i, v, b: float(v),
    "index-of-float": lambda ns, a, i, v, b: ns.asarray(2.0).__index__(),
    "len-of-0d": lambda ns, a, i, v, b: len(ns.asarray(2.0)),
    "iter-of-0d": lambda ns, a, i, v, b: iter(ns.asarray(2.0)),
    "max-empty": lambda ns, a, i, v, b: ns.max(ns.zeros((0,))),
    "min-empty-axis": lambda ns, a, i, v, b: ns.min(ns.zeros((0, 3)), axis=0),
    "argmax-empty": lambda ns, a, i, v, b: ns.argmax(ns.zeros((0,))),
    "searchsorted-side": lambda ns, a, i, v, b: ns.searchsorted(v, 1.0, side="middle"),
    "linalg.inv-nonsquare": lambda ns, a, i, v, b: ns.linalg.inv(a),
    "linalg.det-1d": lambda ns, a, i, v, b: ns.linalg.det(v),
    "linalg.cholesky-nonsquare": lambda ns, a, i, v, b: ns.linalg.cholesky(a),
    "linalg.solve-shapes": lambda ns, a, i, v, b: ns.linalg.solve(ns.eye(3), v),
    "linalg.matrix_power-nonsquare": lambda ns, a, i, v, b: ns.linalg.matrix_power(a, 2),
    "linalg.matrix_power-float": lambda ns, a, i, v, b: ns.linalg.matrix_power(ns.eye(2), 1.5),
    "linalg.qr-mode": lambda ns, a, i, v, b: ns.linalg.qr(a, mode="nope"),
    "linalg.norm-ord": lambda ns, a, i, v, b: ns.linalg.norm(a, ord="nope"),
    "fft.fft-n": lambda ns, a, i, v, b: ns.fft.fft(v, n=0),
    "fft.fft-norm": lambda ns, a, i, v, b: ns.fft.fft(v, norm="nope"),
    "pad-mode": lambda ns, a, i, v, b: ns.pad(v, 1, mode="nope"),
    "pad-negative": lambda ns, a, i, v, b: ns.pad(v, -1),
    "histogram-bins": lambda ns, a, i, v, b: ns.histogram(v, bins=-1),
    "bincount-negative": lambda ns, a, i, v, b: ns.bincount(ns.asarray([-1, 2])),
    "bincount-float": lambda ns, a, i, v, b: ns.bincount(v),
    "percentile-range": lambda ns, a, i, v, b: ns.percentile(v, 150),
    "quantile-method": lambda ns, a, i, v, b: ns.quantile(v, 0.5, method="nope"),
    "einsum-operands": lambda ns, a, i, v, b: ns.einsum("ij,jk->ik", a),
    "einsum-shapes": lambda ns, a, i, v, b: ns.einsum("ij,jk->ik", a, a),
    "einsum-one-int": lambda ns, a, i, v, b: ns.einsum(3),
    "einsum-no-arguments": lambda ns, a, i, v, b: ns.einsum(),
    "einsum-no-operand": lambda ns, a, i, v, b: ns.einsum("ij"),
    "einsum-int-sublist": lambda ns, a, i, v, b: ns.einsum(v, 5),
    "split-uneven": lambda ns, a, i, v, b: ns.split(v, 3),
    "diagonal-same-axes": lambda ns, a, i, v, b: ns.diagonal(a, 0, 1, 1),
    "diag-3d": lambda ns, a, i, v, b: ns.diag(ns.ones((2, 2, 2))),
    "trace-1d": lambda ns, a, i, v, b: ns.trace(v),
    "cross-sizes": lambda ns, a, i, v, b: ns.cross(v, v),
    "convolve-empty": lambda ns, a, i, v, b: ns.convolve(ns.zeros(0), v),
    "polyval-2d": lambda ns, a, i, v, b: ns.polyfit(v, v, -1),
    "unravel_index-range": lambda ns, a, i, v, b: ns.unravel_index(10, (2, 3)),
    "ravel_multi_index-range": lambda ns, a, i, v, b: ns.ravel_multi_index((2, 0), (2, 3)),
}


def _raise(ns, fn):
    with np.errstate(all="ignore"):
        try:
            fn(ns, *_arrays(ns))
        except Exception as exc:  # noqa: BLE001  (the class is the point)
            return exc
    return None


def test_table_is_large_and_numpy_refuses_every_case():
    assert len(CASES) >= 100
    accepted = [k for k, f in CASES.items() if _raise(np, f) is None]
    assert accepted == [], f"NumPy accepts these: the table is for calls it refuses: {accepted}"


@pytest.mark.parametrize("name", sorted(CASES))
def test_bad_call_raises_numpys_class(name):
    expected = _raise(np, CASES[name])
    got = _raise(xp, CASES[name])
    assert got is not None, f"{name}: laxarray accepted a call NumPy refuses ({expected!r})"
    assert isinstance(got, type(expected)), (
        f"{name}: laxarray raised {type(got).__name__} ({got}); NumPy {type(expected).__name__}")
    assert not type(got).__module__.startswith(("jax", "jaxlib")), got
    assert ":" in str(got).split("\n")[0], f"{name}: message names no function: {got}"
