"""A unit of a precompile workload (:mod:`laxarray.precompile.workloads` lists them)."""

from __future__ import annotations

from typing import Callable, NamedTuple

from laxarray._core import dtypes as _dt


class Task(NamedTuple):
    """One unit of a workload: the calls ``calls()`` returns, made in one worker."""

    label: str                  #: what the progress bar shows: ``"sin float32"``
    kind: str                   #: what a failure is listed under: ``"sin"``, ``"PCA(full)"``
    group: str                  #: tasks that share executables (one worker runs them all)
    weight: int                 #: the task's cost, roughly in compilations
    calls: Callable[[], list]   #: zero-argument callables, built in the worker


def device_dtypes(names) -> tuple[str, ...]:
    """The dtype ``names`` a workload asks for, as the device has them: each one it lacks
    replaced by its 32-bit stand-in (``dtypes.on_device``: on a TPU the float64 tasks run in
    float32), duplicates dropped."""
    return tuple(dict.fromkeys(_dt.on_device(name).name for name in names))


__all__ = ["Task", "device_dtypes"]
