"""Running conformance specs on any array namespace, one hypothesis search per spec.

:func:`select_specs` picks the specs a run covers (``--functions``/``--skip`` globs, the
standard's version, the extensions); :func:`run_spec` runs one spec under explicit
hypothesis settings and a fixed seed and returns a :class:`Result` with the outcome, the
dtypes each example drew (for the function x dtype matrix), and -- on failure -- the
minimal example hypothesis found as a reproducible snippet; :func:`run_namespace` runs a
selection with a plain-text progress bar.
"""

from __future__ import annotations

import fnmatch
import importlib
import re
import sys
import time
import warnings
from dataclasses import dataclass, field

import hypothesis
from hypothesis import HealthCheck, Phase, given, settings, strategies as st
from hypothesis.errors import HypothesisException
import numpy as np

from laxarray.conformance.spec import SPECS, resolve

#: names each revision of the standard added, for ``--version`` (only names with specs).
ADDED_IN = {
    "2025.12": frozenset({"broadcast_shapes", "isin", "linalg.eig", "linalg.eigvals"}),
}
VERSIONS = ("2024.12", "2025.12")
#: extensions a spec may belong to; "numpy" is the NumPy surface beyond the standard.
EXTENSIONS = ("linalg", "fft", "numpy")
#: the extensions checked unless asked otherwise (the standard's own).
DEFAULT_EXTENSIONS = ("linalg", "fft")

#: outcomes, in the order reports list them.
OUTCOMES = ("pass", "fail", "error", "unsupported", "skipped")


@dataclass
class Result:
    """The outcome of one spec on one namespace."""

    name: str
    status: str
    examples: int = 0  # calls of the spec's check, shrinking included
    seconds: float = 0.0
    message: str = ""
    snippet: str = ""
    drawn: str = ""
    #: dtype name -> "pass" / "fail" / "error": the worst outcome of the examples that drew
    #: it (a binary spec's example counts for both dtypes of its pair; "-": no dtype drawn)
    dtypes: dict = field(default_factory=dict)

    def as_dict(self):
        """A JSON-ready dict of this result."""
        return {"name": self.name, "status": self.status, "examples": self.examples,
                "seconds": round(self.seconds, 4), "message": self.message,
                "snippet": self.snippet, "drawn": self.drawn, "dtypes": dict(self.dtypes)}


@dataclass
class Run:
    """All results of one namespace."""

    namespace: str
    version: str
    seed: int
    max_examples: int
    results: list = field(default_factory=list)
    seconds: float = 0.0

    def counts(self):
        """``{outcome: count}`` over the results."""
        out = dict.fromkeys(OUTCOMES, 0)
        for r in self.results:
            out[r.status] += 1
        return out

    def totals(self):
        """``(passed, failed, skipped)``: errors and unsupported names count as failed."""
        c = self.counts()
        return c["pass"], c["fail"] + c["error"] + c["unsupported"], c["skipped"]

    def as_dict(self):
        """A JSON-ready dict of this run."""
        passed, failed, skipped = self.totals()
        return {"namespace": self.namespace, "version": self.version, "seed": self.seed,
                "max_examples": self.max_examples, "seconds": round(self.seconds, 3),
                "summary": {"passed": passed, "failed": failed, "skipped": skipped,
                            **self.counts()},
                "results": [r.as_dict() for r in self.results]}


def load_namespace(name):
    """The module ``name`` (``"numpy"``, ``"array_api_compat.numpy"``, ``"jax.numpy"`` ...)."""
    return importlib.import_module(name)


def _matches(name, patterns):
    return any(fnmatch.fnmatchcase(name, p) for p in patterns)


def split_names(text):
    """``"a, b,c"`` -> ``["a", "b", "c"]`` (empty or None -> ``[]``)."""
    return [p.strip() for p in text.split(",") if p.strip()] if text else []


def select_specs(functions=None, skip=None, version="2025.12", extensions=DEFAULT_EXTENSIONS):
    """``(specs, skipped)``: the specs to run and ``{name: reason}`` of those left out.

    ``functions``/``skip`` are lists of names or fnmatch globs (``functions=None``: all);
    a spec of a name added after ``version``, or of an extension not in ``extensions``,
    is skipped with the reason.
    """
    if version not in VERSIONS:
        raise ValueError(f"select_specs: expected a version in {VERSIONS}; got {version!r}")
    later = set()
    for v, names in ADDED_IN.items():
        if v > version:
            later |= names
    chosen, skipped = [], {}
    for name in sorted(SPECS):
        if functions and not _matches(name, functions):
            continue
        if skip and _matches(name, skip):
            continue
        spec = SPECS[name]
        ext = spec.extension or (spec.kind if spec.kind in EXTENSIONS else None)
        if name in later:
            skipped[name] = f"added in a later version than {version}"
        elif ext is not None and ext not in extensions:
            skipped[name] = f"extension {ext!r} not selected"
        else:
            chosen.append(spec)
    return chosen, skipped


def _dtype_keys(drawn):
    """The dtype names an example drew (both of a binary spec's pair), or ``["-"]``."""
    for label, value in drawn:
        if label in ("dtype", "dtypes") and value is not None:
            values = value if isinstance(value, (tuple, list)) else (value,)
            return sorted({str(v) for v in values})
    return ["-"]


def _is_namespace_name(name):
    return not (name.startswith("__") and name.endswith("__")) or name == "__array_namespace_info__"


