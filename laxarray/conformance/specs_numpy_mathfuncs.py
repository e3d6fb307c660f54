"""Conformance specs (extension "numpy") for laxarray.numpy_api.mathfuncs (oracle: NumPy).

Elementwise functions reuse the :func:`~laxarray.conformance.spec.unary`/``binary``
factories (special values, broadcasting, Python-scalar operands).  NumPy computes integer
input of float-only functions in float16/float32 for 8/16-bit integers, laxarray in
float64: those oracles see the input as float64.  Expected dtypes are NumPy's (these
functions are NumPy's; :func:`~laxarray.conformance.promotion.numpy_result_type`).
Error bounds are the functions' rows in :data:`~laxarray.conformance.tolerances.BOUNDS`;
contractions (einsum, dot, convolve...) state the scale of theirs: the same computation on
magnitudes.
"""

from __future__ import annotations

import dataclasses
import string

import numpy as np
from hypothesis import assume, strategies as st

from . import promotion, strategies as S
from .compare import (ConformanceError, assert_dtype, assert_shape,
                                          assert_values, flush_subnormals, to_numpy)
from .spec import SPECS, Spec, as_xp, binary, register, resolve, unary
from .specs_elementwise import complex_pow_cases, complex_pow_oracle


def _numpy_ext(name):
    """Mark the spec just registered by a factory as part of the "numpy" extension."""
    SPECS[name] = dataclasses.replace(SPECS[name], extension="numpy")


def _reg(name, check, group):
    register(Spec(name, check, S.DTYPE_GROUPS[group], extension="numpy"))


def _f64(x):
    """Integer/bool input seen as float64 (laxarray's float for integer input)."""
    x = np.asarray(x)
    return x.astype(np.float64) if x.dtype.kind in "biu" else x


def _float_result(*names):
    name = promotion.numpy_result_type(*names)
    return "float64" if np.dtype(name).kind in "biu" else name


def _bool_result(*names):
    return "bool"


def _on_f64(fn):
    return lambda *args: fn(*[_f64(a) for a in args])


def _check(name, out, expected, *, bound=None, scale=None, n=None, signed_zeros=False,
           dtype=True):
    """dtype, shape and values of ``out`` against the NumPy ``expected``, within the bound
    of ``name`` (or the row ``bound``) with its ``scale`` and number of terms ``n``."""
    expected = np.asarray(expected)
    if dtype:
        assert_dtype(name, out, expected.dtype.name)
    assert_shape(name, out, expected.shape)
    assert_values(name, to_numpy(out), expected, bound=bound, scale=scale, n=n,
                  signed_zeros=signed_zeros)


def _small(data, dtype, shape, label="x", lo=-8, hi=8):
    """Finite values of moderate size (exact products for integers, no overflow)."""
    if np.dtype(dtype).kind == "u":
        lo = 0
    if np.dtype(dtype).kind == "b":
        return data.draw(S.arrays(dtype, shape), label=label)
    return data.draw(S.arrays(dtype, shape, finite=True, min_value=lo, max_value=hi),
                     label=label)


_PRODUCT_DTYPES = ("int8", "int32", "int64", "uint8", "float32", "float64", "complex64",
                   "complex128", "bool")


# ---- elementwise --------------------------------------------------------------------------
for _name, _group in (("exp2", "numeric"), ("cbrt", "real numeric"), ("fabs", "real"),
                      ("rint", "numeric"), ("deg2rad", "real"), ("rad2deg", "real"),
                      ("degrees", "real"), ("radians", "real"), ("spacing", "real")):
    unary(_name, _on_f64(getattr(np, _name)), _group, result=_float_result,
          signed_zeros=_name in ("fabs", "rint", "cbrt"))
    _numpy_ext(_name)

unary("sinc", _on_f64(np.sinc), "floating-point", result=_float_result,
      domain=lambda dt: dict(finite=True, min_value=-1e3, max_value=1e3), signed_zeros=False)
_numpy_ext("sinc")
unary("i0", _on_f64(np.i0), "real", result=_float_result, signed_zeros=False,
      domain=lambda dt: dict(min_value=-60, max_value=60) if np.dtype(dt).kind in "fc"
      else dict(min_value=-60, max_value=60) if np.dtype(dt).kind in "iu" else {})
