"""Workloads: named lists of tasks whose calls fill the executable store ahead of use.

A :class:`Task` is one step of the progress bar: a few calls made in one worker process.
Every process builds the same list for a workload name (:func:`tasks`; for a record file,
:func:`laxarray.precompile.recorded.tasks`), so a worker is told only the name (or the
file) and which of :func:`chunk`'s shares is its own.  Tasks of one ``group`` meet
the same executables (one bucket shape and dtype): a share keeps a group whole, so two
workers seldom compile the same program.
"""

from __future__ import annotations

import fnmatch

from laxarray.precompile import estimators, standard
from laxarray.precompile.task import Task

#: name: (the function that lists its tasks, a one-line description, the module it needs)
WORKLOADS = {
    "sklearn": (estimators.tasks, "scikit-learn estimators and metrics (array_api_dispatch=True) "
                                  "on a grid of bucket shapes, float64 and float32", "sklearn"),
    "standard": (standard.tasks, "each Array API function on small inputs of its common dtypes "
                                 "(1-D lengths 1..129, a few 2-D shapes, small square matrices)",
                 None),
}


def names() -> list[str]:
    """Return the names of the built-in workloads.

    Returns
    -------
    list of str
        The names :func:`precompile` and :func:`describe` take, sorted.

    Notes
    -----
    Static under ``jax.jit``: not applicable (plain Python).

    Examples
    --------
    >>> from laxarray.precompile import names
    >>> names()
    ['sklearn', 'standard']
    """
    return sorted(WORKLOADS)


def check_name(function: str, name) -> str:
    """``name`` if it names a workload; otherwise a ValueError that lists the names."""
    if not isinstance(name, str) or name not in WORKLOADS:
        raise ValueError(f"{function}: expected a workload name, one of "
                         f"{', '.join(map(repr, names()))}; got {name!r}")
    return name


def describe(name: str) -> str:
    """Return the one-line description of a built-in workload.

    Parameters
    ----------
    name : str
        A workload name, one of :func:`names`.

    Returns
    -------
    str
        What the workload runs.

    Raises
    ------
    ValueError
        If ``name`` names no workload.

    Notes
    -----
    Static under ``jax.jit``: not applicable (plain Python).

    Examples
    --------
    >>> from laxarray.precompile import describe
    >>> describe("standard")
    'each Array API function on small inputs of its common dtypes (1-D lengths 1..129, a few
    2-D shapes, small square matrices)'
    """
    return WORKLOADS[check_name("describe", name)][1]


def requires(name: str) -> str | None:
    """The module that workload ``name`` needs besides laxarray (``None``: nothing else)."""
    return WORKLOADS[check_name("requires", name)][2]


def tasks(name: str, limit: int | None = None, match: str | None = None) -> list[Task]:
    """The tasks of workload ``name``: those whose label matches the glob ``match`` (all
    where ``None``), then the first ``limit`` of them (all where ``None``)."""
    return select(WORKLOADS[check_name("tasks", name)][0](), limit, match)


def select(found: list[Task], limit: int | None = None, match: str | None = None) -> list[Task]:
    """The tasks of ``found`` whose label matches the glob ``match`` (all where ``None``),
    then the first ``limit`` of them (all where ``None``)."""
    if match is not None:
        found = [t for t in found if fnmatch.fnmatchcase(t.label, match)]
    return found if limit is None else found[:max(int(limit), 0)]


def chunk(found: list[Task], index: int, count: int) -> list[tuple[int, Task]]:
    """Share ``index`` of ``count`` of ``found``, as ``(position in found, task)`` pairs in
    list order: whole groups, heaviest first, each to the share with the least weight so far
    (the same answer in every process)."""
    groups: dict[str, list[int]] = {}
    for i, t in enumerate(found):
        groups.setdefault(t.group, []).append(i)
    load = [0] * count
    mine = []
    order = sorted(groups.values(), key=lambda g: -sum(found[i].weight for i in g))
    for members in order:
        share = min(range(count), key=lambda s: (load[s], s))
        load[share] += sum(found[i].weight for i in members)
        if share == index:
            mine.extend(members)
    return [(i, found[i]) for i in sorted(mine)]


def shares(found: list[Task], count: int) -> int:
    """How many of ``count`` shares of ``found`` hold tasks (at most the number of groups)."""
    return min(count, len({t.group for t in found}))
