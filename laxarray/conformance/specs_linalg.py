"""Conformance specs of the linalg extension (and numpy.linalg's extras) against NumPy.

Specs are namespace-generic: they call ``xp.linalg.<name>`` and read results through
``__array__``/DLPack.  Oracles run NumPy on inputs upcast to float64/complex128 (so the
oracle is the more accurate side), and the result is compared with the tolerance of the
namespace's dtype.  Decompositions whose factors are unique only up to sign or phase (qr,
svd, eigh, eig) are checked by reconstruction, orthonormality and triangularity, never
factor by factor.  Inputs that need a well-conditioned matrix (inv, solve, det, eig ...)
are drawn as such, so bounds stay tight; they live in
:data:`laxarray.conformance.tolerances.BOUNDS` (``linalg.*`` rows: normwise, in ulps of the
namespace's dtype, scaled by the largest expected magnitude or a stated one).  Expected
dtypes come from the standard's promotion table (:mod:`laxarray.conformance.promotion`) and
the run's device's default dtypes (:mod:`laxarray.conformance.device_dtypes`).
The norms' non-SVD orders get NaN and infinities placed in the reduced slice
(:func:`~laxarray.conformance.strategies.placed`); the products and views (matmul,
tensordot, vecdot, outer, cross, trace, multi_dot ...) are in
:mod:`laxarray.conformance.specs_linalg_products`.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import strategies as st

from . import device_dtypes, strategies as S
from .compare import (ConformanceError, assert_dtype, assert_shape,
                                          assert_values, to_numpy)
from .spec import Spec, as_xp, promotable_pairs, register, resolve

FLOATING = S.FLOATING
_UPCAST = {"float32": np.float64, "float64": np.float64, "complex64": np.complex128,
           "complex128": np.complex128}


# ---- drawing ---------------------------------------------------------------------------------
def draw_dtype(data, group="floating-point"):
    return data.draw(S.dtypes(group), label="dtype")


def draw_batch(data, max_dims=1, max_side=3):
    return data.draw(S.shapes(max_dims=max_dims, max_side=max_side), label="batch")


def draw_array(data, dtype, shape, lo=-1.0, hi=1.0, label="x"):
    """Finite values in ``[lo, hi]`` (special finite values, subnormals included)."""
    if np.dtype(dtype).kind in "iu":
        lo = max(int(lo), np.iinfo(dtype).min)
        return data.draw(S.arrays(dtype, shape, min_value=lo, max_value=int(hi)), label=label)
    if np.dtype(dtype).kind == "b":
        return data.draw(S.arrays(dtype, shape), label=label)
    return data.draw(S.arrays(dtype, shape, finite=True, min_value=lo, max_value=hi),
                     label=label)


def _random(data, dtype, shape, label):
    """A float64/complex128 array of standard-ish values from hypothesis' seed."""
    seed = data.draw(st.integers(0, 2**32 - 1), label=label)
    rng = np.random.default_rng(seed)
    out = rng.uniform(-1, 1, shape)
    if np.dtype(dtype).kind == "c":
        out = out + 1j * rng.uniform(-1, 1, shape)
    return out


def well_conditioned(data, dtype, batch, n, label="x"):
    """Strictly diagonally dominant matrices (condition number <= ~2n+1), random signs."""
    x = draw_array(data, dtype, tuple(batch) + (n, n), label=label).astype(_UPCAST[dtype])
    signs = np.asarray(data.draw(st.lists(st.sampled_from([1.0, -1.0]), min_size=n,
                                          max_size=n), label="signs"))
    return (x + (n + 1) * np.diag(signs)).astype(dtype)


def positive_definite(data, dtype, batch, n, label="x"):
    x = draw_array(data, dtype, tuple(batch) + (n, n), label=label).astype(_UPCAST[dtype])
    a = x @ np.conj(np.swapaxes(x, -1, -2)) + n * np.eye(n) + np.eye(n)
    return a.astype(dtype)


def hermitian(data, dtype, batch, n, label="x"):
    x = draw_array(data, dtype, tuple(batch) + (n, n), label=label).astype(_UPCAST[dtype])
    return ((x + np.conj(np.swapaxes(x, -1, -2))) / 2).astype(dtype)


