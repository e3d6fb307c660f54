"""A user's own jax program, run with ``with`` (after ``import laxarray``) or ``without``.

It prints, as JSON, jax's settings, the process's warnings filters, NumPy's print options
and loggers, and the dtypes and values of a few jax.numpy computations: creation, random
draws, explicit float64 requests (which jax truncates in its default mode, with a warning),
a NumPy float64 argument of ``jax.jit``, a small MLP's loss and gradient under ``jax.jit``
and the singular values of a float32 64x64 matrix (the program that aborted XLA's TPU
compiler in a process where laxarray had switched jax to 64-bit mode).
``tests/test_jax_interop.py`` and ``tools/jax_interop_check.py`` (the same on an
accelerator) run it twice and compare the two outputs.

    python tests/data/user_jax_program.py with|without
"""

import json
import logging
import sys
import warnings

import numpy as np

before = (list(warnings.filters), np.get_printoptions(),
          logging.getLogger("jax").level, logging.getLogger().level)
if sys.argv[1] == "with":
    import laxarray  # noqa: F401  (the import is the point)
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

after = (list(warnings.filters), np.get_printoptions(),
         logging.getLogger("jax").level, logging.getLogger().level)
out = {"unchanged": repr(before) == repr(after), "backend": jax.default_backend()}
for name in ("jax_enable_x64", "jax_explicit_x64_dtypes", "jax_compilation_cache_dir",
             "jax_default_matmul_precision", "jax_numpy_dtype_promotion"):
    out[name] = repr(getattr(jax.config, name))


def show(name, value):
    value = np.asarray(value)
    out[name] = [str(value.dtype), value.ravel().tolist()]


show("ones", jnp.ones(3))
show("asarray", jnp.asarray(1.5))
show("arange", jnp.arange(3))
show("mixed", jnp.ones(2, jnp.int32) * 2.5)
key = jax.random.key(0)
show("normal", jax.random.normal(key, (4,)))
show("uniform", jax.random.uniform(key, (3,)))
with warnings.catch_warnings(record=True) as caught:   # jax truncates, and says so
    warnings.simplefilter("always")
    show("asked_float64", jnp.zeros(2, dtype=jnp.float64))
    show("normal_float64", jax.random.normal(key, (2,), dtype=jnp.float64))
out["truncation_warnings"] = len(caught)
show("numpy_arg", jax.jit(lambda v: v * 2)(np.arange(3.0)))

k1, k2 = jax.random.split(key)
params = {"w1": jax.random.normal(k1, (4, 8)), "w2": jax.random.normal(k2, (8, 1))}
data = jax.random.normal(key, (16, 4))


def loss(p, x):
    h = jnp.tanh(x @ p["w1"])
    return jnp.mean((h @ p["w2"]) ** 2)


value, grads = jax.jit(jax.value_and_grad(loss))(params, data)
show("loss", value)
show("grad_w1", grads["w1"])
m = jnp.arange(64.0 * 64.0).reshape(64, 64) % 7.0 + jnp.eye(64)
show("svdvals", jnp.linalg.svd(m, compute_uv=False)[:4])
print(json.dumps(out))
