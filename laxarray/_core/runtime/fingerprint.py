"""What a compiled executable depends on besides its program, as digests.

Every store key (``call_key.store_key``) holds :func:`environment_fingerprint` -- jax,
jaxlib and NumPy, the backend (its platform version, device kind and count; on a TPU
libtpu's version and ``LIBTPU_INIT_ARGS``), this CPU's model and features (XLA:CPU compiles
for the host's instruction set), ``XLA_FLAGS``, jax's program settings and laxarray's own
(:func:`register_program_setting`) -- and :func:`source_fingerprint`, laxarray's own source.
An executable compiled under one of them is never loaded under another.

The portable tier of the store (``exec_store``'s ``portable_tiers``) is keyed by
:func:`portable_fingerprint` instead, as the backend record's ``portable`` says:

* on the CPU (``"isa"``), the same parts with the CPU named by its instruction-set class
  (:func:`portable_class`: ``x86-64-v3``, whose programs XLA compiles under
  ``--xla_cpu_max_isa=AVX2``, :data:`PORTABLE_FLAG`) rather than by its model and features,
  and ``XLA_FLAGS`` without that flag;
* on a TPU (``"chip"``), the same parts without the host's CPU: the program runs on the
  chip, and its key keeps the chip's kind, libtpu's version and the platform version.

A process that builds the tier (``LAXARRAY_PORTABLE_BUILD=1``, on the CPU with
:data:`PORTABLE_FLAG` in ``XLA_FLAGS``: ``python -m laxarray.precompile --portable`` starts
its workers so, and on a TPU builds in its own process) keys everything by it.
``LAXARRAY_CPU_DESCRIPTION`` replaces the CPU's description (a test aid: another "machine").
"""

from __future__ import annotations

import hashlib
import os
import platform
import sys
from importlib import metadata

import jax
import jaxlib.version
import numpy as np

from laxarray._core.runtime.serialize import EXECUTABLE_FORMAT
from laxarray._core import backend as _backend
from laxarray._core import env_vars as _env_vars

#: The instruction set a portable program is compiled for on x86-64 (XLA's
#: ``xla_cpu_max_isa``; it is read when the process's CPU client starts, so only as a flag:
#: a per-compile option of that name changes no instruction, ``docs/compilation.md``).
PORTABLE_ISA = "AVX2"
#: The ``XLA_FLAGS`` entry under which a process compiles portable programs.
PORTABLE_FLAG = f"--xla_cpu_max_isa={PORTABLE_ISA}"
#: The CPU feature flags (``/proc/cpuinfo``'s names) of the x86-64-v3 class: what XLA's
#: AVX2 target (Haswell) may use.  A CPU with all of them runs every portable program.
_X86_64_V3 = frozenset(("sse4_1", "sse4_2", "popcnt", "avx", "avx2", "fma", "f16c", "bmi1",
                        "bmi2", "abm", "movbe"))

#: jax settings that change the program jax lowers or compiles for the same laxarray call
#: (read on every :func:`environment_fingerprint` call: a user may change them at any time).
#: Not jax's 64-bit mode: laxarray traces and compiles every program in it, whatever the
#: user's (``jaxapi.wide``), so it is the same for every key.
_PROGRAM_SETTINGS = ("jax_default_matmul_precision", "jax_debug_nans", "jax_debug_infs",
                     "jax_threefry_partitionable", "jax_default_prng_impl", "jax_disable_jit")


_FINGERPRINTS = {}

#: laxarray's own settings that change the program of a laxarray call: (name, read) pairs,
#: read like :data:`_PROGRAM_SETTINGS` on every :func:`environment_fingerprint` call.
_LIBRARY_SETTINGS = []


def register_program_setting(name, read) -> None:
    """Make laxarray's setting ``name`` (``read()`` gives its current value) part of
    :func:`environment_fingerprint`, as jax's program settings are: an executable compiled
    under one value is never loaded under another."""
    _LIBRARY_SETTINGS[:] = [(n, r) for n, r in _LIBRARY_SETTINGS if n != name] + [(name, read)]