_numpy_ext("i0")
for _name in ("isposinf", "isneginf"):
    unary(_name, getattr(np, _name), "real", result=_bool_result)
    _numpy_ext(_name)
for _name in ("iscomplex", "isreal"):
    unary(_name, getattr(np, _name), "any", result=_bool_result)
    _numpy_ext(_name)
unary("bitwise_count", np.bitwise_count, "integer or boolean", result=lambda d: "uint8")
_numpy_ext("bitwise_count")
unary("nan_to_num", np.nan_to_num, "numeric", result=lambda d: d)
_numpy_ext("nan_to_num")
unary("angle", _on_f64(np.angle), "numeric",
      result=lambda d: "float64" if np.dtype(d).kind in "biu" else
      np.dtype(d).type(0).real.dtype.name)
_numpy_ext("angle")

binary("fmax", np.fmax, "real", signed_zeros=False)
_numpy_ext("fmax")
binary("fmin", np.fmin, "real", signed_zeros=False)
_numpy_ext("fmin")
binary("fmod", np.fmod, "real numeric", signed_zeros=False)
_numpy_ext("fmod")
def _off_branch_cut(x1, x2, expected):
    """Complex bases on the negative real axis with a flushed (subnormal) imaginary part
    are on either side of the branch cut: excluded."""
    x1 = np.asarray(x1)
    if x1.dtype.kind != "c":
        return np.ones(np.shape(expected), bool)
    return ~((x1.real < 0) & (np.abs(x1.imag) < np.finfo(np.float64).tiny))


def _float_power_cases(x1, x2, expected):
    """float_power: pow's complex cases (one kernel computes both), in complex128 where
    float_power computes, and bases off the branch cut."""
    keep = _off_branch_cut(x1, x2, expected)
    if np.result_type(x1, x2).kind != "c":
        return keep
    wide = (np.asarray(x, np.complex128) for x in (x1, x2))
    return keep & complex_pow_cases(*wide, expected)


binary("float_power", _on_f64(complex_pow_oracle(np.float_power)), "numeric",
       postfilter=_float_power_cases,
       result=lambda *d: "complex128" if np.dtype(promotion.numpy_result_type(*d)).kind == "c"
       else "float64",
       domain=lambda dt: dict(finite=True, min_value=-4, max_value=4)
       if np.dtype(dt).kind != "b" else {}, signed_zeros=False)
_numpy_ext("float_power")
binary("logaddexp2", _on_f64(np.logaddexp2), "real numeric", result=_float_result,
       signed_zeros=False)
_numpy_ext("logaddexp2")
binary("heaviside", _on_f64(np.heaviside), "real numeric", result=_float_result,
       signed_zeros=False)
_numpy_ext("heaviside")
for _name in ("gcd", "lcm"):
    binary(_name, getattr(np, _name), "integral",
           domain=lambda dt: dict(min_value=-1000, max_value=1000))
    _numpy_ext(_name)
binary("isclose", lambda a, b: np.isclose(a, b), "numeric", result=_bool_result,
       pairs=tuple((a, b) for a in ("int8", "int64", "uint8", "float32", "float64",
                                    "complex128") for b in ("int64", "float32", "float64")))
_numpy_ext("isclose")


def _divmod_check(xp, data):
    d = data.draw(st.sampled_from(("int8", "int64", "uint16", "float32", "float64")),
                  label="dtype")
    shape = data.draw(S.shapes(), label="shape")
    x1 = data.draw(S.arrays(d, shape, finite=True), label="x1")
    x2 = data.draw(S.arrays(d, shape, finite=True), label="x2")
    if np.dtype(d).kind == "f":  # (a subnormal divisor is zero on flush-to-zero platforms)
        x2 = flush_subnormals(x2)
        x2 = np.where(x2 == 0, np.asarray(1.5, d), x2)
    with np.errstate(all="ignore"):
        q, r = np.divmod(x1, x2)
    got_q, got_r = resolve(xp, "divmod")(as_xp(xp, x1), as_xp(xp, x2))
    _check("divmod", got_q, q)
    _check("divmod", got_r, r)


_reg("divmod", _divmod_check, "real numeric")


