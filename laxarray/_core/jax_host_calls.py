"""Host calls: NumPy run from inside a jax program (``host_call``), with fewer copies than
``jax.pure_callback``, 64-bit values carried as 32-bit words where a 32-bit program holds
them, batching and lowering rules of its own (``array_api._host_order``, the host paths,
sparsify).
"""

from __future__ import annotations

import jax
import numpy as np

from laxarray._core.jaxapi import (ConcreteArray, Primitive, _jbatching, _jcore, _jmlir,
                                   device_put, wide)

# --- host calls (laxarray.array_api._host_order) ----------------------------------------------

_host_call_p = Primitive("host_callback")
_host_call_p.multiple_results = True
host_call_p = _host_call_p  # for jaxpr interpreters that tell a host call apart (sparsify)


def host_call(fn, results, *args, vmap_method="broadcast_all"):
    """``fn(*args)`` run by NumPy on the host, inside or outside a trace: what
    ``jax.pure_callback`` does, with one copy of each operand less.

    ``fn`` takes NumPy arrays and returns one of the shape and dtype of ``results`` (a
    ``jax.ShapeDtypeStruct``), or a tuple of them for a tuple of those -- and ``host_call``
    returns the same structure, as ``jax.pure_callback`` does.  ``vmap_method`` is
    ``jax.pure_callback``'s: ``"broadcast_all"`` (``fn`` takes the batch as a leading axis
    of every operand) or ``"sequential"`` (one call per batch element).

    Why not ``jax.pure_callback``: jaxlib hands a callback its operands already copied
    out of XLA's buffers, and ``pure_callback`` then ``device_put``s each one into a fresh
    jax array -- a second copy, 50 ms per 80 MB measured on CPU.  This primitive lowers
    to the same host call and gives ``fn`` jaxlib's NumPy arrays as they come.  In a
    program that XLA partitions over several devices it lowers through
    ``jax.pure_callback`` itself (which places the call on one device).  No derivative
    rule: callers differentiate around it (``stop_gradient``, ``custom_jvp``)."""
    if type(results) is not tuple:
        return host_call(lambda *a: (fn(*a),), (results,), *args, vmap_method=vmap_method)[0]
    avals = tuple(_jcore.ShapedArray(r.shape, np.dtype(r.dtype)) for r in results)
    return tuple(_host_call_p.bind(*args, fn=fn, avals=avals, vmap_method=vmap_method))


def _host_call_run(fn, args, avals):
    outs = fn(*(np.asarray(a) for a in args))
    if len(outs) != len(avals):
        raise RuntimeError(f"host_call: {fn} returned {len(outs)} results, not {len(avals)}")
    outs = [np.asarray(o) for o in outs]
    for o, aval in zip(outs, avals):
        if o.shape != aval.shape or o.dtype != aval.dtype:
            raise RuntimeError(f"host_call: {fn} returned {o.dtype}{list(o.shape)}, "
                               f"not {aval.dtype}{list(aval.shape)}")
    return outs


def _host_call_impl(*args, fn, avals, vmap_method):
    del vmap_method
    outs = _host_call_run(fn, args, avals)
    # placed like the inputs: committed to the device of a committed one, else uncommitted
    # on the default device, where uncommitted inputs live (a committed result would make
    # every later kernel call on it a call the executable store does not keep)
    devices = [next(iter(a.sharding.device_set)) for a in args
               if isinstance(a, ConcreteArray) and a.committed
               and len(a.sharding.device_set) == 1]
    return [device_put(o, devices[0] if devices else None) for o in outs]


# A host call's 64-bit values cross between the program and the host as 32-bit words: jax
# converts what a callback returns to the dtypes of the mode in force in the thread that
# runs the program (``jax.pure_callback`` its operands too), and a user's program runs in the
# user's mode, 32-bit by default, where float64 would arrive as float32.  uint32 is the same
# in every mode; the program bitcasts the words back (free: the bits do not move).

