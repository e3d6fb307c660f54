"""A persistent store of compiled executables: a cache of bytes by key, behind the kernel
runtime's tables.

jax's persistent compilation cache (the user's to turn on: laxarray leaves jax's
configuration alone) saves XLA's compile, but a fresh process still traces and lowers every
kernel first.  This store lets a kernel call skip all three: the call's key -- computed by
``call_key.store_key`` before any tracing: the kernel's identity and static facts, the
call's signature and device, ``fingerprint``'s environment and source digests -- names a
file holding the executable that :func:`serialize.serialize_compiled` wrote.  The store knows
nothing of kernels: :meth:`ExecutableStore.get`/:meth:`~ExecutableStore.put` bytes by key.

* **Where.**  :func:`default_store` follows ``LAXARRAY_COMPILATION_CACHE``: unset, the store
  is ``$XDG_CACHE_HOME/laxarray/executables`` (``~/.cache/laxarray/executables``); ``0``
  turns it off; ``/path`` puts it in ``/path/executables``.  Clear it with ``rm -rf`` of
  that directory.
* **Safety.**  Entries are pickles, and loading one may run code: a store is used only in a
  directory that belongs to this user and that neither group nor others may write (created
  with mode 0o700); any other directory turns the store off with one warning.
* **Integrity.**  Each entry starts with a header -- magic, :data:`STORE_FORMAT`, lengths
  and a BLAKE2b checksum of what follows: the full key, then the payload -- and
  :meth:`ExecutableStore.get` checks all of it: a damaged entry (truncated, flipped bits)
  reads as a miss and is removed; a whole entry of another key (a file-name collision) or
  of another format reads as a miss and stays (the next put replaces it).
* **Concurrency.**  A put writes a temporary file in the entry's directory and renames it
  over the entry (atomic on POSIX), so readers in other processes see the old entry, the
  new one or none, never a mix; a reader keeps a file that an evictor removes meanwhile.
* **Size.**  ``LAXARRAY_COMPILATION_CACHE_MAX_MB`` (default 1024): when a put finds the
  store over this size, the least recently used entries (oldest modification time: a hit
  touches it) are removed until the store is under three quarters of it.  A put only adds
  to a running count; a process's first put, and every :data:`SCAN_EVERY`-th, estimates the
  store's real size from 4 of its 256 subdirectories (other processes write too), and only
  an estimate over the bound (or a small store) reads the whole directory.
* **Never in the way.**  I/O errors of a put or an eviction (disk full, permissions) warn
  once per store and are otherwise ignored: the caller has its executable already.
* **The portable tier** (:func:`portable_tiers`, :func:`load_portable`).  On an x86-64 CPU
  of the x86-64-v3 class (``fingerprint.portable_class``) a kernel call that misses the
  store looks next in the portable tier: programs compiled for the class's baseline
  instruction set (``--xla_cpu_max_isa=AVX2``) and keyed by the class instead of the CPU
  model (``fingerprint.portable_fingerprint``), so one tier serves every such machine.  On a
  TPU the tier's programs are keyed by the chip (its kind, libtpu's version) without the
  host's CPU, so one tier serves every host of that chip.  Its
  directories (``tiers``), in order: ``LAXARRAY_PORTABLE_STORE`` (unset: ``$XDG_CACHE_HOME/
  laxarray/portable``; ``0``: no tier of the user's), ``portable/`` in the installed package
  (shipped with it), then ``tier/`` of an installed ``laxarray_portable`` package (a wheel
  of executables, ``tools/portable_wheel.py``; found on the import path, not imported;
  ``0`` leaves it on: uninstall it).  A tier is read only, never created or changed by a
  lookup (a damaged entry is a miss); one that belongs to another user (an installed one
  may belong to the owner of its package's folder) or that group or others may write is
  refused with one warning.  The tiers are looked for once a process, when first needed:
  a miss of the machine store, or a store with no trace of this program (or empty).
  ``python -m laxarray.precompile --portable`` fills the user's tier in worker processes
  started with ``LAXARRAY_PORTABLE_BUILD=1`` and ``XLA_FLAGS=--xla_cpu_max_isa=AVX2`` (on
  a TPU, which one process holds, in its own process with ``LAXARRAY_PORTABLE_BUILD=1``);
  copying the directory (a team's share, a CI cache, package data) or a wheel ships it.
  The loader thread (``prefetch``) reads through to the tiers too
  (:meth:`ExecutableStore.read_through`), so a program's second run on such a machine loads
  the tier's programs ahead.
* **Not stored** (``serialize.NotSerializable``): programs with host callbacks, and
  executables that were loaded rather than compiled in this process (from this store, or
  on CPU from jax's persistent cache: jaxlib 0.10.2 writes those without machine code).
"""