def with_singular_values(data, dtype, batch, m, n, sigma=(0.5, 2.0), label="x"):
    """``U diag(s) V^H`` with random orthonormal ``U``, ``V`` and ``s`` in ``sigma``."""
    k = min(m, n)
    u, _ = np.linalg.qr(_random(data, dtype, tuple(batch) + (m, m), label + ".u"))
    v, _ = np.linalg.qr(_random(data, dtype, tuple(batch) + (n, n), label + ".v"))
    s = np.asarray(data.draw(st.lists(st.floats(*sigma), min_size=k, max_size=k), label="s"))
    a = (u[..., :, :k] * s) @ np.conj(np.swapaxes(v[..., :, :k], -1, -2))
    return a.astype(dtype)


# ---- comparing -------------------------------------------------------------------------------
def upcast(x):
    return x.astype(_UPCAST[x.dtype.name]) if x.dtype.name in _UPCAST else x


def real_name(dtype):
    dt = np.dtype(dtype)
    return {"complex64": "float32", "complex128": "float64"}.get(dt.name, dt.name)


def float_name(dtype):
    """``dtype``'s name if floating, else the default real floating dtype (integer input)."""
    dt = np.dtype(dtype)
    return dt.name if dt.kind in "fc" else device_dtypes.default("real floating")


def complex_name(dtype):
    return {"float32": "complex64", "float64": "complex128"}.get(np.dtype(dtype).name,
                                                                  np.dtype(dtype).name)


def close(name, got, expected, part=None, scale=None, dtype=None):
    """``got`` against ``expected`` within the bound of ``name`` (``name:part`` where the
    spec compares several things), with ``scale`` (default: the largest finite expected
    magnitude), in ulps of ``dtype`` (default: ``got``'s; pass the namespace's dtype when
    ``got`` was upcast)."""
    got, expected = np.asarray(got), np.asarray(expected)
    if scale is None:
        finite = expected[np.isfinite(expected)] if expected.size else expected
        scale = float(np.max(np.abs(finite))) if finite.size else 0.0
    if expected.dtype.kind == got.dtype.kind:
        expected = expected.astype(got.dtype)
    assert_values(name if part is None else f"{name} {part}", got, expected,
                  bound=name if part is None else f"{name}:{part}", scale=scale,
                  dtype=None if dtype is None else float_name(dtype), signed_zeros=False)


def ct(a):
    return np.conj(np.swapaxes(a, -1, -2))


def check_orthonormal_columns(name, q, part, dtype):
    k = q.shape[-1]
    close(name, ct(q) @ q, np.broadcast_to(np.eye(k), q.shape[:-2] + (k, k)), part, 1.0, dtype)


def call_or_raises(name, xp_fn, np_fn):
    """``(got, expected)``; if the oracle raises ValueError/LinAlgError the namespace must
    raise ValueError too (returns ``None``)."""
    try:
        with np.errstate(all="ignore"):
            expected = np_fn()
    except (ValueError, np.linalg.LinAlgError):
        try:
            xp_fn()
        except ValueError:
            return None
        raise ConformanceError(f"{name}: NumPy raises ValueError here, the namespace did not") from None  # the oracle's error is expected here
    return xp_fn(), expected


def spec(name, *, dtypes=FLOATING, notes=""):
    """Decorator registering ``check(xp, data)`` as the spec of ``name``."""
    def deco(check):
        return register(Spec(name, check, dtypes, extension=name.split(".")[0],
                             kind=name.split(".")[0], notes=notes))
    return deco


def fn(xp, name):
    return resolve(xp, name)


# ---- decompositions --------------------------------------------------------------------------
@spec("linalg.cholesky")
def _cholesky(xp, data):
    dtype, batch = draw_dtype(data), draw_batch(data)
    n = data.draw(st.integers(0, 4), label="n")
    a = positive_definite(data, dtype, batch, n)
    upper = data.draw(st.booleans(), label="upper")
    out = fn(xp, "linalg.cholesky")(as_xp(xp, a), upper=upper)
    assert_dtype("linalg.cholesky", out, dtype)
    got = to_numpy(out)
    expected = np.linalg.cholesky(upcast(a), upper=upper)
    tri = np.triu(got, 1) if not upper else np.tril(got, -1)
    if np.any(tri != 0):
        raise ConformanceError("linalg.cholesky: factor is not triangular")
    close("linalg.cholesky", got, expected)


