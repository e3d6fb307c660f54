"""The per-program compiler options of the kernel helper (laxarray._core.runtime.kernel).

A kernel whose traced program uses only ``EMITTER_NEUTRAL`` primitives on real 32/64-bit,
integer and bool values compiles without XLA's fusion emitters (about half the compile
time); the rest keep them.  That is only sound if the two settings give the same bits for
every listed primitive: each one has a representative program here, compiled both ways on
inputs with NaN, infinities, signed zeros, subnormals and extremes, and compared byte for
byte.  A jax upgrade that changes one of them fails here, not in a user's results.
"""

import jax
import numpy as np
import pytest
from jax import lax

import laxarray as xp
from laxarray._core.runtime import kernel as K
from laxarray._core.jax_tracing import program_contents

# the programs here are the test's own jax code, compiled as laxarray compiles its kernels:
# in jax's 64-bit mode (the jax_x64 fixture, tests/conftest.py)
pytestmark = [pytest.mark.skipif(jax.default_backend() != "cpu",
                                 reason="the emitter choice is made on the CPU backend only"),
              pytest.mark.usefixtures("jax_x64")]

N = 1031


@pytest.fixture(autouse=True)
def _no_store(monkeypatch):
    """These tests watch how a kernel chooses its options while it compiles: a kernel that
    the executable store serves compiles nothing, so the store is off here."""
    monkeypatch.setattr(K, "_STORE", [None])


def _floats(dtype, seed):
    rng = np.random.default_rng(seed)
    info = np.finfo(dtype)
    x = rng.standard_normal(N) * 10.0 ** rng.integers(-6, 7, N)
    special = [0.0, -0.0, np.inf, -np.inf, np.nan, info.tiny / 4, -info.tiny / 3, info.tiny,
               info.max, -info.max, 1.0, -1.0, 0.5, 2.5, -2.5, 3.0]
    x[:len(special)] = special
    return rng.permutation(x).astype(dtype)


def _ints(dtype, seed):
    rng = np.random.default_rng(seed)
    info = np.iinfo(dtype)
    x = rng.integers(-1000, 1000, N).astype(dtype)
    x[:6] = [0, 1, -1, info.max, info.min, 7]
    return rng.permutation(x)


def _square(a):
    return a[:1024].reshape(32, 32)


def _spd(a):
    m = _square(lax.div(a, lax.add(lax.abs(a), lax.full_like(a, 1))))
    g = lax.dot_general(m, m, (((1,), (1,)), ((), ())))
    return lax.add(g, lax.mul(lax.full_like(g, 32), _eye(g)))


def _eye(g):
    i = lax.broadcasted_iota(np.int32, g.shape, 0)
    return lax.convert_element_type(lax.eq(i, lax.broadcasted_iota(np.int32, g.shape, 1)),
                                    g.dtype)


def _bounded(a):
    return lax.div(a, lax.add(lax.abs(a), lax.full_like(a, 1)))


def _while(a, b):
    def body(c):
        i, v = c
        return lax.add(i, np.int32(1)), lax.add(lax.mul(v, lax.full_like(v, 0.5)), b)
    return lax.while_loop(lambda c: lax.lt(c[0], np.int32(5)), body, (np.int32(0), a))[1]


def _idx(a):
    return np.arange(0, a.shape[0], 7)[::-1]


