"""``minimize``: BFGS and L-BFGS on ``lax.while_loop``, gradients by ``jax.value_and_grad``.

The whole solve is one ``lax.while_loop`` (each step: a search direction, a strong-Wolfe
line search, a history update), so it runs eagerly, under ``jax.jit``, inside
``sparsify`` and under ``jax.vmap`` alike.  L-BFGS keeps ``maxcor`` pairs ``(s, y)`` and
costs O(maxcor * n) per iteration; BFGS keeps the dense n-by-n inverse Hessian.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import jax
from jax import lax

from laxarray._core import dtypes as _dt
from laxarray._core.errors import fail
from laxarray._core.runtime.kernel import jit_function
from laxarray._core.validate import check_choice, check_int
from laxarray.array_api._array import Array, wrap
from laxarray.array_api._convert import to_raw
from laxarray.optimize._linesearch import line_search
from laxarray._core.jaxapi import in_wide_mode

METHODS = ("l-bfgs", "bfgs")
STATUS = {0: "converged: gradient norm <= gtol", 1: "maximum number of iterations reached",
          2: "converged: relative reduction of f <= ftol", 3: "line search failed",
          4: "non-finite objective or gradient"}


class OptimizeResults(NamedTuple):
    """Result of :func:`minimize` (the fields of ``jax.scipy.optimize.OptimizeResults``).

    ``x``/``jac`` have the type of ``x0`` (laxarray ``Array`` or jax array); ``status``:
    0 gradient converged, 1 ``maxiter`` reached, 2 function reduction converged,
    3 line search failed, 4 non-finite values; ``success`` is ``status`` 0 or 2.
    ``hess_inv`` is the dense inverse-Hessian estimate for BFGS and ``None`` for L-BFGS.
    """

    x: object
    success: object
    status: object
    fun: object
    jac: object
    hess_inv: object
    nfev: object
    njev: object
    nit: object


_OPTIONS = {"l-bfgs": ("maxiter", "gtol", "ftol", "maxcor", "maxls", "c1", "c2"),
            "bfgs": ("maxiter", "gtol", "ftol", "maxls", "c1", "c2")}


@in_wide_mode
def minimize(fun, x0, args=(), *, method, tol=None, options=None):
    """Minimize a scalar function of one real array with BFGS or L-BFGS.

    SciPy: scipy.optimize.minimize (``method='L-BFGS-B'`` without bounds, ``'BFGS'``). jax:
    jax.scipy.optimize.minimize.

    Parameters
    ----------
    fun : callable
        ``fun(x, *args)`` returns a real scalar; it is differentiated with
        ``jax.value_and_grad`` and receives ``x`` with the type and shape of ``x0``.
    x0 : array_like
        The starting point: a laxarray ``Array`` or a jax/NumPy array of a real floating
        dtype (integers and bools become the default floating dtype).
    args : tuple, optional
        More arguments of ``fun``: arrays and sparse (BCOO/BCSR) pytrees.
    method : {'L-BFGS', 'L-BFGS-B', 'BFGS'}
        The algorithm (keyword only, required; case-insensitive).
    tol : float, optional
        Sets ``gtol`` (and ``ftol`` for L-BFGS).
    options : dict, optional
        ``maxiter`` (default 15000 for L-BFGS, ``200 * x0.size`` for BFGS), ``gtol`` (1e-5,
        on the max-norm of the gradient), ``ftol`` (2.22e-9: stop when ``(f_k - f_k+1) <=
        ftol * max(|f_k|, |f_k+1|, 1)``, as L-BFGS-B; L-BFGS only), ``maxcor`` (10, the
        L-BFGS history), ``maxls`` (20), ``c1``/``c2`` (1e-4 / 0.9).

    Returns
    -------
    OptimizeResults
        A named tuple ``(x, success, status, fun, jac, hess_inv, nfev, njev, nit)`` as
        ``jax.scipy.optimize.OptimizeResults``: ``x``/``jac`` of ``x0``'s type; ``status`` 0
        gradient converged, 1 ``maxiter`` reached, 2 function reduction converged, 3 line
        search failed, 4 non-finite values; ``success`` is ``status`` 0 or 2; ``hess_inv``
        the dense inverse-Hessian estimate for BFGS, None for L-BFGS.

    Raises
    ------
    TypeError
        If ``fun`` is not callable, ``method`` is not a str, ``args`` is not a tuple,
        ``options`` is not a dict, ``x0`` is complex, a tolerance is not a real number, or
        ``fun`` does not return a real floating scalar.
    ValueError
        If ``method`` is unknown, an option does not belong to the method, a tolerance is
        negative, or not ``0 < c1 < c2 < 1``.

    Notes
    -----
    Static under ``jax.jit``: ``fun``, ``method`` and the option maxcor (the other options are
    traced values: changing them does not recompile).

    The loop is a ``lax.while_loop``, so under ``jax.jit`` the results (``nit``/``status``
    too) stay traced; it runs under ``jax.vmap`` and ``sparsify`` but, like jax's, is not
    reverse-differentiable with respect to closed-over values.  Eager calls with a hashable
    ``fun`` reuse one compiled solve per ``fun``.

    Examples
    --------
    >>> import laxarray as la
    >>> from laxarray.optimize import minimize
    >>> r = minimize(lambda x: la.sum((x - 3.0) ** 2), la.zeros(2), method="L-BFGS")
    >>> la.round(r.x, decimals=6), bool(r.success)
    (Array([3., 3.]), True)
    >>> minimize(lambda x: la.sum((x - 3.0) ** 2), la.zeros(2), method="BFGS").x
    Array([3., 3.])
    """
    fn = "minimize"
    if not callable(fun):
        fail(TypeError, fn, "a callable for 'fun'", fun)
    if not isinstance(method, str):
        fail(TypeError, fn, "a string for 'method'", method)
    meth = {"l-bfgs-b": "l-bfgs"}.get(method.lower(), method.lower())
    check_choice(fn, meth, "method", METHODS + ("l-bfgs-b",))
    if not isinstance(args, tuple):
        fail(TypeError, fn, "a tuple for 'args'", args)
    is_array = type(x0) is Array
    x = to_raw(fn, x0, "x0")
    if _dt.kind_of(x.dtype) not in "f":
        if _dt.kind_of(x.dtype) in "biu":
            x = x.astype(_dt.default_dtype_for_pytype(float))
        else:
            fail(TypeError, fn, "a real floating-point 'x0'", x0)
    opts = _options(fn, meth, x.size, tol, options)
    maxcor = opts.pop("maxcor", 0)
    static = (fun, meth, maxcor, tuple(x.shape), is_array)
    try:
        hash(static)
    except TypeError:
        return _solve(x, args, opts, fun=fun, method=meth, maxcor=maxcor, shape=static[3],
                      is_array=is_array)
    return _solve_jit(x, args, opts, fun=fun, method=meth, maxcor=maxcor, shape=static[3],
                      is_array=is_array)


def _options(fn, meth, n, tol, options):
    if options is None:
        options = {}
    if not isinstance(options, dict):
        fail(TypeError, fn, "a dict for 'options'", options)
    unknown = sorted(set(options) - set(_OPTIONS[meth]))
    if unknown:
        fail(ValueError, fn, f"'options' keys among {_OPTIONS[meth]} for method "
             f"{meth!r}", unknown)
    opts = {"maxiter": 15000 if meth == "l-bfgs" else 200 * max(n, 1), "gtol": 1e-5,
            "ftol": 2.220446049250313e-09 if meth == "l-bfgs" else 0.0, "maxls": 20,
            "c1": 1e-4, "c2": 0.9}
    if meth == "l-bfgs":
        opts["maxcor"] = 10
    if tol is not None:
        opts["gtol"] = _real(fn, tol, "tol")
        if meth == "l-bfgs":
            opts["ftol"] = opts["gtol"]
    for k, v in options.items():
        if k in ("maxiter", "maxcor", "maxls"):
            opts[k] = check_int(fn, v, f"options['{k}']", minimum=1 if k != "maxiter" else 0)
        else:
            opts[k] = _real(fn, v, f"options['{k}']")
    if not 0 < opts["c1"] < opts["c2"] < 1:
        fail(ValueError, fn, "0 < options['c1'] < options['c2'] < 1",
             (opts["c1"], opts["c2"]))
    return opts


def _real(fn, value, argname):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        fail(TypeError, fn, f"a real number for '{argname}'", value)
    if not value >= 0:
        fail(ValueError, fn, f"a non-negative '{argname}'", value)
    return float(value)


def _value_and_grad(fun, args, shape, is_array):
    """``v(x_flat) -> (f, g_flat)`` on raw values, checking that ``fun`` returns a scalar."""
    def scalar(xf):
        xs = lax.reshape(xf, shape) if shape != (xf.size,) else xf
        out = fun(wrap(xs) if is_array else xs, *args)
        val = to_raw("minimize", out, "fun(x)")
        if val.shape != () or _dt.kind_of(val.dtype) != "f":
            fail(TypeError, "minimize", "'fun' to return a real floating-point scalar", out)
        return val
    vg = jax.value_and_grad(scalar)

    def v(xf):
        f, g = vg(xf)
        return f.astype(xf.dtype), g
    return v


def _solve(x, args, opts, *, fun, method, maxcor, shape, is_array):
    o = dict(opts, maxcor=maxcor)
    xf = lax.reshape(x, (x.size,))
    vg = _value_and_grad(fun, args, shape, is_array)
    step = _lbfgs if method == "l-bfgs" else _bfgs
    r = step(vg, xf, o)
    xs, jac = lax.reshape(r.x, shape), lax.reshape(r.jac, shape)
    if is_array:
        xs, jac = wrap(xs), wrap(jac)
        r = r._replace(fun=wrap(r.fun), success=wrap(r.success), status=wrap(r.status),
                       nfev=wrap(r.nfev), njev=wrap(r.njev), nit=wrap(r.nit),
                       hess_inv=None if r.hess_inv is None else wrap(r.hess_inv))
    return r._replace(x=xs, jac=jac)


_solve_jit = jit_function(_solve, static_argnames=("fun", "method", "maxcor", "shape",
                                                   "is_array"))


class _Iter(NamedTuple):
    k: object
    x: object
    f: object
    g: object
    f_old: object
    hist: tuple
    nfev: object
    status: object       # -1 running, else the final status


def _norm_inf(g):
    return lax.reduce_max(lax.abs(g), (0,)) if g.size else lax.full((), 0, g.dtype)


def _status(k, f_old, f, g, ls_failed, o):
    """Final status after an iteration, or -1 to continue."""
    bad = ~(lax.is_finite(f) & lax.is_finite(lax.reduce_sum(g, (0,)) if g.size else f))
    scale = lax.max(lax.max(lax.abs(f_old), lax.abs(f)), lax.full_like(f, 1))
    ftol_met = (f_old - f) <= o["ftol"] * scale
    s = lax.full((), -1, "int32")
    s = lax.select(k >= o["maxiter"], lax.full_like(s, 1), s)
    s = lax.select(ftol_met, lax.full_like(s, 2), s)
    s = lax.select(_norm_inf(g) <= o["gtol"], lax.full_like(s, 0), s)
    s = lax.select(ls_failed, lax.full_like(s, 3), s)
    return lax.select(bad, lax.full_like(s, 4), s)


def _run(vg, x, o, hist0, direction, update, with_hess):
    """The shared outer loop: direction -> line search -> history update -> status."""
    f, g = vg(x)
    status0 = lax.select(_norm_inf(g) <= o["gtol"], lax.full((), 0, "int32"),
                         lax.full((), -1, "int32"))
    status0 = lax.select(o["maxiter"] <= 0, lax.full_like(status0, 1), status0)
    status0 = lax.select(lax.is_finite(f), status0, lax.full_like(status0, 4))

    def cond(s):
        return s.status < 0

    def body(s):
        d = direction(s.hist, s.g)
        slope = lax.dot(s.g, d)
        d = lax.select(lax.broadcast(slope < 0, d.shape), d, -s.g)   # fall back to descent
        gnorm = lax.sqrt(lax.dot(s.g, s.g))
        first = s.k == 0
        a0 = lax.select(first & (gnorm > 0), 1 / gnorm,
                        lax.full_like(gnorm, 1))
        ls = line_search(vg, s.x, d, s.f, s.g, a0, c1=o["c1"], c2=o["c2"], maxls=o["maxls"])
        x_new = s.x + ls.step * d
        hist = update(s.hist, x_new - s.x, ls.grad - s.g)
        k = s.k + 1
        status = _status(k, s.f, ls.fun, ls.grad, ls.failed, o)
        return _Iter(k, x_new, ls.fun, ls.grad, s.f, hist, s.nfev + ls.nfev, status)

    zero = lax.full((), 0, "int32")
    s = lax.while_loop(cond, body, _Iter(zero, x, f, g, f, hist0, zero + 1, status0))
    success = (s.status == 0) | (s.status == 2)
    hess = s.hist if with_hess else None
    return OptimizeResults(s.x, success, s.status, s.f, s.g, hess, s.nfev, s.nfev, s.k)


def _lbfgs(vg, x, o):
    m, n, dt = o["maxcor"], x.size, x.dtype
    hist0 = (lax.full((m, n), 0, dt), lax.full((m, n), 0, dt), lax.full((m,), 0, dt),
             lax.full((), 0, "int32"), lax.full((), 1, dt))   # S, Y, rho, count, gamma

    def direction(hist, g):
        S, Y, rho, count, gamma = hist

        def back(j, carry):
            q, alphas = carry
            i = (count - 1 - j) % m
            r = lax.select(j < count, rho[i], lax.full_like(gamma, 0))
            a = r * lax.dot(S[i], q)
            return q - a * Y[i], alphas.at[i].set(a)

        q, alphas = lax.fori_loop(0, m, back, (g, lax.full((m,), 0, dt)))
        r0 = gamma * q

        def fwd(j, r):
            jj = m - 1 - j
            i = (count - 1 - jj) % m
            rr = lax.select(jj < count, rho[i], lax.full_like(gamma, 0))
            b = rr * lax.dot(Y[i], r)
            return r + S[i] * (alphas[i] - b)

        return -lax.fori_loop(0, m, fwd, r0)

    def update(hist, s, y):
        S, Y, rho, count, gamma = hist
        sy, yy = lax.dot(s, y), lax.dot(y, y)
        ok = sy > 2.220446049250313e-16 * yy
        slot = count % m
        S2, Y2 = S.at[slot].set(s), Y.at[slot].set(y)
        rho2 = rho.at[slot].set(1 / lax.select(ok, sy, lax.full_like(sy, 1)))
        new = (S2, Y2, rho2, count + 1, sy / lax.select(ok, yy, lax.full_like(yy, 1)))
        return tuple(lax.select(ok if getattr(a, "ndim", 0) == 0 else
                                lax.broadcast(ok, a.shape), a, b) for a, b in zip(new, hist))

    return _run(vg, x, o, hist0, direction, update, with_hess=False)


def _bfgs(vg, x, o):
    n, dt = x.size, x.dtype
    eye = lax.broadcasted_iota(dt, (n, n), 0) == lax.broadcasted_iota(dt, (n, n), 1)
    hist0 = eye.astype(dt)

    def direction(H, g):
        return -lax.dot(H, g)

    def update(H, s, y):
        sy = lax.dot(s, y)
        ok = sy > 2.220446049250313e-16 * lax.dot(y, y)
        rho = 1 / lax.select(ok, sy, lax.full_like(sy, 1))
        Hy = lax.dot(H, y)
        c = rho * rho * lax.dot(y, Hy) + rho
        outer = functools.partial(lax.dot_general, dimension_numbers=(((), ()), ((), ())))
        Hn = H - rho * (outer(s, Hy) + outer(Hy, s)) + c * outer(s, s)
        return lax.select(lax.broadcast(ok, H.shape), Hn, H)

    return _run(vg, x, o, hist0, direction, update, with_hess=True)
