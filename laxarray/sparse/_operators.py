"""Python operators and array-like methods shared by BCOO and BCSR.

Each method forwards to the operation family in :mod:`laxarray.sparse.ops`.
"""

from __future__ import annotations

import math
import types

import numpy as np

#: The operations the methods forward to (and that ``BCOO.tobcsr``/``bcoo_update_layout``
#: call), by name.  Their modules import the formats, which inherit this mixin, so this
#: module cannot import them: ``laxarray/sparse/__init__.py`` fills the table once they are
#: all imported.
OPS = types.SimpleNamespace()


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
        return OPS.matmul(self, other)

    def __rmatmul__(self, other):
        return OPS.matmul(other, self)

    # ---- elementwise -------------------------------------------------------------------
    def __mul__(self, other):
        return OPS.multiply(self, other)

    def __rmul__(self, other):
        return OPS.multiply(other, self)

    def __truediv__(self, other):
        return OPS.divide(self, other)

    def __add__(self, other):
        return OPS.add(self, other)

    def __radd__(self, other):
        return OPS.add(other, self)

    def __sub__(self, other):
        return OPS.subtract(self, other)

    def __rsub__(self, other):
        return OPS.subtract(other, self)

    def __neg__(self):
        return OPS.unary["negative"](self)

    def __pos__(self):
        return self

    def __abs__(self):
        return OPS.unary["abs"](self)

    def conj(self):
        """Complex conjugate of the stored values."""
        return OPS.unary["conj"](self)

    @property
    def real(self):
        """Real part (sparse)."""
        return OPS.unary["real"](self)

    @property
    def imag(self):
        """Imaginary part (sparse)."""
        return OPS.unary["imag"](self)

    def astype(self, dtype):
        """Values cast to ``dtype``."""
        return OPS.astype(self, dtype)

    def map_values(self, fn):
        """``fn`` applied to the stored values only; see ``laxarray.sparse.map_values``."""
        return OPS.map_values(fn, self)

    # ---- shape -------------------------------------------------------------------------
    @property
    def T(self):
        """Transpose (dimensions reversed)."""
        return OPS.transpose(self)

    def transpose(self, axes=None):
        """Permute dimensions; see ``laxarray.sparse.transpose``."""
        return OPS.transpose(self, axes)

    def reshape(self, *shape):
        """Reshape; see ``laxarray.sparse.reshape``."""
        if len(shape) == 1 and not isinstance(shape[0], int):
            shape = shape[0]
        return OPS.reshape(self, shape)

    def sum(self, axis=None):
        """Sum over ``axis``; see ``laxarray.sparse.sum``."""
        return OPS.sum(self, axis)

    def max(self, axis=None):
        """Maximum (implicit zeros count); dense result."""
        return OPS.max(self, axis)

    def min(self, axis=None):
        """Minimum (implicit zeros count); dense result."""
        return OPS.min(self, axis)

    def __getitem__(self, key):
        return OPS.getitem(self, key)

    def __len__(self):
        return self.shape[0]

    def block_until_ready(self):
        """Wait for the leaves to be computed; returns ``self``."""
        for leaf in self._leaves():
            leaf.block_until_ready()
        return self
