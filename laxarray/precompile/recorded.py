"""Tasks from a record file: ``python -m laxarray.precompile --from FILE`` loads or builds
exactly the executables that a program run with ``LAXARRAY_RECORD=FILE`` looked up.

One task per distinct entry of the file (:func:`laxarray._core.runtime.lookup_log.read`), in file order,
so every worker that reads the file gets the same list.  Its kind -- what a failure is
listed under -- is the kernel's name; its group is the kernel with its static arguments, so
one worker gets all the signatures of one binding (they share its trace).  A task makes one
call, :func:`replay`: an entry already in the store is loaded, not built again.
"""

from __future__ import annotations

import functools
import json

from laxarray._core.runtime import exec_store, lookup_log
from laxarray._core.runtime.kernel import Kernel
from laxarray._core.runtime.kernel_id import find
from laxarray.precompile.task import Task
from laxarray.precompile.workloads import select

#: A worker's source argument for a record file: this prefix, then the file's path.
PREFIX = "from:"


def tasks(path, limit: int | None = None, match: str | None = None) -> list[Task]:
    """The tasks of record file ``path``: those whose label matches the glob ``match``
    (all where ``None``), then the first ``limit`` of them.  ``OSError`` where the file
    cannot be read; ``ValueError`` naming the line for a line that is not a record entry."""
    return select([_task(entry) for entry in lookup_log.read(path)], limit, match)


def traces(path) -> dict:
    """``{program label: store keys}`` of record file ``path``: each recorded program's
    lookups in order, the keys' environment part empty (``prefetch.write_tier_trace``);
    entries without a program (older records) or whose kernel is gone are left out."""
    out = {}
    for entry in lookup_log.read(path):
        if not entry.get("prog"):
            continue
        try:
            bound, sig, _, device = _binding(entry)
            name = bound.key(bool(entry["masked"]), sig, device)
        except (lookup_log.Unrecordable, AttributeError, ImportError, LookupError,
                TypeError, ValueError):
            continue
        if name is not None:
            out.setdefault(entry["prog"], []).append(exec_store.neutral_key(name))
    return out


def _task(entry) -> Task:
    label = lookup_log.label(entry)
    # the label is "NAME[ masked] SIGNATURE" and a signature has no spaces; NAME is the
    # kernel's, with a factory's arguments (family_kernel(..., 'sin'))
    kind = label.rsplit(" ", 1)[0].removesuffix(" masked")
    group = json.dumps([entry["kernel"], entry["items"]], sort_keys=True)
    return Task(label, kind, group, 1, functools.partial(_calls, entry))


def _calls(entry):
    return [functools.partial(replay, entry)]


def replay(entry) -> None:
    """Load or build (and store) the executable of one record entry in this process;
    ``RuntimeError`` where the store does not take it, ``lookup_log.Unrecordable`` where its
    kernel is gone (an upgrade renamed or removed it)."""
    bound, sig, stand_ins, device = _binding(entry)
    if not bound.prepare(bool(entry["masked"]), sig, stand_ins, device):
        raise RuntimeError("the executable store does not take this call (a host callback, "
                           "or static arguments without a name in every process)")


def _binding(entry):
    """``(binding, signature, stand-in arguments, device)`` of a record entry's call: its
    kernel bound to its statics (``lookup_log.Unrecordable`` where the kernel is gone, an
    upgrade renamed or removed it) and its inputs (``lookup_log.call_inputs``)."""
    kern = find(*lookup_log.target(entry))
    if not isinstance(kern, Kernel):
        raise lookup_log.Unrecordable(f"{entry['kernel'][0]} does not give a laxarray kernel "
                                      "(any more)")
    return (kern.bind(lookup_log.statics(entry)), *lookup_log.call_inputs(entry))
