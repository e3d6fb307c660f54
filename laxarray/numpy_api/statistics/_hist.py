"""Histograms and binning: histogram, histogram_bin_edges, histogram2d, histogramdd,
bincount, digitize.

Bin edges follow NumPy 2 exactly (its dtype rules and its ``linspace`` arithmetic); every
sample is binned by a binary search on the edges (the result NumPy's fast path corrects
its estimate to), with the last edge inclusive and NaN or out-of-range samples dropped.
``bins`` (an int or a sequence), ``range`` and ``density`` are static under ``jax.jit``;
edges from the data's min/max are computed on device, so the output shapes stay static.
(Eagerly the edges equal NumPy's bit for bit; under an outer ``jax.jit`` XLA may fold the
bin count into a reciprocal and move an interior edge by an ulp.)
Value checks NumPy makes (non-finite autodetected range, non-monotonic bins, negative
``bincount`` input) raise ``ValueError`` eagerly and are not made under tracing.
"""

from __future__ import annotations

import math
import operator

import numpy as np
from jax import lax

from laxarray._core import dtypes as _dt
from laxarray._core.errors import fail, fail_text
from laxarray._core.runtime.host_path import HostPath
from laxarray._core.jaxapi import device_put, is_tracer
from laxarray._core.jax_regions import in_wide_region
from laxarray._core.runtime.kernel import kernel
from laxarray._core.validate import check_bool, check_int
from laxarray.array_api._calls import call
from laxarray.array_api import _host_order
from laxarray.array_api._array import wrap
from laxarray.array_api.searching import searchsorted_kernel
from laxarray.numpy_api.statistics._base import concrete, count_dtype, raw, rounded_mul

__all__ = ["histogram", "histogram_bin_edges", "histogram2d", "histogramdd", "bincount",
           "digitize"]


#: NumPy's string bin estimators (eager only: they make the bin count data-dependent).
_ESTIMATORS = ("auto", "fd", "doane", "scott", "stone", "rice", "sturges", "sqrt")


@kernel(static=("nbins", "lin", "out", "auto"))
def _uniform_edges_kernel(x, lo, hi, nb, *, nbins, lin, out, auto):
    if auto:
        # the extremes of the values converted (conversion keeps their order, so these are
        # the converted extremes): XLA:CPU compiles an integer min/max several times slower
        flat = lax.convert_element_type(lax.reshape(x, (math.prod(x.shape),)), lin)
        lo, hi = lax.reduce_min(flat, (0,)), lax.reduce_max(flat, (0,))
        same = lax.eq(lo, hi)
        half = lax.full_like(lo, 0.5)
        lo, hi = lax.select(same, lax.sub(lo, half), lo), lax.select(same, lax.add(hi, half), hi)
    else:
        lo, hi = lax.convert_element_type(lo, lin), lax.convert_element_type(hi, lin)
    # numpy.linspace(lo, hi, nbins + 1) evaluated in ``lin``, then cast to ``out``
    delta = lax.sub(hi, lo)
    div = lax.convert_element_type(nb, lin)
    # ``nb`` (= nbins) is an operand, not a constant: XLA divides by a constant through its
    # reciprocal, which is not correctly rounded; in float64 and rounded once it is exact
    wide = _dt.on_device(_dt.float64)
    step = lax.convert_element_type(lax.div(lax.convert_element_type(delta, wide),
                                            lax.convert_element_type(nb, wide)), lin)
    y = lax.iota(lin, nbins + 1)
    scaled = lax.select(lax.eq(lax.broadcast(step, (nbins + 1,)), lax.full_like(y, 0)),
                        rounded_mul(lax.div(y, lax.broadcast(div, (nbins + 1,))),
                                    lax.broadcast(delta, (nbins + 1,))),
                        rounded_mul(y, lax.broadcast(step, (nbins + 1,))))
    y = lax.add(scaled, lax.broadcast(lo, (nbins + 1,)))
    y = lax.concatenate([lax.slice(y, (0,), (nbins,)), lax.broadcast(hi, (1,))], 0)
    return lax.convert_element_type(y, out)


