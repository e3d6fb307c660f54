"""jax's persistent compilation cache, on by default for laxarray.

A fresh process would otherwise compile every kernel again (tens of milliseconds each).
On import laxarray points jax's persistent cache at a per-user directory and lets small
kernels in (jax's own thresholds keep out anything that compiles in under a second), unless
the user configured jax's cache already (``JAX_COMPILATION_CACHE_DIR`` or
``jax.config.update("jax_compilation_cache_dir", ...)`` before importing laxarray):

* ``LAXARRAY_COMPILATION_CACHE=0`` turns it off; ``LAXARRAY_COMPILATION_CACHE=/path`` moves it;
* the default is ``$XDG_CACHE_HOME/laxarray/jax-<version>`` (``~/.cache/laxarray/...``);
  clear it with ``rm -rf ~/.cache/laxarray``;
* ``LAXARRAY_COMPILATION_CACHE_MAX_MB`` (default 1024): at most once a day, on import, the
  oldest entries are removed until the directory is under three quarters of this size.

Several processes may share the directory: jax writes each entry once under a key that
names its content, and a reader that meets an entry still being written (or just removed)
recompiles instead (jax warns and goes on).
"""

from __future__ import annotations

import os
import time

import jax

_ENV = "LAXARRAY_COMPILATION_CACHE"
_PRUNE_MARK = ".laxarray-pruned"
_DAY = 24 * 3600


def default_dir() -> str:
    """The cache directory laxarray uses when ``LAXARRAY_COMPILATION_CACHE`` is unset."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "laxarray", f"jax-{jax.__version__}")


def configure():
    """Turn on jax's persistent cache as the module docstring says; the directory used, or
    ``None`` where it is off (or jax's own setting is in force: then that directory)."""
    setting = os.environ.get(_ENV, "").strip()
    if setting == "0":
        return None
    current = jax.config.jax_compilation_cache_dir
    if current:
        return current
    path = setting or default_dir()
    try:
        os.makedirs(path, exist_ok=True)
    except OSError:
        return None
    jax.config.update("jax_compilation_cache_dir", path)
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0.0)
    jax.config.update("jax_persistent_cache_min_entry_size_bytes", -1)
    _prune(path, int(os.environ.get(f"{_ENV}_MAX_MB", 1024)) << 20)
    return path


def _prune(path, limit):
    """Remove the oldest entries of ``path`` above ``limit`` bytes, at most once a day."""
    mark = os.path.join(path, _PRUNE_MARK)
    try:
        if time.time() - os.stat(mark).st_mtime < _DAY:
            return
    except OSError:
        pass
    try:
        with open(mark, "w"):
            pass
        entries = []
        with os.scandir(path) as it:
            for e in it:
                if e.is_file() and e.name != _PRUNE_MARK:
                    st = e.stat()
                    entries.append((st.st_mtime, st.st_size, e.path))
    except OSError:
        return
    total = sum(size for _, size, _ in entries)
    if total <= limit:
        return
    for _, size, name in sorted(entries):
        if total <= limit * 3 // 4:
            break
        try:
            os.remove(name)
            total -= size
        except OSError:
            pass