#: name -> (program, input kind): "f" real floats, "i" integers, "fi" both: one entry for
#: each primitive of ``EMITTER_NEUTRAL``, whose program binds it.
PROGRAMS = {
    "add": (lax.add, "fi"), "sub": (lax.sub, "fi"), "mul": (lax.mul, "fi"),
    "div": (lambda a, b: lax.div(a, lax.select(lax.eq(b, lax.full_like(b, 0)),
                                               lax.full_like(b, 3), b)), "fi"),
    "rem": (lambda a, b: lax.rem(a, lax.select(lax.eq(b, lax.full_like(b, 0)),
                                               lax.full_like(b, 3), b)), "fi"),
    "neg": (lambda a, b: lax.neg(a), "fi"), "abs": (lambda a, b: lax.abs(a), "fi"),
    "sign": (lambda a, b: lax.sign(a), "fi"), "max": (lax.max, "fi"), "min": (lax.min, "fi"),
    "clamp": (lambda a, b: lax.clamp(lax.full_like(a, -1), a, lax.full_like(a, 2)), "fi"),
    "square": (lambda a, b: lax.square(a), "fi"),
    "integer_pow": (lambda a, b: lax.integer_pow(a, 3), "fi"),
    "sqrt": (lambda a, b: lax.sqrt(a), "f"), "floor": (lambda a, b: lax.floor(a), "f"),
    "ceil": (lambda a, b: lax.ceil(a), "f"),
    "round": (lambda a, b: lax.add(lax.round(a), lax.round(
        b, lax.RoundingMethod.TO_NEAREST_EVEN)), "f"),
    "nextafter": (lax.nextafter, "f"), "is_finite": (lambda a, b: lax.is_finite(a), "f"),
    "eq": (lax.eq, "fi"), "ne": (lax.ne, "fi"), "lt": (lax.lt, "fi"), "le": (lax.le, "fi"),
    "gt": (lax.gt, "fi"), "ge": (lax.ge, "fi"),
    "select_n": (lambda a, b: lax.select(lax.lt(a, b), a, b), "fi"),
    "and": (lambda a, b: lax.bitwise_and(lax.lt(a, b), lax.gt(a, lax.neg(b))), "fi"),
    "or": (lambda a, b: lax.bitwise_or(lax.lt(a, b), lax.ne(a, a)), "fi"),
    "not": (lambda a, b: lax.bitwise_not(lax.lt(a, b)), "fi"),
    "xor": (lax.bitwise_xor, "i"),
    "shift_left": (lambda a, b: lax.shift_left(a, lax.rem(lax.abs(b), lax.full_like(b, 8))),
                   "i"),
    "shift_right_arithmetic": (lambda a, b: lax.shift_right_arithmetic(
        a, lax.rem(lax.abs(b), lax.full_like(b, 8))), "i"),
    "shift_right_logical": (lambda a, b: lax.shift_right_logical(
        a, lax.rem(lax.abs(b), lax.full_like(b, 8))), "i"),
    "population_count": (lambda a, b: lax.population_count(a), "i"),
    "clz": (lambda a, b: lax.clz(a), "i"),
    "convert_element_type": (lambda a, b: (lax.convert_element_type(a, np.float32),
                                           lax.convert_element_type(a, np.float64),
                                           lax.convert_element_type(_bounded(b), np.int32),
                                           lax.convert_element_type(a, np.bool_)), "fi"),
    "bitcast_convert_type": (lambda a, b: lax.bitcast_convert_type(
        a, {4: np.int32, 8: np.int64}[a.dtype.itemsize]), "fi"),
    "reduce_precision": (lambda a, b: lax.reduce_precision(a, 8, 7), "f"),
    "sin": (lambda a, b: lax.sin(a), "f"), "cos": (lambda a, b: lax.cos(a), "f"),
    "logistic": (lambda a, b: lax.logistic(a), "f"),
    "atan2": (lax.atan2, "f"), "pow": (lax.pow, "f"), "erf": (lambda a, b: lax.erf(a), "f"),
    "rsqrt": (lambda a, b: lax.rsqrt(a), "f"), "sinh": (lambda a, b: lax.sinh(a), "f"),
    "cosh": (lambda a, b: lax.cosh(a), "f"), "asin": (lambda a, b: lax.asin(_bounded(a)), "f"),
    "acos": (lambda a, b: lax.acos(_bounded(a)), "f"),
    "broadcast_in_dim": (lambda a, b: lax.add(
        lax.broadcast_in_dim(a[:32], (32, 32), (1,)),
        lax.broadcast_in_dim(b[:32], (32, 32), (0,))), "fi"),
    "reshape": (lambda a, b: lax.reshape(a[:1024], (8, 128)), "fi"),
    "squeeze": (lambda a, b: lax.squeeze(lax.reshape(a[:1024], (1, 1024)), (0,)), "fi"),
    "transpose": (lambda a, b: lax.transpose(_square(a), (1, 0)), "fi"),
    "rev": (lambda a, b: lax.rev(a, (0,)), "fi"),
    "pad": (lambda a, b: lax.pad(a, lax.full_like(a, 0, shape=()), ((2, 3, 1),)), "fi"),
    "concatenate": (lambda a, b: lax.concatenate([a, b], 0), "fi"),
    "slice": (lambda a, b: a[3:100:3], "fi"),
    "dynamic_slice": (lambda a, b: lax.dynamic_slice(a, (np.int32(5),), (100,)), "fi"),
    "dynamic_update_slice": (lambda a, b: lax.dynamic_update_slice(
        a, b[:100], (np.int32(7),)), "fi"),
    "gather": (lambda a, b: a[_idx(a)], "fi"),
    "scatter": (lambda a, b: a.at[_idx(a)].set(b[:_idx(a).size]), "fi"),
    "scatter-add": (lambda a, b: a.at[np.arange(N) % 37].add(b), "fi"),
    "scatter-max": (lambda a, b: a.at[np.arange(N) % 37].max(b), "fi"),
    "scatter-min": (lambda a, b: a.at[np.arange(N) % 37].min(b), "fi"),
    "iota": (lambda a, b: lax.add(a, lax.convert_element_type(
        lax.iota(np.int32, a.shape[0]), a.dtype)), "fi"),
    "copy": (lambda a, b: lax.add(lax.copy_p.bind(a), b), "fi"),
    "optimization_barrier": (lambda a, b: lax.div(a, lax.optimization_barrier(b)), "f"),
    "reduce_sum": (lambda a, b: (lax.reduce_sum(a, (0,)), lax.reduce_sum(_square(b), (0,)),
                                 lax.reduce_sum(_square(b), (1,))), "fi"),
    "reduce_max": (lambda a, b: lax.reduce_max(a, (0,)), "fi"),
    "reduce_min": (lambda a, b: lax.reduce_min(_square(a), (1,)), "fi"),
    "reduce_and": (lambda a, b: lax.reduce_and(_square(lax.lt(a, b)), (0,)), "fi"),
    "reduce_or": (lambda a, b: lax.reduce_or(_square(lax.lt(a, b)), (1,)), "fi"),
    "cumsum": (lambda a, b: lax.cumsum(a, 0), "fi"), "cummax": (lambda a, b: lax.cummax(a, 0), "fi"),
    "cummin": (lambda a, b: lax.cummin(a, 0), "fi"),
    "dot_general": (lambda a, b: (lax.dot_general(_square(a), _square(b),
                                                  (((1,), (0,)), ((), ()))),
                                  lax.dot_general(a, b, (((0,), (0,)), ((), ())))), "fi"),
    "sort": (lambda a, b: (lax.sort(a), lax.sort((a, b), num_keys=1)[1]), "fi"),
    "jit": (lambda a, b: jax.jit(lax.mul)(a, b), "fi"),
    "cond": (lambda a, b: lax.cond(lax.gt(a[0], a[1]), lambda: lax.add(a, b),
                                   lambda: lax.sub(a, b)), "fi"),
    "while": (_while, "f"),
    "scan": (lambda a, b: lax.fori_loop(0, 5, lambda i, c: lax.add(lax.mul(c, c), b),
                                        _bounded(a)), "f"),
    "svd": (lambda a, b: lax.linalg.svd(_square(a), full_matrices=False), "f"),
    "eigh": (lambda a, b: lax.linalg.eigh(_spd(a)), "f"),
    "cholesky": (lambda a, b: lax.linalg.cholesky(_spd(a)), "f"),
    "qr": (lambda a, b: lax.linalg.qr(_square(a)), "f"),
    "lu": (lambda a, b: lax.linalg.lu(_spd(a)), "f"),
    "triangular_solve": (lambda a, b: lax.linalg.triangular_solve(
        _spd(a), _square(b), left_side=True, lower=True), "f"),
}

