"""The ``standard`` workload: each function of the Array API namespace on small inputs.

One task is one function on one dtype, called on every shape of its family: elementwise
functions and reductions on 1-D lengths that fall in the buckets 1..256 (:data:`LENGTHS`)
and a few 2-D bucket shapes (:data:`MATRICES`); linear algebra, which runs on exact shapes,
on small square matrices (:data:`SQUARE`).  Inputs are drawn where every function is defined
(floats in [0.1, 0.9], integers in 1..5); a call that raises is counted, not fatal.
"""

from __future__ import annotations

import functools

import numpy as np

import laxarray.array_api as xp
import laxarray.linalg as linalg
from laxarray.precompile.task import Task, device_dtypes
from laxarray._core import dtypes as _dt

#: 1-D lengths: one in each bucket 1, 2, 4, ..., 256.
LENGTHS = (1, 2, 3, 5, 9, 17, 33, 65, 129)
#: 2-D shapes: the buckets 8x8, 16x4, 64x8.
MATRICES = ((8, 8), (16, 4), (33, 5))
#: Square matrices for linear algebra (exact shapes: each size compiles its own programs).
SQUARE = (2, 3, 4, 5, 8, 10)
#: Tall matrices for least squares and decompositions.
TALL = ((16, 4), (33, 5))

#: Dtypes: float32 for the common functions only, bool where it is the natural input.
FLOAT = ("float64", "float32")
F64 = ("float64",)
REAL = ("float64", "float32", "int64")
F64_INT = ("float64", "int64")
INT = ("int64",)
BOOL = ("bool",)
ANY = ("float64", "float32", "int64", "bool")

SHAPES = tuple((n,) for n in LENGTHS) + MATRICES


@functools.lru_cache(maxsize=None)
def _host(dtype, shape, seed=0):
    """A NumPy input of ``dtype`` and ``shape`` where every function is defined."""
    rng = np.random.default_rng(seed + 7 * len(shape) + sum(shape))
    if dtype == "bool":
        return rng.random(shape) < 0.5
    if dtype == "int64":
        return rng.integers(1, 6, shape).astype(_dt.default_index())
    return rng.uniform(0.1, 0.9, shape).astype(dtype)


@functools.lru_cache(maxsize=None)
def _data(dtype, shape, seed=0):
    """A laxarray input (made once per worker: arrays are immutable values)."""
    return xp.asarray(_host(dtype, shape, seed))


def _square(dtype, n, spd=False):
    """A well-conditioned ``n x n`` matrix (symmetric positive definite where ``spd``)."""
    a = _host(dtype, (n, n)) - np.asarray(0.5, dtype)
    a = a @ a.T + n * np.eye(n, dtype=dtype) if spd else a + n * np.eye(n, dtype=dtype)
    return xp.asarray(a.astype(dtype))


def _unary(fn):
    return lambda dtype: [lambda s=s: fn(_data(dtype, s)) for s in SHAPES]


def _binary(fn):
    return lambda dtype: [lambda s=s: fn(_data(dtype, s), _data(dtype, s, 1)) for s in SHAPES]


def _with_scalar(fn):
    def calls(dtype):
        scalar = 2 if dtype == "int64" else 0.5
        return [lambda s=s: fn(_data(dtype, s), scalar) for s in SHAPES]
    return calls


def _reduction(fn):
    """``fn`` over the whole of every input, and along each axis of the 2-D ones."""
    def calls(dtype):
        out = [lambda s=s: fn(_data(dtype, s)) for s in SHAPES[:len(LENGTHS)]]
        out += [lambda s=s, a=a: fn(_data(dtype, s), axis=a)
                for s in MATRICES for a in (None, 0, -1)]
        return out
    return calls


def _along_axes(fn):
    """``fn`` with an explicit axis: 1-D along 0, 2-D along 0 and -1."""
    def calls(dtype):
        out = [lambda s=s: fn(_data(dtype, s), axis=0) for s in SHAPES[:len(LENGTHS)]]
        out += [lambda s=s, a=a: fn(_data(dtype, s), axis=a) for s in MATRICES for a in (0, -1)]
        return out
    return calls


def _each_shape(make):
    """``make(x)`` for the input ``x`` of every shape."""
    return lambda dtype: [lambda s=s: make(_data(dtype, s)) for s in SHAPES]


def _creation(make):
    """``make(shape, dtype)`` for every shape."""
    return lambda dtype: [lambda s=s: make(s, np.dtype(dtype)) for s in SHAPES]


def _setitem(x):
    y = xp.asarray(x, copy=True)
    y[0] = y[-1]
    return y


def _where(dtype):
    return [lambda s=s: xp.where(_data("bool", s), _data(dtype, s), _data(dtype, s, 1))
            for s in SHAPES]


def _mask(dtype):
    return [lambda s=s: _data(dtype, s)[_data("bool", s)] for s in SHAPES]


