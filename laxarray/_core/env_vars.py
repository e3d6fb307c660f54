"""Every ``LAXARRAY_*`` environment variable, in one table, parsed in one place.

A setting is read through :func:`value`, which parses the variable as it is now (the
executable store's directory and the prefetch switch are read when a store opens, and
``precompile`` sets them for its workers) and falls back to the setting's default, with one
``RuntimeWarning`` naming the variable, the value and what was expected, where the text does
not parse: a bad setting never stops ``import laxarray`` (the package checks them all once
at import, :func:`check_all`).  A ``LAXARRAY_*`` variable the table does not know (a typo)
gets a warning too.
"""

from __future__ import annotations

import os
import threading
import warnings
from dataclasses import dataclass
from typing import Any, Callable


@dataclass(frozen=True)
class Setting:
    """One variable: its default, the parser of its text (raises ``ValueError``), what the
    warning says it expected, and what it does."""
    default: Any
    parse: Callable[[str], Any]
    expected: str
    doc: str


def _switch(text: str) -> bool:
    """``0``/``false``/``no``/``off`` or ``1``/``true``/``yes``/``on`` (any case)."""
    low = text.lower()
    if low in ("0", "false", "no", "off"):
        return False
    if low in ("1", "true", "yes", "on"):
        return True
    raise ValueError(text)


def _non_negative(text: str) -> int:
    n = int(text)
    if n < 0:
        raise ValueError(text)
    return n


def _megabytes(text: str) -> int:
    mb = float(text)
    if not mb >= 0 or mb == float("inf"):
        raise ValueError(text)
    return int(mb * (1 << 20))


def _choice(*options: str) -> Callable[[str], str]:
    def parse(text: str) -> str:
        if text not in options:
            raise ValueError(text)
        return text
    return parse


def _text(text: str) -> str:
    return text


#: the platforms that have a backend record (``backend.RECORDS``, which imports this module;
#: a test keeps the two equal)
PLATFORMS = ("cpu", "gpu", "cuda", "rocm", "tpu")


def _platform(text: str) -> str:
    return _choice(*PLATFORMS)(text.lower())


SETTINGS = {
    "LAXARRAY_COMPILATION_CACHE": Setting(
        "", _text, "a directory, or 0",
        "the executable store's directory (0: off)"),
    "LAXARRAY_COMPILATION_CACHE_MAX_MB": Setting(
        1024 << 20, _megabytes, "a number of megabytes",
        "the executable store's size limit"),
    "LAXARRAY_PORTABLE_STORE": Setting(
        "", _text, "a directory, or 0",
        "the portable tier's directory (0: off; default: the cache's laxarray/portable)"),
    "LAXARRAY_PORTABLE_BUILD": Setting(
        False, _switch, "0 or 1",
        "compile for the portable tier (precompile --portable sets it for its workers)"),
    "LAXARRAY_CPU_DESCRIPTION": Setting(
        "", _text, "a text", "the CPU description store keys use (a test aid)"),
    "LAXARRAY_PREFETCH": Setting(
        True, _switch, "0 or 1", "load ahead what this program looked up last time"),
    "LAXARRAY_STORE_HINT": Setting(
        True, _switch, "0 or 1", "say once that an empty store compiles at first"),
    "LAXARRAY_PLATFORM": Setting(
        "", _platform, "one of cpu, gpu, cuda, rocm, tpu",
        "the backend record to read (tpu on a CPU: the TPU's semantics, for tests)"),
    "LAXARRAY_RECORD": Setting(
        "", _text, "a file name", "record every store lookup to this file"),
    "LAXARRAY_RECORD_DEBUG": Setting(
        False, _switch, "0 or 1", "print why a call could not be recorded"),
    "LAXARRAY_MATMUL_PRECISION": Setting(
        "highest", _choice("highest", "tf32", "default"), "highest, tf32 or default",
        "the precision of floating-point matrix products"),
    "LAXARRAY_RANK_PROMOTION": Setting(
        "allow", _choice("allow", "warn", "raise"), "allow, warn or raise",
        "what broadcasting arrays of different ranks does"),
    "LAXARRAY_HOST_SORT": Setting(
        True, _switch, "0 or 1", "sort with NumPy on the CPU backend"),
    "LAXARRAY_BUCKET_LIMIT": Setting(
        1 << 15, _non_negative, "a non-negative integer",
        "the size up to which eager calls are padded to shared buckets (0: never)"),
    "LAXARRAY_BUCKET_POISON": Setting(
        False, _switch, "0 or 1", "fill padding with NaN/maximum (a test aid)"),
    "LAXARRAY_KERNEL_CACHE": Setting(
        256, lambda text: max(int(text), 1), "an integer",
        "executables kept in memory (at least one)"),
}

_WARNED: set = set()
_LOCK = threading.Lock()


def value(name: str) -> Any:
    """The setting ``name`` as the environment has it now (its default where unset, empty,
    or not parsable -- then with one warning per variable and value)."""
    setting = SETTINGS[name]
    text = os.environ.get(name, "").strip()
    if not text:
        return setting.default
    try:
        return setting.parse(text)
    except (ValueError, TypeError, OverflowError):
        warn_once((name, text), f"laxarray: {name}={text!r}: expected {setting.expected}; "
                            f"using the default ({setting.default!r})")
        return setting.default


def warn_once(key, message: str) -> None:
    """A ``RuntimeWarning`` the first time ``key`` is seen in this process (thread-safe)."""
    with _LOCK:
        if key in _WARNED:
            return
        _WARNED.add(key)
    warnings.warn(message, RuntimeWarning, stacklevel=3)


def cache_home() -> str:
    """The user's cache directory, below which laxarray keeps its stores where
    ``LAXARRAY_COMPILATION_CACHE`` names none: ``$XDG_CACHE_HOME``, else ``~/.cache``."""
    return os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")


def check_all() -> None:
    """Parse every setting once (at import), warning about bad values and about
    ``LAXARRAY_*`` variables the table does not know."""
    for name in SETTINGS:
        value(name)
    for name in sorted(os.environ):
        if name.startswith("LAXARRAY_") and name not in SETTINGS:
            warn_once(("unknown", name), f"laxarray: {name} is not a laxarray setting (known: "
                                     f"{', '.join(sorted(SETTINGS))}); ignored")
