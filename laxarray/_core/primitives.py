"""Facts about jax's primitives, in one table: the kernel helper reads which keep XLA:CPU's
bits with and without its fusion emitters, sparsify which keep a zero, checkify which can
make a NaN or an infinity.  A fact about a new primitive is one row here.

The facts (a row lists those that hold):

- ``neutral``: XLA:CPU's code gives the same bits with its fusion emitters and without them
  on real float32/float64, integer and bool values (each is compared in
  ``tests/core/test_compiler_options.py``; a primitive not marked keeps the emitters).
  Transcendental functions are marked where XLA expands them the same way in both and they
  run as fast: ``exp``, ``expm1``, ``log``, ``log1p`` and ``tanh`` give the same bits too
  but run up to 1.6x slower on large inputs without the emitters; ``argmax``/``argmin``
  the same bits, up to 2x slower along the leading axis.  Nested programs (``jit``,
  ``cond``, ``while``, ``scan``) are marked: their contents are checked too.
- ``keeps-zero``: a unary elementwise primitive with ``f(0) == 0`` (sparsify maps the
  stored values and keeps the pattern); ``linear``: one that is also linear, so duplicate
  entries need not be summed first; ``moves-zero``: a unary one with ``f(0) != 0`` (sparsify
  says so, rather than densify).
- ``nan``, ``inf``: an elementwise primitive that can make a NaN (an infinity) from
  operands without one, element by element (checkify's ``nan_checks``, ``float_checks``);
  ``reduces``: a reduction or contraction, checked for either over its whole output.
- ``folds``: XLA's algebraic simplifier may rewrite it together with a consumer
  (``log(exp(a))`` to ``a``, ``exp(a) * exp(b)`` to ``exp(a + b)``, ``exp(a) / exp(b)`` to
  ``exp(a - b)``, ``pow(exp(a), b)`` to ``exp(a b)``, ``log(pow(a, b))`` to ``b log(a)``),
  which changes what a NaN or an infinity does: ``log(exp(1e308))`` is 1e308, not inf.
  Checkify puts an ``optimization_barrier`` between the two (its checks follow IEEE
  arithmetic, as the program is written).  ``folding``: such a consumer.
- ``keeps-nonfinite``: every output element is non-finite (NaN or an infinity) when an
  input element it depends on is, for real floating operands and results (inf - inf and
  0 * inf are NaN, sin/cos/tan(inf) NaN, sqrt/log/log1p(-inf) NaN, sums and contractions
  keep a non-finite term); ``keeps-nan``: the same for a NaN (every ``keeps-nonfinite``
  primitive, and those that drop only infinities: exp(-inf) is 0, tanh(inf) is 1).
  Checkify's flag pass follows these to find where a non-finite value surfaces.  ``div``
  (its numerator's non-finite values, either operand's NaN) and ``integer_pow`` (a positive
  power) keep them on a condition of the operand or the parameter, which
  ``checkify.rules.propagates`` reads.
"""

from __future__ import annotations

import functools

from jax import lax
from jax.lax import linalg as lax_linalg