_U32 = np.dtype(np.uint32)


#: the dtypes jax's 32-bit mode would narrow (complex128's two parts are float64 each)
_NARROWED = frozenset(map(np.dtype, ("int64", "uint64", "float64", "complex128")))


def _wire_aval(aval):
    """The aval ``aval``'s values cross as: uint32 words for a dtype 32-bit mode narrows."""
    dtype = np.dtype(aval.dtype)
    if dtype not in _NARROWED:
        return aval
    return _jcore.ShapedArray((*aval.shape, dtype.itemsize // 4), _U32)


def _to_wire_host(value, aval):
    """The NumPy ``value`` (of ``aval``) as the words :func:`_wire_aval` says (a view)."""
    wire = _wire_aval(aval)
    if wire is aval:
        return value
    return np.ascontiguousarray(value).view(_U32).reshape(wire.shape)


def _from_wire_host(value, aval):
    value = np.asarray(value)
    if _wire_aval(aval) is aval:
        return value
    return np.ascontiguousarray(value).view(np.dtype(aval.dtype)).reshape(aval.shape)


def _to_wire(x, aval):
    """The traced ``x`` (of ``aval``) as its words, in the program."""
    dtype = np.dtype(aval.dtype)
    if _wire_aval(aval) is aval:
        return x
    if dtype.kind == "c":   # (no bitcast of complex values: their two parts, then words)
        parts = jax.lax.concatenate([jax.lax.expand_dims(jax.lax.real(x), (-1,)),
                                     jax.lax.expand_dims(jax.lax.imag(x), (-1,))], x.ndim)
        words = jax.lax.bitcast_convert_type(parts, _U32)    # (..., 2 parts, 2 words)
        return jax.lax.reshape(words, (*aval.shape, 4))
    return jax.lax.bitcast_convert_type(x, _U32)


def _from_wire(w, aval):
    dtype = np.dtype(aval.dtype)
    if _wire_aval(aval) is aval:
        return w
    if dtype.kind == "c":
        parts = jax.lax.bitcast_convert_type(jax.lax.reshape(w, (*aval.shape, 2, 2)),
                                             np.dtype(np.float64))
        n = len(aval.shape)
        return jax.lax.complex(jax.lax.index_in_dim(parts, 0, n, keepdims=False),
                               jax.lax.index_in_dim(parts, 1, n, keepdims=False))
    return jax.lax.bitcast_convert_type(w, dtype)


def _host_call_lowering(ctx, *args, fn, avals, vmap_method):
    with wide():   # (what lower_fun traces here keeps its float64: see wide)
        return _host_call_lowering_wide(ctx, *args, fn=fn, avals=avals,
                                        vmap_method=vmap_method)


def _host_call_lowering_wide(ctx, *args, fn, avals, vmap_method):
    if any(0 in a.shape for a in (*ctx.avals_in, *avals)):
        return _jmlir.lower_fun(_without_empty(fn, ctx.avals_in, avals, vmap_method),
                                multiple_results=True)(ctx, *args)
    wires = [_wire_aval(a) for a in avals]
    if _one_device(ctx):
        def call(*xs):
            return tuple(_to_wire_host(o, a)
                         for o, a in zip(_host_call_run(fn, xs, avals), avals))
        outs, _, _ = _jmlir.emit_python_callback(
            ctx.replace(avals_out=wires), call, None, list(args), ctx.avals_in, wires,
            has_side_effect=False, returns_token=False)
        if all(w is a for w, a in zip(wires, avals)):
            return outs

        def decode(*ws):
            return [_from_wire(w, a) for w, a in zip(ws, avals)]
        return _jmlir.lower_fun(decode, multiple_results=True)(
            ctx.replace(avals_in=wires, avals_out=list(avals)), *outs)

    avals_in = list(ctx.avals_in)

    def through_jax(*xs):
        shapes = tuple(jax.ShapeDtypeStruct(w.shape, w.dtype) for w in wires)

        def run(*ys):
            ys = [_from_wire_host(y, a) for y, a in zip(ys, avals_in)]
            return tuple(_to_wire_host(o, a)
                         for o, a in zip(_host_call_run(fn, ys, avals), avals))
        outs = jax.pure_callback(run, shapes, *(_to_wire(x, a) for x, a in zip(xs, avals_in)),
                                 vmap_method=vmap_method)
        return [_from_wire(w, a) for w, a in zip(outs, avals)]
    return _jmlir.lower_fun(through_jax, multiple_results=True)(ctx, *args)


def _without_empty(fn, avals_in, avals, vmap_method):
    """A host call with its empty operands and results taken out of the program: an empty
    operand is handed to ``fn`` as an empty NumPy array made on the host, an empty result
    is a constant, and with no result left no call is made.  (On a TPU a host call that
    moves a zero-byte buffer aborts the process, asynchronously, in libtpu's host-command
    dispatcher: "HostCommand byte_offset -1 is not aligned to 512", ``linalg.eig`` of a
    0x0 matrix on the chip; the rule holds on every backend.)"""
    empty_in = [0 in a.shape for a in avals_in]
    empty_out = [0 in a.shape for a in avals]
    blanks = [(i, np.empty(a.shape, a.dtype)) for i, (a, e) in enumerate(zip(avals_in, empty_in))
              if e]
    wanted = tuple(a for a, e in zip(avals, empty_out) if not e)

    def inner(*kept):
        full = list(kept)
        for i, blank in blanks:          # ascending positions: each insert lands in place
            full.insert(i, blank)
        outs = fn(*full)
        return tuple(o for o, e in zip(outs, empty_out) if not e)

    def body(*xs):
        kept = [x for x, e in zip(xs, empty_in) if not e]
        got = iter(_host_call_p.bind(*kept, fn=inner, avals=wanted, vmap_method=vmap_method)
                   if wanted else ())
        return [jax.lax.full(a.shape, 0, a.dtype) if e else next(got)
                for a, e in zip(avals, empty_out)]
    return body


def _one_device(ctx) -> bool:
    """Whether the program being lowered runs on one device, unpartitioned (where a host
    call needs no sharding annotation)."""
    try:
        axis = ctx.module_context.axis_context
        return type(axis).__name__ == "ShardingContext" and axis.num_devices == 1
    except AttributeError:
        return False


def _host_call_batch(args, dims, *, fn, avals, vmap_method):
    size = next(a.shape[d] for a, d in zip(args, dims) if d is not None)
    front = [a if d is None else _to_front(a, d) for a, d in zip(args, dims)]
    if vmap_method == "sequential":
        batched = [d is not None for d in dims]

        def one(rows):
            it = iter(rows)
            xs = [next(it) if b else a for a, b in zip(front, batched)]
            return tuple(_host_call_p.bind(*xs, fn=fn, avals=avals, vmap_method=vmap_method))
        outs = jax.lax.map(one, tuple(a for a, b in zip(front, batched) if b))
    else:
        front = [jax.lax.broadcast(a, (size,)) if d is None else a
                 for a, d in zip(front, dims)]
        big = tuple(_jcore.ShapedArray((size, *a.shape), a.dtype) for a in avals)
        outs = _host_call_p.bind(*front, fn=fn, avals=big, vmap_method=vmap_method)
    return list(outs), [0] * len(avals)


def _to_front(a, d):
    if d == 0:
        return a
    perm = (d, *(i for i in range(a.ndim) if i != d))
    return jax.lax.transpose(a, perm)


_host_call_p.def_impl(_host_call_impl)
_host_call_p.def_abstract_eval(lambda *args, fn, avals, vmap_method: list(avals))
_jmlir.register_lowering(_host_call_p, _host_call_lowering, cacheable=False)
_jbatching.primitive_batchers[_host_call_p] = _host_call_batch


