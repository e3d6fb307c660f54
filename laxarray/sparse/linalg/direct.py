"""Direct sparse solves: ``spsolve`` and a reusable LU factorisation (``splu``/``factorized``).

XLA has no sparse LU, so the factorisation runs on the host: SciPy's SuperLU (COLAMD
column ordering, as ``scipy.sparse.linalg.spsolve`` and ``splu`` use by default), reached
through a host callback (``jax_host_calls.host_call``).  So these work eagerly and under
``jax.jit`` (the matrix and the right-hand side may be traced; the solve is a host call
inside the compiled program)
and under ``jax.vmap`` (one host solve per mapped element).  On a GPU the matrix and the
right-hand side are copied to the host and the solution back; the solve itself runs on
the CPU.

Derivatives (reverse mode, ``jax.grad``/``jax.vjp``): ``spsolve`` with respect to
``A.data`` and ``b``, ``SparseLU.solve`` with respect to ``b``, by the adjoint solve
``A^T y = g`` (with the same factorisation for ``SparseLU``; ``spsolve`` refactorises).
An exactly singular matrix raises ``LinAlgError`` eagerly; under ``jax.jit`` (where no
error can be raised from the host) the solution is all NaN.
"""

from __future__ import annotations

import functools

import jax
import numpy as np
from jax import lax

from laxarray._core import dtypes as _dt
from laxarray._core import lazy_scipy
from laxarray._core.docstrings import fill
from laxarray._core.errors import LinAlgError, fail, fail_text
from laxarray._core.jaxapi import device_put, in_wide_mode, is_tracer
from laxarray._core.jax_host_calls import host_call
from laxarray.array_api._array import wrap
from laxarray.array_api._convert import to_raw
from laxarray.sparse import _keys as K

# splu's and factorized's operand (factorized is splu's solve)
_CONCRETE_A = """
Parameters
----------
A : BCOO or BCSR
    A square 2-D sparse matrix without batch or dense dimensions, of a numeric dtype.
    Its values must be concrete."""


def _solve_dtype(*dtypes):
    """float64/float32/complex128/complex64 of the operands (integers and bools -> float64;
    SuperLU has no other types)."""
    dt = np.dtype(_dt.result_type(*dtypes))
    if dt.kind in "biu":
        return np.dtype(_dt.default_dtype_for_pytype(float))
    if dt == np.float16:
        return np.dtype(np.float32)
    return dt


def _square_matrix(fn, A):
    if not hasattr(A, "_as_bcoo"):
        fail(TypeError, fn, "a BCOO or BCSR matrix for 'A'", A)
    if A.ndim != 2 or A.n_batch or A.n_dense or A.shape[0] != A.shape[1]:
        fail(ValueError, fn, "a square 2-D sparse matrix for 'A' (no batch or dense "
             "dimensions)", A)
    if np.dtype(A.dtype).kind not in "biufc":
        fail(TypeError, fn, "a numeric 'A'", A)
    return A


def _rhs(fn, b, n):
    raw = to_raw(fn, b, "b")
    if raw.ndim not in (1, 2) or raw.shape[0] != n:
        fail(ValueError, fn, f"'b' of shape ({n},) or ({n}, k) for A of shape ({n}, {n})",
             b)
    if np.dtype(raw.dtype).kind not in "biufc":
        fail(TypeError, fn, "a numeric 'b'", b)
    return raw


def _coo(A):
    """Raw ``(data, rows, cols)`` of a 2-D matrix (padding entries have ``row == n``)."""
    a = A._as_bcoo()
    return a.data, a.indices[:, 0], a.indices[:, 1]


# ---- host side ------------------------------------------------------------------------
def _host_matrix(data, rows, cols, n):
    sps = lazy_scipy.scipy_sparse()
    data, rows, cols = np.asarray(data), np.asarray(rows), np.asarray(cols)
    keep = (rows >= 0) & (rows < n) & (cols >= 0) & (cols < n)
    return sps.csc_array((data[keep], (rows[keep], cols[keep])), shape=(n, n))