def _sample_1d(fn, x, argname):
    if _dt.kind_of(x.dtype) in "bc":
        fail(TypeError, fn, f"a real numeric (not boolean or complex) '{argname}'", x)
    return x


def _range_pair(fn, rng, argname="range"):
    try:
        lo, hi = rng
        lo, hi = float(lo), float(hi)
    except (TypeError, ValueError):
        fail(TypeError, fn, f"a pair of real numbers for '{argname}'", rng)
    if lo > hi:
        fail_text(ValueError, fn, "max must be larger than min in range parameter.")
    if not (math.isfinite(lo) and math.isfinite(hi)):
        fail_text(ValueError, fn, f"supplied range of [{lo}, {hi}] is not finite")
    if lo == hi:
        lo, hi = lo - 0.5, hi + 0.5
    return lo, hi


def _uniform_edges(fn, x, nbins, rng, *, numpy_histogram):
    """Edges of ``nbins`` equal bins over ``rng`` or the data's [min, max]."""
    xf = _dt.kind_of(x.dtype) == "f"
    bin_dtype = x.dtype if xf else _dt.on_device(_dt.float64)
    auto = rng is None and math.prod(x.shape) > 0
    if rng is not None:
        lo, hi = _range_pair(fn, rng)
        lin = _dt.on_device(_dt.float64)
    elif not auto:
        lo, hi, lin = 0.0, 1.0, _dt.on_device(_dt.float64)
    else:
        lo = hi = 0.0
        lin = x.dtype if xf else _dt.on_device(_dt.float64)
    out = bin_dtype if numpy_histogram else lin
    wide = _dt.on_device(_dt.float64).type     # (no float64 in a TPU program)
    edges = call(_uniform_edges_kernel, x, wide(lo), wide(hi), wide(nbins), nbins=nbins,
                 lin=lin, out=out, auto=auto)
    host = concrete(edges._value)
    if host is not None:
        if not np.isfinite(host).all():
            fail_text(ValueError, fn, f"autodetected range of [{host[0]}, {host[-1]}] is not "
                      "finite")
        if numpy_histogram and (host[:-1] >= host[1:]).any():
            fail_text(ValueError, fn, f"Too many bins for data range. Cannot create {nbins} "
                      "finite-sized bins.")
    return edges._value


def _edges_for(fn, x, bins, rng, *, numpy_histogram, argname="bins"):
    """``(raw edges, uniform)`` for one dimension from an int ``bins`` or a 1-D sequence of
    edges; ``uniform``: the edges are equally spaced (``bins`` was a count), so a value's
    bin is computed arithmetically (:func:`_uniform_bin`) instead of by binary search."""
    if isinstance(bins, str):
        if not numpy_histogram:
            fail(TypeError, fn, f"an int or a sequence for '{argname}'", bins)
        host = concrete(x)
        if host is None:
            fail(ValueError, fn, f"an int or a sequence for '{argname}' under jax.jit (the "
                 f"estimator {bins!r} makes the number of bins depend on the data)", bins)
        if bins not in _ESTIMATORS:
            fail(ValueError, fn, f"a valid estimator for '{argname}' {_ESTIMATORS}", bins)
        # the number of bins depends on the data: NumPy's estimator on the host values
        return device_put(np.histogram_bin_edges(host, bins=bins, range=rng)), False
    if np.ndim(bins) == 0 and not hasattr(bins, "shape") or getattr(bins, "ndim", 1) == 0:
        if isinstance(bins, (bool, np.bool_)):
            fail(TypeError, fn, f"an integer '{argname}'", bins)
        try:
            n = operator.index(bins) if not hasattr(bins, "shape") else int(
                operator.index(concrete(raw(fn, bins, argname)).item()))
        except (TypeError, AttributeError):
            fail(TypeError, fn, f"'{argname}' to be an integer, a string, or an array", bins)
        if n < 1:
            fail(ValueError, fn, f"a positive integer '{argname}'", bins)
        return _uniform_edges(fn, x, n, rng, numpy_histogram=numpy_histogram), True
    e = raw(fn, bins, argname)
    if e.ndim != 1:
        fail(ValueError, fn, f"a 1-D '{argname}' when it is an array", bins)
    if _dt.kind_of(e.dtype) == "c":
        fail(TypeError, fn, f"real '{argname}'", bins)
    host = concrete(e)
    if host is not None and (host[:-1] > host[1:]).any():
        fail_text(ValueError, fn, f"`{argname}` must increase monotonically, when an array")
    return e, False