def _searchsorted(x):
    flat = xp.reshape(x, (-1,))
    return xp.searchsorted(xp.sort(flat), flat)


def _take(x):
    return xp.take(x, xp.asarray(np.arange(x.shape[0])[::-1].copy()), axis=0)


def _other_dtype(dtype):
    return _dt.on_device({"float64": "float32", "float32": "float64", "int64": "float64",
                          "bool": "int64"}[dtype])


ELEMENTWISE = (
    (_unary, FLOAT, (xp.exp, xp.log, xp.sqrt, xp.sin, xp.cos, xp.tanh, xp.isnan, xp.isfinite)),
    (_unary, F64, (xp.acos, xp.acosh, xp.asin, xp.asinh, xp.atan, xp.atanh, xp.cosh, xp.expm1,
                   xp.log1p, xp.log2, xp.log10, xp.sinh, xp.tan, xp.isinf, xp.signbit,
                   xp.reciprocal)),
    (_unary, REAL, (xp.abs, xp.negative, xp.square)),
    (_unary, FLOAT, (xp.sign, xp.ceil, xp.floor, xp.round)),
    (_unary, F64, (xp.trunc,)),
    (_unary, BOOL, (xp.logical_not,)),
    (_unary, INT, (xp.bitwise_invert,)),
    (_binary, F64, (xp.atan2, xp.copysign, xp.hypot, xp.logaddexp, xp.nextafter)),
    (_binary, REAL, (xp.add, xp.subtract, xp.multiply, xp.divide, xp.pow, xp.maximum,
                     xp.equal, xp.less, xp.greater)),
    (_binary, F64_INT, (xp.minimum, xp.not_equal, xp.less_equal, xp.greater_equal,
                        xp.remainder, xp.floor_divide)),
    (_binary, BOOL, (xp.logical_and, xp.logical_or, xp.logical_xor)),
    (_binary, INT, (xp.bitwise_and, xp.bitwise_or, xp.bitwise_xor, xp.bitwise_left_shift,
                    xp.bitwise_right_shift)),
    (_with_scalar, REAL, (xp.add, xp.subtract, xp.multiply, xp.less, xp.greater, xp.equal)),
    (_with_scalar, FLOAT, (xp.divide, xp.pow)),
)

REDUCTIONS = (
    (_reduction, REAL, (xp.sum, xp.max, xp.min)),
    (_reduction, F64_INT, (xp.prod, xp.argmax, xp.argmin, xp.count_nonzero)),
    (_reduction, FLOAT, (xp.mean, xp.std, xp.var)),
    (_reduction, BOOL, (xp.any, xp.all)),
    (_along_axes, REAL, (xp.sort, xp.argsort)),
    (_along_axes, F64_INT, (xp.cumulative_sum,)),
)

#: (name, dtypes, calls(dtype)) of the rest of the namespace
OTHERS = (
    ("where", REAL, _where),
    ("nonzero", ANY, _each_shape(xp.nonzero)),
    ("searchsorted", F64_INT, _each_shape(_searchsorted)),
    ("unique_values", REAL, _each_shape(xp.unique_values)),
    ("unique_counts", F64_INT, _each_shape(xp.unique_counts)),
    ("unique_inverse", F64_INT, _each_shape(xp.unique_inverse)),
    ("unique_all", F64_INT, _each_shape(xp.unique_all)),
    ("zeros", F64_INT, _creation(lambda s, d: xp.zeros(s, dtype=d))),
    ("ones", F64_INT, _creation(lambda s, d: xp.ones(s, dtype=d))),
    ("full", F64_INT, _creation(lambda s, d: xp.full(s, 1, dtype=d))),
    ("arange", REAL, lambda d: [lambda n=n: xp.arange(n, dtype=np.dtype(d)) for n in LENGTHS]),
    ("linspace", FLOAT,
     lambda d: [lambda n=n: xp.linspace(0, 1, n, dtype=np.dtype(d)) for n in LENGTHS]),
    ("eye", REAL, lambda d: [lambda n=n: xp.eye(n, dtype=np.dtype(d)) for n in LENGTHS[:-1]]),
    ("zeros_like", REAL, _each_shape(xp.zeros_like)),
    ("ones_like", REAL, _each_shape(xp.ones_like)),
    ("full_like", F64_INT, _each_shape(lambda x: xp.full_like(x, 1))),
    ("reshape", REAL, _each_shape(lambda x: xp.reshape(x, tuple(reversed(x.shape)) + (1,)))),
    ("ravel", REAL, _each_shape(lambda x: xp.reshape(x, (-1,)))),
    ("concat", REAL, _each_shape(lambda x: xp.concat((x, x), axis=-1))),
    ("concat axis 0", F64_INT, _each_shape(lambda x: xp.concat((x, x), axis=0))),
    ("stack", REAL, _each_shape(lambda x: xp.stack((x, x)))),
    ("permute_dims", F64_INT,
     _each_shape(lambda x: xp.permute_dims(x, tuple(range(x.ndim))[::-1]))),
    ("flip", F64_INT, _each_shape(xp.flip)),
    ("roll", F64_INT, _each_shape(lambda x: xp.roll(x, 1, axis=0))),
    ("expand_dims", F64_INT, _each_shape(lambda x: xp.expand_dims(x, axis=0))),
    ("squeeze", F64_INT, _each_shape(lambda x: xp.squeeze(xp.expand_dims(x, axis=-1), axis=-1))),
    ("broadcast_to", F64_INT, _each_shape(lambda x: xp.broadcast_to(x, (3, *x.shape)))),
    ("astype", ANY, lambda d: [lambda s=s: xp.astype(_data(d, s), _other_dtype(d))
                               for s in SHAPES]),
    ("clip", F64_INT, _each_shape(lambda x: xp.clip(x, 1, 3))),
    ("repeat", F64_INT, _each_shape(lambda x: xp.repeat(x, 2, axis=0))),
    ("take", F64_INT, _each_shape(_take)),
    ("getitem integer", REAL, _each_shape(lambda x: x[0])),
    ("getitem slice", REAL, _each_shape(lambda x: x[1:])),
    ("getitem step", F64_INT, _each_shape(lambda x: x[::-1])),
    ("getitem mask", ANY, _mask),
    ("getitem array", F64_INT, _each_shape(lambda x: x[xp.asarray([0, 0, -1])])),
    ("setitem", REAL, _each_shape(_setitem)),
)