@spec("linalg.qr")
def _qr(xp, data):
    dtype, batch = draw_dtype(data), draw_batch(data)
    m, n = data.draw(st.integers(0, 4), label="m"), data.draw(st.integers(0, 4), label="n")
    a = draw_array(data, dtype, tuple(batch) + (m, n))
    mode = data.draw(st.sampled_from(["reduced", "complete"]), label="mode")
    q, r = fn(xp, "linalg.qr")(as_xp(xp, a), mode=mode)
    k = min(m, n) if mode == "reduced" else m
    for label, arr, shape in (("Q", q, (m, k)), ("R", r, (k, n))):
        assert_dtype(f"linalg.qr {label}", arr, dtype)
        assert_shape(f"linalg.qr {label}", arr, tuple(batch) + shape)
    q, r = upcast(to_numpy(q)), upcast(to_numpy(r))
    if np.any(np.tril(r, -1) != 0):
        raise ConformanceError("linalg.qr: R is not upper triangular")
    if r.dtype.kind == "c" and np.any(np.diagonal(r, axis1=-2, axis2=-1).imag != 0):
        raise ConformanceError("linalg.qr: the diagonal of R is not real (the standard)")
    check_orthonormal_columns("linalg.qr", q, "Q^H Q", dtype)
    close("linalg.qr", q @ r, upcast(a), "QR", max(1.0, np.abs(a).max(initial=0)), dtype)


@spec("linalg.svd")
def _svd(xp, data):
    dtype, batch = draw_dtype(data), draw_batch(data)
    m, n = data.draw(st.integers(0, 4), label="m"), data.draw(st.integers(0, 4), label="n")
    a = draw_array(data, dtype, tuple(batch) + (m, n))
    full = data.draw(st.booleans(), label="full_matrices")
    u, s, vh = fn(xp, "linalg.svd")(as_xp(xp, a), full_matrices=full)
    k = min(m, n)
    shapes = {"U": (m, m if full else k), "S": (k,), "Vh": (n if full else k, n)}
    for label, arr in (("U", u), ("S", s), ("Vh", vh)):
        assert_dtype(f"linalg.svd {label}", arr, real_name(dtype) if label == "S" else dtype)
        assert_shape(f"linalg.svd {label}", arr, tuple(batch) + shapes[label])
    u, s, vh = upcast(to_numpy(u)), upcast(to_numpy(s)), upcast(to_numpy(vh))
    expected = np.linalg.svd(upcast(a), compute_uv=False)
    scale = max(1.0, np.abs(a).max(initial=0))
    close("linalg.svd", s, expected, "S", scale, dtype)
    check_orthonormal_columns("linalg.svd", u, "U^H U", dtype)
    check_orthonormal_columns("linalg.svd", ct(vh), "Vh Vh^H", dtype)
    close("linalg.svd", (u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :], upcast(a),
          "U S Vh", scale, dtype)


@spec("linalg.svdvals")
def _svdvals(xp, data):
    dtype, batch = draw_dtype(data), draw_batch(data)
    m, n = data.draw(st.integers(0, 4), label="m"), data.draw(st.integers(0, 4), label="n")
    a = draw_array(data, dtype, tuple(batch) + (m, n))
    out = fn(xp, "linalg.svdvals")(as_xp(xp, a))
    assert_dtype("linalg.svdvals", out, real_name(dtype))
    close("linalg.svdvals", to_numpy(out), np.linalg.svd(upcast(a), compute_uv=False),
          scale=max(1.0, np.abs(a).max(initial=0)))


def _eigh_check(xp, data, name):
    dtype, batch = draw_dtype(data), draw_batch(data)
    n = data.draw(st.integers(0, 4), label="n")
    a = hermitian(data, dtype, batch, n)
    out = fn(xp, name)(as_xp(xp, a))
    w = out[0] if name == "linalg.eigh" else out
    assert_dtype(name, w, real_name(dtype))
    assert_shape(name, w, tuple(batch) + (n,))
    scale = max(1.0, np.abs(a).max(initial=0))
    w = upcast(to_numpy(w))
    close(name, np.sort(w, axis=-1), np.linalg.eigvalsh(upcast(a)), "eigenvalues", scale,
          dtype)
    if name == "linalg.eigh":
        v = out[1]
        assert_dtype(name, v, dtype)
        assert_shape(name, v, tuple(batch) + (n, n))
        v = upcast(to_numpy(v))
        check_orthonormal_columns(name, v, "Q^H Q", dtype)
        close(name, (v * w[..., None, :]) @ ct(v), upcast(a), "Q L Q^H", scale, dtype)


