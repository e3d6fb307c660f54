"""A unit of a precompile workload (:mod:`laxarray.precompile.workloads` lists them)."""

from __future__ import annotations

from typing import Callable, NamedTuple


class Task(NamedTuple):
    """One unit of a workload: the calls ``calls()`` returns, made in one worker."""

    label: str                  #: what the progress bar shows: ``"sin float32"``
    kind: str                   #: what a failure is listed under: ``"sin"``, ``"PCA(full)"``
    group: str                  #: tasks that share executables (one worker runs them all)
    weight: int                 #: the task's cost, roughly in compilations
    calls: Callable[[], list]   #: zero-argument callables, built in the worker


__all__ = ["Task"]