def _uniform_bin(e, v):
    """``searchsorted(e, v, right=True)`` for equally spaced edges ``e`` (two or more) without
    a binary search: NumPy's estimate ``(v - e[0]) * bins / (e[-1] - e[0])`` corrected by one
    either way against the edges themselves.  Values outside ``[e[0], e[-1]]`` (and NaN) get 0
    or ``len(e)``; ``e[-1]`` itself gets ``len(e)`` as the binary search gives."""
    m = e.shape[0]
    n = v.shape[0]
    lo, hi = lax.index_in_dim(e, 0, 0, False), lax.index_in_dim(e, m - 1, 0, False)
    f = lax.mul(lax.sub(v, lax.broadcast(lo, (n,))),
                lax.broadcast(lax.div(lax.full((), m - 1, e.dtype), lax.sub(hi, lo)), (n,)))
    inside = lax.bitwise_and(lax.ge(v, lax.broadcast(lo, (n,))),
                             lax.le(v, lax.broadcast(hi, (n,))))
    f = lax.select(inside, f, lax.full_like(f, 0))
    k = lax.clamp(_dt.default_index().type(0), lax.convert_element_type(f, _dt.default_index()), _dt.default_index().type(m - 2))

    def edge(i):
        return lax.gather(e, lax.expand_dims(i, (1,)), lax.GatherDimensionNumbers(
            offset_dims=(), collapsed_slice_dims=(0,), start_index_map=(0,)), (1,),
            mode=lax.GatherScatterMode.PROMISE_IN_BOUNDS)
    k = lax.sub(k, lax.convert_element_type(lax.lt(v, edge(k)), _dt.default_index()))
    up = lax.bitwise_and(lax.ge(v, edge(lax.add(k, lax.full_like(k, 1)))),
                         lax.ne(k, lax.full_like(k, m - 2)))
    k = lax.add(k, lax.convert_element_type(up, _dt.default_index()))
    below = lax.lt(v, lax.broadcast(lo, (n,)))
    c = lax.select(inside, lax.add(k, lax.full_like(k, 1)),
                   lax.select(below, lax.full_like(k, 0), lax.full_like(k, m)))
    return lax.convert_element_type(c, count_dtype())


@kernel(static=("out_dtype", "density", "uniform"))
def _bin_count_kernel(sample, weights, *edges, out_dtype, density, uniform=()):
    """Counts (or weight sums) of the (N, D) ``sample`` in the grid of ``edges``
    (``uniform[i]``: the edges of dimension ``i`` are equally spaced)."""
    n = sample.shape[0]
    flat = lax.full((n,), 0, count_dtype())
    nbin = []
    for i, e in enumerate(edges):
        v = lax.index_in_dim(sample, i, 1, keepdims=False)
        ct = _dt.promote_types(v.dtype, e.dtype)
        v, e = lax.convert_element_type(v, ct), lax.convert_element_type(e, ct)
        m = e.shape[0]
        if i < len(uniform) and uniform[i] and m >= 2 and n:
            flat = lax.add(lax.mul(flat, lax.full_like(flat, m + 1)), _uniform_bin(e, v))
            nbin.append(m + 1)
            continue
        c = searchsorted_kernel(e, v, None, right=True)
        if m:
            on_edge = lax.eq(v, lax.broadcast(lax.index_in_dim(e, m - 1, 0, False), (n,)))
            c = lax.sub(c, lax.convert_element_type(on_edge, count_dtype()))
        flat = lax.add(lax.mul(flat, lax.full_like(flat, m + 1)), c)
        nbin.append(m + 1)
    total = math.prod(nbin)
    w = lax.full((n,), 1, out_dtype) if weights is None else \
        lax.convert_element_type(weights, out_dtype)
    hist = _add_at(lax.full((total,), 0, out_dtype), flat, w)
    hist = lax.reshape(hist, tuple(nbin))
    hist = lax.slice(hist, (1,) * len(nbin), tuple(b - 1 for b in nbin))
    if density:
        fdt = _dt.promote_types(out_dtype, np.float64)
        hist = lax.convert_element_type(hist, fdt)
        s = lax.reduce_sum(hist, tuple(range(hist.ndim)))
        for i, e in enumerate(edges):
            m = e.shape[0]
            de = lax.sub(lax.slice(e, (1,), (m,)), lax.slice(e, (0,), (m - 1,)))
            shape = [1] * len(edges)
            shape[i] = m - 1
            de = lax.convert_element_type(lax.reshape(de, tuple(shape)),
                                          _dt.promote_types(de.dtype, fdt))
            hist = lax.div(hist, lax.broadcast_in_dim(de, hist.shape, tuple(range(hist.ndim))))
        hist = lax.div(hist, lax.full_like(hist, 0) + s) if hist.ndim else lax.div(hist, s)
    return hist


