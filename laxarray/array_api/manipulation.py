"""Manipulation functions of the standard (axes, shapes, joining)."""

from __future__ import annotations

from jax import lax

from laxarray._core.errors import fail
from laxarray._core.kernel import call, kernel
from laxarray._core.validate import normalize_axis
from laxarray.array_api._array import Array
from laxarray.array_api._convert import to_raw


@kernel(static=("axes",))
def _permute_dims_kernel(x, *, axes):
    return lax.transpose(x, axes)


def permute_dims(x, /, axes):
    """Permute the axes (negative axes allowed). Array API: permute_dims. NumPy: numpy.transpose."""
    raw = x._value if isinstance(x, Array) else to_raw("permute_dims", x, "x")
    if not isinstance(axes, (tuple, list)):
        fail(TypeError, "permute_dims", "a tuple of axes for 'axes'", axes)
    norm = tuple(normalize_axis("permute_dims", a, raw.ndim, "axes") for a in axes)
    if sorted(norm) != list(range(raw.ndim)):
        fail(ValueError, "permute_dims", f"a permutation of range({raw.ndim}) for 'axes'", axes)
    return call(_permute_dims_kernel, raw, axes=norm)


__all__ = ["permute_dims"]
