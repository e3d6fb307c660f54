"""A strong-Wolfe line search (bracketing + cubic-interpolation zoom) on ``lax.while_loop``.

One loop iteration evaluates the objective once.  The loop first brackets a step
(Nocedal & Wright, Algorithm 3.5), then zooms inside the bracket (Algorithm 3.6) with
safeguarded cubic interpolation and bisection as the fallback.  When ``maxls``
evaluations pass without a strong-Wolfe step, the lowest point that satisfies the
sufficient-decrease (Armijo) condition is returned instead, if there is one; only when no
such point was seen does the search report failure.
"""

from __future__ import annotations

from typing import NamedTuple

from jax import lax
from laxarray._core.jaxapi import in_wide_mode


class LineSearchResult(NamedTuple):
    """Outcome of :func:`line_search`: the step, the new point's value and gradient."""

    step: object      # accepted step length a (0 when failed)
    fun: object       # f(x + a d)
    grad: object      # grad f(x + a d) (raw, flat)
    nfev: object      # objective evaluations spent
    failed: object    # True when no point with sufficient decrease was found


def _cubic_step(a_lo, f_lo, d_lo, a_hi, f_hi, d_hi):
    """Minimiser of the cubic through two points and slopes, safeguarded to the interval."""
    lo, hi = lax.min(a_lo, a_hi), lax.max(a_lo, a_hi)
    width = hi - lo
    denom = a_lo - a_hi
    safe = lax.select(denom == 0, lax.full_like(denom, 1), denom)
    d1 = d_lo + d_hi - 3 * (f_lo - f_hi) / safe
    disc = d1 * d1 - d_lo * d_hi
    d2 = lax.sign(a_hi - a_lo) * lax.sqrt(lax.max(disc, lax.full_like(disc, 0)))
    den = d_hi - d_lo + 2 * d2
    den_safe = lax.select(den == 0, lax.full_like(den, 1), den)
    a = a_hi - (a_hi - a_lo) * (d_hi + d2 - d1) / den_safe
    ok = ((disc >= 0) & (den != 0) & (a > lo + 0.1 * width) & (a < hi - 0.1 * width)
          & (a == a))
    return lax.select(ok, a, lo + 0.5 * width)


class _State(NamedTuple):
    i: object
    a: object          # trial step to evaluate next
    zoom: object       # in the zoom phase
    lo: tuple          # (a, phi, dphi): previous point while bracketing, low end while zooming
    hi: tuple          # (a, phi, dphi): high end of the bracket while zooming
    done: object
    best: tuple        # (a, phi, grad) lowest point meeting sufficient decrease
    out: tuple         # (a, phi, grad) accepted strong-Wolfe point


