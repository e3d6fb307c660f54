"""Run a benchmark with XLA's large CPU buffers on transparent huge pages, as NumPy's are.

NumPy asks the kernel for huge pages (``madvise``) on its own large arrays, so a 128 MB
``np.zeros`` costs ~64 page faults.  XLA's CPU buffers come from glibc ``malloc``, which by
default maps each large buffer afresh in 4 KiB pages: ~32,000 faults (tens of ms) for the
same 128 MB, on every call, whatever the kernel does.  glibc's ``hugetlb`` tunable gives
those buffers huge pages too; it can only be set before the process starts, so
:func:`use_huge_pages` re-executes the script with it (once; ``--no-hugepages`` keeps the
default).  Every library of a run shares the process, so ratios stay like for like.
"""

from __future__ import annotations

import os
import sys

_TUNABLE = "glibc.malloc.hugetlb=1"
_THP = "/sys/kernel/mm/transparent_hugepage/enabled"


def _thp_mode():
    try:
        with open(_THP) as f:
            text = f.read()
    except OSError:
        return None
    return text[text.index("[") + 1:text.index("]")] if "[" in text else None


def use_huge_pages():
    """Re-exec this script with ``GLIBC_TUNABLES=glibc.malloc.hugetlb=1`` where it helps
    (Linux, transparent huge pages in ``madvise`` mode, not already set, no
    ``--no-hugepages``); print which memory setting the run uses."""
    tunables = os.environ.get("GLIBC_TUNABLES", "")
    mode = _thp_mode()
    if "--no-hugepages" in sys.argv:
        sys.argv.remove("--no-hugepages")
        print(f"memory: glibc malloc defaults (transparent huge pages: {mode})", flush=True)
        return
    if _TUNABLE in tunables or mode != "madvise":
        how = "huge pages for malloc" if _TUNABLE in tunables else "glibc malloc defaults"
        print(f"memory: {how} (transparent huge pages: {mode})", flush=True)
        return
    env = dict(os.environ, GLIBC_TUNABLES=":".join(t for t in (tunables, _TUNABLE) if t))
    os.execve(sys.executable, [sys.executable] + sys.argv, env)