def environment_fingerprint() -> str:
    """A short hex digest of what a compiled executable depends on besides its program: jax,
    jaxlib, the backend (its platform version, device kind and count; on a TPU libtpu's
    version and ``LIBTPU_INIT_ARGS``), this CPU, ``XLA_FLAGS``, jax's program settings and
    laxarray's (:func:`register_program_setting`)."""
    return _digest(portable_build())


def portable_fingerprint() -> str | None:
    """:func:`environment_fingerprint` as every machine of this CPU's instruction-set class
    (:func:`portable_class`), or every host of this TPU chip, computes it (the portable
    tier's keys); ``None`` where :func:`portable_problem` says why there is none."""
    if "portable" not in _FINGERPRINTS:
        _FINGERPRINTS["portable"] = _portable_description()
    return None if _FINGERPRINTS["portable"] is None else _digest(True)


def _digest(portable) -> str:
    settings = tuple(repr(getattr(jax.config, name, None)) for name in _PROGRAM_SETTINGS)
    if _LIBRARY_SETTINGS:
        settings += tuple(f"{name}={read()!r}" for name, read in _LIBRARY_SETTINGS)
    memo = (portable, settings)
    digest = _FINGERPRINTS.get(memo)
    if digest is None:
        part = "portable" if portable else "machine"
        if part not in _FINGERPRINTS:
            _FINGERPRINTS[part] = (_portable_description() if portable
                                   else _machine_description())
        if _FINGERPRINTS[part] is None:
            raise RuntimeError(f"laxarray: this process builds portable programs "
                               f"(LAXARRAY_PORTABLE_BUILD=1) but cannot: {portable_problem()}")
        text = "\n".join((_FINGERPRINTS[part], *settings))
        digest = _FINGERPRINTS[memo] = hashlib.blake2b(
            text.encode(), digest_size=12).hexdigest()
    return digest


#: set while ``precompile --portable`` builds the tier in this very process (on a TPU,
#: which one process holds): :func:`portable_build` as if ``LAXARRAY_PORTABLE_BUILD=1``
_BUILDING_HERE = [False]


def portable_build() -> bool:
    """Whether this process compiles for the portable tier (``LAXARRAY_PORTABLE_BUILD=1``,
    or :func:`building_here`): its keys are :func:`portable_fingerprint`'s."""
    return _BUILDING_HERE[0] or bool(_env_vars.value("LAXARRAY_PORTABLE_BUILD"))


def building_here(on: bool) -> None:
    """Make this process build the portable tier (``on``), or stop (the precompile runner's,
    around a build in its own process)."""
    _BUILDING_HERE[0] = bool(on)


def portable_class() -> str | None:
    """This CPU's instruction-set class, the portable tier's name for it: ``'x86-64-v3'``
    for an x86-64 CPU with every feature of XLA's AVX2 target (:data:`_X86_64_V3`), else
    ``None`` (another architecture, an older CPU, or flags that cannot be read)."""
    description = _cpu_description()
    flags = set()
    for part in description.split(";"):
        name, _, value = part.partition("=")
        if name == "flags":
            flags = set(value.split())
    machine = platform.machine().lower()
    if machine in ("x86_64", "amd64") and flags >= _X86_64_V3:
        return "x86-64-v3"
    return None


def portable_problem() -> str | None:
    """Why this process has no portable tier (``None``: it has one), in words."""
    kind = _backend.compiling().portable
    if kind == "chip":
        return None
    if kind != "isa":
        return (f"the portable tier holds CPU and TPU programs only, not "
                f"{jax.default_backend()}'s")
    if portable_class() is None:
        missing = ", ".join(sorted(_X86_64_V3))
        return (f"this CPU is not of the x86-64-v3 class (an x86-64 CPU with {missing}): "
                f"{_cpu_description()[:200]}")
    flags = os.environ.get("XLA_FLAGS", "").split()
    others = [f for f in flags if f.startswith("--xla_cpu_max_isa=") and f != PORTABLE_FLAG]
    if others:
        return f"XLA_FLAGS names another instruction set ({others[0]})"
    if portable_build() and PORTABLE_FLAG not in flags:
        return f"a process that builds portable programs needs {PORTABLE_FLAG} in XLA_FLAGS"
    return None


