"""laxarray's own float32 exponentials and logarithms (``Backend.own_math``, the TPU's record):
within 3 ulps of NumPy's float64 result over the whole domain, NumPy's special values, and
the derivative of the function.  On the CPU with the TPU's record these check the
formulations (XLA:CPU rounds every operation they use as the chip does); on the chip,
``benchmarks/elementwise_accuracy.py`` shows the same figures."""

import jax
import numpy as np
import pytest

import laxarray as xp
from laxarray._core import backend

F32 = np.float32
TINY = np.finfo(F32).tiny
#: name -> (laxarray function, NumPy's float64 reference)
FUNCS = {
    "exp": (xp.exp, np.exp), "exp2": (xp.exp2, np.exp2), "expm1": (xp.expm1, np.expm1),
    "log": (xp.log, np.log), "log1p": (xp.log1p, np.log1p), "tanh": (xp.tanh, np.tanh),
    "sinh": (xp.sinh, np.sinh), "cosh": (xp.cosh, np.cosh), "asinh": (xp.asinh, np.arcsinh),
    "acosh": (xp.acosh, np.arccosh), "atanh": (xp.atanh, np.arctanh),
}
SPECIALS = np.array([0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 88.72, 89.0, -103.0,
                     -104.0, 128.0, -150.0, 9.1, -9.1, 4096.0, 4097.0, 1e30, -1e30,
                     np.finfo(F32).max, -np.finfo(F32).max, TINY, -TINY], F32)


def points():
    rng = np.random.default_rng(7)
    bits = rng.integers(0, 2 ** 32, 200_000, dtype=np.uint64).astype(np.uint32).view(F32)
    k = np.arange(-2000, 2001)
    return np.concatenate([
        bits[np.isfinite(bits)], (1.0 + k * 2.0 ** -24).astype(F32),
        rng.uniform(-1e-3, 1e-3, 20_000).astype(F32), rng.uniform(-1, 1, 20_000).astype(F32),
        rng.uniform(-100, 100, 20_000).astype(F32), rng.uniform(1, 1.01, 20_000).astype(F32),
        SPECIALS])


X = points()


def test_the_record_lists_what_is_tested():
    assert backend.current().own_math == set(FUNCS)


@pytest.mark.parametrize("name", sorted(FUNCS))
def test_within_three_ulps_of_the_exact_result(name):
    fn, ref_fn = FUNCS[name]
    got = np.asarray(fn(xp.asarray(X)))
    assert got.dtype == F32
    with np.errstate(all="ignore"):
        ref = ref_fn(X.astype(np.float64))
        r32 = ref.astype(F32)
    finite = np.isfinite(r32)
    # normal inputs and results (XLA:CPU, like the chip, flushes subnormals)
    sub_in = (X != 0) & (np.abs(X) < TINY)
    normal = finite & ~sub_in & ~((ref != 0) & (np.abs(ref) < TINY))
    err = np.abs(got[normal].astype(np.float64) - ref[normal]) / np.spacing(np.abs(r32[normal]))
    worst = int(np.argmax(err))
    assert err[worst] <= 3.0, (name, X[normal][worst], got[normal][worst], ref[normal][worst])
    # NaN, the infinities and overflow as NumPy's float32 has them
    np.testing.assert_array_equal(got[~finite & ~sub_in], r32[~finite & ~sub_in])


@pytest.mark.parametrize("name", sorted(FUNCS))
def test_signed_zeros_and_special_values_as_numpy(name):
    fn, ref_fn = FUNCS[name]
    with np.errstate(all="ignore"):
        want = getattr(np, {"asinh": "arcsinh", "acosh": "arccosh", "atanh": "arctanh"}.get(
            name, name))(SPECIALS)
    got = np.asarray(fn(xp.asarray(SPECIALS)))
    exact = ~np.isfinite(want) | (want == 0)
    np.testing.assert_array_equal(got[exact], want[exact])
    assert np.array_equal(np.signbit(got[want == 0]), np.signbit(want[want == 0]))


DERIVATIVES = {
    "exp": np.exp, "exp2": lambda x: np.exp2(x) * np.log(2.0), "expm1": np.exp,
    "log": lambda x: 1 / x, "log1p": lambda x: 1 / (1 + x),
    "tanh": lambda x: 1 - np.tanh(x) ** 2, "sinh": np.cosh, "cosh": np.sinh,
    "asinh": lambda x: 1 / np.sqrt(x * x + 1), "acosh": lambda x: 1 / np.sqrt(x * x - 1),
    "atanh": lambda x: 1 / (1 - x * x),
}


@pytest.mark.parametrize("name", sorted(FUNCS))
def test_derivative_is_the_functions(name):
    fn = FUNCS[name][0]
    pts = np.array([1.5, 2.0, 3.25] if name == "acosh" else [-0.75, 0.3, 0.5], F32)
    grad = jax.vmap(jax.grad(lambda v: fn(xp.asarray(v)).__jax_array__()))
    got = np.asarray(grad(pts))
    np.testing.assert_allclose(got, DERIVATIVES[name](pts.astype(np.float64)), rtol=1e-5)