def _weights(fn, weights, n):
    if weights is None:
        return None
    w = raw(fn, weights, "weights")
    if math.prod(w.shape) != n:
        fail(ValueError, fn, f"'weights' with the shape of the sample ({n} values)", weights)
    return lax.reshape(w, (n,))


@in_wide_region
def histogram(a, bins=10, range=None, density=None, weights=None):
    """Compute the histogram of the data: counts (or weight sums) per bin, and the bin edges.

    Array API: (not in the standard). NumPy: numpy.histogram.

    Parameters
    ----------
    a : array_like
        The data; flattened.
    bins : int, sequence of scalars or str, optional
        A number of equal-width bins (default 10); a monotonically increasing sequence of
        edges; or, eagerly only, one of NumPy's estimator names (``'auto'``, ``'fd'``,
        ``'sturges'`` ...).
    range : (float, float), optional
        The lower and upper edge of equal-width bins; default the data's minimum and
        maximum. Values outside it are not counted.
    density : bool, optional
        Return the probability density (each count divided by the total and the bin width)
        instead of counts.
    weights : array_like, optional
        One weight per value of ``a``, summed instead of counting 1.

    Returns
    -------
    hist : Array
        The counts: int64, the weights' dtype with ``weights``, or float64 with
        ``density=True``.
    bin_edges : Array
        The ``len(hist) + 1`` edges.

    Raises
    ------
    TypeError
        If ``a`` or ``weights`` is not array_like.
    ValueError
        If ``bins`` is not positive, the edges do not increase, ``range`` is invalid,
        ``weights`` does not match ``a``, or (under ``jax.jit``) ``bins`` is an estimator
        name.

    Notes
    -----
    Static under ``jax.jit``: ``bins``, ``range``, ``density``.

    The last bin includes its right edge, as NumPy's.  An estimator name makes the number of
    bins depend on the data, so it is refused under ``jax.jit``.

    Examples
    --------
    >>> import laxarray as la
    >>> la.histogram(la.asarray([1, 2, 1]), bins=[0, 1, 2, 3])
    (Array([0, 2, 1]), Array([0, 1, 2, 3]))
    >>> la.histogram(la.asarray([1.0, 2.0, 1.0, 4.0]), bins=3)
    (Array([2, 1, 1]), Array([1., 2., 3., 4.]))
    >>> la.histogram(la.asarray([1.0, 2.0, 1.0]), bins=2, density=True)[0]
    Array([1.33333333, 0.66666667])
    """
    x = _sample_1d("histogram", raw("histogram", a, "a"), "a")
    x = lax.reshape(x, (math.prod(x.shape),))
    if isinstance(bins, str) and weights is not None:
        fail_text(TypeError, "histogram", "Automated estimation of the number of bins is not "
                  "supported for weighted data")
    edges, uniform = _edges_for("histogram", x, bins, range, numpy_histogram=True)
    w = _weights("histogram", weights, x.shape[0])
    out_dtype = np.dtype(count_dtype()) if w is None else w.dtype
    if w is not None and _dt.kind_of(w.dtype) == "b":
        out_dtype = np.dtype(count_dtype())
    density = bool(density)
    sample = lax.reshape(x, (x.shape[0], 1))
    hist = call(_bin_count_kernel, sample, w, edges, out_dtype=out_dtype, density=density,
                uniform=(uniform,))
    return hist, wrap(edges)