from __future__ import annotations

import hashlib
import os
import struct
import sys
import threading
import time
import warnings


from laxarray._core.runtime import serialize
from laxarray._core.runtime import fingerprint, prefetch, tiers
from laxarray._core.runtime.tiers import portable_dir
from laxarray._core.runtime.files import TEMP_PREFIX as _TEMP_PREFIX, remove as _remove, write_atomic
from laxarray._core import env_vars as _env_vars
from laxarray._core.errors import StoreHintWarning

_ENV = "LAXARRAY_COMPILATION_CACHE"

#: The layout of an entry file (the header below, the key, then the payload).
STORE_FORMAT = 1
_MAGIC = b"LAXEXEC\0"
#: magic, format, key length, payload length, BLAKE2b-256 of key and payload
_HEADER = struct.Struct("<8sIIQ32s")
#: A put estimates the store's real size at least this often (other processes write too).
SCAN_EVERY = 256
#: A size estimate reads this many of the 256 subdirectories; with fewer than _SAMPLE_MIN
#: entries in them the store is small, and measured whole.
_SAMPLE_SHARDS = 4
_SAMPLE_MIN = 50
#: Temporary files older than this (seconds) are leftovers of a writer that died: removed.
_STALE_TEMP = 3600.0


class ExecutableStore:
    """Serialized executables in one directory, one file per key (see the module docstring).

    Make one with :meth:`open`, which checks the directory; ``max_bytes`` defaults to
    ``LAXARRAY_COMPILATION_CACHE_MAX_MB`` (1024) megabytes."""

    def __init__(self, path, max_bytes=None, readonly=False):
        self.path = os.fspath(path)
        #: a read-only store (a portable tier being read): a lookup changes nothing in it
        #: (no access time, no removal of a damaged entry) and a put writes nothing
        self.readonly = readonly
        if max_bytes is None:
            max_bytes = _env_vars.value(f"{_ENV}_MAX_MB")
        self.max_bytes = int(max_bytes)
        self._lock = threading.Lock()
        self._size = None            # estimated bytes in the store (None: not scanned yet)
        self._puts_since_scan = 0
        self._warned = False

    @classmethod
    def open(cls, path, max_bytes=None):
        """The store in directory ``path`` (created with mode 0o700 where missing), or ``None``
        (with one warning) where it cannot be made or other users may write it."""
        path = os.path.abspath(os.fspath(path))
        try:
            os.makedirs(path, mode=0o700, exist_ok=True)
            problem = _unsafe(path)
        except OSError as err:
            problem = f"cannot be created ({err})"
        if problem:
            _env_vars.warn_once(("open", path),
                                f"laxarray: the executable store {path} {problem}; running "
                                f"without it (set {_ENV}=0 to silence this, or use a "
                                f"directory of your own with mode 0o700)")
            return None
        return cls(path, max_bytes)

    def _file(self, key):
        name = hashlib.blake2b(key.encode(), digest_size=20).hexdigest()
        return os.path.join(self.path, name[:2], name[2:])

    def get(self, key: str) -> bytes | None:
        """The blob stored under ``key``, or ``None`` (a damaged entry is removed)."""
        path = self._file(key)
        try:
            with open(path, "rb") as f:
                data = f.read()
                inode = os.fstat(f.fileno()).st_ino
        except OSError:
            return None
        verdict = _check(data, key)
        if verdict is _DAMAGED:
            if not self.readonly:
                _remove_if_same(path, inode)
            return None
        if verdict is None or self.readonly:   # another key or format: a miss, left alone
            return verdict
        try:
            os.utime(path)           # least recently used = oldest mtime (atime may be off)
        except OSError:
            pass
        return verdict

    def read(self, key: str):
        """The executable stored under ``key``, loaded, or ``None`` (a miss, or an entry
        that does not load: the next put replaces it); not counted."""
        blob = self.get(key)
        if blob is None:
            return None
        try:
            return serialize.load_compiled(blob)
        except serialize.NotLoadable:
            return None

    def read_through(self, key: str):
        """:meth:`read`, else the executable a portable tier holds for ``key``
        (:func:`read_portable`; the background loader's read); not counted."""
        exe = self.read(key)
        return read_portable(key) if exe is None and not self.readonly else exe

    def load(self, key: str):
        """The executable stored under ``key``, loaded (counted by :func:`load_count`; the
        background loader's, where it loaded it ahead), or ``None`` (a miss)."""
        started = time.perf_counter()
        prefetch.lookup(key)
        taken, exe = prefetch.take(key)
        if not taken:
            exe = self.read(key)
        if exe is not None:
            count_load(time.perf_counter() - started)
        return exe

    def put(self, key: str, blob: bytes) -> None:
        """Store ``blob`` under ``key`` atomically; never raises on I/O errors (warns once);
        nothing in a read-only store."""
        if self.readonly:
            return
        path = self._file(key)
        encoded = key.encode()
        checksum = hashlib.blake2b(encoded, digest_size=32)
        checksum.update(blob)
        checksum = checksum.digest()
        header = _HEADER.pack(_MAGIC, STORE_FORMAT, len(encoded), len(blob), checksum)
        try:
            write_atomic(path, (header, encoded, blob))
        except OSError as err:
            self._warn(f"cannot write to the executable store {self.path} ({err}); "
                       f"executables stay in memory only")
            return
        self._after_put(len(header) + len(encoded) + len(blob),
                        os.path.basename(os.path.dirname(path)))

    def _after_put(self, written, key_shard):
        """Count ``written`` bytes; estimate the store's size when the process has none yet
        or :data:`SCAN_EVERY` puts went by; evict when the count says it is over the bound."""
        with self._lock:
            self._puts_since_scan += 1
            if self._size is not None:
                self._size += written
                if self._size <= self.max_bytes and self._puts_since_scan < SCAN_EVERY:
                    return
            self._puts_since_scan = 0
        estimate = self._estimate(key_shard)
        if estimate is not None and estimate <= self.max_bytes:
            with self._lock:
                self._size = estimate
            return
        self._evict()

    def _estimate(self, key_shard):
        """The store's size from :data:`_SAMPLE_SHARDS` of its 256 subdirectories (cheap in a
        large store); ``None`` where they hold too few entries to tell (a small store)."""
        first = int(key_shard, 16)
        count = total = 0
        for j in range(_SAMPLE_SHARDS):
            folder = os.path.join(self.path, f"{(first + j) % 256:02x}")
            try:
                with os.scandir(folder) as it:
                    for e in it:
                        if not e.name.startswith(_TEMP_PREFIX):
                            try:
                                total += e.stat().st_size
                                count += 1
                            except OSError:
                                pass
            except OSError:
                continue
        if count < _SAMPLE_MIN:
            return None
        return total * 256 // _SAMPLE_SHARDS

    def _entries(self):
        """``(mtime, size, path)`` of every entry, and the paths of stale temporary files."""
        entries, stale = [], []
        now = time.time()
        with os.scandir(self.path) as shards:
            folders = [s.path for s in shards if len(s.name) == 2 and s.is_dir()]
        for folder in folders:
            try:
                with os.scandir(folder) as it:
                    for e in it:
                        try:
                            st = e.stat()
                        except OSError:
                            continue        # removed meanwhile
                        if e.name.startswith(_TEMP_PREFIX):
                            if now - st.st_mtime > _STALE_TEMP:
                                stale.append(e.path)
                        else:
                            entries.append((st.st_mtime, st.st_size, e.path))
            except OSError:
                continue
        return entries, stale

    def _evict(self):
        """Measure the store; above ``max_bytes``, remove the least recently used entries
        until it is under three quarters of it."""
        try:
            entries, stale = self._entries()
        except OSError as err:
            self._warn(f"cannot read the executable store {self.path} ({err})")
            return
        for name in stale:
            _remove(name)
        total = sum(size for _, size, _ in entries)
        if total > self.max_bytes:
            for _, size, name in sorted(entries):
                if total <= self.max_bytes * 3 // 4:
                    break
                _remove(name)
                total -= size
        with self._lock:
            self._size = total

    def clear(self) -> None:
        """Remove every entry (and temporary file) of the store."""
        try:
            entries, _ = self._entries()
            temps = [os.path.join(d, n) for d, _, names in os.walk(self.path)
                     for n in names if n.startswith(_TEMP_PREFIX)]
        except OSError:
            return
        for _, _, name in entries:
            _remove(name)
        for name in temps:
            _remove(name)
        with self._lock:
            self._size = 0

    def stats(self) -> dict:
        """``{"entries": count, "bytes": total size}`` of the store as it is on disk now."""
        try:
            entries, _ = self._entries()
        except OSError:
            entries = []
        return {"entries": len(entries), "bytes": sum(size for _, size, _ in entries)}

    def _warn(self, message):
        if not self._warned:
            self._warned = True
            warnings.warn(f"laxarray: {message}", RuntimeWarning, stacklevel=3)

    def __repr__(self):
        return f"ExecutableStore({self.path!r}, max_bytes={self.max_bytes})"


