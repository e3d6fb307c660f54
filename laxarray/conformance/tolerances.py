"""The error bounds of the conformance specs: one error model, one table.

**The model.**  A namespace's value ``a`` passes against the oracle's ``e`` when, element by
element,

    |a - e|  <=  eps * ( R * |e|  +  A  +  K * scale )  +  T * tiny

    R = rel + rel_n * n + cond(inputs)     (ulps of the expected value's magnitude)
    A = abs + abs_n * n                    (ulps of 1)
    K = scaled + scaled_n * n              (ulps of the scale the spec states)

``eps`` and ``tiny`` (the smallest normal number) are those of the dtype the bound is
stated in: the result's, or the namespace's where the spec compared values it computed in
wider precision.  ``n`` is the number of terms of a sum, product or fold (the row says when
it is needed: ``*_n`` coefficients), ``scale`` the magnitude the row names (``Bound.scale``:
the sum of ``|terms|`` for a reduction, ``max|expected|`` for a decomposition ...), and
``cond`` an optional function of the inputs: the ulps a problem's conditioning adds at
each element (complex ``pow``).  A bound whose scale overflows or is NaN (a NaN among
the terms) bounds nothing.  Whatever the bound, NaN must meet NaN and an infinity itself;
signs of zero are compared where the spec asks (a choice of *what* is compared, not of
tolerance).

Complex values are measured as the row says (``measure``):

- ``"normwise"`` (the default): each part's error against the bound, ``|e|`` being the
  larger finite part of the expected value -- the usual measure of complex accuracy (a
  part that cancels to nearly zero is not held to a relative bound of its own);
- ``"componentwise"``: each part against the bound with its own magnitude (results
  computed part by part: sums of complex values are two real sums);
- ``"modulus"``: the modulus of the error against the bound, ``|e|`` the modulus.

Integers and booleans always compare exactly.

**The table.**  :data:`BOUNDS` holds every function's bound, once, keyed by the spec's name
(``"linalg.qr"``), by ``name:part`` where a spec compares several things with different
bounds (``"linalg.qr:Q^H Q"``), or by a glob pattern (``"add.*"``); a name without a row is
compared exactly (:data:`EXACT`).  Each row says why (``Bound.why``).  Specs choose *what*
they compare (elements, a reconstruction ``Q R``, a property ``A v = w v``) and state the
scale; the arithmetic of the bound lives here only.

Notation in the justifications: ``u = eps / 2`` (the unit roundoff), ``gamma_k = k u / (1 -
k u)``; "Higham" is N. J. Higham, *Accuracy and Stability of Numerical Algorithms* (2nd ed.).
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field, replace
from typing import Callable

import numpy as np

MEASURES = ("normwise", "componentwise", "modulus")


@dataclass(frozen=True)
class Bound:
    """One row of the error model (see the module docstring for the formula)."""

    rel: float = 0.0
    rel_n: float = 0.0
    abs: float = 0.0
    abs_n: float = 0.0
    scaled: float = 0.0
    scaled_n: float = 0.0
    tiny: float = 0.0
    #: how complex errors are measured (:data:`MEASURES`)
    measure: str = "normwise"
    #: ``cond(*inputs) -> ulps`` (array): the relative ulps the problem's conditioning adds
    cond: Callable | None = None
    #: what the spec must pass as ``scale`` (documentation; required when ``scaled*`` != 0)
    scale: str = ""
    #: the bound for complex inputs, where it differs
    complex: Bound | None = None
    why: str = field(default="", compare=False)

    def __post_init__(self):
        if self.measure not in MEASURES:
            raise ValueError(f"Bound: expected measure among {MEASURES}; got {self.measure!r}")
        if (self.scaled or self.scaled_n) and not self.scale:
            raise ValueError("Bound: a row with a scaled term must say what its scale is")

    @property
    def exact(self):
        """Whether the row allows no error at all."""
        return not (self.rel or self.rel_n or self.abs or self.abs_n or self.scaled
                    or self.scaled_n or self.tiny or self.cond)

    @property
    def per_term(self):
        """Whether the bound grows with the number of terms ``n``."""
        return bool(self.rel_n or self.abs_n or self.scaled_n)

    def for_dtype(self, dtype):
        """The row that applies to inputs of ``dtype`` (its ``complex`` row for complex)."""
        if self.complex is not None and dtype is not None and np.dtype(dtype).kind == "c":
            return self.complex
        return self

    def tolerance(self, dtype, *, scale=None, n=None, inputs=()):
        """``(rtol, atol)``: the bound as absolute numbers (arrays where ``scale``, ``n`` or
        ``cond`` vary by element), ``rtol`` multiplying ``|e|``: ``|a - e| <= atol + rtol
        * |e|``.  ``dtype``: the (real or complex) dtype whose ``eps``/``tiny`` the bound
        is stated in."""
        if self.per_term and n is None:
            raise ValueError("Bound.tolerance: this bound grows with the number of terms; "
                             "pass n")
        if (self.scaled or self.scaled_n) and scale is None:
            raise ValueError(f"Bound.tolerance: this bound needs scale ({self.scale})")
        info = np.finfo(np.dtype(dtype))
        eps, tiny = float(info.eps), float(info.tiny)
        n = 0 if n is None else n
        rel = self.rel + self.rel_n * n
        if self.cond is not None and inputs:
            with np.errstate(all="ignore"):
                extra = np.asarray(self.cond(*inputs), dtype=np.float64)
            rel = rel + np.where(np.isfinite(extra), extra, 0.0)
        atol = (self.abs + self.abs_n * n) * eps + self.tiny * tiny
        k = self.scaled + self.scaled_n * n
        if k:
            with np.errstate(over="ignore", invalid="ignore"):
                atol = atol + k * eps * np.abs(np.asarray(scale, dtype=np.float64))
            # a scale that overflowed, or is NaN (a NaN among the terms), bounds nothing
            atol = np.where(np.isfinite(atol), atol, np.inf)
        return rel * eps if np.ndim(rel) else float(rel * eps), atol


EXACT = Bound(why="moves, selects or counts values, or is correctly rounded: exact")


# ---- classes of bound (rows below refer to these) ---------------------------------------------
#: XLA's real elementary functions against glibc's, each within ~1 ulp of the true value
TRANSCENDENTAL = Bound(rel=4.0, abs=4.0, why=(
    "elementary function: XLA and glibc are each within ~1 ulp; 4 ulps relative, 4 absolute "
    "near zero"))
#: several rounded steps (log2 = log / ln 2, complex elementary functions)
COMPOSITE = Bound(rel=8.0, abs=8.0, why=(
    "a composition of a few rounded steps (log / ln 2; complex functions of exp, log, sin, "
    "cos, hypot): 8 ulps"))
_TRANS = replace(TRANSCENDENTAL, complex=COMPOSITE)

#: a sum of n terms in any order (pairwise, blocked, sequential): Higham (4.3)/(4.4),
#: |error| <= gamma_(n-1) * sum|x_i|; the rows allow 2 n eps (four times that)
SUMMATION = Bound(scaled_n=2.0, scale="the same reduction of |x|", why=(
    "summation in any order: |error| <= gamma_(n-1) sum|x| (Higham 4.4); 2 n eps sum|x|, "
    "part by part"))
#: sums of n products (dot, einsum, convolve, polyval): Higham (3.5), gamma_n sum|x_i y_i|;
#: 2 n eps of the same computation on magnitudes, the error's modulus for complex values
#: (a complex product rounds each part), plus 4 tiny for products that underflow
PRODUCTS = Bound(scaled_n=2.0, tiny=4.0, measure="modulus",
                 scale="the same computation on |operands|", why=(
                     "sums of n products: |error| <= gamma_n sum|x_i y_i| (Higham 3.5); "
                     "2 n eps of it, modulus of the error, + 4 tiny for underflowing "
                     "products"))


def _linalg(kind, ulps):
    """Normwise linalg bound: ``ulps * eps * (|e| + scale)``, ``scale`` the largest
    expected magnitude unless the row says otherwise.  Matrices have sides <= 4 (6 for the
    tensor forms) and condition numbers <= ~10."""
    return Bound(rel=ulps, scaled=ulps, scale="max|expected| (or the stated magnitude)",
                 why=kind)


#: sums of <= 4 products: matmul, outer, cross, trace, vecdot, norms
LA_PRODUCT = _linalg("sums of <= 4 products: gamma_4 ~ 2 eps each; 16 ulps of the largest "
                     "magnitude", 16)
#: LU / Cholesky / QR based: backward stable, error ~ cond(A) * n * eps (cond <= ~10, n <= 4)
LA_FACTOR = _linalg("LU / Cholesky / QR: backward stable, forward error <= cond(A) n eps "
                    "(cond <= ~10, n <= 4 drawn): 64 ulps", 64)
#: iterative eigen/SVD solvers: eigh, eig, svd, pinv, cond, 2-norms
LA_SPECTRAL = _linalg("iterative eigen/SVD solvers (Jacobi/QR sweeps): a few sweeps of "
                      "rotations, each O(n eps); 128 ulps of ||A||", 128)
#: FFTs of length <= 8: error ~ log2(n) eps relative to the input's magnitude
LA_FFT = _linalg("FFT of length <= 8: error <= log2(n) eps ||x|| (Higham 24.1) with the "
                 "oracle's own error; 32 ulps", 32)


def _complex_pow_cond(x1, x2):
    """``|x2 log x1|``: rounding ``w = x2 log x1`` (whose imaginary part is the result's
    phase) costs any working-precision method ``|w|`` ulps: exp's condition number at w."""
    return np.abs(np.asarray(x2, np.complex128) * np.log(np.asarray(x1, np.complex128)))


