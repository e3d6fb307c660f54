"""Type annotations for code that uses laxarray: ``Array``, ``ArrayLike``, ``DTypeLike``.

``ArrayLike`` is what laxarray functions accept as array input (laxarray and jax arrays,
NumPy arrays and scalars, Python scalars; nested sequences are accepted at run time but,
as in ``jax.typing``, left out of the annotation so that type checkers flag them);
``DTypeLike`` is what ``dtype=`` accepts (a dtype, a NumPy scalar type or a dtype name).
"""

from __future__ import annotations

from typing import Any, Union

import jax
import numpy as np

from laxarray.array_api._array import Array

ArrayLike = Union[Array, jax.Array, np.ndarray, np.bool_, np.number, bool, int, float, complex]
DTypeLike = Union[str, type[Any], np.dtype]

__all__ = ["Array", "ArrayLike", "DTypeLike"]