@in_wide_region
def histogram_bin_edges(a, bins=10, range=None, weights=None):
    """The bin edges :func:`histogram` would use. NumPy: numpy.histogram_bin_edges."""
    x = _sample_1d("histogram_bin_edges", raw("histogram_bin_edges", a, "a"), "a")
    x = lax.reshape(x, (math.prod(x.shape),))
    if weights is not None:
        _weights("histogram_bin_edges", weights, x.shape[0])
    return wrap(_edges_for("histogram_bin_edges", x, bins, range, numpy_histogram=True)[0])


def _dd_sample(fn, sample):
    if isinstance(sample, (list, tuple)):
        cols = [raw(fn, s, "sample") for s in sample]
        if not cols:
            fail(ValueError, fn, "at least one coordinate array in 'sample'", sample)
        dt = _dt.result_type(*[c.dtype for c in cols])
        cols = [lax.reshape(lax.convert_element_type(c, dt), (math.prod(c.shape),))
                for c in cols]
        if len({c.shape for c in cols}) != 1:
            fail(ValueError, fn, "coordinate arrays of one length in 'sample'", sample)
        s = lax.concatenate([lax.expand_dims(c, (1,)) for c in cols], 1)
    else:
        s = raw(fn, sample, "sample")
        if s.ndim == 1:
            s = lax.expand_dims(s, (1,))
        elif s.ndim != 2:
            fail(ValueError, fn, "an (N, D) array or a sequence of D arrays for 'sample'",
                 sample)
    if _dt.kind_of(s.dtype) in "bc":
        fail(TypeError, fn, "a real numeric (not boolean or complex) 'sample'", sample)
    return s


@in_wide_region
def histogramdd(sample, bins=10, range=None, density=None, weights=None):
    """D-dimensional histogram of an (N, D) sample (or a sequence of D arrays).
    NumPy: numpy.histogramdd. Returns ``(hist, edges)``; ``hist`` is float64 as in NumPy.

    ``bins`` (an int, a sequence of ints/edge arrays), ``range`` and ``density`` are
    static under ``jax.jit``."""
    s = _dd_sample("histogramdd", sample)
    n, d = s.shape
    if isinstance(bins, (list, tuple)) or (hasattr(bins, "ndim") and bins.ndim >= 1):
        if len(bins) != d:
            fail_text(ValueError, "histogramdd", "The dimension of bins must be equal to the "
                      "dimension of the sample x.")
        per_dim = list(bins)
    else:
        per_dim = [bins] * d
    if range is None:
        rngs = [None] * d
    else:
        if len(range) != d:
            fail_text(ValueError, "histogramdd", "range argument must have one entry per "
                      "dimension")
        rngs = list(range)
    edges, uniform = zip(*[_edges_for("histogramdd", lax.index_in_dim(s, i, 1, keepdims=False),
                                      per_dim[i], rngs[i], numpy_histogram=False,
                                      argname=f"bins[{i}]") for i in builtins_range(d)])
    w = _weights("histogramdd", weights, n)
    if w is not None and _dt.kind_of(w.dtype) == "c":
        fail(TypeError, "histogramdd", "real 'weights'", weights)
    hist = call(_bin_count_kernel, s, w, *edges, out_dtype=_dt.on_device(_dt.float64),
                density=bool(density), uniform=uniform)
    return hist, tuple(wrap(e) for e in edges)


builtins_range = range


@in_wide_region
def histogram2d(x, y, bins=10, range=None, density=None, weights=None):
    """2-D histogram of points ``(x, y)``. NumPy: numpy.histogram2d.

    Returns ``(hist, xedges, yedges)``; static arguments as :func:`histogramdd`."""
    try:
        nb = len(bins)
    except TypeError:
        nb = 1
    if nb not in (1, 2):
        bins = [bins, bins]
    hist, edges = histogramdd([x, y], bins, range, density, weights)
    return hist, edges[0], edges[1]


_BINS = lax.ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,),
                                    scatter_dims_to_operand_dims=(0,))