def _exp_argument_cond(x):
    """``|x|``: exp's condition number at ``x``.  ``sinh`` and ``cosh`` of a large ``|x|``
    are ``exp(|x| - ln 2)``: rounding that argument costs a working-precision method ``|x|``
    ulps (their own condition numbers, ``|x coth x|`` and ``|x tanh x|``, are as large);
    XLA's lose ~``|x| / 2`` (12 ulps at 82 in float32, 250 at 515 in float64)."""
    return np.abs(np.asarray(x, np.float64))


_COMPLEX_PRODUCT = Bound(rel=2.0, why=(
    "complex product or quotient of correctly rounded parts: a few roundings per part, "
    "normwise (Higham 3.6: sqrt(2) gamma_2)"))

# ---- the table -------------------------------------------------------------------------------
BOUNDS: dict[str, Bound] = {
    # ---- the standard's elementwise functions (real: exact unless listed) ----------------------
    "abs": replace(EXACT, complex=Bound(rel=1.0, why="|z| = hypot(re, im): within 1 ulp")),
    "square": replace(EXACT, complex=_COMPLEX_PRODUCT),
    "reciprocal": replace(EXACT, complex=_COMPLEX_PRODUCT),
    "sign": replace(EXACT, complex=Bound(rel=2.0, why="z / |z|: a hypot and a division")),
    "multiply": replace(EXACT, complex=_COMPLEX_PRODUCT),
    "divide": replace(EXACT, complex=Bound(rel=4.0, why=(
        "complex division (Smith's or scaled textbook): up to ~3 roundings per part"))),
    "sqrt": replace(EXACT, complex=Bound(rel=2.0, why=(
        "complex sqrt: a hypot, a sqrt and a division: 2 ulps normwise"))),
    "pow": replace(TRANSCENDENTAL, complex=replace(COMPOSITE, cond=_complex_pow_cond, why=(
        "exp(x2 log x1): 8 ulps plus |x2 log x1| (exp's condition number at w)"))),
    **{f: _TRANS for f in ("exp", "expm1", "log", "log1p", "sin", "cos", "tan", "asin",
                           "acos", "atan", "tanh", "asinh", "acosh", "atanh")},
    # the standard "does not precisely define" their accuracy (design_topics/accuracy.rst)
    **{f: replace(_TRANS, cond=_exp_argument_cond, why=(
        "sinh, cosh: exp(|x| - ln 2) for large |x|: 4 ulps plus |x| (exp's condition "
        "number at x)")) for f in ("sinh", "cosh")},
    "log2": COMPOSITE,
    "log10": COMPOSITE,
    "atan2": TRANSCENDENTAL,
    "logaddexp": TRANSCENDENTAL,
    "hypot": Bound(rel=2.0, why="hypot: big * sqrt(1 + (small/big)**2), XLA's scaled formula: "
                   "five roundings, within 2 ulps (C99's within 1)"),
    # ---- NumPy's elementwise extras -------------------------------------------------------------
    "exp2": Bound(rel=4.0, complex=Bound(rel=8.0, abs=4.0, why="complex exp2 = exp(z ln 2)"),
                  why="exp2: an elementary function, within ~2 ulps on both sides"),
    "cbrt": Bound(rel=2.0, why="cbrt: within 1 ulp on both sides"),
    **{f: Bound(rel=1.0, why="a multiplication by a rounded constant (pi/180)")
       for f in ("deg2rad", "rad2deg", "degrees", "radians")},
    "sinc": Bound(rel=8.0, abs=4.0, why="sin(pi x) / (pi x): a rounded pi x and a sin"),
    "i0": Bound(rel=64.0, why=(
        "i0: Chebyshev series (Cephes, NumPy) against XLA's: 64 ulps on |x| <= 60")),
    "angle": Bound(rel=2.0, abs=1.0, why="atan2 of the parts: within ~1 ulp"),
    "float_power": Bound(rel=8.0, abs=8.0, complex=Bound(
        rel=64.0, abs=64.0, cond=_complex_pow_cond,
        why="complex128 exp(x2 log x1): 64 ulps plus |x2 log x1|"),
        why="pow in float64: 8 ulps"),
    "logaddexp2": Bound(rel=4.0, abs=2.0, why="log2(2**a + 2**b): an exp2, a log1p"),
    "around": Bound(rel=1.0, why="round(x * 10**d) / 10**d: one rounding of the quotient"),
    "unwrap": Bound(rel=64.0, abs=64.0, why=(
        "cumulative sum of period corrections (<= 6 terms of |p| <= 20)")),
    "polydiv:q": Bound(rel=1e4, abs=1e4, why=(
        "polynomial long division: each quotient coefficient divides by the leading "
        "coefficient (>= 1) and subtracts; errors grow with the quotient's size")),
    "polydiv:r": Bound(rel=1e5, abs=1e5, why=(
        "the remainder cancels the dividend: its error is absolute, ~ the quotient's "
        "error times the divisor")),
    "polyder": Bound(rel=2.0, why="coefficients times small integers: one rounding each"),
    "polyint": Bound(rel=8.0, abs=8.0, why="divisions by small integers, plus constants"),
    "vander": Bound(rel=4.0, abs=4.0, why="powers x**k, k <= 5: a few roundings"),
    "polyfit": Bound(rel=1e6, abs=1e6, why=(
        "least squares on a Vandermonde matrix (cond up to ~1e3) by SVD/QR: forward error "
        "~ cond^2 eps")),
    **{f: Bound(rel=64.0, abs=8.0, why="cos / Bessel windows of length <= 16")
       for f in ("bartlett", "blackman", "hamming", "hanning", "kaiser")},
    **{f: PRODUCTS for f in ("einsum", "dot", "inner", "vdot", "outer", "kron", "matvec",
                             "vecmat", "cross", "convolve", "correlate", "trace", "polyval",
                             "polymul")},
    "poly": replace(PRODUCTS, scaled_n=0.0, scaled=16.0, why=(
        "the product of <= 6 linear factors, as a sum of products of n <= 8 terms: "
        "2 * 8 eps")),
    "polyadd": replace(PRODUCTS, scale="|result| + 1"),
    "polysub": replace(PRODUCTS, scale="|result| + 1"),
    "roots": replace(PRODUCTS, scaled_n=0.0, scaled=128.0,
                     scale="|np.poly(-|expected roots|)|: the coefficients on magnitudes",
                     why=("roots are ill-conditioned: the polynomials they define compare "
                          "(the companion matrix's eigenvalues are backward stable): "
                          "128 eps, a sum of products of n = 64 terms")),
    # ---- the standard's statistical functions ----------------------------------------------------
    "sum": SUMMATION,
    "prod": replace(SUMMATION, scale="the product of |x|", why=(
        "a product of n terms: |error| <= gamma_(n-1) prod|x| (Higham 3.1)")),
    "mean": replace(SUMMATION, scale="the mean of |x|", why=(
        "a sum, then one division by n")),
    "var": Bound(scaled_n=8.0, scale="max|x|**2", why=(
        "two passes (mean, then sum of squared deviations): ~ (n + 3) eps max|x|^2, "
        "8 n eps of it")),
    "std": Bound(scaled_n=8.0, scale="max|x|", why="sqrt of var: half var's relative error"),
    "cumulative_sum": Bound(rel_n=4.0, abs_n=4.0, why=(
        "partial sums of n terms, each within gamma_n sum|x|: 4 n ulps")),
    "cumulative_prod": Bound(rel_n=4.0, abs_n=4.0, why=(
        "partial products of n terms: gamma_n relative (Higham 3.1): 4 n ulps")),
    # ---- the standard's linear algebra (main namespace, integer or float) -----------------------
    **{f: Bound(rel=16.0, abs=64.0, why=(
        "sums of products of values in [-10, 10]: 16 ulps relative, 64 absolute"))
       for f in ("matmul", "tensordot")},
    "vecdot": Bound(rel=16.0, abs=64.0, complex=Bound(
        scaled_n=8.0, measure="modulus", scale="sum |x1| |x2| over the contracted axis",
        why="complex dot product: gamma_2n sum|x1||x2| (Higham 3.5, complex), 8 n eps"),
        why="sums of products of values in [-10, 10]: 16 ulps relative, 64 absolute"),
    # ---- creation -------------------------------------------------------------------------------
    "arange": Bound(rel=4.0, scaled=4.0, scale="|start| + |step| * length", why=(
        "start + i * step: one multiplication and one addition")),
    "linspace": Bound(rel=8.0, scaled=8.0, scale="max(|start|, |stop|, 1)", why=(
        "start + i * (stop - start) / (num - 1): a few roundings of the endpoints' size")),
    "logspace": Bound(rel=64.0, abs=64.0, why=(
        "base ** linspace: pow's error scales with the exponent (<= ~20 here)")),
    "geomspace": Bound(rel=256.0, abs=64.0, why=(
        "exp of linspace over log endpoints: the log's error times the exponent")),
    "r_": Bound(rel=4.0, abs=16.0, why="r_'s complex-step ranges are linspace"),
    "mgrid": Bound(rel=4.0, abs=4.0, why="ranges start + i * step, as arange"),
    "ogrid": Bound(rel=4.0, abs=4.0, why="ranges start + i * step, as arange"),
    "device.creation": Bound(rel=4.0, abs=4.0, why=(
        "creation on a chosen device (arange, linspace of 0..1): a few roundings")),
    "*:special case pi": Bound(rel=4.0, why=(
        "a special case whose value is a multiple of pi (pi/2, 3pi/4 ...): the correctly "
        "rounded constant, then a few roundings of the function's own reduction")),
    "pad:mean": Bound(scaled=8.0, scale="max(1, max|x|)", why=(
        "mode='mean': a mean of <= 3 values in another summation order")),
    # ---- linalg ---------------------------------------------------------------------------------
    "linalg.cholesky": LA_FACTOR,
    "linalg.qr:Q^H Q": replace(LA_FACTOR, scale="1"),
    "linalg.qr:QR": replace(LA_FACTOR, scale="max(1, max|A|)"),
    "linalg.svd:S": replace(LA_SPECTRAL, scale="max(1, max|A|)"),
    "linalg.svd:U^H U": replace(LA_SPECTRAL, scale="1"),
    "linalg.svd:Vh Vh^H": replace(LA_SPECTRAL, scale="1"),
    "linalg.svd:U S Vh": replace(LA_SPECTRAL, scale="max(1, max|A|)"),
    "linalg.svdvals": replace(LA_SPECTRAL, scale="max(1, max|A|)"),
    **{f"{f}:eigenvalues": replace(LA_SPECTRAL, scale="max(1, max|A|)")
       for f in ("linalg.eigh", "linalg.eigvalsh")},
    "linalg.eigh:Q^H Q": replace(LA_SPECTRAL, scale="1"),
    "linalg.eigh:Q L Q^H": replace(LA_SPECTRAL, scale="max(1, max|A|)"),
    **{f"{f}:eigenvalues": replace(LA_SPECTRAL, scale="3 max(1, max|A|) (cond(P) <= 3)")
       for f in ("linalg.eig", "linalg.eigvals")},
    "linalg.eig:|v|": replace(LA_SPECTRAL, scale="1"),
    "linalg.eig:A v = w v": replace(LA_SPECTRAL, scale="3 max(1, max|A|) (cond(P) <= 3)"),
    "linalg.inv": LA_FACTOR,
    "linalg.solve": replace(LA_FACTOR, scale="max(1, max|x|)"),
    "linalg.det": replace(LA_FACTOR, scale="1 (det / det_oracle against 1)"),
    "linalg.slogdet:sign": replace(LA_FACTOR, scale="1"),
    "linalg.slogdet:logabsdet": replace(LA_FACTOR, scale="max(1, max|logabsdet|)"),
    "linalg.matrix_power": replace(LA_FACTOR, scale="max(1, max|A**p|)"),
    "linalg.pinv": replace(LA_SPECTRAL, scale="2 (singular values in [0.5, 2])"),
    "linalg.lstsq:x": replace(LA_FACTOR, scale="max(2, max|x|)"),
    "linalg.lstsq:residuals": replace(LA_FACTOR, scale="max(1, max residual)"),
    "linalg.lstsq:s": replace(LA_SPECTRAL, scale="2 (singular values in [0.5, 2])"),
    "linalg.tensorinv": replace(LA_FACTOR, scale="1"),
    "linalg.tensorsolve": replace(LA_FACTOR, scale="1"),
    "linalg.vector_norm": replace(LA_PRODUCT, scaled=0.0, scale=""),
    "linalg.matrix_norm": replace(LA_PRODUCT, scaled=0.0, scale=""),
    "linalg.matrix_norm:spectral": replace(LA_SPECTRAL, scaled=0.0, scale=""),
    # (NumPy's norm: ord=-2 of a singular matrix, which ties of two values make, is 0 up
    # to ||A|| eps: scaled by the largest singular value, issue 74's plain-class plans)
    "linalg.norm": replace(LA_PRODUCT, scaled=0.0, scale=""),
    "linalg.norm:spectral": replace(LA_SPECTRAL, scale="the largest singular value"),
    "linalg.cond": replace(LA_SPECTRAL, scale="1 (cond / cond_oracle against 1)"),
    **{f"linalg.{f}": replace(LA_PRODUCT, scale=(
        "max(1, max|expected|) over the finite expected values (NaN and infinities, "
        "placed in real operands, compare exactly)"))
       for f in ("matmul", "tensordot", "vecdot", "outer", "cross")},
    "linalg.trace": replace(LA_PRODUCT, scale="8 (the drawn values' bound: |x| <= 8)"),
    "linalg.multi_dot": replace(LA_PRODUCT, scale="4 ** (count - 1): products of count "
                                                 "factors of norm <= 4"),
    # ---- fft ------------------------------------------------------------------------------------
    # (and 4 of the smallest normal: a flush-to-zero platform flushes the intermediate
    # results below it, so a result of tiny inputs near it may be 0 -- irfft2 of
    # subnormal parts, met once issue 74's draws moved the examples)
    "fft.*": replace(LA_FFT, scale="max|expected|", tiny=4.0),
    **{f: Bound(rel=2.0, why=(
        "f = k / (d*n), no rounding required: d*n, then a division (or a reciprocal and a "
        "product), and a cast of a float64 computation: a few roundings"))
       for f in ("fft.fftfreq", "fft.rfftfreq")},
    "fft.fftshift": EXACT,
    "fft.ifftshift": EXACT,
    # ---- NumPy's statistics ---------------------------------------------------------------------
    **{f: Bound(rel=4.0, abs=4.0, scaled_n=4.0, measure="componentwise",
                scale="nansum(|x|) over the reduced terms", why=(
                    "a sum of n terms (NaN skipped): gamma_n sum|x|; 4 n ulps, +4 ulps of "
                    "the result (the mean's division)"))
       for f in ("nansum", "nanmean")},
    "nanprod": Bound(rel_n=4.0, measure="componentwise", why=(
        "a product of n terms: gamma_(n-1) relative (Higham 3.1): 4 n ulps")),
    **{f: Bound(rel_n=16.0, scaled_n=16.0, measure="componentwise",
                scale="25 for nanvar, 5 for nanstd (|x| <= 5: squared deviations <= 25)",
                why="two passes over n terms: ~ (n + 3) eps of the squared deviations")
       for f in ("nanvar", "nanstd")},
    **{f: Bound(rel_n=4.0, scaled_n=4.0, measure="componentwise",
                scale="3 ** min(n, 30): the largest partial product of |x| <= 3",
                why="partial sums or products of n terms: gamma_n of their magnitude")
       for f in ("cumsum", "cumprod", "nancumsum", "nancumprod")},
    **{f: Bound(rel=1.0, why="the mean of two middle values: one rounding")
       for f in ("median", "nanmedian")},
    **{f: Bound(rel=4.0, scaled=4.0, measure="componentwise",
                scale="max finite |x|", why=(
                    "interpolation between two order statistics: lerp's few roundings "
                    "of the data's magnitude"))
       for f in ("quantile", "percentile", "nanquantile", "nanpercentile")},
    "average": Bound(rel_n=8.0, scaled_n=8.0, measure="componentwise",
                     scale="10 (|x| <= 2.5, weights <= 4: products <= 10)", why=(
                         "weighted sum over sum of weights: gamma_n of sum|w x|")),
    "cov": Bound(rel_n=64.0, scaled_n=64.0, measure="componentwise",
                 scale="1024 (|x| <= 4, weights <= 4: (2 * 4)^2 * 16)", why=(
                     "means, then sums of weighted products over n observations")),
    "corrcoef": Bound(rel=1e4, abs=1e4, measure="componentwise", why=(
        "cov / sqrt(var var): cancellation when a variable is nearly constant")),
    "histogram:edges": Bound(rel=2.0, abs=2.0, measure="componentwise",
                             why="lo + i * (hi - lo) / bins: two roundings"),
    "histogram:counts": Bound(rel_n=16.0, measure="componentwise", why=(
        "density: counts / (sum * width), n terms summed (float64)")),
    "histogram_bin_edges": Bound(rel=2.0, measure="componentwise",
                                 why="lo + i * (hi - lo) / bins: two roundings"),
    "histogram2d": Bound(rel=64.0, abs=4.0, measure="componentwise", why=(
        "density: counts / (n * cell area); edges: two roundings")),
    "histogramdd:counts": Bound(rel=64.0, measure="componentwise", why=(
        "density: counts / (n * cell volume)")),
    "histogramdd:edges": Bound(rel=2.0, abs=2.0, measure="componentwise",
                               why="lo + i * (hi - lo) / bins: two roundings"),
    "bincount": Bound(rel_n=4.0, abs_n=400.0, measure="componentwise", why=(
        "weighted counts: sums of n weights |w| <= 100 (float64): 4 n ulps of 100")),
    "interp": Bound(rel=16.0, abs=1280.0, measure="componentwise", why=(
        "fp[i] + (x - xp[i]) * slope: a few roundings of values <= 20 (float64)")),
    "gradient": Bound(rel=64.0, abs=2560.0, measure="componentwise", why=(
        "differences of values <= 5 over spacings >= 0.5, second order at the edges")),
    "trapezoid": Bound(rel_n=8.0, scaled_n=8.0, measure="componentwise",
                       scale="50 (|y| <= 5, |dx| <= 10)", why=(
                           "a sum of n products (dx * (y_i + y_i+1) / 2)")),
    # ---- ufunc methods --------------------------------------------------------------------------
    **{f"{u}.*": replace(PRODUCTS, scale=(
        "the same fold of |x| (reduce, accumulate), |a| + counts * max|b| (at), "
        "|result| (outer)")) for u in ("add", "subtract")},
    "multiply.*": replace(PRODUCTS, scale=(
        "the product fold of |x| (reduce, accumulate), |result| (outer, at)")),
    "divide.*": replace(PRODUCTS, scaled_n=0.0, rel_n=8.0, scale="", why=(
        "a fold of n divisions: each a few roundings of the quotient (2 n eps of 4|result|)")),
    "hypot.*": replace(PRODUCTS, scaled_n=0.0, rel_n=2.0, scale="", why=(
        "a fold of n hypot calls, each within 1 ulp: relative")),
    "logaddexp.*": replace(PRODUCTS, scale="max(|result|, 1): absolute near 0", why=(
        "a fold of n logaddexp calls: relative, absolute near 0")),
}


def lookup(key, dtype=None):
    """The row for ``key`` (a spec name, ``name:part``), for inputs of ``dtype`` (its
    ``complex`` row for complex inputs): the exact key, else the first glob pattern that
    matches it, else :data:`EXACT`."""
    if isinstance(key, Bound):
        return key.for_dtype(dtype)
    row = BOUNDS.get(key)
    if row is None:
        for pattern, candidate in BOUNDS.items():
            if "*" in pattern and fnmatch.fnmatchcase(key, pattern):
                row = candidate
                break
    return (row or EXACT).for_dtype(dtype)


__all__ = ["Bound", "BOUNDS", "EXACT", "MEASURES", "lookup", "TRANSCENDENTAL", "COMPOSITE",
           "SUMMATION", "PRODUCTS"]