def _host_lu(data, rows, cols, n):
    """SuperLU of the matrix, or ``None`` when it is exactly singular."""
    spla = lazy_scipy.scipy_sparse_linalg()
    try:
        return spla.splu(_host_matrix(data, rows, cols, n))
    except RuntimeError:            # SuperLU: "Factor is exactly singular"
        return None


def _host_solve(lu, b, trans, dtype):
    """``lu``'s solve of ``b`` (``trans``: SuperLU's 'N', 'T' or 'H'), in ``dtype``."""
    b = np.asarray(b, dtype)
    if lu is None:
        return np.full(b.shape, np.nan, dtype)
    if b.size == 0:
        return np.zeros(b.shape, dtype)
    return np.asarray(lu.solve(b, trans=trans), dtype)


def _singular(fn):
    fail_text(LinAlgError, fn, "'A' is exactly singular (SuperLU found a zero pivot)")


# ---- spsolve ------------------------------------------------------------------------------
@in_wide_mode
def spsolve(A, b):
    """Solve ``A x = b`` for a square sparse ``A`` by a sparse LU factorization (SuperLU).

    SciPy: scipy.sparse.linalg.spsolve (the result here is always dense).

    Parameters
    ----------
    A : BCOO or BCSR
        A square 2-D sparse matrix without batch or dense dimensions, of a numeric dtype.
    b : array_like
        The right-hand sides, of shape ``(n,)`` or ``(n, k)``.

    Returns
    -------
    Array
        The dense solution, of ``b``'s shape.

    Raises
    ------
    TypeError
        If ``A`` is not a BCOO or BCSR, or ``A`` or ``b`` is not numeric.
    ValueError
        If ``A`` is not square and 2-D, or ``b``'s shape does not match.
    LinAlgError
        Eagerly, if ``A`` is exactly singular (SuperLU finds a zero pivot).

    Notes
    -----
    Static under ``jax.jit``: none.

    SciPy's SuperLU runs on the host (a host callback inside ``jax.jit``): it works under
    ``jax.jit`` and ``jax.vmap``, where a singular ``A`` gives NaN, and ``jax.grad`` flows
    to ``A.data`` and ``b``.  For many right-hand sides with one matrix, factorize once with
    :func:`splu`.  Needs SciPy.

    Examples
    --------
    >>> import laxarray as la, laxarray.sparse as sp
    >>> A = sp.BCSR.fromdense(la.asarray([[4.0, 1.0], [1.0, 3.0]]))
    >>> b = la.asarray([1.0, 2.0])
    >>> la.round(sp.linalg.spsolve(A, b), decimals=6)
    Array([0.090909, 0.636364])
    """
    fn = "spsolve"
    A = _square_matrix(fn, A)
    n = A.shape[0]
    raw_b = _rhs(fn, b, n)
    dtype = _solve_dtype(A.dtype, raw_b.dtype)
    data, rows, cols = _coo(A)
    if not any(is_tracer(v) for v in (data, rows, cols, raw_b)):
        lu = _host_lu(np.asarray(data).astype(dtype), rows, cols, n)
        if lu is None:
            _singular(fn)
        return wrap(device_put(_host_solve(lu, raw_b, "N", dtype)))
    data = lax.convert_element_type(data, dtype)
    return wrap(_spsolve(n, data, rows, cols, lax.convert_element_type(raw_b, dtype)))


def _spsolve_callback(n, data, rows, cols, b, trans):
    def host(data, rows, cols, b):
        return _host_solve(_host_lu(data, rows, cols, n), b, "T" if trans else "N", b.dtype)
    return host_call(host, jax.ShapeDtypeStruct(b.shape, b.dtype), data, rows, cols, b,
                     vmap_method="sequential")


@functools.partial(jax.custom_vjp, nondiff_argnums=(0,))
def _spsolve(n, data, rows, cols, b):
    return _spsolve_callback(n, data, rows, cols, b, False)


def _spsolve_fwd(n, data, rows, cols, b):
    x = _spsolve_callback(n, data, rows, cols, b, False)
    return x, (data, rows, cols, x)


