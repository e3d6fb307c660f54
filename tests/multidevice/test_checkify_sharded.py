"""checkify with shardings: checks before, inside and after ``jax.shard_map``, under a context
mesh, with partially manual maps and on sharded operands report what the same program
reports on one device (the cases of jax issues 26890, 40907, 23946 and 26887, where jax's
own checkify fails)."""

import jax
import numpy as np
import pytest

from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

import laxarray as xp
from laxarray import checkify as ck


def _mesh(shape):
    n = int(np.prod(shape))
    return Mesh(np.array(jax.devices()[:n]).reshape(shape), ("a", "b"))


def _positive(v):
    ck.check(xp.all(xp.asarray(v) > 0), "shard must be positive")
    return v * 2


def _outer(v):
    ck.check(xp.all(xp.asarray(v) > -100), "outer bound")
    return v


PROGRAMS = {
    # 26890: a check inside the map and one outside
    "inside": lambda mesh: lambda v: jax.shard_map(
        _positive, mesh=mesh, in_specs=P(("a", "b")), out_specs=P(("a", "b")))(_outer(v)),
    # 40907, case 1: a check before a map (run under jax.set_mesh by the test)
    "before": lambda mesh: lambda v: jax.shard_map(
        lambda u: u * 2, mesh=mesh, in_specs=P(("a", "b")),
        out_specs=P(("a", "b")))(_positive(v)),
    # 40907, case 2: a partially manual map (axis_names a subset of the mesh's)
    "partial": lambda mesh: lambda v: jax.shard_map(
        _positive, mesh=mesh, in_specs=P("a"), out_specs=P("a"), axis_names={"a"})(
        _outer(v)),
    # 23946: a check on the map's output
    "after": lambda mesh: lambda v: _positive(jax.shard_map(
        lambda u: u + 1, mesh=mesh, in_specs=P(("a", "b")), out_specs=P(("a", "b")))(v)),
}


def _run(program, mesh, x, context, jitted):
    fn = ck.checkify(PROGRAMS[program](mesh))
    if jitted:
        fn = jax.jit(fn)
    arg = jax.device_put(x, NamedSharding(mesh, P(("a", "b"))))
    if context:
        with jax.set_mesh(mesh):
            err, out = fn(arg)
    else:
        err, out = fn(arg)
    return err.get(), np.asarray(out)


@pytest.mark.parametrize("program", sorted(PROGRAMS))
@pytest.mark.parametrize("context", [False, True])
@pytest.mark.parametrize("jitted", [False, True])
@pytest.mark.parametrize("values", ["ok", "one_bad", "outer_bad"])
def test_checks_around_shard_map_match_one_device(program, context, jitted, values):
    x = np.arange(1.0, 17.0)
    if values == "one_bad":
        x[11] = -1.0  # one shard fails the map's check
    elif values == "outer_bad":
        x[2] = -1000.0  # the check before the map fails first
    one = _run(program, _mesh((1, 1)), x, context, jitted)
    many = _run(program, _mesh((4, 2)), x, context, jitted)
    assert many[0] == one[0]
    np.testing.assert_array_equal(many[1], one[1])
    if values == "ok":
        assert many[0] is None
    else:
        assert many[0] is not None


def test_index_checks_inside_shard_map():
    # 26887: index checks of a gather by argsort's result inside a map
    mesh = _mesh((4, 2))

    def body(p):
        p = xp.asarray(p)
        return (p[xp.argsort(p)] + p[xp.asarray([0, 40])[0]])._value

    def f(v):
        return jax.shard_map(body, mesh=mesh, in_specs=P(("a", "b")),
                             out_specs=P(("a", "b")))(v)

    x = jax.device_put(np.arange(16.0)[::-1].copy(), NamedSharding(mesh, P(("a", "b"))))
    err, out = jax.jit(ck.checkify(f, errors=ck.index_checks))(x)
    assert err.get() is None
    np.testing.assert_array_equal(
        np.asarray(out), np.concatenate([np.sort(b) + b[0] for b in np.split(np.arange(16.0)[::-1], 8)]))

    def bad_body(p):
        p = xp.asarray(p)
        return (p + p[xp.asarray([0, 40])[1]])._value  # 40 is out of a 2-element shard

    def g(v):
        return jax.shard_map(bad_body, mesh=mesh, in_specs=P(("a", "b")),
                             out_specs=P(("a", "b")))(v)
    err, _ = jax.jit(ck.checkify(g, errors=ck.index_checks))(x)
    assert err.get().startswith("out-of-bounds index 40 for axis 0 with size 2")


def test_nan_check_on_a_sharded_operand_matches_one_device():
    x = np.linspace(-1.0, 1.0, 16)

    def f(v):
        return xp.log(xp.asarray(v))
    msgs = []
    for shape in ((1, 1), (4, 2)):
        mesh = _mesh(shape)
        arg = jax.device_put(x, NamedSharding(mesh, P(("a", "b"))))
        err, out = jax.jit(ck.checkify(f, errors=ck.nan_checks))(arg)
        msgs.append(err.get())
    assert msgs[0] is not None and msgs[0] == msgs[1]


def test_a_formatted_check_reports_the_first_failing_shard():
    mesh = _mesh((4, 2))

    def body(v):
        v = xp.asarray(v)
        ck.check(xp.all(v < 10), "first value {first} of a shard too large", first=v[0])
        return v._value
    x = jax.device_put(np.arange(16.0), NamedSharding(mesh, P(("a", "b"))))
    err, _ = jax.jit(ck.checkify(lambda v: jax.shard_map(
        body, mesh=mesh, in_specs=P(("a", "b")), out_specs=P(("a", "b")))(v)))(x)
    # shards hold [0, 1], [2, 3] ...: the first failing one (in mesh order) starts at 10
    assert err.get().startswith("first value 10.0 of a shard too large")