@in_wide_mode
def line_search(value_and_grad, x, d, f0, g0, a_init, *, c1=1e-4, c2=0.9, maxls=20,
                amax=1e10):
    """Find a step along a descent direction that satisfies the strong Wolfe conditions.

    SciPy: scipy.optimize.line_search (here on raw flat jax values; the step :func:`minimize`
    takes).

    Parameters
    ----------
    value_and_grad : callable
        ``x -> (f(x), grad f(x))`` on raw flat jax arrays.
    x : jax.Array
        The 1-D start point.
    d : jax.Array
        The search direction; ``g0 . d`` must be negative (a descent direction).
    f0, g0 : jax.Array
        ``f(x)`` (0-d) and ``grad f(x)``.
    a_init : jax.Array
        The first step length tried (0-d).
    c1, c2 : float, optional
        The sufficient-decrease and curvature constants, ``0 < c1 < c2 < 1``; default 1e-4
        and 0.9.
    maxls : int, optional
        The maximum number of evaluations; default 20.
    amax : float, optional
        The largest step; default 1e10.

    Returns
    -------
    LineSearchResult
        A named tuple ``(step, fun, grad, nfev, failed)``: the accepted step (0 when
        failed), ``f`` and ``grad f`` at ``x + step * d``, the evaluations spent, and
        whether no point with sufficient decrease was found.

    Notes
    -----
    Static under ``jax.jit``: ``value_and_grad`` (the numbers may be traced, as :func:`minimize`
    passes them).

    Bracketing, then zooming with safeguarded cubic steps, in one ``lax.while_loop``.
    Nothing is checked: it is the building block of :func:`minimize`.

    Examples
    --------
    >>> import jax
    >>> from laxarray.optimize import line_search
    >>> vg = jax.value_and_grad(lambda x: ((x - 3.0) ** 2).sum())
    >>> x = jax.lax.full((2,), 0.0)
    >>> f0, g0 = vg(x)
    >>> r = line_search(vg, x, -g0, f0, g0, jax.lax.full((), 1.0))
    >>> float(r.step), float(r.fun), bool(r.failed)
    (0.5, 0.0, False)
    """
    dtype = x.dtype
    zero = lax.full((), 0, dtype)
    dphi0 = lax.dot(g0, d)

    def phi(a):
        f, g = value_and_grad(x + a * d)
        return f, g, lax.dot(g, d)

    def cond(s):
        return (s.i < maxls) & ~s.done

    def body(s):
        f, g, dg = phi(s.a)
        armijo_fail = (f > f0 + c1 * s.a * dphi0) | (f != f)
        curv_ok = lax.abs(dg) <= -c2 * dphi0
        a_lo, f_lo, d_lo = s.lo
        a_hi, f_hi, d_hi = s.hi
        not_higher = ~armijo_fail & (f < s.best[1])
        best = _pick(not_higher, (s.a, f, g), s.best)
        cur = (s.a, f, dg)
        # bracketing phase
        b_hi_is_cur = armijo_fail | ((s.i > 0) & (f >= f_lo))
        b_done = ~b_hi_is_cur & curv_ok
        b_swap = ~b_hi_is_cur & ~curv_ok & (dg >= 0)
        b_zoom = b_hi_is_cur | b_swap
        b_lo = _pick(b_hi_is_cur, s.lo, cur)       # swap: lo=cur, hi=prev(lo)
        b_hi = _pick(b_hi_is_cur, cur, s.lo)
        # zoom phase
        z_hi_is_cur = armijo_fail | (f >= f_lo)
        z_done = ~z_hi_is_cur & curv_ok
        z_flip = ~z_hi_is_cur & ~curv_ok & (dg * (a_hi - a_lo) >= 0)
        z_lo = _pick(z_hi_is_cur, s.lo, cur)
        z_hi = _pick(z_hi_is_cur, cur, _pick(z_flip, s.lo, s.hi))
        zoom = s.zoom | b_zoom
        lo = _pick(s.zoom, z_lo, _pick(b_zoom, b_lo, cur))
        hi = _pick(s.zoom, z_hi, _pick(b_zoom, b_hi, s.hi))
        done = lax.select(s.zoom, z_done, b_done)
        a_next = lax.select(zoom, _cubic_step(*lo, *hi), lax.min(2 * s.a, lax.full_like(s.a,
                                                                                   amax)))
        tiny = zoom & (lax.abs(hi[0] - lo[0]) <= 1e-14 * lax.max(lax.abs(lo[0]),
                                                                 lax.full_like(zero, 1e-300)))
        out = _pick(done, (s.a, f, g), s.out)
        return _State(s.i + 1, a_next, zoom, lo, hi, done | tiny, best, out)

    inf = lax.full((), float("inf"), dtype)
    init = _State(lax.full((), 0, "int32"), a_init.astype(dtype), lax.full((), False, bool),
                  (zero, f0, dphi0), (zero, f0, dphi0), lax.full((), False, bool),
                  (zero, inf, g0), (zero, inf, g0))
    s = lax.while_loop(cond, body, init)
    wolfe = s.out[1] < inf
    has_best = s.best[1] < f0
    a, f, g = _pick(wolfe, s.out, s.best)
    failed = ~wolfe & ~has_best
    return LineSearchResult(lax.select(failed, zero, a), lax.select(failed, f0, f),
                            lax.select(lax.broadcast(failed, g0.shape), g0, g), s.i, failed)


def _pick(pred, on_true, on_false):
    """Elementwise ``lax.select`` over matching tuples of scalars/vectors."""
    return tuple(lax.select(pred if getattr(t, "ndim", 0) == 0 else
                            lax.broadcast(pred, t.shape), t, f)
                 for t, f in zip(on_true, on_false))