@spec("linalg.eigh")
def _eigh(xp, data):
    _eigh_check(xp, data, "linalg.eigh")


@spec("linalg.eigvalsh")
def _eigvalsh(xp, data):
    _eigh_check(xp, data, "linalg.eigvalsh")


def diagonalizable(data, dtype, batch, n):
    """``P diag(lam) P^-1`` with ``|lam_k| = k + 1`` (well separated) and cond(P) <= 3."""
    p = np.eye(n) + _random(data, dtype, tuple(batch) + (n, n), "p") / (2 * max(n, 1))
    if np.dtype(dtype).kind == "c":
        theta = _random(data, "float64", tuple(batch) + (n,), "theta") * np.pi
        lam = np.arange(1, n + 1) * np.exp(1j * theta)
    else:
        signs = np.sign(_random(data, "float64", tuple(batch) + (n,), "signs") + 1e-9)
        lam = np.arange(1, n + 1) * signs
    return ((p * lam[..., None, :]) @ np.linalg.inv(p)).astype(dtype)


def _by_modulus(w):
    idx = np.argsort(np.abs(w), axis=-1, kind="stable")
    return np.take_along_axis(w, idx, axis=-1)


def _eig_check(xp, data, name):
    dtype, batch = draw_dtype(data), draw_batch(data)
    n = data.draw(st.integers(0, 4), label="n")
    a = diagonalizable(data, dtype, batch, n)
    out = fn(xp, name)(as_xp(xp, a))
    w = out[0] if name == "linalg.eig" else out
    assert_dtype(name, w, complex_name(dtype))
    assert_shape(name, w, tuple(batch) + (n,))
    w = upcast(to_numpy(w))
    scale = max(1.0, np.abs(a).max(initial=0))
    close(name, _by_modulus(w), _by_modulus(np.linalg.eigvals(upcast(a)).astype(complex)),
          "eigenvalues", scale * 3, dtype)
    if name == "linalg.eig":
        v = out[1]
        assert_dtype(name, v, complex_name(dtype))
        assert_shape(name, v, tuple(batch) + (n, n))
        v = upcast(to_numpy(v))
        norms = np.linalg.norm(v, axis=-2)
        close(name, norms, np.ones_like(norms), "|v|", 1.0, dtype)
        close(name, upcast(a) @ v, v * w[..., None, :], "A v = w v", scale * 3, dtype)


@spec("linalg.eig")
def _eig(xp, data):
    _eig_check(xp, data, "linalg.eig")


@spec("linalg.eigvals")
def _eigvals(xp, data):
    _eig_check(xp, data, "linalg.eigvals")


# ---- solvers and determinants ----------------------------------------------------------------
@spec("linalg.inv")
def _inv(xp, data):
    dtype, batch = draw_dtype(data), draw_batch(data)
    n = data.draw(st.integers(0, 4), label="n")
    a = well_conditioned(data, dtype, batch, n)
    out = fn(xp, "linalg.inv")(as_xp(xp, a))
    assert_dtype("linalg.inv", out, dtype)
    close("linalg.inv", to_numpy(out), np.linalg.inv(upcast(a)))


@spec("linalg.solve")
def _solve(xp, data):
    d1, d2 = data.draw(st.sampled_from(promotable_pairs("floating-point")), label="dtypes")
    b1 = draw_batch(data)
    n = data.draw(st.integers(1, 4), label="n")
    a = well_conditioned(data, d1, b1, n)
    if data.draw(st.booleans(), label="vector"):
        b = draw_array(data, d2, (n,), label="x2")
    else:
        b2 = data.draw(S.broadcastable_shapes(tuple(b1)), label="batch2")
        if data.draw(st.booleans(), label="swap"):
            b1, b2 = b2, b1
            a = well_conditioned(data, d1, b1, n)
        k = data.draw(st.integers(0, 3), label="k")
        b = draw_array(data, d2, tuple(b2) + (n, k), label="x2")
    out = fn(xp, "linalg.solve")(as_xp(xp, a), as_xp(xp, b))
    assert_dtype("linalg.solve", out, device_dtypes.result_type(d1, d2))
    expected = np.linalg.solve(upcast(a), upcast(b))
    assert_shape("linalg.solve", out, expected.shape)
    close("linalg.solve", to_numpy(out), expected,
          scale=max(1.0, np.abs(expected).max(initial=0)))