def _spsolve_bwd(n, res, g):
    data, rows, cols, x = res
    y = _spsolve_callback(n, data, rows, cols, g, True)      # A^T y = g
    return (_data_cotangent(y, x, rows, cols), None, None, y)


def _data_cotangent(y, x, rows, cols):
    """``-y[rows] * x[cols]`` per stored entry (summed over right-hand sides); padding
    entries (index ``n``, out of range) get 0."""
    prod = lax.mul(K.gather_1d(y, rows), K.gather_1d(x, cols))
    if prod.ndim == 2:
        prod = lax.reduce_sum(prod, (1,))
    return lax.neg(prod)


# (run by jax's differentiation, maybe after laxarray's call returned: in 64-bit mode)
_spsolve.defvjp(in_wide_mode(_spsolve_fwd), in_wide_mode(_spsolve_bwd))


# ---- a reusable factorisation ----------------------------------------------------------
class SparseLU:
    """The LU factorization of a concrete square sparse matrix, made by :func:`splu`.

    SciPy: scipy.sparse.linalg.SuperLU (whose object this holds, on the host).

    Made by :func:`splu`; not constructed directly.

    Parameters
    ----------
    lu : scipy.sparse.linalg.SuperLU
        SciPy's factorization object.
    shape : tuple of ints
        The matrix's shape ``(n, n)``.
    dtype : numpy.dtype
        The matrix's dtype.

    Attributes
    ----------
    shape : tuple of ints
        The matrix's shape ``(n, n)``.
    dtype : numpy.dtype
        The matrix's dtype.
    nnz : int
        The number of stored entries of the L and U factors.

    Notes
    -----
    ``solve(b, trans="N")`` reuses the factorization for any number of right-hand sides,
    eagerly or under ``jax.jit``/``jax.vmap``, differentiable in ``b``.

    Examples
    --------
    >>> import laxarray as la, laxarray.sparse as sp
    >>> lu = sp.linalg.splu(sp.fromdense([[4.0, 1.0], [1.0, 3.0]]))
    >>> lu.shape, lu.nnz
    ((2, 2), 6)
    """

    __slots__ = ("_lu", "shape", "dtype")

    def __init__(self, lu, shape, dtype):
        self._lu, self.shape, self.dtype = lu, shape, dtype

    @property
    def nnz(self):
        """Stored entries of the L and U factors."""
        return int(self._lu.L.nnz + self._lu.U.nnz)

    @in_wide_mode
    def solve(self, b, trans="N"):
        """Solve ``A x = b`` (or a transposed system) with this factorization.

        Parameters
        ----------
        b : array_like
            The right-hand sides, of shape ``(n,)`` or ``(n, k)``; may be traced (a host
            call in the compiled program).
        trans : {'N', 'T', 'H'}, optional
            ``'N'`` (default): ``A x = b``; ``'T'``: ``A^T x = b``; ``'H'``: ``A^H x = b``.

        Returns
        -------
        Array
            The solution, of ``b``'s shape.

        Raises
        ------
        ValueError
            If ``trans`` is not one of the three, or ``b``'s shape does not match.

        Notes
        -----
        Static under ``jax.jit``: ``trans``.

        ``jax.grad`` flows to ``b`` through the adjoint solve.

        Examples
        --------
        >>> import laxarray as la, laxarray.sparse as sp
        >>> lu = sp.linalg.splu(sp.fromdense([[4.0, 1.0], [0.0, 3.0]]))
        >>> lu.solve(la.asarray([4.0, 4.0]), trans="T")
        Array([1., 1.])
        """
        fn = "SparseLU.solve"
        if trans not in ("N", "T", "H"):
            fail(ValueError, fn, "trans 'N', 'T' or 'H'", trans)
        n = self.shape[0]
        raw = _rhs(fn, b, n)
        dtype = _solve_dtype(self.dtype, raw.dtype)
        if not is_tracer(raw):
            return wrap(device_put(_host_solve(self._lu, raw, trans, dtype)))
        raw = lax.convert_element_type(raw, dtype)
        if trans == "H":                 # A^H x = b  <=>  A^T conj(x) = conj(b)
            if dtype.kind == "c":
                return wrap(lax.conj(_lu_solve(self, "T", lax.conj(raw))))
            trans = "T"
        return wrap(_lu_solve(self, trans, raw))

    def __repr__(self):
        return f"SparseLU(shape={self.shape}, dtype={np.dtype(self.dtype).name})"


