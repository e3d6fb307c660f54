"""Which special values (NaN, +-inf, +-0) each spec of the non-elementwise chapters draws,
and why: the audit of issue 21, item 3.

:data:`AUDIT` maps every spec registered by the statistical, searching/sorting, set,
indexing, manipulation, linalg, fft, creation and data-type modules to one line: the
special placements it draws (``placed``: :func:`~laxarray.conformance.strategies.placed`
puts them where they change the answer -- a NaN in one reduced slice, an all-NaN slice,
``-0.0`` beside ``+0.0``, ``+inf`` beside ``-inf``; ``placed_pair``:
:func:`~laxarray.conformance.strategies.placed_pair` does so for two operands of a
product, an infinity meeting a zero; ``arrays``: the three draw modes of
:func:`~laxarray.conformance.strategies.arrays`, NaN/inf/+-0 anywhere), or why none
apply.  ``tests/conformance/test_special_audit.py`` requires an entry for every such spec.
The official suite's flaky skips (``reshape``, ``std``, ``var``; ``remainder`` is
elementwise, audited with that chapter) are run like every other spec here.
"""

from __future__ import annotations

#: the spec modules audited here (the elementwise chapter was audited before)
MODULES = ("specs_statistical", "specs_sets", "specs_indexing", "specs_manipulation",
           "specs_linalg", "specs_linalg_products", "specs_fft", "specs_creation",
           "specs_data_types")

_MOVES = "arrays: values only move, compared exactly (NaN at NaN, zero signs count)"
_FFT = ("finite in [-1, 1]: the standard leaves NaN/inf unspecified, and every output "
        "depends on every input, so which outputs are NaN or inf depends on the algorithm "
        "(inf * 0 twiddles)")
_LAPACK = ("finite, well-conditioned: NaN/inf inputs excluded, the standard leaves the "
           "result unspecified (LAPACK/XLA-dependent)")
#: the products: IEEE decides NaN and inf whatever the summation order (inf * 0, inf -
#: inf are NaN, NaN propagates; NumPy's OpenBLAS and XLA both follow it); only a zero
#: result's sign depends on the order, so zeros compare without sign
_DOT = ("bounded finite arrays + placed_pair (real floating): NaN in a contracted slice, "
        "an all-NaN slice, +-inf in one operand meeting +-0 in the other at one "
        "contracted index (NaN), +inf and -inf in one slice times one factor (inf - inf); "
        "NaN/inf compared exactly, zeros without sign (the summation order decides it); "
        "complex: none (the order of a complex product's parts decides inf * 0)")
_NO_VALUES = "none apply: no array values in or out"