_DAMAGED = object()


def _check(data, key):
    """The payload of entry bytes ``data`` written under ``key``; ``None`` for an entry of
    another key or format; ``_DAMAGED`` for bytes that are no whole entry."""
    if len(data) < _HEADER.size:
        return _DAMAGED
    magic, version, key_length, length, checksum = _HEADER.unpack_from(data)
    if magic != _MAGIC:
        return _DAMAGED
    if version != STORE_FORMAT:
        return None
    start = _HEADER.size + key_length
    if len(data) != start + length:
        return _DAMAGED
    view = memoryview(data)
    if hashlib.blake2b(view[_HEADER.size:], digest_size=32).digest() != checksum:
        return _DAMAGED
    if view[_HEADER.size:start] != key.encode():
        return None                  # a whole entry of another key: its file-name twin
    return data[start:]


def _remove_if_same(path, inode):
    """Remove ``path`` if it is still the file read (a writer may have replaced it since)."""
    try:
        if os.stat(path).st_ino == inode:
            os.remove(path)
    except OSError:
        pass


def _unsafe(path, owners=None):
    """Why the directory ``path`` may not hold executables (``None``: it may): its owner
    must be this user (or one of ``owners``' uids), and neither group nor others may write
    it."""
    st = os.stat(path)
    if not os.path.isdir(path):
        return "is not a directory"
    if hasattr(os, "getuid") and st.st_uid != os.getuid() and st.st_uid not in (owners or ()):
        return "belongs to another user"
    if st.st_mode & 0o022:
        return f"may be written by group or others (mode {st.st_mode & 0o777:#o})"
    return None