def _frexp_check(xp, data):
    d = data.draw(S.dtypes("real floating"), label="dtype")
    x = data.draw(S.arrays(d, data.draw(S.shapes(), label="shape")), label="x")
    m, e = np.frexp(x)
    got_m, got_e = resolve(xp, "frexp")(as_xp(xp, x))
    _check("frexp", got_m, m, signed_zeros=True)
    _check("frexp", got_e, e)


_reg("frexp", _frexp_check, "real floating")


def _modf_check(xp, data):
    d = data.draw(S.dtypes("real floating"), label="dtype")
    x = data.draw(S.arrays(d, data.draw(S.shapes(), label="shape")), label="x")
    f, i = np.modf(x)
    got_f, got_i = resolve(xp, "modf")(as_xp(xp, x))
    _check("modf", got_f, f, signed_zeros=True)
    _check("modf", got_i, i, signed_zeros=True)


_reg("modf", _modf_check, "real floating")


def _ldexp_check(xp, data):
    d = data.draw(S.dtypes("real floating"), label="dtype")
    di = data.draw(st.sampled_from(("int8", "int32", "int64")), label="exp dtype")
    shape = data.draw(S.shapes(), label="shape")
    x = data.draw(S.arrays(d, shape), label="x")
    n = data.draw(S.arrays(di, shape, min_value=-1200, max_value=1200), label="n")
    with np.errstate(all="ignore"):
        expected = np.ldexp(x, n).astype(d)
    _check("ldexp", resolve(xp, "ldexp")(as_xp(xp, x), as_xp(xp, n)), expected, dtype=False)


_reg("ldexp", _ldexp_check, "real floating")