@spec("linalg.det")
def _det(xp, data):
    dtype, batch = draw_dtype(data), draw_batch(data)
    n = data.draw(st.integers(0, 4), label="n")
    a = well_conditioned(data, dtype, batch, n)
    out = fn(xp, "linalg.det")(as_xp(xp, a))
    assert_dtype("linalg.det", out, dtype)
    assert_shape("linalg.det", out, tuple(batch))
    expected = np.linalg.det(upcast(a))
    got = upcast(to_numpy(out))
    close("linalg.det", got / np.where(expected == 0, 1, expected),  # relative
          np.ones_like(expected), scale=1.0, dtype=dtype)


@spec("linalg.slogdet")
def _slogdet(xp, data):
    dtype, batch = draw_dtype(data), draw_batch(data)
    n = data.draw(st.integers(0, 4), label="n")
    a = well_conditioned(data, dtype, batch, n)
    singular = n > 0 and data.draw(st.booleans(), label="singular")
    if singular:
        a[..., 0, :] = 0
    sign, logabs = fn(xp, "linalg.slogdet")(as_xp(xp, a))
    assert_dtype("linalg.slogdet sign", sign, dtype)
    assert_dtype("linalg.slogdet logabsdet", logabs, real_name(dtype))
    assert_shape("linalg.slogdet", sign, tuple(batch))
    assert_shape("linalg.slogdet", logabs, tuple(batch))
    es, el = np.linalg.slogdet(upcast(a))
    close("linalg.slogdet", upcast(to_numpy(sign)), es, "sign", 1.0, dtype)
    got = upcast(to_numpy(logabs))
    if singular:
        if not np.all(got == -np.inf):
            raise ConformanceError("linalg.slogdet: logabsdet of a singular matrix is not -inf")
    else:
        close("linalg.slogdet", got, el, "logabsdet", max(1.0, np.abs(el).max(initial=0)),
              dtype)


@spec("linalg.matrix_power")
def _matrix_power(xp, data):
    dtype, batch = draw_dtype(data), draw_batch(data)
    n = data.draw(st.integers(0, 4), label="n")
    a = (well_conditioned(data, dtype, batch, n) / (n + 2)).astype(dtype)
    p = data.draw(st.integers(-3, 5), label="power")
    out = fn(xp, "linalg.matrix_power")(as_xp(xp, a), p)
    assert_dtype("linalg.matrix_power", out, dtype)
    expected = np.linalg.matrix_power(upcast(a), p)
    close("linalg.matrix_power", to_numpy(out), expected,
          scale=max(1.0, np.abs(expected).max(initial=0)))


def _rank_deficient(data, dtype, batch, m, n):
    """Integer-valued ``B @ C`` of rank <= r: exactly representable in every float dtype."""
    r = data.draw(st.integers(0, min(m, n)), label="rank")
    b = data.draw(S.arrays("int8", tuple(batch) + (m, r), min_value=-2, max_value=2), label="b")
    c = data.draw(S.arrays("int8", tuple(batch) + (r, n), min_value=-2, max_value=2), label="c")
    return (b.astype(np.int64) @ c.astype(np.int64)).astype(dtype)


@spec("linalg.matrix_rank")
def _matrix_rank(xp, data):
    dtype, batch = draw_dtype(data), draw_batch(data)
    m, n = data.draw(st.integers(0, 4), label="m"), data.draw(st.integers(0, 4), label="n")
    a = _rank_deficient(data, dtype, batch, m, n)
    mode = data.draw(st.sampled_from(["default", "float", "array"]), label="rtol")
    kwargs, rtol = {}, max(m, n) * np.finfo(real_name(dtype)).eps
    if mode == "float":
        rtol = kwargs["rtol"] = 0.01
    elif mode == "array":
        rtol = np.full(tuple(batch), 0.01, dtype=real_name(dtype))
        kwargs["rtol"] = as_xp(xp, rtol)
        rtol = rtol[..., None]
    out = fn(xp, "linalg.matrix_rank")(as_xp(xp, a), **kwargs)
    assert_dtype("linalg.matrix_rank", out, device_dtypes.default("integral"))
    assert_shape("linalg.matrix_rank", out, tuple(batch))
    s = np.linalg.svd(upcast(a), compute_uv=False)
    thr = s.max(axis=-1, keepdims=True, initial=0) * rtol
    lo, hi = (s > thr * 100).sum(-1), (s > thr / 100).sum(-1)  # ambiguous within 100x
    got = to_numpy(out)
    if np.any(got < lo) or np.any(got > hi):
        raise ConformanceError(f"linalg.matrix_rank: {got.tolist()} outside {lo.tolist()} .. "
                               f"{hi.tolist()}")