def default_dir():
    """The store's directory from ``LAXARRAY_COMPILATION_CACHE`` (``None``: turned off); in
    a process that builds the portable tier (``LAXARRAY_PORTABLE_BUILD=1``), the tier's
    (:func:`portable_dir`)."""
    if fingerprint.portable_build():
        return portable_dir()
    setting = _env_vars.value(_ENV)
    if setting == "0":
        return None
    if setting:
        return os.path.join(setting, "executables")
    base = _env_vars.cache_home()
    return os.path.join(base, "laxarray", "executables")


_DEFAULT = []
_DEFAULT_LOCK = threading.Lock()


def default_store() -> ExecutableStore | None:
    """The process's store, from the environment as the module docstring says (once)."""
    if not _DEFAULT:
        with _DEFAULT_LOCK:
            if not _DEFAULT:
                path = default_dir()
                if path is not None and fingerprint.portable_build():
                    problem = fingerprint.portable_problem()
                    if problem:
                        _env_vars.warn_once(("portable", path), f"laxarray: this process "
                                            f"cannot build portable programs ({problem}); "
                                            f"running without a store")
                        path = None
                store = None if path is None else ExecutableStore.open(path)
                if store is not None:
                    prefetch.start(store, tier_trace,
                                   neutral_key if fingerprint.portable_build() else None)
                    # what every key holds, while the program imports rather than in its
                    # first call (on the chip that call took 58 ms, the next ones 5-7):
                    # laxarray's source read and hashed (10-16 ms on a 2-core CPU), and
                    # on a TPU libtpu's version looked up in the installed distributions
                    fingerprint.environment_fingerprint()
                    fingerprint.source_fingerprint()
                _DEFAULT.append(store)
                _hint_if_empty(store)
    return _DEFAULT[0]