def _add_at(bins, idx, updates=None, mode=lax.GatherScatterMode.FILL_OR_DROP):
    """``bins`` with ``updates`` (default: ones of ``bins``' dtype) added at the 1-D bin
    indices ``idx`` (by default out-of-range indices are dropped)."""
    if updates is None:
        updates = lax.full(idx.shape, 1, bins.dtype)
    return lax.scatter_add(bins, lax.expand_dims(idx, (1,)), updates, _BINS, mode=mode)


def _bincount_host(x, w, *, length, minlength, weighted):
    """NumPy's own bincount on the host view of ``x`` (no copy, no kernel): it finds the
    negatives and the length in its one pass over ``x``."""
    weights = w if weighted else None
    if length is not None and x.size and x.max() >= length:
        keep = x < length
        x, weights = x[keep], (None if weights is None else weights[keep])
    try:    # (on a writable alias: NumPy's bincount copies a read-only x first)
        out = np.bincount(_host_order.writable_alias(x), weights=weights,
                          minlength=minlength if length is None else length)
    except ValueError:
        fail_text(ValueError, "bincount", "'x' must not contain negative values")
    # (NumPy gives int64 for an empty x even with weights: float64 sums here, always)
    return out.astype(np.float64 if weighted else _dt.default_index(), copy=False)


def _bincount_statics(args, static):
    """The statics of the XLA kernel where the host path declines: the length from the
    data where none is given (eagerly), after the check for negative values."""
    x, length = args[0], static["length"]
    if not is_tracer(x):
        host = np.asarray(x)
        if host.size and host.min() < 0:
            fail_text(ValueError, "bincount", "'x' must not contain negative values")
        if length is None:
            length = builtins_max(int(host.max()) + 1 if host.size else 0,
                                  static["minlength"])
    return dict(static, length=length, minlength=0)


_BINCOUNT_HOST = HostPath(
    functions=("bincount",), eager=_bincount_host, fill=_bincount_statics,
    grad="none (integer input)",
    reason="NumPy's bincount is twice as fast as XLA's scatter-add, the same sums, and "
           "finds the length in its one pass")


@kernel(static=("length", "minlength", "weighted"), host=_BINCOUNT_HOST)
def _bincount_kernel(x, w, *, length, minlength, weighted):
    x = lax.convert_element_type(x, count_dtype())
    narrow = not weighted and _NARROW_FROM <= x.shape[0] < 2 ** 31 and length < 2 ** 31
    if narrow and _tuple_width(length) > 1:
        return lax.convert_element_type(_bincount_tuples(x, length), count_dtype())
    if narrow:
        # int32 bins and counts (exact: no count reaches 2**31), indices clamped to just
        # outside [0, length) first so the narrowing drops, not wraps: XLA:CPU's scatter
        # runs 1.4x faster (1e7 values into 1e6 bins: 85 -> 59 ms), never slower
        idx = lax.convert_element_type(
            lax.clamp(lax.full((), -1, count_dtype()), x, lax.full((), length, count_dtype())),
            np.int32)
        return lax.convert_element_type(_add_at(lax.full((length,), 0, np.int32), idx),
                                        count_dtype())
    if weighted:
        return _add_at(lax.full((length,), 0, _dt.on_device(_dt.float64)), x,
                       lax.convert_element_type(w, _dt.on_device(_dt.float64)))
    return _add_at(lax.full((length,), 0, count_dtype()), x)


#: From this many values on, the unweighted ``bincount`` kernel narrows what it scatters
#: (int32 bins, or for few bins runs of values coded in 16 bits, :func:`_bincount_tuples`).
#: Those programs compile 10-40 ms longer, which one call on 10**6 values (1.5 ms faster)
#: or 10**7 (35 ms) repays; below, a call costs about a millisecond, and the plain int64
#: scatter compiles fastest.
_NARROW_FROM = 1 << 18


def _tuple_width(length):
    """How many values :func:`_bincount_tuples` codes into one bin index for ``length``
    bins: the most (up to 4; each one more lengthens the compile) whose
    ``(length + 1)``-ary code fits 16 bits."""
    k = 1
    while k < 4 and (length + 1) ** (k + 1) <= 1 << 16:
        k += 1
    return k