@spec("linalg.pinv")
def _pinv(xp, data):
    dtype, batch = draw_dtype(data), draw_batch(data)
    m, n = data.draw(st.integers(0, 4), label="m"), data.draw(st.integers(0, 4), label="n")
    a = with_singular_values(data, dtype, batch, m, n)
    # rtol as the default it stands for (max(M, N) eps), a float or a 0-d array
    rtol = data.draw(st.sampled_from(["omitted", "float", "array"]), label="rtol form")
    kwargs = {}
    if rtol != "omitted":
        value = max(m, n, 1) * float(np.finfo(np.dtype(dtype)).eps)
        real = np.finfo(np.dtype(dtype)).dtype.name
        kwargs["rtol"] = value if rtol == "float" else xp.asarray(value, dtype=getattr(xp, real))
    out = fn(xp, "linalg.pinv")(as_xp(xp, a), **kwargs)
    assert_dtype("linalg.pinv", out, dtype)
    assert_shape("linalg.pinv", out, tuple(batch) + (n, m))
    expected = np.linalg.pinv(upcast(a)) if m and n else np.zeros(tuple(batch) + (n, m))
    close("linalg.pinv", to_numpy(out), expected, scale=2.0)


def _squared_residuals(a, b, x):
    """``||b - a x||**2`` per column of ``b`` (shape ``(1,)`` for a vector ``b``): what
    NumPy's ``lstsq`` leaves empty when ``rank < n`` or ``m <= n``, jax.numpy's always
    returns; the function is beyond the standard, which fixes neither."""
    r = np.abs(b - a @ x) ** 2
    return np.atleast_1d(np.sum(r, axis=0))


@spec("linalg.lstsq", notes="NumPy extra; 2-D inputs as in NumPy")
def _lstsq(xp, data):
    dtype = draw_dtype(data)
    n = data.draw(st.integers(1, 4), label="n")
    m = data.draw(st.integers(n, 5), label="m")
    a = with_singular_values(data, dtype, (), m, n)
    vector = data.draw(st.booleans(), label="vector")
    k = data.draw(st.integers(1, 3), label="k")
    b = draw_array(data, dtype, (m,) if vector else (m, k), label="x2")
    x, resid, rank, s = fn(xp, "linalg.lstsq")(as_xp(xp, a), as_xp(xp, b))
    ex, eres, erank, es = np.linalg.lstsq(upcast(a), upcast(b))
    assert_dtype("linalg.lstsq x", x, dtype)
    assert_shape("linalg.lstsq x", x, ex.shape)
    close("linalg.lstsq", to_numpy(x), ex, "x", max(2.0, np.abs(ex).max(initial=0)))
    resid = to_numpy(resid)
    if eres.size == 0 and resid.size:  # NumPy's empty residuals (rank < n or m <= n)
        eres = _squared_residuals(upcast(a), upcast(b), ex)  # ... or the residuals all the same
    close("linalg.lstsq", resid, eres, "residuals", max(1.0, eres.max(initial=0)))
    if int(np.asarray(to_numpy(rank))) != int(erank):
        raise ConformanceError(f"linalg.lstsq: rank {rank}, expected {erank}")
    close("linalg.lstsq", to_numpy(s), es, "s", 2.0)


def _tensor_system(data, dtype):
    size = data.draw(st.sampled_from([1, 2, 3, 4, 6]), label="size")
    shapes = {1: [(1,)], 2: [(2,), (1, 2)], 3: [(3,)], 4: [(4,), (2, 2)], 6: [(6,), (2, 3)]}
    left = data.draw(st.sampled_from(shapes[size]), label="left")
    right = data.draw(st.sampled_from(shapes[size]), label="right")
    a = well_conditioned(data, dtype, (), size).reshape(left + right)
    return a, left, right


