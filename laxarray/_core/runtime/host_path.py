"""The CPU host path as a declared property of a kernel, and the one gate that decides it.

Some kernels run faster on the host, in NumPy (or SciPy), than as an XLA program on the CPU
backend: XLA's CPU sort is a comparison sort with a general comparator, its scans and
scatters materialize temporaries.  Such a kernel declares the path on its decorator,
``@kernel(..., host=HostPath(...))``: the NumPy implementation for eager calls, the body
that runs NumPy through a host call (``jax_host_calls.host_call``) under ``jax.jit``, the dtypes
and backends it serves, where its derivatives come from and the measurement that justifies
it.  The kernel helper (``kernel.Bound``) asks :meth:`HostPath.run` before it runs the XLA
body, so no function writes its own bypass:

* **the gate** (:meth:`HostPath.takes`): ``laxarray.set_host_sort`` on (``jax.export`` needs
  it off: a callback cannot be serialized), every operand the path reads on one device of a
  declared backend (:func:`platform`; a traced value: the default backend's, in a process
  with one device -- a callback in a program XLA partitions would gather every operand on
  one device), and the declared dtype (an operand's, or a static's) among ``dtypes``;
* **eagerly** (every argument concrete) the declared ``eager`` function runs at once on
  zero-copy NumPy views of the arguments: no kernel, so no compile on a new shape and none
  of a callback's copies; its result reaches jax through 64-byte aligned memory, which
  ``device_put`` takes without a copy.  It may return ``None`` where the XLA program is
  faster (then the traced body runs, compiled);
* **traced** (or declined eagerly) the declared ``traced`` body runs as a kernel of its
  own (``Kernel.on_host``): NumPy in a host call, inlined into an outer trace;
* otherwise the kernel's own body: the XLA program.  A kernel whose XLA body needs a
  static that the host path computes for itself (``bincount``'s length, the largest value
  plus one) declares ``fill``: where the gate declines, ``fill`` completes the statics from
  the concrete arguments (or raises) and the XLA body runs with them.

:func:`table` writes every declaration as the table in ``docs/performance.md``.
"""

from __future__ import annotations

import jax
import numpy as np

from laxarray._core import backend as _backend
from laxarray._core import modes
from laxarray._core.host_memory import to_like
from laxarray._core.jaxapi import is_tracer

#: The dtypes NumPy sorts and computes natively: bool, the integers, float32 and float64
#: (complex, float16 and bfloat16 stay in lax).
NATIVE = frozenset(np.dtype(t) for t in (
    np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
    np.uint64, np.float32, np.float64))

DECLINED = object()     # what :meth:`HostPath.run` returns where the XLA body runs

_DECLARED = []          # every HostPath, in the order the kernels were defined


