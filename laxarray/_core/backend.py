"""What each backend can do, in one record per XLA platform (issue 52).

A :class:`Backend` says which dtypes arrays may have on the platform's devices, the default
dtypes (what ``asarray([1.0])``, ``arange(3)`` and ``argsort`` give there), which dtypes each
function family computes in (the TPU has no float64 linear algebra or FFT), how its programs
are traced, whether XLA lowers the nonsymmetric eigensolver and 64-bit integer products there,
whether the kernels' CPU host paths may run, which float32 elementwise functions
laxarray computes itself because XLA's lowering there is far from correctly rounded,
whether the executable store keeps its kernels, whether one process at a time holds
its devices, and which XLA compiler options its kernels take.  Every decision that
depends on the backend reads its record: ``info``'s ``dtypes``/``default_dtypes``, the creation functions and
promotion's defaults (``dtypes.default_float`` ...), the dtype checks on arguments and
array-likes, the kernel helper, the host gate, ``linalg`` and ``fft``.

The TPU record lists no float64 and no complex128: the chip computes them only in an
emulation that XLA cannot compile for linear algebra or FFT, and that aborted XLA's TPU
compiler on a program as small as one ``convert`` of complex128 to complex64
(``docs/accelerators.md``).  Asking for either there raises ``TypeError`` naming the
function, the dtype and the platform before anything is compiled; the defaults are float32
and complex64.  64-bit integers stay (NumPy's int64 data, labels and counts, and
scikit-learn's ``xp.int64`` arrays need them): XLA emulates them, and the default integer
is int64 as on the CPU, while indices (``argsort``, ``nonzero`` ...) are int32, the chip's
own.  jax's own SVD, which jax traces only when XLA lowers it (in the process' 64-bit
mode: int64 loop counters and pivots), aborted the TPU compiler: there laxarray forms the
SVD itself from jax's polar decomposition and ``eigh``, traced with the kernel in jax's
32-bit mode (``Backend.polar_svd``); XLA has no 64-bit integer matrix product on the TPU,
which ``numerics.dot_general`` computes by parts.  The CPU (and GPU) record is NumPy's:
every dtype, 64-bit defaults.

:func:`current` is the record of the backend laxarray places arrays on (jax's default
backend: ``devices.all_devices``), or of the platform ``LAXARRAY_PLATFORM`` names.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from types import MappingProxyType

import jax
import ml_dtypes
import numpy as np

from laxarray._core.errors import fail_text
from laxarray._core import env_vars as _env_vars

_B, _F16, _BF16 = np.dtype("bool"), np.dtype("float16"), np.dtype(ml_dtypes.bfloat16)
_I8, _I16, _I32, _I64 = (np.dtype(n) for n in ("int8", "int16", "int32", "int64"))
_U8, _U16, _U32, _U64 = (np.dtype(n) for n in ("uint8", "uint16", "uint32", "uint64"))
_F32, _F64, _C64, _C128 = (np.dtype(n) for n in ("float32", "float64", "complex64",
                                                 "complex128"))

_ALL = frozenset((_B, _I8, _I16, _I32, _I64, _U8, _U16, _U32, _U64, _F16, _BF16, _F32, _F64,
                  _C64, _C128))
#: a 64-bit dtype's 32-bit stand-in, for results a device without it computes implicitly
#: (a Python float's default, the float64 of a mean of integers)
_NARROW = MappingProxyType({_I64: _I32, _U64: _U32, _F64: _F32, _C128: _C64})

@dataclass(frozen=True)
class Backend:
    """What one XLA platform supports (see the module docstring)."""

    platform: str
    #: the dtypes an array may have on this platform's devices
    dtypes: frozenset
    #: the standard's default dtypes: 'real floating', 'complex floating', 'integral',
    #: 'indexing'
    defaults: MappingProxyType
    #: function family ('linalg', 'fft') -> the dtypes it computes in here
    families: MappingProxyType
    #: whether XLA has matrix products of 64-bit integers here (``numerics.dot_general``)
    int64_dot: bool
    #: whether laxarray forms the SVD itself, from the polar decomposition (``lax.linalg.qdwh``)
    #: and ``eigh``, traced with the kernel in jax's 32-bit mode (``linalg._matrix_ops.svd``):
    #: jax's own TPU SVD is traced when XLA lowers it, in the process' 64-bit mode, and its
    #: 64-bit loop counters and pivots aborted the compiler
    polar_svd: bool
    #: whether XLA lowers the nonsymmetric eigensolver (``linalg.eig``) here
    eig: bool
    #: whether the kernels' declared host paths (NumPy/SciPy on the host, ``_core/runtime/host_path.py``)
    #: may run: only where the arrays already live in host memory
    host: bool
    #: the float32 elementwise functions XLA lowers here more than 4 ulps from the correctly
    #: rounded result, or not correctly rounded where the standard asks for it (``divide``,
    #: ``reciprocal``, ``sqrt``), which laxarray computes itself from exactly rounded
    #: operations (``array_api/_exact_float32.py``; measured by
    #: ``benchmarks/elementwise_accuracy.py`` and the conformance runner on the chip)
    own_math: frozenset = frozenset()
    #: whether laxarray keeps this platform's compiled kernels in its executable store
    #: (``exec_store``): jax serializes them and loads them back here (measured on the CPU
    #: and on a TPU v5e; a GPU's are not measured yet)
    store: bool = False
    #: whether only one process at a time may hold this platform's devices (a TPU): work
    #: that laxarray would spread over child processes (``precompile``'s workers) runs in
    #: the calling process there
    exclusive: bool = False
    #: what the portable tier of the store (``runtime/fingerprint``) keys a program by here,
    #: in place of this machine: ``"isa"``, the CPU's instruction-set class (programs
    #: compiled for its baseline, ``--xla_cpu_max_isa``: any CPU of the class runs them);
    #: ``"chip"``, the accelerator alone (device kind, libtpu and platform version: the
    #: program runs on the chip, whatever the host's CPU); ``""``: no portable tier
    portable: str = ""
    #: XLA compiler options of laxarray's kernels on this platform (``compile_options``
    #: picks them per program): ``"every"`` kernel's, what an emitter-``"neutral"`` program
    #: adds, what a program that needs NaN-``"exact_extremes"`` adds; empty: XLA's defaults
    #: (the measurements: ``docs/performance.md``)
    xla_options: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))
    #: XLA's numerics on this platform that kernel bodies work around (``numerics``; read
    #: from the platform XLA compiles for, :func:`compiling`): ``"fma"`` (a product feeding
    #: an add becomes one fused multiply-add: ``numerics.rounded``), ``"reciprocal"``
    #: (``a / broadcast(b)`` becomes ``a * (1 / b)``: ``numerics.keep_divisor``),
    #: ``"nan_extremes"`` (float max/min reductions drop NaN from some size on:
    #: ``numerics.reduce_extreme``'s NaN test).  What the TPU does is measured by
    #: ``tools/device/tpu_probe.py`` ("cpu quirks"); an unmeasured platform keeps the CPU's.
    quirks: frozenset = frozenset()
    #: the longest axis a cumulative sum, product, max or min scans in one piece here;
    #: longer axes run in blocks of this length (``numerics.cumulative``).  ``None``: no
    #: limit.  The TPU's: XLA lowers a scan there to a reduce-window whose compile time
    #: grows with the axis (``lax.cumsum`` of int32: 0.9 s at 2**12, 2.8 s at 2**16, 33 s at
    #: 2**20), blocks of 1024 compile in 0.4-0.5 s at 2**20 and run as fast (tpu_probe
    #: "cumsum forms", 2026-12-06)
    scan_block: int | None = None
    #: where laxarray has run on this platform's devices, or ``""`` where it never has: the
    #: documentation's device claims read it (``docs/_ext/laxarray_reference.py`` marks a
    #: platform without runs "untested", whatever its record expects)
    tested: str = ""

    def supports(self, dtype) -> bool:
        """Whether arrays of ``dtype`` can live on this platform."""
        return np.dtype(dtype) in self.dtypes

    def narrow(self, dtype):
        """The dtype an implicit result of ``dtype`` takes here: itself where supported,
        else its 32-bit stand-in (float64 -> float32, int64 -> int32 ...)."""
        dtype = np.dtype(dtype)
        return dtype if dtype in self.dtypes else _NARROW.get(dtype, dtype)

    def check(self, fn: str, dtype, argname: str = "dtype"):
        """``dtype``, or ``TypeError`` naming ``fn``, the argument, the dtype and the
        platform."""
        dt = np.dtype(dtype)
        if dt not in self.dtypes:
            hint = f"; use {self.narrow(dt).name}" if dt in _NARROW else ""
            fail_text(TypeError, fn, f"'{argname}' is {dt.name}, which the {self.platform} "
                      f"backend has no arrays of (it has {_names(self.dtypes)}){hint}")
        return dt

    def check_family(self, fn: str, family: str, dtype, argname: str = "x"):
        """``dtype`` if the family ``family`` computes in it here, else ``TypeError``
        naming ``fn``, the argument, the dtype and the platform."""
        dt = np.dtype(dtype)
        if dt not in self.families[family]:
            fail_text(TypeError, fn, f"'{argname}' is {dt.name}; {family} on the "
                      f"{self.platform} backend computes in {_names(self.families[family])}")
        return dt


def _names(dtypes) -> str:
    return ", ".join(sorted(d.name for d in dtypes))


_LINALG_FULL = frozenset((_F32, _F64, _C64, _C128))

#: XLA:CPU's options (``Backend.xla_options``): LLVM at -O1 in one module for every kernel
#: (about 35% shorter compiles); without the fusion emitters where a program's bits are the
#: same either way (half the compile time); YNNPACK's library fusion for matrix products
#: only where a program needs NaN-exact max/min (from 4096 elements its reductions drop NaN)
_XLA_CPU = MappingProxyType({
    "every": MappingProxyType({"xla_backend_optimization_level": 1,
                               "xla_cpu_parallel_codegen_split_count": 1}),
    "neutral": MappingProxyType({"xla_cpu_use_fusion_emitters": False}),
    "exact_extremes": MappingProxyType({
        "xla_cpu_experimental_ynn_fusion_type": "LIBRARY_FUSION_TYPE_DOT"})})

#: XLA:CPU's numerics that kernels work around (``Backend.quirks``), measured on x86-64
_CPU_QUIRKS = frozenset(("fma", "reciprocal", "nan_extremes"))

#: NumPy's: every dtype, 64-bit defaults
CPU = Backend(
    "cpu", _ALL,
    MappingProxyType({"real floating": _F64, "complex floating": _C128, "integral": _I64,
                      "indexing": _I64}),
    MappingProxyType({"linalg": _LINALG_FULL, "fft": _LINALG_FULL}),
    int64_dot=True, polar_svd=False, eig=True, host=True, store=True, xla_options=_XLA_CPU,
    quirks=_CPU_QUIRKS, portable="isa", tested="the whole test suite, on every change (x86-64)")
#: as the CPU (float64 is native there), the nonsymmetric eigensolver on the host; never run
#: on a GPU yet (``tools/device/gpu_check.py`` is the prepared run)
GPU = Backend(
    "gpu", _ALL, CPU.defaults, CPU.families, int64_dot=True, polar_svd=False, eig=False,
    host=False, quirks=_CPU_QUIRKS)
#: no float64 or complex128 (see the module docstring)
TPU = Backend(
    "tpu", _ALL - {_F64, _C128},
    MappingProxyType({"real floating": _F32, "complex floating": _C64, "integral": _I64,
                      "indexing": _I32}),
    MappingProxyType({"linalg": frozenset((_F32, _C64)), "fft": frozenset((_F32, _C64))}),
    int64_dot=False, polar_svd=True, eig=False, host=False,
    own_math=frozenset(("exp", "exp2", "expm1", "log", "log1p", "tanh", "sinh", "cosh",
                        "asinh", "acosh", "atanh", "divide", "reciprocal", "sqrt", "fmod", "pow")),
    store=True, exclusive=True, portable="chip",
    # none of the CPU's (tpu_probe "cpu quirks", 2026-12-06): no fused multiply-add (10**5 of
    # 10**5 products rounded before the add), its division is laxarray's own ("divide" above),
    # and max/min keep NaN at 100, 5000 and 10**6 elements
    quirks=frozenset(), scan_block=1024,
    tested="a TPU v5e, jax 0.10.2: the TPU tests, array-api-tests, the conformance runner, "
           "scikit-learn's array-API tests (docs/accelerators.md)")

RECORDS = MappingProxyType({"cpu": CPU, "gpu": GPU, "cuda": GPU, "rocm": GPU, "tpu": TPU})


@functools.lru_cache(maxsize=None)
def current() -> Backend:
    """The record of the backend laxarray places arrays on: jax's default backend's, or the
    one ``LAXARRAY_PLATFORM`` names (read once, at import: ``LAXARRAY_PLATFORM=tpu`` runs a
    process on the CPU with the TPU's dtypes, defaults and programs, which is how the test
    suite checks the TPU's semantics without a TPU).  Fixed for the process: callers may
    cache what they derive from it."""
    return for_platform(_env_vars.value("LAXARRAY_PLATFORM") or jax.default_backend())


def for_platform(platform: str) -> Backend:
    """The record of an XLA platform name (an unknown platform gets the CPU's)."""
    return RECORDS.get(platform, CPU)


def compiling() -> Backend:
    """The record of the platform XLA compiles laxarray's kernels for: jax's default
    backend's, whatever ``LAXARRAY_PLATFORM`` says (a CPU process with the TPU's record still
    compiles CPU executables, and keeps them in the store as the CPU's)."""
    return for_platform(jax.default_backend())


def for_device(device) -> Backend:
    """The record of ``device`` (a jax Device or Sharding); ``None``: :func:`current`.
    (laxarray places arrays on the default backend's devices only, so this is
    :func:`current` for every device it accepts.)"""
    return current()