@spec("linalg.tensorinv", notes="NumPy extra")
def _tensorinv(xp, data):
    dtype = draw_dtype(data)
    a, left, right = _tensor_system(data, dtype)
    out = fn(xp, "linalg.tensorinv")(as_xp(xp, a), ind=len(left))
    assert_dtype("linalg.tensorinv", out, dtype)
    close("linalg.tensorinv", to_numpy(out), np.linalg.tensorinv(upcast(a), ind=len(left)),
          scale=1.0)


@spec("linalg.tensorsolve", notes="NumPy extra")
def _tensorsolve(xp, data):
    dtype = draw_dtype(data)
    a, left, right = _tensor_system(data, dtype)
    b = draw_array(data, dtype, left, label="x2")
    out = fn(xp, "linalg.tensorsolve")(as_xp(xp, a), as_xp(xp, b))
    assert_dtype("linalg.tensorsolve", out, dtype)
    expected = np.linalg.tensorsolve(upcast(a), upcast(b))
    close("linalg.tensorsolve", to_numpy(out), expected, scale=1.0)


# ---- norms -----------------------------------------------------------------------------------
_VECTOR_ORDS = [1, 2, math.inf, -math.inf, 0, -1, -2, 3, 0.5]
_MATRIX_ORDS = ["fro", "nuc", 1, -1, 2, -2, math.inf, -math.inf]


#: the NaN and infinity placements of a norm (:func:`~laxarray.conformance.strategies.placed`):
#: NaN propagates through every order; an infinity makes a sum of ``|x|`` or a maximum
#: infinite, and a minimum (negative orders) skips it unless every slice has one
_NORM_PLACEMENTS = ("as drawn", "one nan", "nan slice", "infinities")


def _matrix_placed(data, x, ord, axes):
    """``x`` with specials placed for a matrix norm of order ``ord`` over ``axes`` (row
    axis, column axis): in the reduced slice -- one matrix (Frobenius), one column (1, -1:
    the maximum or minimum of column sums of ``|x|``) or one row (inf, -inf).  The
    SVD-based orders (2, -2, nuc) get none: LAPACK decides what NaN and inf do there."""
    if ord in (2, -2, "nuc"):
        return x
    axis = {1: axes[0], -1: axes[0], math.inf: axes[1], -math.inf: axes[1]}.get(ord, axes)
    return data.draw(S.placed(x, axis, _NORM_PLACEMENTS), label="x placed")


def _norm_compare(name, xp_fn, np_fn, dtype, part=None, scale_fn=None):
    """``scale_fn()``: the spectral part's scale, the largest singular value of each matrix
    (``ord=-2`` of a singular matrix is 0 up to an error of ``||A|| eps``, not of 0)."""
    res = call_or_raises(name, xp_fn, np_fn)
    if res is None:
        return
    out, expected = res
    assert_dtype(name, out, real_name(float_name(dtype)))
    expected = np.asarray(expected)
    assert_shape(name, out, expected.shape)
    got = np.asarray(to_numpy(out), dtype=np.float64)
    scale = None
    if part == "spectral" and scale_fn is not None:
        with np.errstate(all="ignore"):
            scale = np.asarray(scale_fn(), dtype=np.float64)
        scale = np.where(np.isfinite(scale), scale, 0.0)
    assert_values(name, got, expected.astype(np.float64),
                  bound=name if part is None else f"{name}:{part}", scale=scale,
                  dtype=real_name(float_name(dtype)), signed_zeros=False)