FLOATS = (np.float32, np.float64)
INTS = (np.int32, np.int64)


def _cases():
    for name, (_, kinds) in sorted(PROGRAMS.items()):
        dtypes = (FLOATS if "f" in kinds else ()) + (INTS if "i" in kinds else ())
        for dtype in dtypes:
            yield name, np.dtype(dtype)


def _inputs(dtype):
    make = _floats if dtype.kind == "f" else _ints
    return make(dtype, 1), make(dtype, 2)


def _compiled(fn, args, options):
    return jax.jit(fn).lower(*args).compile(compiler_options=options)


def test_every_neutral_primitive_is_compared():
    assert K.EMITTER_NEUTRAL == set(PROGRAMS), sorted(K.EMITTER_NEUTRAL ^ set(PROGRAMS))


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_binds_its_primitive(name):
    fn, kinds = PROGRAMS[name]
    dtype = np.dtype(np.float64 if "f" in kinds else np.int64)
    names, _ = program_contents(jax.make_jaxpr(fn)(*_inputs(dtype)))
    assert name in names


@pytest.mark.parametrize("name, dtype", list(_cases()))
def test_same_bits_with_and_without_fusion_emitters(name, dtype):
    fn = PROGRAMS[name][0]
    args = _inputs(dtype)
    with np.errstate(all="ignore"):
        fused = jax.tree.leaves(_compiled(fn, args, K.COMPILER_OPTIONS)(*args))
        neutral = jax.tree.leaves(_compiled(fn, args, K.NEUTRAL_OPTIONS)(*args))
    assert len(fused) == len(neutral)
    for f, n in zip(fused, neutral):
        f, n = _nan_sign_cleared(np.asarray(f)), _nan_sign_cleared(np.asarray(n))
        assert f.dtype == n.dtype and f.shape == n.shape
        assert f.tobytes() == n.tobytes(), (name, dtype, f.ravel()[:4], n.ravel()[:4])


def _nan_sign_cleared(a):
    """``a`` with the sign bit of its NaNs cleared: IEEE 754 leaves the sign of an
    operation's NaN result unspecified, and XLA:CPU's cumulative sums give ``inf + -inf`` a
    different one with and without the fusion emitters under ``--xla_cpu_max_isa=AVX2``
    (the same one on AVX-512); every other bit is compared."""
    if a.dtype.kind != "f":
        return a
    return np.where(np.isnan(a), np.abs(a), a)


