"""The executables a process keeps: each kernel binding's tables, counted, bounded, and
watched by tests.

A binding (``kernel.Bound``) holds its executables in :class:`Executables` tables keyed by
call key (``call_key``); :func:`register` counts each one a table takes, and beyond
:func:`executable_limit` (``LAXARRAY_KERNEL_CACHE``, default 256; about 1.5 MB of code
each) :func:`evict` drops the tables of the least recently used bindings, which the
executable store refills in about a millisecond an executable.  :func:`spy` is the test
hook: while it is open every table records its hits, so the hot path holds no test of
its own.
"""

from __future__ import annotations

import contextlib
import threading

from laxarray._core import env_vars as _env_vars

# ---- policy settings ---------------------------------------------------------------------

_MAX_EXECUTABLES = [_env_vars.value("LAXARRAY_KERNEL_CACHE")]


def executable_limit() -> int:
    """How many compiled executables laxarray keeps before evicting the least recently used."""
    return _MAX_EXECUTABLES[0]


def set_executable_limit(n: int) -> None:
    """Set the executable bound (``LAXARRAY_KERNEL_CACHE`` at start-up); evicts at once."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"set_executable_limit: expected an int >= 1 for 'n'; got {n!r}")
    _MAX_EXECUTABLES[0] = n
    evict()


# ---- counting and eviction --------------------------------------------------

_LIVE: dict = {}        # a variant's table of executables (Executables) -> [variant, n]
_TOTAL = [0]
_COMPILES = [0]         # executables built by laxarray kernels since start-up
_LOCK = threading.RLock()  # the accounting above, shared by threads


def compile_count() -> int:
    """Executables laxarray's kernels have built in this process, or loaded from the
    executable store (:func:`load_count` of them); traces under an outer ``jax.jit`` are
    not counted: they compile nothing."""
    return _COMPILES[0]


def live_executables() -> int:
    """Executables currently kept (at most :func:`executable_limit`)."""
    return _TOTAL[0]


def register(variant, table):
    with _LOCK:
        _COMPILES[0] += 1
        entry = _LIVE.get(table)
        if entry is None:
            _LIVE[table] = [variant, 1]
        else:
            entry[1] += 1
        _TOTAL[0] += 1
        if _TOTAL[0] > _MAX_EXECUTABLES[0]:
            evict()


def evict():
    """Drop executables until a quarter of the bound is free: bindings not used since the
    previous sweep go first (oldest registration first), then the rest in that order.

    A binding drops its table (the next call starts a new one); the executables go with the
    table once no thread is still running one -- clearing jax's cache instead would pull
    them from under a concurrent call."""
    limit = _MAX_EXECUTABLES[0]
    with _LOCK:
        if _TOTAL[0] <= limit:
            return
        target = limit - max(limit // 4, 1) if limit > 1 else 0
        entries = list(_LIVE.items())  # registration order
        for pass_ in (0, 1):
            for table, (variant, count) in entries:
                if _TOTAL[0] <= target:
                    break
                if table not in _LIVE or (pass_ == 0 and table.owner.used):
                    continue
                if variant.exes is table:
                    variant.exes = None
                del _LIVE[table]
                _TOTAL[0] -= count
        for table in _LIVE:
            table.owner.used = False


# ---- the test spy: which kernels ran, recorded off the hot path -------------------------------

class Executables(dict):
    """A kernel binding's table of executables by call key (``call_key.signature``, or
    ``call_key.spread`` of it); one accounting entry in the table of live executables
    (hashable by identity).  ``owner``: the binding (what the spy records)."""
    __hash__ = object.__hash__
    __slots__ = ("owner",)


class _SpiedExecutables(Executables):
    """A table while :func:`spy` records: a hit is a run of its owner's kernel."""
    __slots__ = ()

    def get(self, key, default=None):
        run = dict.get(self, key, default)
        if run is not None and _SPY_LOG:
            _SPY_LOG[-1].append(self.owner.kernel.id)
        return run


_SPY_LOG = []           # the open spies' lists (the innermost records)
_TABLE = [Executables]  # the class new tables are made of


@contextlib.contextmanager
def spy():
    """``with spy() as ran:`` -- the ``KernelId`` of every kernel run in the block, in order
    (eager, traced, loaded or compiled), for tests.  While a spy is open every table of
    executables records its hits; the hot path holds no test of its own."""
    ran = []
    _SPY_LOG.append(ran)
    with _LOCK:
        _TABLE[0] = _SpiedExecutables
        for table in _LIVE:
            table.__class__ = _SpiedExecutables
    try:
        yield ran
    finally:
        _SPY_LOG.remove(ran)
        if not _SPY_LOG:
            with _LOCK:
                _TABLE[0] = Executables
                for table in _LIVE:
                    table.__class__ = Executables


def new_table(owner) -> Executables:
    """An empty table of ``owner``'s (a binding's) executables, of the class a spy watches
    while one is open."""
    table = _TABLE[0]()
    table.owner = owner
    return table


def ran(bound):
    """Record a run of ``bound`` that did not come from a table's hit (a trace, a first
    call), where a spy is open."""
    if _SPY_LOG:
        _SPY_LOG[-1].append(bound.kernel.id)