class HostPath:
    """A kernel's CPU host path (see the module docstring).

    ``eager(*numpy_views, **static)``: the result(s) as NumPy arrays (a tuple for several),
    or ``None`` to decline.  ``traced(*raw, **static)``: the body under ``jax.jit`` (NumPy
    in a host call); ``None``: eager calls only.  ``operands``: the positions of the
    arguments that must live on a declared backend (default: all).  ``dtypes``: the dtypes
    served (``None``: any), read from the argument at position ``dtype_of`` or, where it is
    a string, from that static argument.  ``functions``: the public functions that run this
    kernel; ``grad``: where their derivatives come from; ``reason``: the measurement.
    ``fill(args, static)``: the statics the XLA body runs with where the host path declines
    (for a kernel without a ``shape`` rule; ``None``: the statics as bound)."""

    __slots__ = ("eager", "traced", "functions", "reason", "grad", "dtypes", "dtype_of",
                 "operands", "backends", "fill", "kernel")

    def __init__(self, *, functions, reason, grad, eager=None, traced=None, dtypes=NATIVE,
                 dtype_of=0, operands=None, backends=("cpu",), fill=None):
        self.eager, self.traced, self.fill = eager, traced, fill
        self.functions, self.reason, self.grad = tuple(functions), reason, grad
        self.dtypes, self.dtype_of = dtypes, dtype_of
        self.operands, self.backends = operands, tuple(backends)
        self.kernel = None      # the Kernel that declares it (set by the Kernel)
        _DECLARED.append(self)

    def takes(self, args, static) -> bool:
        """The gate: whether a call of the kernel on ``args`` with ``static`` takes the host
        path (eagerly or through a host call)."""
        if not modes.get_host_sort() or not _backend.current().host:
            return False
        if self.dtypes is not None:
            of = self.dtype_of
            dtype = static[of] if type(of) is str else args[of].dtype
            if np.dtype(dtype) not in self.dtypes:
                return False
        for i in (range(len(args)) if self.operands is None else self.operands):
            if platform(args[i]) not in self.backends:
                return False
        return True

    def run(self, bound, args):
        """The host path's result(s) of ``bound`` (a ``kernel.Bound`` of the declaring
        kernel) on ``args``: raw jax values, or :data:`DECLINED`."""
        static = dict(bound.items)
        if not self.takes(args, static):
            return self._declined(args, static)
        if self.eager is not None and not any(map(is_tracer, args)):
            out = self.eager(*[np.asarray(a) for a in args], **static)
            if out is not None:
                like = args[0 if self.operands is None else self.operands[0]]
                if type(out) is tuple:
                    return tuple(to_like(v, like) for v in out)
                return to_like(out, like)
        if self.traced is None:
            return self._declined(args, static)
        return self.kernel.on_host.bind(bound.items)(*args)

    def _declined(self, args, static):
        """:data:`DECLINED`, or where the XLA body needs statics that ``fill`` completes,
        its result with them."""
        if self.fill is None:
            return DECLINED
        filled = self.fill(args, static)
        if filled == static:
            return DECLINED
        return self.kernel.bind(tuple(filled.items())).run_xla(*args)


def platform(raw):
    """The platform (``'cpu'``, ``'gpu'``, ``'tpu'`` ...) of the one device ``raw`` lives
    on -- a traced value's: the default backend's, in a process with one device --, or
    ``None`` where it spans several (or may).  The one place every host path's gate asks
    where a value is."""
    if is_tracer(raw):
        return jax.default_backend() if jax.device_count() == 1 else None
    devices = raw.sharding.device_set
    return next(iter(devices)).platform if len(devices) == 1 else None


def _dtypes_text(path):
    if path.dtypes is None:
        return "any"
    if path.dtypes == NATIVE:
        text = "bool, integers, float32, float64"
    else:
        text = ", ".join(sorted(d.name for d in path.dtypes))
    return text + (f" (of `{path.dtype_of}`)" if type(path.dtype_of) is str else "")


def table() -> str:
    """The markdown table of every declared host path (``docs/performance.md`` holds it
    between its ``host-paths`` markers; ``tools/host_table.py`` writes it there)."""
    rows = ["| function | kernel | backends | dtypes | eager | under `jax.jit` | derivatives "
            "| why (measured) |", "|---|---|---|---|---|---|---|---|"]
    for path in sorted(_DECLARED, key=lambda p: p.functions):
        kern = path.kernel
        where = f"`{kern.fn.__module__.removeprefix('laxarray.')}.{kern.__name__}`"
        rows.append("| " + " | ".join((
            ", ".join(f"`{f}`" for f in path.functions), where, ", ".join(path.backends),
            _dtypes_text(path), "NumPy, no kernel" if path.eager else "host call (compiled)",
            "host call" if path.traced else "XLA", path.grad, path.reason)) + " |")
    return "\n".join(rows) + "\n"


def declared():
    """Every declared host path (after ``import laxarray.sparse``: all of them; a plain
    ``import laxarray`` leaves the sparse package's out)."""
    return list(_DECLARED)


__all__ = ["HostPath", "NATIVE", "DECLINED", "platform", "table", "declared"]