@spec("linalg.vector_norm")
def _vector_norm(xp, data):
    dtype = draw_dtype(data)
    shape = data.draw(S.shapes(max_dims=3, max_side=4), label="shape")
    x = draw_array(data, dtype, shape, lo=-4, hi=4)
    x[np.abs(x) < 1e-3] = 0  # tiny values would underflow differently in float32/float64
    axis = data.draw(S.axes(len(shape)), label="axis")
    # NaN (propagates for every ord) and +-inf (|inf| is inf: the max norm, a p-norm is inf,
    # a negative p-norm or the min norm skips it) in one reduced slice, on purpose
    x = data.draw(S.placed(x, axis, _NORM_PLACEMENTS), label="x placed")
    ord = data.draw(st.sampled_from(_VECTOR_ORDS), label="ord")
    keepdims = data.draw(st.booleans(), label="keepdims")
    _norm_compare("linalg.vector_norm",
                  lambda: fn(xp, "linalg.vector_norm")(as_xp(xp, x), axis=axis,
                                                       keepdims=keepdims, ord=ord),
                  lambda: np.linalg.vector_norm(upcast(x), axis=axis, keepdims=keepdims,
                                                ord=ord), dtype)


@spec("linalg.matrix_norm")
def _matrix_norm(xp, data):
    dtype, batch = draw_dtype(data), draw_batch(data)
    m, n = data.draw(st.integers(0, 4), label="m"), data.draw(st.integers(0, 4), label="n")
    x = draw_array(data, dtype, tuple(batch) + (m, n), lo=-4, hi=4)
    x[np.abs(x) < 1e-3] = 0
    ord = data.draw(st.sampled_from(_MATRIX_ORDS), label="ord")
    keepdims = data.draw(st.booleans(), label="keepdims")
    part = "spectral" if ord in (2, -2, "nuc") else None
    x = _matrix_placed(data, x, ord, (-2, -1))
    _norm_compare("linalg.matrix_norm",
                  lambda: fn(xp, "linalg.matrix_norm")(as_xp(xp, x), keepdims=keepdims, ord=ord),
                  lambda: np.linalg.matrix_norm(upcast(x), keepdims=keepdims, ord=ord),
                  dtype, part)


@spec("linalg.norm", notes="NumPy extra")
def _norm(xp, data):
    dtype = draw_dtype(data)
    shape = data.draw(S.shapes(min_dims=1, max_dims=3, max_side=4), label="shape")
    x = draw_array(data, dtype, shape, lo=-4, hi=4)
    x[np.abs(x) < 1e-3] = 0
    nd = len(shape)
    form = data.draw(st.sampled_from(["none", "vector", "matrix"]), label="form")
    keepdims = data.draw(st.booleans(), label="keepdims")
    if form == "none" or nd < 2 and form == "matrix":
        axis, ord = None, data.draw(st.sampled_from([None, 2] if nd == 1 else [None]),
                                    label="ord")
        part = None  # the 2-norm of all elements (no SVD)
        x = data.draw(S.placed(x, None, _NORM_PLACEMENTS), label="x placed")
    elif form == "vector":
        axis = data.draw(st.integers(-nd, nd - 1), label="axis")
        ord = data.draw(st.sampled_from([None] + _VECTOR_ORDS), label="ord")
        part = None
        x = data.draw(S.placed(x, axis, _NORM_PLACEMENTS), label="x placed")
    else:
        axis = tuple(data.draw(st.permutations(range(nd)), label="axes")[:2])
        ord = data.draw(st.sampled_from([None] + _MATRIX_ORDS), label="ord")
        part = "spectral" if ord in (2, -2, "nuc") else None
        x = _matrix_placed(data, x, "fro" if ord is None else ord, axis)
    _norm_compare("linalg.norm",
                  lambda: fn(xp, "linalg.norm")(as_xp(xp, x), ord, axis, keepdims),
                  lambda: np.linalg.norm(upcast(x), ord, axis, keepdims), dtype, part,
                  lambda: np.linalg.norm(upcast(x), 2, axis, keepdims))


@spec("linalg.cond", notes="NumPy extra")
def _cond(xp, data):
    dtype, batch = draw_dtype(data), draw_batch(data)
    n = data.draw(st.integers(1, 4), label="n")
    a = well_conditioned(data, dtype, batch, n)
    p = data.draw(st.sampled_from([None, 2, -2, 1, -1, math.inf, -math.inf, "fro", "nuc"]),
                  label="p")
    out = fn(xp, "linalg.cond")(as_xp(xp, a), p)
    assert_dtype("linalg.cond", out, real_name(dtype))
    expected = np.linalg.cond(upcast(a), p)
    close("linalg.cond", to_numpy(out) / expected, np.ones_like(expected),  # relative
          scale=1.0, dtype=dtype)


__all__ = ["close", "upcast", "draw_array", "well_conditioned"]