def _bincount_tuples(x, length):
    """Unweighted int32 counts of the values of ``x`` in ``[0, length)``, for few bins.

    XLA:CPU's scatter-add costs about 4 ns per update, and its operands live in one
    temporary buffer per call: 1e7 int32 bin indices are 40 MB, freshly mapped (so page
    faulted) on every call.  Here each run of ``k`` consecutive values becomes one 16-bit
    code (its digits in base ``length + 1``, the digit ``length`` standing for a value out
    of range), so the scatter makes ``n / k`` updates into ``(length + 1) ** k`` bins from
    a buffer 4k times smaller; the count of ``v`` is then the sum, over the ``k`` digit
    positions, of the bins whose digit there is ``v``.  Measured on 1e7 int64 values: 6
    bins 46 -> 8 ms, 200 bins 44 -> 11 ms (NumPy: 11-12 ms)."""
    n = x.shape[0]
    base = length + 1
    k = _tuple_width(length)
    out_of_range = lax.bitwise_or(lax.lt(x, lax.full((), 0, x.dtype)),
                                  lax.ge(x, lax.full((), length, x.dtype)))
    digits = lax.convert_element_type(
        lax.select(out_of_range, lax.full(x.shape, length, x.dtype), x), np.uint16)
    def add(counts, idx):      # every idx is in range by construction
        return _add_at(counts, idx, mode=lax.GatherScatterMode.PROMISE_IN_BOUNDS)
    m = (n // k) * k
    rows = lax.reshape(lax.slice(digits, (0,), (m,)), (m // k, k))
    code = lax.index_in_dim(rows, 0, 1, False)
    for j in range(1, k):
        code = lax.add(code, lax.mul(lax.index_in_dim(rows, j, 1, False),
                                     lax.full((), base ** j, np.uint16)))
    tuples = lax.reshape(add(lax.full((base ** k,), 0, np.int32), code), (base,) * k)
    counts = lax.full((base,), 0, np.int32)
    for j in range(k):
        counts = lax.add(counts, lax.reduce_sum(tuples, tuple(i for i in range(k) if i != j)))
    if m < n:
        counts = add(counts, lax.slice(digits, (m,), (n,)))
    return lax.slice(counts, (0,), (length,))


@in_wide_region
def bincount(x, weights=None, minlength=0, *, length=None):
    """Count the occurrences of each value in an array of non-negative integers.

    Array API: (not in the standard). NumPy: numpy.bincount.

    Parameters
    ----------
    x : array_like
        A 1-D array of a non-negative integer (or bool) dtype.
    weights : array_like, optional
        One weight per value of ``x``, summed instead of counting 1.
    minlength : int, optional
        The least length of the result; default 0.
    length : int, optional
        The exact length of the result (jax.numpy's argument), required under ``jax.jit``;
        values outside ``[0, length)`` are dropped.

    Returns
    -------
    Array
        ``out[i]`` is the number of times (or the weight sum where) ``x == i``: int64
        counts, float64 sums with ``weights``; of length ``max(x.max() + 1, minlength)`` or
        ``length``.

    Raises
    ------
    TypeError
        If ``x`` is not of an integer or bool dtype.
    ValueError
        If ``x`` is not 1-D, ``weights`` does not match it, eagerly a value is negative, or
        under ``jax.jit`` ``length`` is missing.

    Notes
    -----
    Static under ``jax.jit``: ``minlength``, ``length``.

    Eagerly on the CPU it takes the CPU host path (NumPy's bincount, no kernel).

    Examples
    --------
    >>> import laxarray as la
    >>> la.bincount(la.asarray([0, 1, 1, 3]))
    Array([1, 2, 0, 1])
    >>> la.bincount(la.asarray([0, 1, 1, 3]), weights=la.asarray([0.5, 1.0, 1.0, 2.0]))
    Array([0.5, 2. , 0. , 2. ])
    >>> la.bincount(la.asarray([0, 1, 1, 3]), minlength=6)
    Array([1, 2, 0, 1, 0, 0])
    """
    xr = raw("bincount", x, "x")
    if _dt.kind_of(xr.dtype) not in "biu":
        fail(TypeError, "bincount", "an integer (or boolean) array for 'x'", x)
    if xr.ndim != 1:
        fail(ValueError, "bincount", "a 1-D array for 'x'", x)
    minlength = check_int("bincount", minlength, "minlength", minimum=0)
    w = None
    if weights is not None:
        w = raw("bincount", weights, "weights")
        if _dt.kind_of(w.dtype) == "c":
            fail(TypeError, "bincount", "real 'weights'", weights)
        if tuple(w.shape) != tuple(xr.shape):
            fail(ValueError, "bincount", "'weights' of the shape of 'x'", weights)
    if length is not None:
        length = check_int("bincount", length, "length", minimum=0)
    elif concrete(xr) is None:
        fail(ValueError, "bincount", "a static 'length=' under jax.jit (the largest value "
             "decides the output length)", length)
    return call(_bincount_kernel, xr, w if w is not None else xr, length=length,
                minlength=minlength, weighted=w is not None)


builtins_max = max


@kernel(static=("right", "mode"))
def _digitize_kernel(x, bins, *, right, mode):
    n = bins.shape[0]
    flat = lax.reshape(x, (math.prod(x.shape),))
    if n == 0:
        return lax.full(x.shape, 0, count_dtype())
    inc = searchsorted_kernel(bins, flat, None, right=not right)
    rev = lax.rev(bins, (0,))
    dec = lax.sub(lax.full_like(inc, n), searchsorted_kernel(rev, flat, None, right=not right))
    if mode == "inc":
        out = inc
    elif mode == "dec":
        out = dec
    else:
        up = lax.ge(lax.index_in_dim(bins, n - 1, 0, False), lax.index_in_dim(bins, 0, 0, False))
        out = lax.select(lax.broadcast(up, inc.shape), inc, dec)
    return lax.reshape(out, x.shape)


@in_wide_region
def digitize(x, bins, right=False):
    """Return the index of the bin each value falls in.

    Array API: (not in the standard). NumPy: numpy.digitize.

    Parameters
    ----------
    x : array_like
        The values.
    bins : array_like
        A 1-D array of bin edges, increasing or decreasing.
    right : bool, optional
        Whether a bin includes its right edge instead of its left one; default False.

    Returns
    -------
    Array
        The int64 indices ``i`` with ``bins[i-1] <= x < bins[i]`` (increasing bins,
        ``right`` False), of ``x``'s shape; 0 or ``len(bins)`` beyond the ends.

    Raises
    ------
    TypeError
        If an operand is not array_like.
    ValueError
        If ``bins`` is not 1-D, or (eagerly) is not monotonic.

    Notes
    -----
    Static under ``jax.jit``: ``right``.

    Under ``jax.jit`` the direction is taken from ``bins[-1] >= bins[0]`` and monotonicity
    is not checked.

    Examples
    --------
    >>> import laxarray as la
    >>> la.digitize(la.asarray([0.2, 6.4, 3.0, 1.6]), la.asarray([0.0, 1.0, 2.5, 4.0, 10.0]))
    Array([1, 4, 3, 2])
    >>> la.digitize(la.asarray([1.0, 2.0]), la.asarray([1.0, 2.0]), right=True)
    Array([0, 1])
    """
    xr = raw("digitize", x, "x")
    br = raw("digitize", bins, "bins")
    check_bool("digitize", bool(right) if isinstance(right, (np.bool_, int)) else right,
               "right")
    if _dt.kind_of(xr.dtype) == "c" or _dt.kind_of(br.dtype) == "c":
        fail(TypeError, "digitize", "real 'x' and 'bins' (x may not be complex)", x)
    if br.ndim != 1:
        fail(ValueError, "digitize", "a 1-D array for 'bins'", bins)
    ct = _dt.promote_types(xr.dtype, br.dtype)
    xr, br = lax.convert_element_type(xr, ct), lax.convert_element_type(br, ct)
    mode = "auto"
    host = concrete(br)
    if host is not None:
        if (host[1:] >= host[:-1]).all():
            mode = "inc"
        elif (host[1:] <= host[:-1]).all():
            mode = "dec"
        else:
            fail_text(ValueError, "digitize", "bins must be monotonically increasing or "
                      "decreasing")
    return call(_digitize_kernel, xr, br, right=bool(right), mode=mode)