# ---- the kernel helper's choice ------------------------------------------------------------

def _fresh_kernel(body):
    return K.kernel()(body)


@pytest.fixture
def choices(monkeypatch):
    """The options the compile step picks, one entry per program it compiles."""
    seen = []

    def spy(closed):
        program, options = real(closed)
        seen.append(options)
        return program, options
    real = K.program_options
    monkeypatch.setattr(K, "program_options", spy)
    return seen


def test_neutral_program_compiles_without_fusion_emitters(choices):
    def body(a, b):
        return lax.add(lax.mul(a, b), a)
    bound = _fresh_kernel(body).bind(())
    x, y = _inputs(np.dtype(np.float64))
    out = np.asarray(bound(jax.device_put(x), jax.device_put(y)))
    assert choices == [K.NEUTRAL_OPTIONS]
    want = np.asarray(_compiled(body, (x, y), K.NEUTRAL_OPTIONS)(x, y))
    assert out.tobytes() == want.tobytes()


def test_fusion_emitters_kept_where_results_would_differ(choices):
    """tan differs in the last bit without the fusion emitters: its kernel keeps them, and
    gives the bits of a compile with COMPILER_OPTIONS."""
    kern = _fresh_kernel(lambda a: lax.tan(a))
    bound = kern.bind(())
    x = _floats(np.dtype(np.float64), 3)
    out = np.asarray(bound(jax.device_put(x)))
    assert choices == [K.COMPILER_OPTIONS]
    expected = np.asarray(_compiled(lax.tan, (x,), K.COMPILER_OPTIONS)(x))
    assert out.tobytes() == expected.tobytes()
    differs = np.asarray(_compiled(lax.tan, (x,), K.NEUTRAL_OPTIONS)(x))
    assert differs.tobytes() != expected.tobytes()  # else tan belongs in EMITTER_NEUTRAL


def test_choice_is_per_program(choices):
    """One kernel: complex values need the fusion emitters, float ones do not; each program
    is traced once and compiled with the options its trace asks for."""
    bound = _fresh_kernel(lambda a, b: lax.mul(a, b)).bind(())
    z = jax.device_put(np.array([1 + 2j, np.nan + 1j, -0.0 - 3j]))
    bound(z, z)
    assert choices == [K.COMPILER_OPTIONS]
    x = jax.device_put(np.arange(5.0))
    np.testing.assert_array_equal(np.asarray(bound(x, x)), np.arange(5.0) ** 2)
    assert choices[-1] == K.NEUTRAL_OPTIONS
    z2 = jax.device_put(np.array([2 + 2j, 1j, 1.0, 4.0]))
    np.testing.assert_array_equal(np.asarray(bound(z2, z2)), np.asarray(z2) ** 2)
    assert choices[-1] == K.COMPILER_OPTIONS and len(choices) == 3
    bound(x, x)
    assert len(choices) == 3   # the table's executable: nothing traced again


def test_extreme_reductions_drop_their_nan_test(choices):
    """A float max of laxarray's own compiles with EXACT_EXTREMES and without the NaN test
    that reduce_extreme adds for a user's jax.jit (whose options laxarray cannot set)."""
    def body(a):
        return K.reduce_extreme(a, (0,), True)
    closed = jax.make_jaxpr(body)(np.zeros(8))
    assert "reduce_or" in program_contents(closed)[0]
    program, options = K.program_options(closed)
    assert "reduce_or" not in program_contents(program)[0]
    assert options == dict(K.NEUTRAL_OPTIONS, **K.EXACT_EXTREMES)
    x = np.arange(5000.0)
    x[4000] = np.nan
    assert np.isnan(np.asarray(_fresh_kernel(body).bind(())(jax.device_put(x))))
    assert choices[-1] == dict(K.NEUTRAL_OPTIONS, **K.EXACT_EXTREMES)
    ints = K.program_options(jax.make_jaxpr(body)(np.zeros(8, np.int32)))[1]
    assert ints == K.NEUTRAL_OPTIONS


def test_public_functions_agree_with_fused_compiles():
    """End to end: laxarray's tan and multiply give the bits of their fused compiles."""
    x = _floats(np.dtype(np.float32), 4)
    got = np.asarray(xp.tan(xp.asarray(x)))
    want = np.asarray(_compiled(lax.tan, (x,), K.COMPILER_OPTIONS)(x))
    assert got.tobytes() == want.tobytes()
    got = np.asarray(xp.multiply(xp.asarray(x), xp.asarray(x[::-1].copy())))
    want = np.asarray(_compiled(lax.mul, (x, x[::-1].copy()), K.COMPILER_OPTIONS)(
        x, x[::-1].copy()))
    assert got.tobytes() == want.tobytes()