def _hint_if_empty(store) -> None:
    """Say once per store directory, as a :class:`errors.StoreHintWarning`, how to fill an
    empty store: on a fresh machine each new kernel compiles once (seconds at first), which
    looks like a slow library.  The marker file ``.hinted`` in the store means "said" (or "found filled");
    not said while a portable tier is there to serve it (:func:`portable_tiers`);
    silent where the store is off, in ``python -m laxarray.precompile`` and its workers
    (``LAXARRAY_STORE_HINT=0``, which anyone may set); never raises."""
    try:
        if store is None or not _env_vars.value("LAXARRAY_STORE_HINT") or (
                "laxarray.precompile" in getattr(sys, "orig_argv", ())):
            return
        marker = os.path.join(store.path, ".hinted")
        if os.path.exists(marker):
            return
        with os.scandir(store.path) as top:
            shards = [e.path for e in top if len(e.name) == 2 and e.is_dir()]
        empty = True
        for shard in shards:
            with os.scandir(shard) as it:
                if any(not e.name.startswith(_TEMP_PREFIX) for e in it):
                    empty = False
                    break
        if empty and portable_tiers():
            return                   # a portable tier serves it: not said (nor marked)
        # created exclusively: of processes starting at once, one speaks; where it cannot
        # be written (a read-only store) nothing is said, rather than said every time
        os.close(os.open(marker, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        if empty:
            warnings.warn(f"laxarray: the executable store {store.path} is empty; each new "
                          f"kernel compiles once on this machine (seconds at first). To "
                          f"compile ahead: python -m laxarray.precompile --workload sklearn "
                          f"(or --from FILE recorded with LAXARRAY_RECORD=FILE). This is "
                          f"said once.", StoreHintWarning, stacklevel=2)
    except Exception:  # noqa: BLE001  (a hint never breaks the call that opened the store)
        pass


# ---- the portable tier -----------------------------------------------------------------------

_TIERS = []
_TIERS_LOCK = threading.Lock()


def portable_tiers() -> list:
    """The portable tiers this process reads, in order (read-only stores; opened once): the
    user's, laxarray's own ``portable/`` and an installed wheel's (``tiers.tier_dirs``),
    each where it exists and may be trusted (see the module docstring; otherwise one
    warning says why).
    None in a process that builds a tier, or where ``fingerprint.portable_problem`` says
    why this process has none."""
    if not _TIERS:
        with _TIERS_LOCK:
            if not _TIERS:
                _TIERS.append(_open_tiers())
    return _TIERS[0]


def _open_tiers():
    if fingerprint.portable_build() or fingerprint.portable_fingerprint() is None:
        return []
    found = []
    for path, owners, remedy in tiers.tier_dirs():
        if path is None or not os.path.isdir(path):
            continue
        try:
            problem = _unsafe(path, owners)
        except OSError as err:
            problem = f"cannot be read ({err})"
        if problem:
            _env_vars.warn_once(("portable", path), f"laxarray: the portable executable tier "
                                f"{path} {problem}: refused (its executables are machine code "
                                f"that would run as you); copy it into a directory of your "
                                f"own with mode 0o700, {remedy}")
            continue
        found.append(ExecutableStore(path, readonly=True))
    return found


_PORTABLE_LOADS = [0]


def load_portable(key: str):
    """The executable that a portable tier holds for the store key ``key`` (its environment
    part replaced by ``fingerprint.portable_fingerprint``), loaded and counted by
    :func:`load_count` and :func:`portable_load_count`; ``None`` where no tier has it."""
    started = time.perf_counter()
    exe = read_portable(key)
    if exe is not None:
        count_load(time.perf_counter() - started)
        with _LOADS_LOCK:
            _PORTABLE_LOADS[0] += 1
    return exe


def read_portable(key: str):
    """:func:`load_portable`'s executable, not counted (``None``: no tier has it)."""
    tiers = portable_tiers()
    if not tiers:
        return None
    portable = with_environment(key, fingerprint.portable_fingerprint())
    for tier in tiers:
        exe = tier.read(portable)
        if exe is not None:
            return exe
    return None


def with_environment(key: str, environment: str) -> str:
    """The store key ``key`` with its environment digest (its second part) replaced by
    ``environment`` (``""``: the neutral key a tier's trace holds)."""
    head, _, rest = key.partition("|")
    return f"{head}|{environment}|{rest.partition('|')[2]}"


def neutral_key(key: str) -> str:
    """``key`` as a tier's trace keeps it, the same on every machine: its environment part
    empty (:func:`tier_trace` fills in this machine's)."""
    return with_environment(key, "")


def tier_trace() -> list:
    """This machine's keys of the first trace of this program that a portable tier holds
    (``prefetch.read_tier_trace``): what a fresh machine loads ahead."""
    for tier in portable_tiers():
        names = prefetch.read_tier_trace(tier.path)
        if names:
            environment = fingerprint.environment_fingerprint()
            return [with_environment(name, environment) for name in names]
    return []


def portable_load_count() -> int:
    """Executables laxarray's kernels loaded from a portable tier in this process (counted
    by :func:`load_count` too)."""
    return _PORTABLE_LOADS[0]


_LOADS = [0, 0.0]
_LOADS_LOCK = threading.Lock()


def count_load(seconds=0.0) -> None:
    """Count one executable loaded from the store (:func:`load_count`) in ``seconds`` of
    its caller's time (:func:`load_seconds`)."""
    with _LOADS_LOCK:
        _LOADS[0] += 1
        _LOADS[1] += seconds


def load_count() -> int:
    """Executables laxarray's kernels loaded from the executable store in this process."""
    return _LOADS[0]


def load_seconds() -> float:
    """Seconds kernel calls spent in loading executables (reading, deserializing; waiting
    for the background loader), in this process."""
    return _LOADS[1]
