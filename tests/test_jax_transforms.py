"""laxarray under jax transformations: flat traces, pytrees, and the grad/vmap adapters."""

import jax
import numpy as np
import pytest

import laxarray as xp


def _five_ops(a, b):
    return xp.exp(xp.sin(a) * b + 1.0) - xp.sqrt(xp.abs(b))


def test_jaxpr_of_five_op_expression_is_bare_lax_primitives(jax_x64):
    # in a 64-bit jax program (the user turned x64 on) laxarray's kernels are inlined
    a = xp.asarray(np.linspace(0, 1, 6))
    b = xp.asarray(np.linspace(1, 2, 6))
    jaxpr = jax.make_jaxpr(_five_ops)(a, b).jaxpr
    prims = [e.primitive.name for e in jaxpr.eqns]
    assert "pjit" not in prims and "jit" not in prims and "closed_call" not in prims
    for expected in ("sin", "mul", "add", "exp", "sub", "sqrt", "abs"):
        assert expected in prims
    assert all(not e.params.get("jaxpr") for e in jaxpr.eqns)


def test_in_a_32_bit_program_each_kernel_is_one_region_of_bare_primitives():
    # jax's default mode: each kernel is one `laxarray` region (docs/jax_interop.md), whose
    # body holds the kernel's bare primitives, in 64-bit types
    a = xp.asarray(np.linspace(0, 1, 6))
    b = xp.asarray(np.linspace(1, 2, 6))
    jaxpr = jax.make_jaxpr(_five_ops)(a, b).jaxpr
    assert {e.primitive.name for e in jaxpr.eqns} == {"laxarray"}
    inner = [e for region in jaxpr.eqns for e in region.params["call_jaxpr"].eqns]
    prims = [e.primitive.name for e in inner]
    for expected in ("sin", "mul", "add", "exp", "sub", "sqrt", "abs"):
        assert expected in prims
    assert all(not e.params.get("jaxpr") and not e.params.get("call_jaxpr") for e in inner)
    assert {v.aval.dtype for e in inner for v in e.outvars} == {np.dtype(np.float64)}


def test_jit_result_matches_eager_and_numpy():
    a = np.linspace(-1, 1, 7)
    b = np.linspace(1, 3, 7)
    eager = _five_ops(xp.asarray(a), xp.asarray(b))
    jitted = jax.jit(_five_ops)(xp.asarray(a), xp.asarray(b))
    expected = np.exp(np.sin(a) * b + 1.0) - np.sqrt(np.abs(b))
    assert isinstance(jitted, xp.Array)
    np.testing.assert_allclose(np.asarray(jitted), expected, rtol=1e-14)
    np.testing.assert_array_equal(np.asarray(jitted), np.asarray(eager))


def test_pytree_round_trip_through_jit_vmap_and_scan():
    x = xp.asarray(np.arange(12.0).reshape(3, 4))
    leaves, treedef = jax.tree_util.tree_flatten(x)
    assert len(leaves) == 1 and isinstance(leaves[0], jax.Array)
    back = jax.tree_util.tree_unflatten(treedef, leaves)
    assert isinstance(back, xp.Array) and back.shape == (3, 4)

    out = jax.vmap(lambda row: row * 2.0)(x)
    assert isinstance(out, xp.Array)
    np.testing.assert_array_equal(np.asarray(out), np.arange(12.0).reshape(3, 4) * 2)

    def step(carry, row):
        return carry + row, xp.sin(row)
    total, ys = jax.lax.scan(step, xp.zeros(4), x)
    assert isinstance(total, xp.Array) and isinstance(ys, xp.Array)
    np.testing.assert_allclose(np.asarray(total), np.arange(12.0).reshape(3, 4).sum(0))
    np.testing.assert_allclose(np.asarray(ys), np.sin(np.arange(12.0).reshape(3, 4)))


def test_grad_adapter_accepts_array_valued_scalar_output():
    x = np.array([0.1, 0.5, 2.0])
    g = xp.grad(lambda a: (xp.sin(a) * a)[1])(xp.asarray(x))
    assert isinstance(g, xp.Array)
    expected = np.zeros(3)
    expected[1] = np.cos(x[1]) * x[1] + np.sin(x[1])
    np.testing.assert_allclose(np.asarray(g), expected, rtol=1e-14)


def test_grad_adapter_with_numpy_and_jax_inputs_and_argnums():
    def f(a, b):
        return (a * b * b)[0]
    ga, gb = xp.grad(f, argnums=(0, 1))(np.array([3.0]), jax.device_put(np.array([2.0])))
    np.testing.assert_allclose(np.asarray(ga), [4.0])
    np.testing.assert_allclose(np.asarray(gb), [12.0])


def test_value_and_grad_has_aux():
    def f(a):
        s = (a * a)[0] + (a * a)[1]
        return s, {"double": a * 2.0}
    (value, aux), g = xp.value_and_grad(f, has_aux=True)(xp.asarray([1.0, 3.0]))
    assert float(value) == 10.0
    assert isinstance(aux["double"], xp.Array)
    np.testing.assert_allclose(np.asarray(g), [2.0, 6.0])


@pytest.mark.parametrize("jac", [xp.jacfwd, xp.jacrev])
def test_jacobians_match_analytic(jac):
    x = np.array([0.3, -1.2, 2.0])
    J = jac(lambda a: xp.sin(a) * 2.0)(xp.asarray(x))
    assert isinstance(J, xp.Array)
    np.testing.assert_allclose(np.asarray(J), np.diag(2 * np.cos(x)), rtol=1e-14)


def test_vmap_adapter_and_in_axes():
    m = np.arange(6.0).reshape(2, 3)
    out = xp.vmap(lambda row, s: row * s, in_axes=(1, None))(xp.asarray(m), 3.0)
    assert isinstance(out, xp.Array)
    np.testing.assert_array_equal(np.asarray(out), m.T * 3.0)


def test_jit_adapter_static_argnames():
    f = xp.jit(lambda a, *, n: a * n, static_argnames=("n",))
    out = f(xp.asarray([1.0, 2.0]), n=3)
    np.testing.assert_array_equal(np.asarray(out), [3.0, 6.0])


@pytest.mark.parametrize("op", [bool, int, float, complex])
def test_python_conversion_of_traced_array_names_operation_and_fix(op):
    def f(a):
        return op(a)
    with pytest.raises(TypeError) as info:
        jax.jit(f)(xp.asarray(1.0))
    msg = str(info.value)
    assert f"__{op.__name__}__" in msg
    assert "where" in msg and "lax.cond" in msg
