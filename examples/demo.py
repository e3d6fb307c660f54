"""The main demo: laxarray as an Array API namespace, under jax transformations."""

import array_api_compat
import jax
import numpy as np

import laxarray as xp


def softplus(x):
    """Array-API-generic code: runs on whatever namespace its input belongs to."""
    ns = array_api_compat.array_namespace(x)
    return ns.logaddexp(ns.zeros_like(x), x)


def main():
    x = xp.asarray([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    print("x =", repr(x))
    print("namespace:", x.__array_namespace__().__name__, xp.__array_api_version__)
    print("dtype promotion: int8 + uint8 ->",
          (xp.ones(2, dtype=xp.int8) + xp.ones(2, dtype=xp.uint8)).dtype)
    print("weak scalars: float32 * 2.5 ->", (xp.ones(2, dtype=xp.float32) * 2.5).dtype)

    y = xp.sin(x) ** 2 + xp.cos(x) ** 2
    print("sin^2 + cos^2 =", y)
    x[0, :] = -1.0
    print("after x[0, :] = -1:", x)
    print("matmul x @ x.T =", x @ x.T)

    f = jax.jit(lambda a: xp.exp(a) * 2.0 - a)
    print("jax.jit over laxarray:", f(x))
    print("traced to bare lax:", jax.make_jaxpr(lambda a: xp.exp(a) * 2.0 - a)(x))
    g = xp.grad(lambda a: xp.sin(a)[0, 0] * 3.0)(x)
    print("laxarray.grad:", g)
    print("vmap:", jax.vmap(lambda row: xp.matmul(row, row))(x))
    print("generic code on laxarray:", softplus(xp.linspace(-2, 2, 5)))
    print("NumPy interop:", np.asarray(xp.linspace(0, 1, 5)) + 1)


if __name__ == "__main__":
    main()
