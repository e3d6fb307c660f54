"""The public surface: Error, check/debug_check/check_error, categories, argument errors."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import laxarray as xp
from checkify_markers import marked_line
from laxarray import checkify as ck

# this module's own jax code (jax.jit/grad/vmap on NumPy float64 values, jax.numpy oracles)
# is a 64-bit jax program: see the jax_x64 fixture (tests/conftest.py)
pytestmark = pytest.mark.usefixtures("jax_x64")

HERE = __file__


def at(marker):
    return f"{HERE}:{marked_line(HERE, marker)}"


def test_categories():
    assert ck.automatic_checks == (ck.nan_checks | ck.div_checks | ck.index_checks
                                   | ck.float_checks)
    assert ck.all_checks == ck.automatic_checks | ck.user_checks | ck.linalg_checks
    assert not ck.float_div_checks & ck.all_checks
    for cls in (ck.NaNError, ck.OOBError, ck.FailedCheckError, ck.DivisionByZeroError):
        assert issubclass(cls, ck.JaxRuntimeError) and issubclass(cls, jax.errors.JaxRuntimeError)


def test_check_eagerly_raises_with_location():
    with pytest.raises(ck.FailedCheckError) as info:
        ck.check(xp.asarray(1.0) < 0, "bad value {v} of {n}", v=xp.asarray(1.0), n=3)  # MARK-eager
    assert str(info.value) == f"bad value 1.0 of 3 (check failed at {at('MARK-eager')} (test_check_eagerly_raises_with_location))"
    ck.check(True, "fine")


def test_debug_check_is_noop_outside_checkify():
    ck.debug_check(False, "ignored")
    assert float(jax.jit(lambda x: (ck.debug_check(x < 0, "no"), x)[1])(1.0)) == 1.0
    err, _ = ck.checkify(lambda x: ck.debug_check(x < 0, "debug {}", x))(2.0)  # MARK-debug
    assert err.get() == f"debug 2.0 (check failed at {at('MARK-debug')} (<lambda>))"


def test_check_under_jit_without_checkify_says_to_wrap():
    with pytest.raises(ValueError, match=r"wrap the function in laxarray.checkify.checkify"):
        jax.jit(lambda x: ck.check(x > 0, "positive"))(1.0)


def test_check_under_vmap_eagerly_reports_first_index():
    with pytest.raises(ck.FailedCheckError, match=r"^at mapped index 3: value 3 "):
        jax.vmap(lambda x: ck.check(x < 3, "value {}", x))(jnp.arange(5))


def test_format_arguments_of_every_kind():
    def f(x):
        ck.check(x < 0, "{} {} {} {k}", x, np.array([1, 2]), 2.5, k=xp.asarray([True]))
        return x
    err, _ = ck.checkify(f)(xp.asarray(1))
    assert err.get().startswith("1 [1 2] 2.5 [ True] (check failed at")
    err, _ = ck.checkify(f)(jnp.array(-1))
    assert err.get() is None


def test_check_without_format_arguments_and_constant_predicate():
    err, _ = ck.checkify(lambda x: ck.check(False, "always"))(1.0)  # MARK-const
    assert err.get() == f"always (check failed at {at('MARK-const')} (<lambda>))"


def test_error_value_api():
    err, _ = ck.checkify(lambda x: ck.check(x > 0, "neg {}", x))(-1)
    assert repr(err) == f"Error('neg -1 (check failed at {err.get().split(' at ', 1)[1]}')"
    exc = err.get_exception()
    assert isinstance(exc, ck.FailedCheckError) and str(exc) == err.get()
    with pytest.raises(ck.FailedCheckError, match="neg -1"):
        err.throw()
    ok, _ = ck.checkify(lambda x: x)(1)
    assert repr(ok) == "Error(no error)" and ok.get() is None and ok.get_exception() is None
    ok.throw()
    leaves, tree = jax.tree_util.tree_flatten(err)
    assert jax.tree_util.tree_unflatten(tree, leaves).get() == err.get()


def test_error_is_a_pytree_through_jit_and_traced_get_is_explained():
    f = jax.jit(ck.checkify(lambda x: ck.check(x > 0, "neg")))
    err, _ = f(-1)
    assert err.get().startswith("neg (check failed")

    def g(x):
        err, _ = ck.checkify(lambda v: ck.check(v > 0, "neg"))(x)
        return err.get()
    with pytest.raises(ValueError, match=r"Error.get: the error value is traced"):
        jax.jit(g)(1)


def test_pytree_inputs_and_outputs():
    def f(d, *, scale):
        ck.check(d["a"][0] > 0, "a0={}", d["a"][0])
        return {"sum": d["a"] + d["b"] * scale, "x": xp.asarray(d["b"])}
    err, out = ck.checkify(f)({"a": jnp.array([-1.0, 2.0]), "b": jnp.ones(2)}, scale=2.0)
    assert err.get().startswith("a0=-1.0")
    np.testing.assert_allclose(out["sum"], [1.0, 4.0])
    assert isinstance(out["x"], xp.Array)


@pytest.mark.parametrize("call, exc, text", [
    (lambda: ck.checkify(3), TypeError, "checkify: expected a callable for 'f'; got 3"),
    (lambda: ck.checkify(abs, errors=["nan"]), TypeError,
     "checkify: expected a set of error categories for 'errors'"),
    (lambda: ck.checkify(abs, errors={ValueError}), ValueError,
     "checkify: expected error categories from laxarray.checkify for 'errors'"),
    (lambda: ck.check(True, 3), TypeError, "check: expected a str for 'msg'; got 3"),
    (lambda: ck.check(jnp.ones(2) > 0, "m"), TypeError,
     "check: expected a boolean scalar for 'pred'"),
    (lambda: ck.check(1, "m"), TypeError, "check: expected a boolean scalar for 'pred'"),
    (lambda: ck.check(True, "m", "text"), TypeError,
     "check: expected arrays or numbers as format arguments"),
    (lambda: ck.check_error("err"), TypeError,
     "check_error: expected a laxarray.checkify.Error for 'error'"),
])
def test_bad_arguments(call, exc, text):
    with pytest.raises(exc) as info:
        call()
    assert str(info.value).startswith(text)