_TABLE = """
add                     neutral nan inf keeps-nonfinite keeps-nan
sub                     neutral nan inf keeps-nonfinite keeps-nan
mul                     neutral nan inf folding keeps-nonfinite keeps-nan
div                     neutral nan inf folding
rem                     neutral nan
neg                     neutral keeps-zero linear keeps-nonfinite keeps-nan
abs                     neutral keeps-zero keeps-nonfinite keeps-nan
sign                    neutral keeps-zero
max                     neutral
min                     neutral
clamp                   neutral
square                  neutral keeps-zero inf keeps-nonfinite keeps-nan
integer_pow             neutral keeps-zero inf
sqrt                    neutral keeps-zero nan keeps-nonfinite keeps-nan
floor                   neutral keeps-zero
ceil                    neutral keeps-zero
round                   neutral keeps-zero
nextafter               neutral
is_finite               neutral moves-zero
eq                      neutral
ne                      neutral
lt                      neutral
le                      neutral
gt                      neutral
ge                      neutral
select_n                neutral
and                     neutral
or                      neutral
not                     neutral moves-zero
xor                     neutral
shift_left              neutral
shift_right_arithmetic  neutral
shift_right_logical     neutral
population_count        neutral
clz                     neutral
convert_element_type    neutral keeps-zero inf keeps-nonfinite keeps-nan
bitcast_convert_type    neutral
reduce_precision        neutral keeps-zero
sin                     neutral keeps-zero nan keeps-nonfinite keeps-nan
cos                     neutral moves-zero nan keeps-nonfinite keeps-nan
tan                     keeps-zero nan inf keeps-nonfinite keeps-nan
asin                    neutral keeps-zero nan keeps-nan
acos                    neutral moves-zero nan keeps-nan
atan                    keeps-zero keeps-nan
sinh                    neutral keeps-zero inf keeps-nan
cosh                    neutral moves-zero inf keeps-nan
tanh                    keeps-zero keeps-nan
asinh                   keeps-zero keeps-nan
acosh                   moves-zero nan keeps-nan
atanh                   keeps-zero nan inf keeps-nan
atan2                   neutral nan
logistic                neutral moves-zero keeps-nan
pow                     neutral nan inf folds folding
erf                     neutral keeps-zero keeps-nan
erf_inv                 keeps-zero nan
erfc                    moves-zero
rsqrt                   neutral moves-zero nan inf keeps-nan
cbrt                    keeps-zero keeps-nan
exp                     moves-zero nan inf folds keeps-nan
exp2                    moves-zero inf keeps-nan
expm1                   keeps-zero inf keeps-nan
log                     moves-zero nan inf folding keeps-nonfinite keeps-nan
log1p                   keeps-zero nan inf keeps-nonfinite keeps-nan
lgamma                  moves-zero nan inf
digamma                 moves-zero nan inf
igamma                  nan
igammac                 nan
bessel_i0e              moves-zero
real                    keeps-zero linear
imag                    keeps-zero linear
conj                    keeps-zero linear
copy                    neutral keeps-zero linear keeps-nonfinite keeps-nan
broadcast_in_dim        neutral keeps-nonfinite keeps-nan
reshape                 neutral keeps-nonfinite keeps-nan
squeeze                 neutral keeps-nonfinite keeps-nan
transpose               neutral keeps-nonfinite keeps-nan
rev                     neutral keeps-nonfinite keeps-nan
pad                     neutral
concatenate             neutral keeps-nonfinite keeps-nan
slice                   neutral
dynamic_slice           neutral
dynamic_update_slice    neutral
gather                  neutral
scatter                 neutral
scatter-add             neutral
scatter-max             neutral
scatter-min             neutral
iota                    neutral
optimization_barrier    neutral
reduce_sum              neutral reduces keeps-nonfinite keeps-nan
reduce_prod             reduces
reduce_max              neutral
reduce_min              neutral
reduce_and              neutral
reduce_or               neutral
cumsum                  neutral reduces keeps-nonfinite keeps-nan
cumprod                 reduces
cummax                  neutral
cummin                  neutral
dot_general             neutral reduces keeps-nonfinite keeps-nan
conv_general_dilated    reduces
sort                    neutral
svd                     neutral
eigh                    neutral
cholesky                neutral
qr                      neutral
lu                      neutral
triangular_solve        neutral
jit                     neutral
cond                    neutral
while                   neutral
scan                    neutral
"""

FACTS = ("neutral", "keeps-zero", "linear", "moves-zero", "nan", "inf", "reduces", "folds",
         "folding", "keeps-nonfinite", "keeps-nan")


def _rows():
    rows = {}
    for line in _TABLE.strip().splitlines():
        name, *facts = line.split()
        unknown = set(facts) - set(FACTS)
        if unknown or name in rows:
            raise AssertionError(f"primitives table: row {line!r}")
        rows[name] = frozenset(facts)
    return rows


#: primitive name -> its facts
ROWS = _rows()


def names(fact: str) -> frozenset:
    """The names of the primitives with ``fact``."""
    return frozenset(name for name, facts in ROWS.items() if fact in facts)


@functools.lru_cache(maxsize=None)
def primitives(fact: str) -> tuple:
    """The primitive objects (``jax.lax``'s, ``jax.lax.linalg``'s) with ``fact``, by name."""
    out = []
    for name in sorted(names(fact)):
        attr = name.replace("-", "_") + "_p"
        out.append(getattr(lax, attr, None) or getattr(lax_linalg, attr))
    return tuple(out)


__all__ = ["FACTS", "ROWS", "names", "primitives"]