def _linalg(name, make):
    return name, FLOAT, lambda d: [lambda n=n: make(d, n) for n in SQUARE]


def _lstsq(d, s):
    a = xp.asarray(_host(d, s) - np.asarray(0.5, d))
    return linalg.lstsq(a, xp.asarray(_host(d, (s[0],))))


LINALG = (
    _linalg("matmul", lambda d, n: xp.matmul(_square(d, n), _square(d, n))),
    _linalg("matmul vector", lambda d, n: xp.matmul(_square(d, n), _data(d, (n,)))),
    _linalg("linalg.solve", lambda d, n: linalg.solve(_square(d, n), _data(d, (n,)))),
    _linalg("linalg.solve matrix", lambda d, n: linalg.solve(_square(d, n), _square(d, n))),
    _linalg("linalg.inv", lambda d, n: linalg.inv(_square(d, n))),
    _linalg("linalg.det", lambda d, n: linalg.det(_square(d, n))),
    _linalg("linalg.slogdet", lambda d, n: linalg.slogdet(_square(d, n))),
    _linalg("linalg.svd", lambda d, n: linalg.svd(_square(d, n), full_matrices=False)),
    _linalg("linalg.svdvals", lambda d, n: linalg.svdvals(_square(d, n))),
    _linalg("linalg.qr", lambda d, n: linalg.qr(_square(d, n))),
    _linalg("linalg.cholesky", lambda d, n: linalg.cholesky(_square(d, n, spd=True))),
    _linalg("linalg.eigh", lambda d, n: linalg.eigh(_square(d, n, spd=True))),
    _linalg("linalg.eigvalsh", lambda d, n: linalg.eigvalsh(_square(d, n, spd=True))),
    _linalg("linalg.pinv", lambda d, n: linalg.pinv(_square(d, n))),
    _linalg("linalg.matrix_norm", lambda d, n: linalg.matrix_norm(_square(d, n))),
    _linalg("linalg.vector_norm", lambda d, n: linalg.vector_norm(_data(d, (n,)))),
    ("linalg.qr tall", FLOAT, lambda d: [lambda s=s: linalg.qr(_data(d, s)) for s in TALL]),
    ("linalg.svd tall", FLOAT,
     lambda d: [lambda s=s: linalg.svd(_data(d, s), full_matrices=False) for s in TALL]),
    ("linalg.lstsq tall", FLOAT, lambda d: [lambda s=s: _lstsq(d, s) for s in TALL]),
    ("matmul tall", FLOAT,
     lambda d: [lambda s=s: xp.matmul(xp.matrix_transpose(_data(d, s)), _data(d, s))
                for s in TALL]),
)


def tasks() -> list[Task]:
    """The workload's tasks: one per function and dtype, elementwise functions first."""
    found = []

    def add(name, dtypes, calls):
        for dtype in device_dtypes(dtypes):
            found.append(Task(f"{name} {dtype}", name, f"{name} {dtype}",
                              len(calls(dtype)), functools.partial(calls, dtype)))

    for family, dtypes, fns in ELEMENTWISE + REDUCTIONS:
        suffix = " scalar" if family is _with_scalar else ""
        for fn in fns:
            add(fn.__name__ + suffix, dtypes, family(fn))
    for name, dtypes, calls in OTHERS + LINALG:
        add(name, dtypes, calls)
    return found