def _portable_description() -> str | None:
    """:func:`_machine_description` with the CPU's class for its model and features and
    ``XLA_FLAGS`` without :data:`PORTABLE_FLAG` (on a TPU: with no CPU at all); ``None``
    where :func:`portable_problem` says why not."""
    if portable_problem() is not None:
        return None
    if _backend.compiling().portable == "chip":
        return _machine_description("any host (the program runs on the chip)")
    flags = " ".join(f for f in os.environ.get("XLA_FLAGS", "").split() if f != PORTABLE_FLAG)
    return _machine_description(f"isa:{portable_class()}/{PORTABLE_ISA}", flags)


def _machine_description(cpu=None, xla_flags=None) -> str:
    """The process-constant part of :func:`environment_fingerprint`, as text (``cpu`` and
    ``xla_flags``: the portable tier's texts for those parts)."""
    device = jax.devices()[0]
    client = device.client
    if cpu is None:
        cpu = _cpu_description()
    if xla_flags is None:
        xla_flags = os.environ.get("XLA_FLAGS", "")
    return "\n".join(map(str, (
        f"format={EXECUTABLE_FORMAT}", "x64=laxarray's own", f"python={sys.version_info[:2]}",
        f"jax={jax.__version__}", f"jaxlib={jaxlib.version.__version__}",
        f"numpy={np.__version__}", f"platform={client.platform}",
        f"platform_version={client.platform_version}", f"device_kind={device.device_kind}",
        f"devices={jax.device_count()}", f"local_devices={jax.local_device_count()}",
        f"processes={jax.process_count()}", f"cpu={cpu}", f"XLA_FLAGS={xla_flags}",
        *((f"libtpu={_distribution_version('libtpu', 'libtpu-nightly')}",
           f"LIBTPU_INIT_ARGS={os.environ.get('LIBTPU_INIT_ARGS', '')}")
          if client.platform == "tpu" else ()))))


def _distribution_version(*names) -> str:
    """The installed version of the first of the distributions ``names`` found, else ''."""
    for name in names:
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return ""


def _cpu_description() -> str:
    """This CPU's model and feature flags (XLA:CPU compiles for the host's features): the
    first processor's lines of ``/proc/cpuinfo``, else ``platform``'s machine and processor;
    ``LAXARRAY_CPU_DESCRIPTION`` where set (a test aid: ``name=value`` parts joined by
    ``;``, as this text)."""
    override = _env_vars.value("LAXARRAY_CPU_DESCRIPTION")
    if override:
        return override
    wanted = ("model name", "flags", "features", "cpu part", "cpu implementer")
    found = []
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                if not line.strip():
                    break                    # the first processor's block is enough
                name, _, value = line.partition(":")
                if name.strip().lower() in wanted:
                    found.append(f"{name.strip().lower()}={value.strip()}")
    except OSError:
        pass
    return ";".join(found) or f"{platform.machine()};{platform.processor()}"


_SOURCE = []

#: folders of the package that hold no kernel: their edits leave every executable valid
_NO_KERNELS = frozenset({"__pycache__", "conformance", "precompile"})


def source_fingerprint() -> str:
    """A hex digest of laxarray's own source (the path and content of every ``.py`` file of
    the package but :data:`_NO_KERNELS`), computed once per process (a few ms): an edit or
    an upgrade never loads an old program, and a clone of the same source shares the store."""
    if not _SOURCE:
        package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        h = hashlib.blake2b(digest_size=12)
        stack = [package]
        found = []
        while stack:
            folder = stack.pop()
            with os.scandir(folder) as it:
                for e in it:
                    if e.is_dir(follow_symlinks=False):
                        if e.name not in _NO_KERNELS:
                            stack.append(e.path)
                    elif e.name.endswith(".py"):
                        found.append((e.path[len(package) + 1:], e.path))   # (relative)
        for rel, path in sorted(found):
            with open(path, "rb") as f:
                data = f.read()
            h.update(f"{rel}\0{len(data)}\0".encode())
            h.update(data)
        _SOURCE.append(h.hexdigest())
    return _SOURCE[0]
