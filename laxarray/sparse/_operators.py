"""Python operators and array-like methods shared by BCOO and BCSR.

Each method forwards to the operation family in :mod:`laxarray.sparse.ops`; the imports are
local because the operation modules import the formats.
"""

from __future__ import annotations

import math

import numpy as np


class SparseOperators:
    """Mixin: ``@ * / + - ** neg``, ``.T``, ``sum``, ``reshape``, ``astype``, ``[...]``, and
    the attributes both formats derive from ``shape``/``data`` (``dtype ndim size`` and repr)."""

    __slots__ = ()

    @property
    def dtype(self):
        """dtype of the stored values."""
        return np.dtype(self.data.dtype)

    @property
    def ndim(self):
        """Number of dimensions."""
        return len(self.shape)

    @property
    def size(self):
        """Number of elements of the dense equivalent."""
        return math.prod(self.shape)

    def __repr__(self):
        extra = f", n_batch={self.n_batch}" if self.n_batch else ""
        extra += f", n_dense={self.n_dense}" if self.n_dense else ""
        dims = ", ".join(str(s) for s in self.shape)
        return f"{type(self).__name__}({self.dtype}[{dims}], nse={self.nse}{extra})"

    # ---- contractions ----------------------------------------------------------------
    def __matmul__(self, other):
        from laxarray.sparse.ops.dot import matmul
        return matmul(self, other)

    def __rmatmul__(self, other):
        from laxarray.sparse.ops.dot import matmul
        return matmul(other, self)

    # ---- elementwise -------------------------------------------------------------------
    def __mul__(self, other):
        from laxarray.sparse.ops.elementwise import multiply
        return multiply(self, other)

    def __rmul__(self, other):
        from laxarray.sparse.ops.elementwise import multiply
        return multiply(other, self)

    def __truediv__(self, other):
        from laxarray.sparse.ops.elementwise import divide
        return divide(self, other)

    def __add__(self, other):
        from laxarray.sparse.ops.elementwise import add
        return add(self, other)

    def __radd__(self, other):
        from laxarray.sparse.ops.elementwise import add
        return add(other, self)

    def __sub__(self, other):
        from laxarray.sparse.ops.elementwise import subtract
        return subtract(self, other)

    def __rsub__(self, other):
        from laxarray.sparse.ops.elementwise import subtract
        return subtract(other, self)

    def __neg__(self):
        from laxarray.sparse.ops.elementwise import UNARY
        return UNARY["negative"](self)

    def __pos__(self):
        return self

    def __abs__(self):
        from laxarray.sparse.ops.elementwise import UNARY
        return UNARY["abs"](self)

    def conj(self):
        """Complex conjugate of the stored values."""
        from laxarray.sparse.ops.elementwise import UNARY
        return UNARY["conj"](self)

    @property
    def real(self):
        """Real part (sparse)."""
        from laxarray.sparse.ops.elementwise import UNARY
        return UNARY["real"](self)

    @property
    def imag(self):
        """Imaginary part (sparse)."""
        from laxarray.sparse.ops.elementwise import UNARY
        return UNARY["imag"](self)

    def astype(self, dtype):
        """Values cast to ``dtype``."""
        from laxarray.sparse.ops.elementwise import astype
        return astype(self, dtype)

    def map_values(self, fn):
        """``fn`` applied to the stored values only; see ``laxarray.sparse.map_values``."""
        from laxarray.sparse.ops.elementwise import map_values
        return map_values(fn, self)

    # ---- shape -------------------------------------------------------------------------
    @property
    def T(self):
        """Transpose (dimensions reversed)."""
        from laxarray.sparse.ops.reshape import transpose
        return transpose(self)

    def transpose(self, axes=None):
        """Permute dimensions; see ``laxarray.sparse.transpose``."""
        from laxarray.sparse.ops.reshape import transpose
        return transpose(self, axes)

    def reshape(self, *shape):
        """Reshape; see ``laxarray.sparse.reshape``."""
        from laxarray.sparse.ops.reshape import reshape
        if len(shape) == 1 and not isinstance(shape[0], int):
            shape = shape[0]
        return reshape(self, shape)

    def sum(self, axis=None):
        """Sum over ``axis``; see ``laxarray.sparse.sum``."""
        from laxarray.sparse.ops.reduce import sum as sum_
        return sum_(self, axis)

    def max(self, axis=None):
        """Maximum (implicit zeros count); dense result."""
        from laxarray.sparse.ops.reduce import max as max_
        return max_(self, axis)

    def min(self, axis=None):
        """Minimum (implicit zeros count); dense result."""
        from laxarray.sparse.ops.reduce import min as min_
        return min_(self, axis)

    def __getitem__(self, key):
        from laxarray.sparse.ops.slicing import getitem
        return getitem(self, key)

    def __len__(self):
        return self.shape[0]

    def block_until_ready(self):
        """Wait for the leaves to be computed; returns ``self``."""
        for leaf in self._leaves():
            leaf.block_until_ready()
        return self
