"""Every public function of laxarray, linalg and fft, called with simple float32 arguments
under the TPU's record, runs or raises laxarray's own error -- never one of jax's: a device
without float64 must not meet a float64 constant inside a kernel (``bartlett``,
``histogram``, ``nanvar``, ``unwrap`` did: ``lax.mul requires arguments to have the same
dtypes, got float32, float64``).  ``tools/device/tpu_probe.py --sweep`` does the same on the chip,
where an abort would also show."""

import numpy as np
import pytest

import laxarray as xp

#: names left out: they change process-wide settings, or take callables, files or buffers
SKIP = {"set_matmul_precision", "set_rank_promotion", "set_host_sort", "seterr", "frompyfunc",
        "vectorize", "from_dlpack", "piecewise", "apply_along_axis", "apply_over_axes",
        "fromfunction", "load", "save", "savez", "savez_compressed", "loadtxt", "savetxt",
        "genfromtxt", "fromfile", "tofile", "printoptions", "set_printoptions", "errstate",
        "jit", "frombuffer"}


def _public():
    out = []
    for prefix, module in (("", xp), ("linalg.", xp.linalg), ("fft.", xp.fft)):
        names = getattr(module, "__all__", None) or [n for n in dir(module)
                                                     if not n.startswith("_")]
        for name in names:
            obj = getattr(module, name, None)
            if callable(obj) and not isinstance(obj, type) and name not in SKIP:
                out.append(prefix + name)
    return sorted(out)


def _patterns():
    rng = np.random.default_rng(0)
    x8, y8 = (xp.asarray(rng.standard_normal(8).astype(np.float32)) for _ in range(2))
    x44, y44 = (xp.asarray(rng.standard_normal((4, 4)).astype(np.float32)) for _ in range(2))
    i8 = xp.asarray(np.arange(1, 9, dtype=np.int32))
    return [(x8,), (x44,), (x8, y8), (x44, y44), (i8,), (i8, i8[::-1]), (x8, 2), (8,),
            (x44, x8)]


def _specific():
    """Arguments for the functions the simple patterns do not fit (name -> a tuple)."""
    rng = np.random.default_rng(1)
    x8 = xp.asarray(rng.standard_normal(8).astype(np.float32))
    y8 = xp.asarray(rng.standard_normal(8).astype(np.float32))
    x44 = xp.asarray(rng.standard_normal((4, 4)).astype(np.float32))
    spd = x44 @ xp.matrix_transpose(x44) + 4 * xp.eye(4)
    v3 = xp.asarray(np.array([1.0, 2.0, 3.0], np.float32))
    i8 = xp.asarray(np.arange(8, dtype=np.int32))
    return {
        "linspace": (0.0, 1.0, 5), "kaiser": (8, 2.0), "quantile": (x8, 0.25),
        "nanquantile": (x8, 0.25), "interp": (x8, xp.sort(y8), x8), "polyfit": (x8, y8, 2),
        "full": ((3,), 1.5), "tri": (3,), "cross": (v3, v3[::-1]), "linalg.cross": (v3, v3),
        "linalg.cholesky": (spd,), "linalg.matrix_power": (x44, 3),
        "linalg.multi_dot": ([x44, x44, x44],), "linalg.tensorinv": (spd, 1),
        "linalg.tensorsolve": (spd, x44[0]), "einsum": ("ij,jk->ik", x44, x44),
        "einsum_path": ("ij,jk->ik", x44, x44), "select": ([x8 > 0], [x8]),
        "stack": ([x8, y8],), "concat": ([x8, y8],), "moveaxis": (x44, 0, 1),
        "swapaxes": (x44, 0, 1), "rollaxis": (x44, 1), "squeeze": (x44[None],),
        "expand_dims": (x8, 0), "permute_dims": (x44, (1, 0)), "reshape": (x44, (2, 8)),
        "broadcast_to": (x8, (2, 8)), "astype": (x8, xp.float16),
        "take_along_axis": (x8, xp.argsort(x8)), "insert": (x8, 1, 5.0),
        "unravel_index": (i8, (3, 3)), "ravel_multi_index": ((i8, i8), (9, 9)),
        "choose": (i8 % 2, [x8, y8]), "dsplit": (x44[:, :, None], 1), "vsplit": (x44, 2),
        "mask_indices": (4, xp.triu), "put_along_axis": (x44, xp.argsort(x44, axis=1), 1.0, 1),
    }


def _jax_error(err):
    module = type(err).__module__
    return module.startswith(("jax", "jaxlib")) or str(err).startswith(("lax.", "jnp."))


@pytest.mark.parametrize("name", _public())
def test_simple_calls_raise_no_jax_error(name):
    fn = xp
    for part in name.split("."):
        fn = getattr(fn, part)
    special = _specific().get(name)
    for args in ([special] if special is not None else []) + _patterns():
        try:
            out = fn(*args)
        except Exception as err:   # noqa: BLE001 (only jax's own errors fail the test)
            assert not _jax_error(err), f"{name}{tuple(type(a).__name__ for a in args)}: {err!r}"
            continue
        for leaf in out if isinstance(out, (tuple, list)) else (out,):
            if hasattr(leaf, "__jax_array__"):
                assert np.asarray(leaf).dtype != np.float64, name
        return
