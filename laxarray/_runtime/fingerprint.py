"""What a compiled executable depends on besides its program, as digests.

Every store key (``call_key.store_key``) holds :func:`environment_fingerprint` -- jax,
jaxlib and NumPy, the backend (its platform version, device kind and count; on a TPU
libtpu's version and ``LIBTPU_INIT_ARGS``), this CPU's model and features (XLA:CPU compiles
for the host's instruction set), ``XLA_FLAGS``, jax's program settings and laxarray's own
(:func:`register_program_setting`) -- and :func:`source_fingerprint`, laxarray's own source.
An executable compiled under one of them is never loaded under another.
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

from laxarray._runtime.serialize import EXECUTABLE_FORMAT

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
    settings = tuple(repr(getattr(jax.config, name, None)) for name in _PROGRAM_SETTINGS)
    if _LIBRARY_SETTINGS:
        settings += tuple(f"{name}={read()!r}" for name, read in _LIBRARY_SETTINGS)
    digest = _FINGERPRINTS.get(settings)
    if digest is None:
        if "machine" not in _FINGERPRINTS:
            _FINGERPRINTS["machine"] = _machine_description()
        text = "\n".join((_FINGERPRINTS["machine"], *settings))
        digest = _FINGERPRINTS[settings] = hashlib.blake2b(
            text.encode(), digest_size=12).hexdigest()
    return digest


def _machine_description() -> str:
    """The process-constant part of :func:`environment_fingerprint`, as text."""
    device = jax.devices()[0]
    client = device.client
    return "\n".join(map(str, (
        f"format={EXECUTABLE_FORMAT}", "x64=laxarray's own", f"python={sys.version_info[:2]}",
        f"jax={jax.__version__}", f"jaxlib={jaxlib.version.__version__}",
        f"numpy={np.__version__}", f"platform={client.platform}",
        f"platform_version={client.platform_version}", f"device_kind={device.device_kind}",
        f"devices={jax.device_count()}", f"local_devices={jax.local_device_count()}",
        f"processes={jax.process_count()}", f"cpu={_cpu_description()}",
        f"XLA_FLAGS={os.environ.get('XLA_FLAGS', '')}",
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
    first processor's lines of ``/proc/cpuinfo``, else ``platform``'s machine and processor."""
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