def _first_error(exc):
    """The exception to report from a (possibly grouped) hypothesis failure."""
    if isinstance(exc, BaseExceptionGroup):
        inner = list(exc.exceptions)
        for e in inner:
            if isinstance(e, AssertionError):
                return _first_error(e)
        return _first_error(inner[0])
    return exc


_BLOB = re.compile(r"@reproduce_failure\([^\n]*\)")


def _snippet(namespace_label, name, seed, max_examples, exc, drawn, shrink):
    """Python source that replays the failing example (hypothesis' ``reproduce_failure``
    blob when it printed one, else the same seed and settings), with the drawn values."""
    notes = []
    for e in (exc, _first_error(exc)):
        notes.extend(getattr(e, "__notes__", []) or [])
    blob = next((m.group(0) for n in notes for m in [_BLOB.search(n)] if m), None)
    what = "minimal failing example" if shrink else "failing example (not shrunk)"
    lines = [f"# {name} on {namespace_label}: {what} (seed {seed})"]
    lines += [f"#   {label} = {value!r}" for label, value in drawn]
    lines += ["import importlib",
              "from hypothesis import given, seed, settings, strategies as st"]
    if blob:
        lines[-1] += ", reproduce_failure"
    lines += ["from laxarray.conformance import SPECS",
              f"xp = importlib.import_module({namespace_label!r})",
              ""]
    if blob:
        lines.append(blob)
    lines += [f"@seed({seed})",
              f"@settings(max_examples={max_examples}, database=None, deadline=None)",
              "@given(st.data())",
              "def test(data):",
              f"    SPECS[{name!r}].check(xp, data)",
              "",
              "test()"]
    return "\n".join(lines)


def run_spec(xp, spec, *, max_examples=25, seed=0, namespace_label="xp", shrink=True):
    """Run ``spec`` on namespace ``xp``: a :class:`Result`, never raises for the spec's sake.

    ``shrink=False`` reports the first failing example found instead of a minimal one
    (faster; the snippet still reproduces it).
    """
    start = time.perf_counter()
    name = spec.name
    if _is_namespace_name(name):
        try:
            resolve(xp, name)
        except AttributeError:
            return Result(name, "unsupported", message=f"{name} is not in the namespace")
    dtypes = {}
    examples = [0]
    last = [[]]

    def body(data):
        drawn = []
        last[0] = drawn
        outcome = "pass"
        try:
            spec.check(xp, data, drawn)
        except HypothesisException:
            raise
        except AssertionError:
            outcome = "fail"
            raise
        except Exception:
            outcome = "error"
            raise
        finally:
            if drawn or outcome != "pass":
                examples[0] += 1
                for key in _dtype_keys(drawn):
                    if outcome == "pass":
                        dtypes.setdefault(key, "pass")
                    elif dtypes.get(key) != "fail":
                        dtypes[key] = outcome

    test = given(st.data())(body)
    test = settings(max_examples=max_examples, deadline=None, database=None,
                    print_blob=True, derandomize=False,
                    phases=list(Phase) if shrink else [p for p in Phase if p != Phase.shrink],
                    suppress_health_check=list(HealthCheck))(test)
    test = hypothesis.seed(seed)(test)
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            test()
    except BaseException as exc:  # noqa: BLE001 -- any failure is a reported outcome
        if isinstance(exc, (KeyboardInterrupt, SystemExit)):
            raise
        err = _first_error(exc)
        status = "fail" if isinstance(err, AssertionError) else "error"
        message = f"{type(err).__name__}: {err}".strip().splitlines()[0][:500]
        drawn = last[0]
        return Result(name, status, examples[0], time.perf_counter() - start, message,
                      _snippet(namespace_label, name, seed, max_examples, exc, drawn, shrink),
                      "\n".join(f"{label} = {value!r}" for label, value in drawn), dtypes)
    return Result(name, "pass", examples[0], time.perf_counter() - start, dtypes=dtypes)


class Progress:
    """A plain-text progress bar on a stream (stderr by default)."""

    def __init__(self, total, label="", stream=None, width=30):
        self.total, self.label, self.width = total, label, width
        self.stream = sys.stderr if stream is None else stream
        self.done = 0

    def update(self, name):
        """Advance one step, showing ``name``."""
        self.done += 1
        filled = self.width * self.done // max(self.total, 1)
        bar = "#" * filled + "." * (self.width - filled)
        self.stream.write(f"\r{self.label} [{bar}] {self.done}/{self.total} {name:<28.28}")
        self.stream.flush()

    def close(self):
        """End the bar's line."""
        self.stream.write("\n")
        self.stream.flush()


def run_namespace(xp, specs, skipped=None, *, namespace_label="xp", version="2025.12",
                  max_examples=25, seed=0, progress=True, shrink=True):
    """Run ``specs`` on ``xp``: a :class:`Run` (``skipped``: ``{name: reason}`` to record)."""
    run = Run(namespace_label, version, seed, max_examples)
    start = time.perf_counter()
    bar = Progress(len(specs), namespace_label) if progress else None
    for spec in specs:
        run.results.append(run_spec(xp, spec, max_examples=max_examples, seed=seed,
                                    namespace_label=namespace_label, shrink=shrink))
        if bar:
            bar.update(spec.name)
    if bar:
        bar.close()
    for name, reason in sorted((skipped or {}).items()):
        run.results.append(Result(name, "skipped", message=reason))
    run.results.sort(key=lambda r: r.name)
    run.seconds = time.perf_counter() - start
    return run