def _lu_callback(lu, trans, b):
    return host_call(lambda v: _host_solve(lu._lu, v, trans, v.dtype),
                     jax.ShapeDtypeStruct(b.shape, b.dtype), b, vmap_method="sequential")


@functools.partial(jax.custom_vjp, nondiff_argnums=(0, 1))
def _lu_solve(lu, trans, b):
    return _lu_callback(lu, trans, b)


def _lu_solve_fwd(lu, trans, b):
    return _lu_callback(lu, trans, b), None


def _lu_solve_bwd(lu, trans, _, g):
    return (_lu_callback(lu, "N" if trans == "T" else "T", g),)


_lu_solve.defvjp(in_wide_mode(_lu_solve_fwd), in_wide_mode(_lu_solve_bwd))


@fill(params=_CONCRETE_A)
def splu(A):
    """Factorize a square sparse matrix for repeated solves (SuperLU).

    SciPy: scipy.sparse.linalg.splu (COLAMD ordering).

    {params}

    Returns
    -------
    SparseLU
        The factorization; ``solve(b, trans='N')`` reuses it.

    Raises
    ------
    TypeError
        If ``A`` is not a BCOO or BCSR, is not numeric, or is traced (inside ``jax.jit``:
        factorize outside and close over the result, or use :func:`spsolve`).
    ValueError
        If ``A`` is not square and 2-D.
    LinAlgError
        If ``A`` is exactly singular.

    Notes
    -----
    Static under ``jax.jit``: not applicable: ``A`` must be concrete (the factorization is
    computed now, on the host).

    The returned object's ``solve`` runs eagerly or under ``jax.jit``/``jax.vmap`` (a host
    callback), differentiable in ``b``.  Needs SciPy.

    Examples
    --------
    >>> import laxarray as la, laxarray.sparse as sp
    >>> A = sp.BCSR.fromdense(la.asarray([[4.0, 1.0], [1.0, 3.0]]))
    >>> b = la.asarray([1.0, 2.0])
    >>> lu = sp.linalg.splu(A)
    >>> lu
    SparseLU(shape=(2, 2), dtype=float64)
    >>> la.round(lu.solve(b), decimals=6)
    Array([0.090909, 0.636364])
    """
    fn = "splu"
    A = _square_matrix(fn, A)
    data, rows, cols = _coo(A)
    if any(is_tracer(v) for v in (data, rows, cols)):
        fail_text(TypeError, fn, "'A' is traced (inside jax.jit or another transformation); "
                  "the factorisation is computed on the host from a concrete matrix: "
                  "factorise outside and close over the result, or use spsolve")
    dtype = _solve_dtype(A.dtype)
    lu = _host_lu(np.asarray(data).astype(dtype), rows, cols, A.shape[0])
    if lu is None:
        _singular(fn)
    return SparseLU(lu, tuple(A.shape), dtype)


@in_wide_mode
@fill(params=_CONCRETE_A)
def factorized(A):
    """Return a function that solves ``A x = b`` with one factorization of ``A``.

    SciPy: scipy.sparse.linalg.factorized.

    {params}

    Returns
    -------
    callable
        ``solve(b)``: ``splu(A).solve``.

    Raises
    ------
    TypeError
        As :func:`splu`.
    ValueError
        As :func:`splu`.
    LinAlgError
        If ``A`` is exactly singular.

    Notes
    -----
    Static under ``jax.jit``: not applicable, as :func:`splu`.

    Needs SciPy.

    Examples
    --------
    >>> import laxarray as la, laxarray.sparse as sp
    >>> solve = sp.linalg.factorized(sp.BCOO.fromdense(la.asarray([[2.0, 1.0], [0.0, 4.0]])))
    >>> solve(la.asarray([1.0, 2.0]))
    Array([0.25, 0.5 ])
    """
    return splu(A).solve


__all__ = ["spsolve", "splu", "factorized", "SparseLU"]
