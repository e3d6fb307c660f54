"""jax's persistent compilation cache, on by default for users' own long compiles.

laxarray's kernels are kept by its executable store (``exec_store``), which a fresh process
reads before tracing.  jax's cache, which needs a trace and a lowering before it can look
anything up, is pointed at a per-user directory for what users compile themselves with
``jax.jit``, with jax's own thresholds (programs that compile in a second or more), unless
the user configured jax's cache already (``JAX_COMPILATION_CACHE_DIR`` or
``jax.config.update("jax_compilation_cache_dir", ...)`` before importing laxarray):

* ``LAXARRAY_COMPILATION_CACHE=0`` turns it off (and the store); ``=/path`` moves it there;
* the default is ``$XDG_CACHE_HOME/laxarray/jax-<version>-programs``
  (``~/.cache/laxarray/...``); clear it with ``rm -rf ~/.cache/laxarray``;
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
from laxarray._core import settings as _settings

_ENV = "LAXARRAY_COMPILATION_CACHE"
_PRUNE_MARK = ".laxarray-pruned"
_DAY = 24 * 3600


def default_dir() -> str:
    """The cache directory laxarray uses when ``LAXARRAY_COMPILATION_CACHE`` is unset."""
    base = _settings.cache_home()
    return os.path.join(base, "laxarray", f"jax-{jax.__version__}")


def configure():
    """Turn on jax's persistent cache as the module docstring says; the directory used, or
    ``None`` where it is off (or jax's own setting is in force: then that directory)."""
    setting = _settings.value(_ENV)
    if setting == "0":
        return None
    current = jax.config.jax_compilation_cache_dir
    if current:
        return current
    # laxarray's kernels go to its executable store (exec_store), which loads them without
    # tracing; jax's cache keeps jax's own thresholds, for users' long compiles.  (A kernel
    # that jax loaded from its cache could not be written to the store: jaxlib 0.10 serializes
    # such an executable without its machine code.)
    path = setting or default_dir() + "-programs"
    try:
        os.makedirs(path, exist_ok=True)
    except OSError:
        return None
    jax.config.update("jax_compilation_cache_dir", path)
    _prune(path, _settings.value(f"{_ENV}_MAX_MB"))
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
