"""The in-place operators' rule (the operator table itself is in ``Array``'s class body).

An in-place operator computes the same result as its forward form, requires it to keep
``self``'s dtype and shape (as NumPy's same-kind casting does), and rebinds the handle.
"""

from __future__ import annotations


from laxarray._core import dtypes as _dt
from laxarray._core.errors import fail
from laxarray.array_api._ufunc import broadcast_shapes2

def _static_inplace_check(name, stem, self, other):
    """Reject, before computing, an in-place update that would change dtype or shape."""
    pytype = _dt.scalar_pytype(other)
    if pytype is not None:
        dtype, shape = _dt.weak_promote(self.dtype, pytype), self.shape
    else:
        o_dtype, o_shape = getattr(other, "dtype", None), getattr(other, "shape", None)
        if o_dtype not in _dt.CATEGORIES["any"] or o_shape is None:
            return  # lists, unsupported dtypes: the function itself reports them
        dtype = _dt.promote_types(self.dtype, o_dtype)
        shape = self.shape if stem == "matmul" else broadcast_shapes2(
            name, self.shape, tuple(o_shape))
    if stem == "truediv" and _dt.kind_of(dtype) not in "fc":
        dtype = _dt.DEFAULT_FLOAT
    if dtype != self.dtype:
        fail(TypeError, name, f"a result of dtype {self.dtype} (in-place operations keep "
             "the dtype)", dtype)
    if shape != self.shape:
        fail(ValueError, name, f"a result of shape {self.shape} (in-place operations keep "
             "the shape)", shape)


def update_in_place(self, other, fn, stem):
    """``self = fn(self, other)`` for ``__i{stem}__``, refusing (before computing, and
    again on the result) a change of dtype or shape; the caller holds ``WRITE_LOCK``."""
    name = f"Array.__i{stem}__"
    _static_inplace_check(name, stem, self, other)
    out = fn(self, other)
    if out.dtype != self.dtype:
        fail(TypeError, name, f"a result of dtype {self.dtype} (in-place operations keep "
             "the dtype)", out.dtype)
    if out.shape != self.shape:
        fail(ValueError, name, f"a result of shape {self.shape} (in-place operations "
             "keep the shape)", out)
    self._rebind(out)
    return self
