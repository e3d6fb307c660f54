"""laxarray beside a user's own jax program (docs/jax_interop.md).

Importing laxarray changes nothing of the user's jax program (a subprocess runs the same
program with and without the import and compares every dtype and value); laxarray's own
semantics (float64, exact int64) hold in a program whose jax runs in its default 32-bit mode,
eagerly and under every jax transformation -- reverse mode through gathers, sorts,
decompositions, FFTs, padding, cumulative products, custom derivative rules and host paths
included --, in worker threads, asyncio tasks and generators; and the thread's jax mode is
what it was after every laxarray call, also one that raises.  The oracle is NumPy (central
differences for derivatives) or Python's integers, never laxarray.
"""

import asyncio
import concurrent.futures
import json
import os
import subprocess
import sys
import warnings

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax

import laxarray as lx
import laxarray.sparse as sp
from laxarray.checkify import checkify, nan_checks
from checks import fd_grad


# ---- the user's program, with and without `import laxarray` ------------------------------

_USER_PROGRAM = os.path.join(os.path.dirname(__file__), "data", "user_jax_program.py")


def _run_user_program(mode):
    env = dict(os.environ, LAXARRAY_STORE_HINT="0")
    env.pop("JAX_ENABLE_X64", None)
    proc = subprocess.run([sys.executable, _USER_PROGRAM, mode], env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_importing_laxarray_changes_nothing_of_the_users_jax_program():
    without, with_ = _run_user_program("without"), _run_user_program("with")
    assert with_["unchanged"] and without["unchanged"]
    assert without["ones"][0] == "float32" and without["arange"][0] == "int32"
    assert without["truncation_warnings"] >= 2      # the program does meet jax's truncation
    for name in without:
        assert with_[name] == without[name], name


# ---- laxarray's semantics in a 32-bit program ----------------------------------------------

def test_the_test_process_is_a_32_bit_jax_program():
    # every test below runs with jax's default mode around it (tests/conftest.py's jax_x64
    # fixture is for the tests whose own jax code is a 64-bit program)
    assert not jax.config.jax_enable_x64 and not jax.enable_x64.value
    assert jnp.ones(2).dtype == np.float32


def test_laxarray_keeps_numpys_dtypes_and_exact_int64():
    assert lx.ones(3).dtype == np.float64 and lx.arange(3).dtype == np.int64
    assert lx.asarray(np.ones(3)).dtype == np.float64 and lx.asarray(1.5).dtype == np.float64
    big = 2**40 + 1
    assert int(lx.asarray(big) * 3 + 1) == big * 3 + 1
    assert lx.asarray([big, 2]).tolist() == [big, 2]
    assert abs(float(lx.sum(lx.asarray([0.1] * 10))) - 1.0) < 1e-15     # float32: ~1e-7


X = np.array([[0.35, -1.2, 0.8], [1.45, 0.15, -0.55]])   # distinct entries, away from 0
W = np.array([[0.3, -0.7, 1.1], [0.9, 0.2, -0.4]])
IDX = np.array([2, 0, 2, 1])


def _fft_abs(v):
    return lx.abs(lx.fft.fft(v, axis=-1))


def _setitem(v):
    y = v * 1.0
    y[:, lx.asarray([0, 2])] = lx.sin(v[:, :2])
    return y


#: name -> (laxarray function of a (2, 3) float64 array, the same in NumPy); reverse mode
#: runs through what the name says
CASES = {
    "take (gather)": (lambda v: lx.take(v, lx.asarray(IDX), axis=1),
                      lambda v: np.take(v, IDX, axis=1)),
    "advanced indexing": (lambda v: v[lx.asarray([1, 0, 1]), lx.asarray([2, 2, 0])],
                          lambda v: v[[1, 0, 1], [2, 2, 0]]),
    "setitem (scatter)": (_setitem, lambda v: np.concatenate(
        [np.sin(v[:, :1]), v[:, 1:2], np.sin(v[:, 1:2])], axis=1)),
    "sort": (lambda v: lx.sort(v, axis=1), lambda v: np.sort(v, axis=1)),
    "svdvals": (lambda v: lx.linalg.svdvals(v), lambda v: np.linalg.svd(v, compute_uv=False)),
    "fft": (_fft_abs, lambda v: np.abs(np.fft.fft(v, axis=-1))),
    "pad": (lambda v: lx.pad(v, ((1, 0), (0, 2)), mode="reflect"),
            lambda v: np.pad(v, ((1, 0), (0, 2)), mode="reflect")),
    "cumulative_prod": (lambda v: lx.cumulative_prod(v, axis=1),
                        lambda v: np.cumprod(v, axis=1)),
    "argmax and max": (lambda v: lx.max(v, axis=1) * lx.astype(lx.argmax(v, axis=1), v.dtype),
                       lambda v: np.max(v, axis=1) * np.argmax(v, axis=1)),
}


def _weights(np_fn):
    """Fixed weights of the shape of ``np_fn``'s result, so that the loss uses every entry."""
    shape = np.shape(np_fn(X))
    return np.cos(np.arange(int(np.prod(shape)))).reshape(shape) + 1.5


def _loss(fn, np_fn):
    w = lx.asarray(_weights(np_fn))
    return lambda v: lx.sum(fn(v) * w)


def _np_loss(np_fn):
    w = _weights(np_fn)
    return lambda v: float(np.sum(np_fn(v) * w))


def _value(a):
    """A laxarray 0-d result as the jax scalar jax.grad wants (its pytree leaf)."""
    return jax.tree.leaves(a)[0]


@pytest.mark.parametrize("name", sorted(CASES))
def test_values_and_gradients_under_jax_transformations_in_32_bit_mode(name):
    fn, np_fn = CASES[name]
    x = lx.asarray(X)
    want_value = np_fn(X)
    want_grad = fd_grad(_np_loss(np_fn), X)
    got = jax.jit(fn)(x)
    assert got.dtype == np.float64
    np.testing.assert_allclose(np.asarray(got), want_value, rtol=1e-12)
    np.testing.assert_allclose(np.asarray(jax.vmap(fn)(lx.stack([x, x]))[1]), want_value,
                               rtol=1e-12)
    loss = _loss(fn, np_fn)
    scalar = lambda v: _value(loss(lx.asarray(v)))  # noqa: E731  (a jax value in and out)
    grads = {
        "jax.grad": jax.grad(scalar)(x._value),
        "jax.jit(jax.grad)": jax.jit(jax.grad(scalar))(x._value),
        "jax.grad(jax.jit)": jax.grad(jax.jit(scalar))(x._value),
        "jax.grad(jax.checkpoint)": jax.grad(jax.checkpoint(scalar))(x._value),
        "jax.vjp": jax.vjp(loss, x)[1](lx.asarray(1.0))[0],
        "laxarray.grad": lx.grad(loss)(x),
        "laxarray.value_and_grad": lx.value_and_grad(loss)(x)[1],
        "laxarray.jacrev": lx.jacrev(loss)(x),
        "laxarray.jacfwd": lx.jacfwd(loss)(x),
        "laxarray.vjp": lx.vjp(loss, x)[1](lx.asarray(1.0))[0],
        "jax.vmap(jax.grad)": jax.vmap(jax.grad(scalar))(lx.stack([x, x])._value)[0],
    }
    for how, g in grads.items():
        assert np.asarray(g).dtype == np.float64, how
        np.testing.assert_allclose(np.asarray(g), want_grad, rtol=1e-5, atol=1e-7,
                                   err_msg=how)
    tangent = lx.asarray(W)
    for how, jvp in (("jax.jvp", jax.jvp), ("laxarray.jvp", lx.jvp)):
        out, tangent_out = jvp(loss, (x,), (tangent,))
        assert tangent_out.dtype == np.float64, how
        np.testing.assert_allclose(float(out), _np_loss(np_fn)(X), rtol=1e-12)
        np.testing.assert_allclose(float(tangent_out), float(np.sum(want_grad * W)),
                                   rtol=1e-5, err_msg=how)


def test_jax_jacobians_of_float64_values_in_32_bit_mode_say_they_truncate():
    # jax.jacfwd/jacrev/hessian build their basis with jnp.eye in the caller's mode: in
    # 32-bit mode jax truncates a float64 basis to float32, and warns (jax's rule)
    x = lx.asarray(X)
    with pytest.warns(UserWarning, match="Explicitly requested dtype float64"):
        jax.jacrev(lambda v: _value(lx.sum(lx.sort(lx.asarray(v)))))(x._value)


def test_hessians_in_32_bit_mode():
    def f(v):
        return lx.sum(lx.sort(v) ** 3) * lx.take(v, lx.asarray([0]))[0]
    x = np.array([0.7, -0.3, 1.1])
    # f = sum(x**3) * x[0]: d2f/dxi dxj = 6 xi x0 [i == j] + 3 xi**2 [j == 0] + 3 xj**2 [i == 0]
    want = np.diag(6 * x * x[0])
    want[:, 0] += 3 * x ** 2
    want[0, :] += 3 * x ** 2
    got = {"laxarray.hessian": lx.hessian(f)(lx.asarray(x))}
    with jax.enable_x64(True):     # jax's own hessian: in a 64-bit program (see above)
        got["jax.hessian"] = jax.hessian(lambda v: _value(f(lx.asarray(v))))(
            lx.asarray(x)._value)
    for how, h in got.items():
        assert np.asarray(h).dtype == np.float64, how
        np.testing.assert_allclose(np.asarray(h), want, rtol=1e-12, err_msg=how)


def test_int64_values_stay_exact_under_jax_transformations():
    big = 2**40 + 7
    a = lx.asarray([big, 3, -big])
    want = [3 * big + 1, 10, -3 * big + 1]
    f = lambda v: v * 3 + 1  # noqa: E731
    assert jax.jit(f)(a).tolist() == want
    assert jax.vmap(f)(lx.stack([a, a])).tolist() == [want, want]
    carry, _ = lax.scan(lambda c, _: (f(c), None), a, None, length=1)
    assert lx.asarray(carry).tolist() == want
    out = lax.fori_loop(0, 2, lambda i, c: c + lx.asarray(big), a)
    assert lx.asarray(out).tolist() == [3 * big, 3 + 2 * big, big]
    out = lax.cond(True, f, lambda v: v, a)
    assert lx.asarray(out).tolist() == want
    out = lax.while_loop(lambda c: _value(lx.max(c) < 4 * big), f, a)
    assert lx.asarray(out).tolist() == [9 * big + 4, 31, -9 * big + 4]
    assert jax.jit(jax.checkpoint(f))(a).tolist() == want
    order = jax.jit(lambda v: lx.argsort(v))(a)
    assert order.dtype == np.int64 and order.tolist() == [2, 1, 0]
    assert jax.jit(lambda v: lx.argmax(v))(a).tolist() == 0


def test_sparse_custom_vjp_and_host_paths_under_jax_grad_in_32_bit_mode():
    rng = np.random.default_rng(0)
    dense = rng.standard_normal((5, 5)) + 5 * np.eye(5)
    A = sp.BCOO.fromdense(lx.asarray(dense))
    b = rng.standard_normal(5)

    def loss(v):   # a direct solve: SciPy's SuperLU, a custom_vjp through a host call
        return lx.sum(sp.linalg.spsolve(A, lx.asarray(v)) ** 2)
    want = fd_grad(lambda v: float(np.sum(np.linalg.solve(dense, v) ** 2)), b)
    for grad in (jax.grad(lambda v: _value(loss(v))), jax.jit(jax.grad(lambda v: _value(loss(v))))):
        g = grad(lx.asarray(b)._value)
        assert g.dtype == np.float64
        np.testing.assert_allclose(np.asarray(g), want, rtol=1e-6)
    f = sp.sparsify(lambda m, v: lx.sum((m @ v) ** 2))
    g = jax.grad(lambda v: _value(f(A, v)))(lx.asarray(b)._value)
    np.testing.assert_allclose(np.asarray(g), 2 * dense.T @ (dense @ b), rtol=1e-12)


def test_checkify_under_jax_jit_in_32_bit_mode():
    checked = jax.jit(checkify(lambda v: lx.log(v) * 2.0, errors=nan_checks))
    err, out = checked(lx.asarray([1.0, 2.0]))
    assert err.get() is None and out.dtype == np.float64
    np.testing.assert_allclose(np.asarray(out), 2 * np.log([1.0, 2.0]), rtol=1e-15)
    err, _ = checked(lx.asarray([-1.0, 2.0]))
    assert err.get().startswith("NaN generated by primitive log")


def test_laxarray_in_a_64_bit_program_too(jax_x64):
    # the user turned jax's 64-bit mode on: nothing of the above changes
    x = lx.asarray(X)
    fn, np_fn = CASES["sort"]
    np.testing.assert_allclose(np.asarray(jax.jit(fn)(x)), np_fn(X))
    g = jax.grad(lambda v: _value(_loss(fn, np_fn)(lx.asarray(v))))(x._value)
    np.testing.assert_allclose(np.asarray(g), fd_grad(_np_loss(np_fn), X), rtol=1e-5)
    h = jax.jacrev(jax.grad(lambda v: _value(_loss(fn, np_fn)(lx.asarray(v)))))(x._value)
    assert h.dtype == np.float64 and h.shape == (2, 3, 2, 3)
    assert jnp.ones(2).dtype == np.float64        # the user's own 64-bit mode, kept


# ---- the thread's mode is the user's after every laxarray call ----------------------------

def test_the_threads_mode_is_restored_after_calls_and_errors():
    before = jax.enable_x64.value
    lx.sum(lx.asarray([1.0, 2.0]) + 1.5)
    lx.linalg.svdvals(lx.eye(3))
    assert jax.enable_x64.value == before
    with pytest.raises(ValueError):
        lx.reshape(lx.ones(3), (2, 2))
    assert jax.enable_x64.value == before
    with pytest.raises(TypeError):
        jax.jit(lambda v: lx.reshape(v, "no"))(lx.ones(3))
    assert jax.enable_x64.value == before
    with jax.enable_x64(True):            # a thread-local choice of the user's: kept too
        lx.sort(lx.asarray([2.0, 1.0]))
        assert jax.enable_x64.value is True
    assert jax.enable_x64.value == before


def _work():
    x = lx.asarray([1.0, 2.0, 3.0]) / 3
    i = lx.asarray(2**40) + 1
    return (x.dtype, float(lx.sum(x)), int(i), jnp.ones(1).dtype, jax.enable_x64.value)


def test_worker_threads_asyncio_tasks_and_generators_get_the_same_semantics():
    want = _work()
    assert want[:3] == (np.float64, 2.0, 2**40 + 1) and want[3] == np.float32
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        assert all(r == want for r in pool.map(lambda _: _work(), range(8)))

    async def task(n):
        out = []
        for _ in range(n):
            out.append(_work())
            await asyncio.sleep(0)
        return out

    async def main():
        return await asyncio.gather(*(task(3) for _ in range(3)))
    assert all(r == want for rs in asyncio.run(main()) for r in rs)

    def gen():
        for _ in range(3):
            yield _work()
    assert all(r == want for r in gen())


# ---- small: the version, and the store hint as a warning -----------------------------------

def test_version_is_the_package_metadata():
    from importlib import metadata
    assert lx.__version__ == metadata.version("laxarray")


# ---- everything laxarray adds to a 32-bit caller's program is a region ----------------------

_PROBE = np.array([[0.35, -1.2, 0.8], [1.45, 0.15, -0.55]])
_SPD = _PROBE[:, :2] @ _PROBE[:, :2].T + 3 * np.eye(2)


def _probe_jaxprs():
    """For every public function of laxarray, linalg and fft that takes one of a few simple
    argument lists (a matrix, a vector, a symmetric positive definite matrix, two of them,
    one with an axis), the top-level primitives of its jaxpr traced by a 32-bit caller."""
    found = {}
    for mod, prefix in ((lx, ""), (lx.linalg, "linalg."), (lx.fft, "fft.")):
        for name in sorted(getattr(mod, "__all__", None) or
                           [n for n in dir(mod) if not n.startswith("_")]):
            f = getattr(mod, name)
            if not callable(f) or isinstance(f, type):
                continue
            for args in ((_PROBE,), (_PROBE[0],), (_SPD,), (_PROBE, _PROBE),
                         (_PROBE[0], _PROBE[0]), (_SPD, _SPD), (_PROBE, 1), (_PROBE[0], 1)):
                call = lambda *v: f(*[lx.asarray(a) if hasattr(a, "shape") else a  # noqa: E731
                                      for a in v])
                try:
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        jaxpr = jax.make_jaxpr(call)(*args)
                except Exception:  # noqa: BLE001  (this argument list is not the function's)
                    continue
                found[prefix + name] = {e.primitive.name for e in jaxpr.jaxpr.eqns}
                break
    return found


def test_a_32_bit_callers_program_holds_laxarray_only_as_regions():
    # what jax would lower, transpose or batch in the caller's mode outside a region is
    # where a float64 would turn float32 (docs/jax_interop.md)
    found = _probe_jaxprs()
    assert len(found) >= 250, len(found)
    outside = {name: sorted(prims - {"laxarray"}) for name, prims in found.items()
               if prims - {"laxarray"}}
    assert outside == {}


@pytest.mark.parametrize("dtype", ["float64", "int64", "uint64", "complex128", "complex64",
                                   "float32", "int32", "bool"])
def test_host_calls_return_their_dtypes_exactly_in_a_32_bit_callers_program(dtype):
    # jax converts a host callback's results in the mode of the thread running the program:
    # laxarray's host calls move 64-bit values as 32-bit words (jax_host_calls._wire_aval)
    from laxarray._core.jax_host_calls import host_call
    value = (np.arange(6).reshape(2, 3) * (2**40 + 3) + 1).astype(dtype)
    if np.dtype(dtype).kind == "c":
        value = value + 1j * value[::-1]
    spec = jax.ShapeDtypeStruct(value.shape, value.dtype)
    f = lambda v: host_call(lambda _: value, spec, v, vmap_method="sequential")  # noqa: E731
    arg = lx.asarray(np.zeros(3))._value
    for got in (f(arg), jax.jit(f)(arg), jax.vmap(f)(lx.stack([lx.zeros(3)] * 2)._value)[1]):
        assert got.dtype == value.dtype
        np.testing.assert_array_equal(np.asarray(got), value)