def _around_check(xp, data):
    d = data.draw(S.dtypes("numeric"), label="dtype")
    x = data.draw(S.arrays(d, data.draw(S.shapes(), label="shape"),
                           finite=np.dtype(d).kind in "fc"), label="x")
    decimals = data.draw(st.integers(-3, 4), label="decimals")
    # integers rounded up past the dtype's maximum overflow differently (NumPy goes through
    # floating point): keep clear of the edges
    assume(np.dtype(d).kind not in "iu" or decimals >= 0 or np.abs(x.astype(float)).max(
        initial=0) < np.iinfo(d).max // 2)
    if np.dtype(d).kind in "fc":
        x = np.clip(x.real, -1e6, 1e6).astype(x.real.dtype) + (
            0 if np.dtype(d).kind == "f" else 1j * np.clip(x.imag, -1e6, 1e6))
        x = x.astype(d)
    with np.errstate(all="ignore"):
        expected = np.around(x, decimals)
    _check("around", resolve(xp, "around")(as_xp(xp, x), decimals), expected)


_reg("around", _around_check, "numeric")


def _unwrap_check(xp, data):
    d = data.draw(st.sampled_from(("float32", "float64", "int64")), label="dtype")
    shape = data.draw(S.shapes(min_dims=1, min_side=1), label="shape")
    p = _small(data, d, shape, "p", -20, 20)
    axis = data.draw(st.integers(-len(shape), len(shape) - 1), label="axis")
    kwargs = data.draw(st.sampled_from(({}, {"discont": 4.0}, {"period": 6},
                                        {"period": 5.5})), label="kwargs")
    expected = np.unwrap(p, axis=axis, **kwargs)
    out = resolve(xp, "unwrap")(as_xp(xp, p), axis=axis, **kwargs)
    _check("unwrap", out, expected)


_reg("unwrap", _unwrap_check, "real numeric")


def _closeness_check(name):
    def check(xp, data):
        d = data.draw(st.sampled_from(("int32", "float32", "float64", "complex128")),
                      label="dtype")
        shape = data.draw(S.shapes(), label="shape")
        a = data.draw(S.arrays(d, shape), label="a")
        perturb = data.draw(st.sampled_from((0.0, 1e-9, 1e-3)), label="perturb")
        b = (a + np.asarray(perturb * 1.0, dtype=np.float64)).astype(
            d if np.dtype(d).kind in "fc" else np.float64)
        if data.draw(st.booleans(), label="reshape b") and a.ndim:
            b = b[..., :1] if name == "array_equiv" else b.reshape(-1)
        equal_nan = data.draw(st.booleans(), label="equal_nan")
        with np.errstate(all="ignore"):
            if name == "allclose":
                try:
                    expected = np.allclose(a, b, equal_nan=equal_nan)
                except ValueError:  # shapes that do not broadcast: both must raise
                    try:
                        resolve(xp, name)(as_xp(xp, a), as_xp(xp, b))
                    except ValueError:
                        return
                    raise ConformanceError(f"{name}: no error for shapes {a.shape}, "
                                           f"{b.shape}") from None  # the oracle's error is expected here
                out = resolve(xp, name)(as_xp(xp, a), as_xp(xp, b), equal_nan=equal_nan)
            elif name == "array_equal":
                expected = np.array_equal(a, b, equal_nan=equal_nan)
                out = resolve(xp, name)(as_xp(xp, a), as_xp(xp, b), equal_nan=equal_nan)
            else:
                expected = np.array_equiv(a, b)
                out = resolve(xp, name)(as_xp(xp, a), as_xp(xp, b))
        if bool(out) != bool(expected):
            raise ConformanceError(f"{name}: {bool(out)}, expected {bool(expected)}")
    return check


for _name in ("allclose", "array_equal", "array_equiv"):
    _reg(_name, _closeness_check(_name), "numeric")


def _obj_check(name):
    def check(xp, data):
        d = data.draw(S.dtypes("any"), label="dtype")
        x = data.draw(S.arrays(d, data.draw(S.shapes(), label="shape")), label="x")
        got = resolve(xp, name)(as_xp(xp, x))
        if bool(got) != bool(getattr(np, name)(x)):
            raise ConformanceError(f"{name}: {got} for dtype {d}")
    return check


for _name in ("iscomplexobj", "isrealobj"):
    _reg(_name, _obj_check(_name), "any")


def _packbits_check(xp, data):
    d = data.draw(st.sampled_from(("bool", "uint8", "int32")), label="dtype")
    shape = data.draw(S.shapes(min_dims=1, max_side=11), label="shape")
    x = data.draw(S.arrays(d, shape, min_value=0, max_value=2), label="x")
    axis = data.draw(st.one_of(st.none(), st.integers(-len(shape), len(shape) - 1)),
                     label="axis")
    order = data.draw(st.sampled_from(("big", "little")), label="bitorder")
    packed = np.packbits(x, axis=axis, bitorder=order)
    _check("packbits", resolve(xp, "packbits")(as_xp(xp, x), axis=axis, bitorder=order),
           packed)


def _unpackbits_check(xp, data):
    shape = data.draw(S.shapes(min_dims=1), label="shape")
    x = data.draw(S.arrays("uint8", shape), label="x")
    axis = data.draw(st.one_of(st.none(), st.integers(-len(shape), len(shape) - 1)),
                     label="axis")
    n = x.size * 8 if axis is None else shape[axis] * 8
    count = data.draw(st.one_of(st.none(), st.integers(-n, n + 5)), label="count")
    order = data.draw(st.sampled_from(("big", "little")), label="bitorder")
    assume(n > 0 or not count or count < 0)  # NumPy pads an empty input with garbage
    expected = np.unpackbits(x, axis=axis, count=count, bitorder=order)
    _check("unpackbits", resolve(xp, "unpackbits")(as_xp(xp, x), axis=axis, count=count,
                                                    bitorder=order), expected)


_reg("packbits", _packbits_check, "integer or boolean")
_reg("unpackbits", _unpackbits_check, "unsigned integer")


# ---- einsum -------------------------------------------------------------------------------
@st.composite
def _einsum_problem(draw):
    """Subscripts over 1-4 operands with shared, repeated, broadcast and ellipsis labels."""
    n_labels = draw(st.integers(1, 5))
    labels = string.ascii_letters[:n_labels] if draw(st.booleans()) else "ijkAB"[:n_labels]
    sizes = {c: draw(st.integers(0 if draw(st.booleans()) else 1, 4)) for c in labels}
    n_ops = draw(st.integers(1, 4))
    ell = draw(st.booleans())
    ell_shape = draw(S.shapes(max_dims=2, min_side=1, max_side=3)) if ell else ()
    terms, shapes = [], []
    for _ in range(n_ops):
        term = draw(st.lists(st.sampled_from(labels), max_size=3))
        shape = [sizes[c] for c in term]
        if draw(st.booleans()) and term:  # a broadcast (size-1) axis
            i = draw(st.integers(0, len(term) - 1))
            if term.count(term[i]) == 1:
                shape[i] = 1
        if ell and draw(st.booleans()):
            k = draw(st.integers(0, len(ell_shape)))
            terms.append("..." + "".join(term))
            shapes.append(tuple(ell_shape[len(ell_shape) - k:]) + tuple(shape))
        else:
            terms.append("".join(term))
            shapes.append(tuple(shape))
    subs = ",".join(terms)
    used = set("".join(terms).replace(".", ""))
    if draw(st.booleans()):
        out = draw(st.lists(st.sampled_from(sorted(used)), unique=True)) if used else []
        out = "".join(out)
        if any("..." in t for t in terms):
            out = "..." + out
        subs += "->" + out
    return subs, shapes


def _einsum_check(xp, data):
    subs, shapes = data.draw(_einsum_problem(), label="problem")
    dtypes = [data.draw(st.sampled_from(_PRODUCT_DTYPES), label="dtype") for _ in shapes]
    ops = [_small(data, d, s, f"op{i}", -3, 3) for i, (d, s) in enumerate(zip(dtypes, shapes))]
    try:
        expected = np.einsum(subs, *ops)
    except ValueError:
        assume(False)
    optimize = data.draw(st.sampled_from((False, True, "greedy", "optimal")), label="opt")
    out = resolve(xp, "einsum")(subs, *[as_xp(xp, o) for o in ops], optimize=optimize)
    scale = np.einsum(subs, *[np.abs(o.astype(np.complex128)) for o in ops])
    nterms = int(np.prod([max(s, 1) for sh in shapes for s in sh])) if shapes else 1
    _check("einsum", out, expected, scale=np.abs(scale), n=nterms)


def _einsum_path_check(xp, data):
    subs, shapes = data.draw(_einsum_problem(), label="problem")
    ops = [np.zeros(s) for s in shapes]
    optimize = data.draw(st.sampled_from(("greedy", "optimal", False)), label="opt")
    try:
        expected = np.einsum_path(subs, *ops, optimize=optimize)
    except ValueError:
        assume(False)
    path, text = resolve(xp, "einsum_path")(subs, *[as_xp(xp, o) for o in ops],
                                            optimize=optimize)
    if list(path) != list(expected[0]):
        raise ConformanceError(f"einsum_path: {path}, expected {expected[0]}")
    if not isinstance(text, str) or "Complete contraction" not in text:
        raise ConformanceError(f"einsum_path: report {text!r}")


_reg("einsum", _einsum_check, "numeric")
_reg("einsum_path", _einsum_path_check, "numeric")


# ---- products ----------------------------------------------------------------------------
def _product_spec(name, shapes_fn, kwargs_fn=None, group="numeric"):
    def check(xp, data):
        d1 = data.draw(st.sampled_from(_PRODUCT_DTYPES), label="d1")
        d2 = data.draw(st.sampled_from(_PRODUCT_DTYPES), label="d2")
        assume(name not in ("cross",) or "bool" not in (d1, d2))
        s1, s2 = data.draw(shapes_fn(), label="shapes")
        a, b = _small(data, d1, s1, "a"), _small(data, d2, s2, "b")
        kwargs = kwargs_fn(data, s1, s2) if kwargs_fn else {}
        fn = getattr(np, name)
        with np.errstate(all="ignore"):
            try:
                expected = np.asarray(fn(a, b, **kwargs))
            except ValueError:
                assume(False)
            conj = (lambda v: v) if name not in ("vdot", "vecmat") else np.conj
            if name == "cross":  # differences of products: bound by the largest product
                scale = np.full(expected.shape, 2 * np.abs(a).max(initial=0) *
                                np.abs(b).max(initial=0), np.float64)
            else:
                scale = np.abs(np.asarray(fn(np.abs(conj(a.astype(np.complex128))),
                                             np.abs(b.astype(np.complex128)), **kwargs)))
        out = resolve(xp, name)(as_xp(xp, a), as_xp(xp, b), **kwargs)
        _check(name, out, expected, scale=scale, n=max(a.size, b.size, 1))
    _reg(name, check, group)


def _shape_pair(rank1, rank2, link):
    """Two shapes whose linked axes ``link(s1, s2)`` agree."""
    @st.composite
    def make(draw):
        s1 = list(draw(S.shapes(min_dims=rank1[0], max_dims=rank1[1])))
        s2 = list(draw(S.shapes(min_dims=rank2[0], max_dims=rank2[1])))
        link(s1, s2)
        return tuple(s1), tuple(s2)
    return make


def _link_dot(s1, s2):
    if s1 and s2:
        s2[0 if len(s2) == 1 else -2] = s1[-1]


def _link_inner(s1, s2):
    if s1 and s2:
        s2[-1] = s1[-1]


def _link_none(s1, s2):
    pass


def _link_vdot(s1, s2):
    s2[:] = [int(np.prod(s1))] if s1 else []


_product_spec("dot", _shape_pair((0, 3), (0, 3), _link_dot))
_product_spec("inner", _shape_pair((0, 3), (0, 3), _link_inner))
_product_spec("vdot", _shape_pair((0, 3), (1, 1), _link_vdot))
_product_spec("outer", _shape_pair((0, 2), (0, 2), _link_none))
_product_spec("kron", _shape_pair((0, 3), (0, 3), _link_none))
_product_spec("matvec", _shape_pair((2, 3), (1, 2), lambda s1, s2: s2.__setitem__(
    -1, s1[-1])))
_product_spec("vecmat", _shape_pair((1, 2), (2, 3), lambda s1, s2: s2.__setitem__(
    -2, s1[-1])))


@st.composite
def _cross_shapes(draw):
    batch = draw(S.shapes(max_dims=2, min_side=1, max_side=3))
    na, nb = draw(st.sampled_from((2, 3))), draw(st.sampled_from((2, 3)))
    return batch + (na,), batch[draw(st.integers(0, len(batch))):] + (nb,)


def _cross_kwargs(data, s1, s2):
    if data.draw(st.booleans(), label="move axes"):
        return {}
    return {"axisa": -1, "axisb": -1,
            "axisc": data.draw(st.integers(-1, 0), label="axisc")}


_product_spec("cross", _cross_shapes, _cross_kwargs)


def _conv_spec(name):
    def check(xp, data):
        d1 = data.draw(st.sampled_from(_PRODUCT_DTYPES), label="d1")
        d2 = data.draw(st.sampled_from(_PRODUCT_DTYPES), label="d2")
        a = _small(data, d1, (data.draw(st.sampled_from((1, 2, 5)), label="n"),), "a")
        v = _small(data, d2, (data.draw(st.sampled_from((1, 3, 4)), label="m"),), "v")
        mode = data.draw(st.sampled_from(("full", "same", "valid")), label="mode")
        fn = getattr(np, name)
        expected = fn(a, v, mode)
        scale = np.abs(fn(np.abs(a.astype(np.complex128)), np.abs(v.astype(np.complex128)),
                          mode))
        out = resolve(xp, name)(as_xp(xp, a), as_xp(xp, v), mode)
        _check(name, out, expected, scale=scale, n=max(a.size, v.size))
    _reg(name, check, "numeric")


_conv_spec("convolve")
_conv_spec("correlate")


def _trace_check(xp, data):
    d = data.draw(S.dtypes("any"), label="dtype")
    shape = data.draw(S.shapes(min_dims=2, max_dims=4), label="shape")
    x = _small(data, d, shape)
    nd = len(shape)
    ax1 = data.draw(st.integers(-nd, nd - 1), label="axis1")
    ax2 = data.draw(st.integers(-nd, nd - 1).filter(lambda a: a % nd != ax1 % nd),
                    label="axis2")
    offset = data.draw(st.integers(-3, 3), label="offset")
    expected = np.trace(x, offset, ax1, ax2)
    scale = np.trace(np.abs(x.astype(np.complex128)), offset, ax1, ax2)
    out = resolve(xp, "trace")(as_xp(xp, x), offset, ax1, ax2)
    _check("trace", out, expected, scale=scale, n=max(shape))


_reg("trace", _trace_check, "any")


# ---- polynomials ---------------------------------------------------------------------------
_POLY_DTYPES = ("int64", "float32", "float64", "complex128")


def _coeffs(data, label, min_size=1, dtypes=_POLY_DTYPES):
    d = data.draw(st.sampled_from(dtypes), label=f"{label} dtype")
    n = data.draw(st.sampled_from((1, 2, 4) if min_size <= 1 else (2, 4)),
                  label=f"{label} size")
    # flushed when drawn: polymul, polydiv and roots trim zero coefficients by their exact
    # values (as NumPy) and then compute as the platform does, so a subnormal coefficient
    # changes the result's shape, which the flush rule's replay cannot match
    return flush_subnormals(_small(data, d, (n,), label, -5, 5))


def _polyval_check(xp, data):
    p = _coeffs(data, "p")
    d = data.draw(st.sampled_from(_POLY_DTYPES), label="x dtype")
    x = _small(data, d, data.draw(S.shapes(max_dims=2), label="shape"), "x", -2, 2)
    expected = np.polyval(p, x)
    scale = np.polyval(np.abs(p.astype(np.complex128)), np.abs(x.astype(np.complex128)))
    out = resolve(xp, "polyval")(as_xp(xp, p), as_xp(xp, x))
    _check("polyval", out, expected, scale=np.abs(scale), n=2 * len(p))


def _poly_binop(name):
    def check(xp, data):
        a, b = _coeffs(data, "a1"), _coeffs(data, "a2")
        expected = getattr(np, name)(a, b)
        scale = np.polymul(np.abs(a.astype(np.complex128)), np.abs(b.astype(
            np.complex128))) if name == "polymul" else np.abs(expected) + 1
        out = resolve(xp, name)(as_xp(xp, a), as_xp(xp, b))
        _check(name, out, expected, scale=np.abs(scale), n=len(a) + len(b))
    return check


def _polydiv_check(xp, data):
    u = _coeffs(data, "u", dtypes=("int64", "float64"))
    v = _coeffs(data, "v", dtypes=("int64", "float64"))
    assume(abs(v[0]) >= 1)
    q, r = np.polydiv(u, v)
    got_q, got_r = resolve(xp, "polydiv")(as_xp(xp, u), as_xp(xp, v))
    _check("polydiv", got_q, q, bound="polydiv:q")
    if tuple(got_r.shape) == r.shape:
        _check("polydiv", got_r, r, bound="polydiv:r")
    else:  # the trimming threshold (|r0| <= 1e-8) met by rounding on one side only
        got = to_numpy(got_r)
        n = min(len(got), len(r))
        assert_values("polydiv", got[-n:], r[-n:], bound="polydiv:r")


def _polyder_check(xp, data):
    p = _coeffs(data, "p")
    m = data.draw(st.integers(0, 5), label="m")
    _check("polyder", resolve(xp, "polyder")(as_xp(xp, p), m), np.polyder(p, m))


def _polyint_check(xp, data):
    p = _coeffs(data, "p")
    m = data.draw(st.integers(0, 3), label="m")
    k = data.draw(st.one_of(st.none(), st.floats(-3, 3), st.lists(st.floats(-3, 3),
                                                                   min_size=m, max_size=m)),
                  label="k")
    if isinstance(k, list) and m == 0:
        k = None
    expected = np.polyint(p, m) if k is None else np.polyint(p, m, k)
    out = resolve(xp, "polyint")(as_xp(xp, p), m) if k is None else \
        resolve(xp, "polyint")(as_xp(xp, p), m, k)
    _check("polyint", out, expected)


def _vander_check(xp, data):
    d = data.draw(S.dtypes("numeric"), label="dtype")
    x = _small(data, d, (data.draw(st.integers(0, 5), label="n"),), "x", -3, 3)
    N = data.draw(st.one_of(st.none(), st.integers(0, 6)), label="N")
    inc = data.draw(st.booleans(), label="increasing")
    _check("vander", resolve(xp, "vander")(as_xp(xp, x), N, inc), np.vander(x, N, inc))


def _polyfit_check(xp, data):
    n = data.draw(st.sampled_from((3, 8)), label="n")
    deg = data.draw(st.sampled_from((0, 2)), label="deg")
    x = np.linspace(-1.0, 1.0, n) + data.draw(st.floats(-0.5, 0.5), label="shift")
    y = _small(data, "float64", (n,) if data.draw(st.booleans(), label="1-D") else (n, 2),
               "y", -5, 5)
    w = 0.5 + _small(data, "int64", (n,), "w", 0, 6) / 4 if data.draw(st.booleans(),
                                                                       label="w") else None
    expected = np.polyfit(x, y, deg, w=w)
    out = resolve(xp, "polyfit")(as_xp(xp, x), as_xp(xp, y), deg, w=None if w is None
                                 else as_xp(xp, w))
    _check("polyfit", out, expected)


def _roots_check(xp, data):
    p = _coeffs(data, "p", dtypes=("int64", "float64", "complex128"))
    p = np.round(p, 3)  # eigenvalue solvers differ on coefficients hundreds of decades apart
    expected = np.sort_complex(np.roots(p).astype(np.complex128))
    got = np.sort_complex(to_numpy(resolve(xp, "roots")(as_xp(xp, p))).astype(np.complex128))
    if got.shape != expected.shape:
        raise ConformanceError(f"roots: shape {got.shape}, expected {expected.shape}")
    # roots are ill-conditioned: compare the polynomials they define
    _check("roots", np.poly(got) if got.size else got,
           np.poly(expected) if expected.size else expected,
           scale=np.abs(np.poly(-np.abs(expected))) if expected.size else expected,
           dtype=False)


def _poly_check(xp, data):
    d = data.draw(st.sampled_from(("int64", "float64", "complex128")), label="dtype")
    z = _small(data, d, (data.draw(st.sampled_from((0, 1, 3)), label="n"),), "z", -3, 3)
    if d == "complex128" and data.draw(st.booleans(), label="conjugate pairs"):
        z = np.concatenate([z, z.conj()])
    expected = np.poly(z)
    scale = np.poly(-np.abs(z.astype(np.complex128))) if z.size else expected
    _check("poly", resolve(xp, "poly")(as_xp(xp, z)), expected, scale=np.abs(scale))


_reg("polyval", _polyval_check, "numeric")
for _name in ("polyadd", "polysub", "polymul"):
    _reg(_name, _poly_binop(_name), "numeric")
_reg("polydiv", _polydiv_check, "numeric")
_reg("polyder", _polyder_check, "numeric")
_reg("polyint", _polyint_check, "numeric")
_reg("vander", _vander_check, "numeric")
_reg("polyfit", _polyfit_check, "real floating")
_reg("roots", _roots_check, "numeric")
_reg("poly", _poly_check, "numeric")


# ---- windows -----------------------------------------------------------------------------
def _window_spec(name):
    def check(xp, data):
        M = data.draw(st.sampled_from((-1, 0, 1, 2, 7, 16)), label="M")
        if name == "kaiser":
            beta = data.draw(st.floats(0, 20), label="beta")
            expected, out = np.kaiser(M, beta), resolve(xp, name)(M, beta)
        else:
            expected, out = getattr(np, name)(M), resolve(xp, name)(M)
        _check(name, out, expected)
    _reg(name, check, "real floating")


for _name in ("bartlett", "blackman", "hamming", "hanning", "kaiser"):
    _window_spec(_name)


# ---- real_if_close -----------------------------------------------------------------------
def _real_if_close_check(xp, data):
    dtype = data.draw(S.dtypes("numeric"), label="dtype")
    shape = data.draw(S.shapes(max_dims=2), label="shape")
    x = _small(data, dtype, shape)
    if np.dtype(dtype).kind == "c":
        # imaginary parts around the threshold (tol machine epsilons) or plainly nonzero
        eps = np.finfo(dtype).eps
        scale = data.draw(st.sampled_from((0.0, 10 * eps, 99 * eps, 101 * eps, 1e3 * eps, 1.0)),
                          label="imaginary scale")
        imag = data.draw(S.arrays(np.dtype(np.float64), shape), label="imag")
        imag = np.clip(np.nan_to_num(imag), -1, 1)
        x = (x.real + 1j * (imag * scale)).astype(dtype)
    tol = data.draw(st.sampled_from((100, 1000, 1e-3)), label="tol")
    expected = np.real_if_close(x, tol=tol)
    out = resolve(xp, "real_if_close")(as_xp(xp, x), tol=tol)
    _check("real_if_close", out, expected)


_reg("real_if_close", _real_if_close_check, "numeric")