AUDIT = {
    # ---- statistical -------------------------------------------------------------------
    "sum": "arrays + placed: NaN in one slice, all-NaN slice, +inf beside -inf (NaN)",
    "prod": "finite arrays (order-dependent overflow) + placed: NaN, all-NaN, +-inf, +-0 "
            "(inf * 0 is NaN in any order); complex: none (product order decides inf*0, "
            "and whether NaN+0j keeps 0j)",
    "max": "arrays + placed: NaN in one slice, all-NaN slice, -0/+0 tie, +-inf",
    "min": "arrays + placed: NaN in one slice, all-NaN slice, -0/+0 tie, +-inf",
    "all": "arrays: NaN is truthy, -0.0 falsy, both drawn densely; placement changes nothing",
    "any": "arrays: NaN is truthy, -0.0 falsy, both drawn densely; placement changes nothing",
    "count_nonzero": "arrays: NaN counted, -0.0 not, both drawn densely",
    "mean": "arrays + placed: NaN, all-NaN slice, +-inf (NaN); NumPy's complex mean "
            "deviates (complex count), the spec follows the standard",
    "var": "[-100, 100] (tight rounding bound) + placed: NaN, all-NaN, +-inf (NaN); "
           "an official-suite flaky skip, checked here like the rest",
    "std": "[-100, 100] (tight rounding bound) + placed: NaN, all-NaN, +-inf (NaN); "
           "an official-suite flaky skip, checked here like the rest",
    "cumulative_sum": "finite arrays + placed along the scanned axis: NaN, +inf beside "
                      "-inf (inf - inf is NaN from there on), +-0",
    "cumulative_prod": "finite arrays + placed: NaN, +-inf (inf * 0), +-0; complex: none "
                       "(product order decides inf * 0)",
    "diff": "finite arrays + placed along the axis: NaN, +inf beside -inf (inf - inf)",
    # ---- searching ---------------------------------------------------------------------
    "argmax": "arrays + placed: NaN beside values (NumPy: first NaN wins; the standard is "
              "silent), all-NaN slice, -0/+0 tie (first), +-inf",
    "argmin": "arrays + placed: NaN beside values (NumPy: first NaN wins; the standard is "
              "silent), all-NaN slice, -0/+0 tie (first), +-inf",
    "nonzero": "arrays + placed: -0.0 beside +0.0 (both zero), NaN (nonzero)",
    "searchsorted": "arrays: NaN and +-0 in sorted x1 and in x2 (NaN sorts last, ties "
                    "equal); the standard leaves their order unspecified, NumPy's is checked",
    "where": "arrays: values pass through, compared exactly (NaN, zero signs)",
    # ---- sorting -----------------------------------------------------------------------
    "sort": "arrays + placed: -0/+0 tie (stable: order kept, signs compared), NaN and "
            "all-NaN ascending (last); descending NaN unspecified, not drawn",
    "argsort": "arrays + placed: -0/+0 tie (stable: first index first), NaN ascending; "
               "descending NaN unspecified, not drawn",
    # ---- sets --------------------------------------------------------------------------
    "unique_all": "pool + placed: NaN repeated (each distinct, count 1), -0 beside +0 "
                  "(one value, counts aggregated, sign free)",
    "unique_counts": "pool + placed: NaN repeated (each distinct, count 1), -0 beside +0 "
                     "(one value, counts aggregated)",
    "unique_inverse": "pool + placed: NaN repeated, -0 beside +0 (inverse rebuilds x up "
                      "to zero signs)",
    "unique_values": "pool + placed: NaN repeated (each distinct), -0 beside +0 (one value)",
    "isin": "pool + placed: NaN (never in x2), -0 beside +0 (equal)",
    # ---- indexing ----------------------------------------------------------------------
    "__getitem__": _MOVES,
    "__setitem__": _MOVES + "; values written may be specials too",
    # ---- manipulation ------------------------------------------------------------------
    **{name: _MOVES for name in (
        "broadcast_to", "broadcast_arrays", "concat", "stack", "unstack", "expand_dims",
        "squeeze", "flip", "permute_dims", "moveaxis", "roll", "tile", "repeat", "take",
        "take_along_axis", "matrix_transpose")},
    "reshape": _MOVES + "; an official-suite flaky skip, checked here like the rest",
    "broadcast_shapes": _NO_VALUES,
    "matmul": _DOT,
    "tensordot": _DOT,
    "vecdot": _DOT,
    # ---- linalg ------------------------------------------------------------------------
    **{f"linalg.{name}": _LAPACK for name in (
        "cholesky", "qr", "svd", "svdvals", "eigh", "eigvalsh", "eig", "eigvals", "inv",
        "solve", "det", "slogdet", "matrix_power", "matrix_rank", "pinv", "lstsq",
        "tensorinv", "tensorsolve", "cond")},
    "linalg.vector_norm": "[-4, 4] + placed: NaN (propagates), all-NaN slice, +-inf "
                          "(inf for max/p-norms, skipped by min/negative p)",
    "linalg.matrix_norm": "[-4, 4] + placed in the reduced slice (fro: one matrix, 1/-1: "
                          "one column, inf/-inf: one row): NaN (propagates), all-NaN, +inf "
                          "beside -inf (|x| sums and maxima are inf, a minimum skips them); "
                          "SVD-based orders (2, -2, nuc) not placed: LAPACK-dependent on "
                          "NaN/inf",
    "linalg.norm": "[-4, 4] + placed as vector_norm (vector form, the flattened 2-norm) "
                   "and matrix_norm (matrix form; SVD-based orders not placed)",
    "linalg.matmul": _DOT,
    "linalg.tensordot": _DOT,
    "linalg.vecdot": _DOT,
    "linalg.outer": "bounded finite arrays + placed_pair (real floating): NaN, +-inf "
                    "meeting +-0 in one product (NaN), inf times a factor; complex: none "
                    "(the order of a complex product's parts decides inf * 0)",
    "linalg.cross": "bounded finite arrays + placed in one output vector (real floating): "
                    "NaN in one component, +-inf meeting +-0 in one product of a "
                    "component, inf * v - inf * v (NaN); complex: none",
    "linalg.diagonal": _MOVES,
    "linalg.matrix_transpose": _MOVES,
    "linalg.trace": "bounded finite arrays + placed on the diagonal (a sum): NaN, "
                    "all-NaN diagonal, +inf beside -inf (inf - inf); or a NaN off the "
                    "diagonal, which must not reach the trace (sum(x * eye) would: NaN * 0)",
    "linalg.multi_dot": "finite [-1, 1] + placed (real floating): NaN, an all-NaN row or "
                        "column of one operand (NaN reaches the same outputs under any "
                        "parenthesization); infinities not placed: where inf * 0 and inf - "
                        "inf arise depends on the parenthesization, which each "
                        "implementation picks by cost; complex: none",
    # ---- fft ---------------------------------------------------------------------------
    **{f"fft.{name}": _FFT for name in (
        "fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fftn", "ifftn", "rfftn", "irfftn",
        "fft2", "ifft2", "rfft2", "irfft2")},
    "fft.fftfreq": _NO_VALUES + " (sample spacing d: finite)",
    "fft.rfftfreq": _NO_VALUES + " (sample spacing d: finite)",
    "fft.fftshift": _MOVES,
    "fft.ifftshift": _MOVES,
    # ---- creation ----------------------------------------------------------------------
    "arange": "finite start/stop/step: the length is undefined for NaN/inf",
    "asarray": _MOVES + " (Python floats nan/inf/-0.0 included)",
    "empty": _NO_VALUES + " (contents unspecified)",
    "zeros": "none apply: fixed value +0",
    "ones": "none apply: fixed value 1",
    "full": "scalars: fill_value drawn with NaN, +-inf, +-0 (written exactly)",
    "empty_like": _NO_VALUES + " (contents unspecified)",
    "zeros_like": "none apply: fixed value +0 (x's specials do not leak)",
    "ones_like": "none apply: fixed value 1 (x's specials do not leak)",
    "full_like": "scalars: fill_value drawn with NaN, +-inf, +-0",
    "eye": "none apply: fixed values 0 and 1",
    "linspace": "finite endpoints (|x| <= 1e6): NaN/inf endpoints are not drawn (every "
                "step would be NaN or inf - inf; the standard is silent)",
    "meshgrid": _MOVES,
    "tril": _MOVES,
    "triu": _MOVES,
    "from_dlpack": _MOVES,
    # ---- data types --------------------------------------------------------------------
    "astype": "arrays: float -> float/complex with NaN, +-inf, +-0; float -> int only "
              "within range (the standard leaves NaN/inf/out-of-range casts undefined)",
    "result_type": _NO_VALUES,
    "can_cast": _NO_VALUES,
    "finfo": _NO_VALUES,
    "iinfo": _NO_VALUES,
    "isdtype": _NO_VALUES,
    "__array_namespace_info__": _NO_VALUES,
    "e": "none apply: a constant",
    "pi": "none apply: a constant",
    "inf": "the constant is +inf itself (checked equal)",
    "nan": "the constant is NaN itself (checked NaN)",
    "newaxis": _NO_VALUES,
}

__all__ = ["AUDIT", "MODULES"]
