"""Running conformance specs on any array namespace, one hypothesis search per spec.

:func:`select_specs` picks the specs a run covers (``--functions``/``--skip`` globs, the
standard's version, the extensions); :func:`run_spec` runs one spec's hypothesis search
under explicit settings and a fixed seed, then its pinned examples
(:attr:`~laxarray.conformance.spec.Spec.pinned`: the large size class of the reductions),
and returns a :class:`Result` with the outcome, the dtypes each example drew (for the
function x dtype matrix), and -- on failure -- the minimal example hypothesis found as a
snippet: a self-contained reproduction (NumPy and the namespace only,
:mod:`laxarray.conformance.snippets`) where the failing call can be written out, followed
by hypothesis' replay of the example; :func:`run_namespace` runs a selection with a
plain-text progress bar.  A spec whose function has special cases in the standard's text
passes only if, after its search, the namespace also meets every one of
them (:mod:`laxarray.conformance.special_cases_check`: batched, one call per dtype and
form).

On a namespace whose arrays are immutable (:func:`arrays_are_mutable`), specs that write
into arrays (``Spec.needs_mutation``) are reported ``"unsupported"`` with the message
``"unsupported: immutable arrays"`` -- the standard allows such namespaces, so these do not
count as failures.  Specs expected to fail (``xfails``, see
:mod:`laxarray.conformance.expectations`) report ``"xfail"`` when they fail and
``"xpass"`` when they pass; neither counts as a failure.

What the namespace can do is probed once per run (:mod:`laxarray.conformance.capabilities`):
specs that need a feature it lacks (``Spec.needs``: boolean indexing, data-dependent shapes
-- its ``capabilities()`` or array_api_strict's flags --, two or more devices), names added
after array_api_strict's ``api_version`` and extensions its flags disabled are reported
``"skipped"`` with the reason.
"""

from __future__ import annotations

import collections
import fnmatch
import functools
import importlib
import pkgutil
import re
import sys
import textwrap
import time
import warnings
from dataclasses import dataclass, field

import hypothesis
from hypothesis import HealthCheck, Phase, given, settings, strategies as st
from hypothesis.errors import HypothesisException, Unsatisfiable
import numpy as np

from . import (boundaries, capabilities as caps_mod, coverage, device_dtypes,
                                  parallel, snippets, special_cases_check)
from .spec import (SPECS, Pinned, collecting_notes, excluding_dtypes,
                                       mutable_arrays, resolve, without_local_constants)

#: names each revision of the standard added, for ``--version`` (only names with specs).
ADDED_IN = {
    "2025.12": frozenset({"broadcast_shapes", "isin", "linalg.eig", "linalg.eigvals"}),
}
VERSIONS = ("2024.12", "2025.12")
#: names of the linalg and fft extensions' specs that the standard does not define (NumPy's
#: ``numpy.linalg``/``numpy.fft`` beyond it): a namespace without one is not failed for it
BEYOND_STANDARD = frozenset({
    "fft.fft2", "fft.ifft2", "fft.rfft2", "fft.irfft2", "linalg.cond", "linalg.lstsq",
    "linalg.multi_dot", "linalg.norm", "linalg.tensorinv", "linalg.tensorsolve"})
#: extensions a spec may belong to; "numpy" is the NumPy surface beyond the standard.
EXTENSIONS = ("linalg", "fft", "numpy")
#: the extensions checked unless asked otherwise (the standard's own).
DEFAULT_EXTENSIONS = ("linalg", "fft")

#: the name this package is imported under (``laxarray.conformance``, or the standalone
#: distribution's top-level name), which replay snippets import
PACKAGE = __name__.rpartition(".")[0]
#: outcomes, in the order reports list them.
OUTCOMES = ("pass", "fail", "error", "unsupported", "xfail", "xpass", "skipped")
#: the message of specs left out because they write into arrays of an immutable namespace.
IMMUTABLE = "unsupported: immutable arrays"


@dataclass
class Result:
    """The outcome of one spec on one namespace."""

    name: str
    status: str
    examples: int = 0  # calls of the spec's check, shrinking included
    seconds: float = 0.0
    message: str = ""
    snippet: str = ""  # reproduction of a failure (see the module docstring)
    #: whether ``snippet`` begins with a self-contained reproduction (NumPy and the
    #: namespace only), not just hypothesis' replay
    standalone: bool = False
    drawn: str = ""
    #: dtype name -> "pass" / "fail" / "error": the worst outcome of the examples that drew
    #: it (a binary spec's example counts for both dtypes of its pair; "-": no dtype drawn)
    dtypes: dict = field(default_factory=dict)
    #: the classes of input its examples exercised (:mod:`laxarray.conformance.coverage`)
    coverage: dict = field(default_factory=dict)
    #: the value classes x code paths its examples met
    #: (:meth:`laxarray.conformance.coverage.Record.table`)
    combinations: dict = field(default_factory=dict)
    #: ``{function: {"parameter: kind": examples}}``: the cells of the signatures its
    #: calls met (:meth:`laxarray.conformance.coverage.Record.tried`)
    tried: dict = field(default_factory=dict)
    #: what no example met: ``{"parameters": [...], "rank pairs": [...], "value classes":
    #: [...]}`` (:meth:`laxarray.conformance.coverage.Record.untried`; kinds with none
    #: left out)
    untried: dict = field(default_factory=dict)

    @property
    def untried_count(self):
        """The number of cells no example met (:attr:`untried`)."""
        return sum(len(v) for v in self.untried.values())

    def as_dict(self):
        """A JSON-ready dict of this result."""
        return {"name": self.name, "status": self.status, "examples": self.examples,
                "seconds": round(self.seconds, 4), "message": self.message,
                "snippet": self.snippet, "standalone": self.standalone, "drawn": self.drawn,
                "dtypes": dict(self.dtypes), "coverage": dict(self.coverage),
                "combinations": dict(self.combinations), "tried": dict(self.tried),
                "untried": dict(self.untried)}


@dataclass
class Run:
    """All results of one namespace."""

    namespace: str
    version: str
    seed: int
    max_examples: int
    results: list = field(default_factory=list)
    seconds: float = 0.0
    #: entries of ``--xfails``/``--skips`` files that name no spec (``"FILE:LINE: why"``)
    unmapped: list = field(default_factory=list)
    #: what the capability probe found that shapes the run (flags, the target device)
    notes: list = field(default_factory=list)

    def counts(self):
        """``{outcome: count}`` over the results."""
        out = dict.fromkeys(OUTCOMES, 0)
        for r in self.results:
            out[r.status] += 1
        return out

    def totals(self):
        """``(passed, failed, skipped)``: errors and unsupported names count as failed,
        except specs left out for immutable arrays (which the standard allows): those
        count as skipped.  Expected failures (xfail) and unexpected passes (xpass) count
        in none of the three (see :meth:`counts`)."""
        c = self.counts()
        immutable = sum(r.status == "unsupported" and r.message == IMMUTABLE
                        for r in self.results)
        return (c["pass"], c["fail"] + c["error"] + c["unsupported"] - immutable,
                c["skipped"] + immutable)

    def as_dict(self):
        """A JSON-ready dict of this run."""
        passed, failed, skipped = self.totals()
        return {"namespace": self.namespace, "version": self.version, "seed": self.seed,
                "max_examples": self.max_examples, "seconds": round(self.seconds, 3),
                "summary": {"passed": passed, "failed": failed, "skipped": skipped,
                            **self.counts(),
                            "untried": sum(r.untried_count for r in self.results
                                           if r.status in ("pass", "xpass"))},
                "unmapped": list(self.unmapped), "notes": list(self.notes),
                "results": [r.as_dict() for r in self.results]}


def load_namespace(name):
    """The module ``name`` (``"numpy"``, ``"array_api_compat.numpy"``, ``"jax.numpy"`` ...)."""
    return importlib.import_module(name)


def settle_imports(xp):
    """Import now every module of the packages whose constants hypothesis draws: this
    package's (``laxarray.conformance``) and the package of namespace ``xp``, when it is not
    an installed one (``__main__`` modules excepted).

    Hypothesis also draws literal constants found in the source of the loaded modules that
    are not installed packages (a library checked in development mode), and it looks again
    whenever a module is imported.  A module imported in the middle of a run (a lazily
    loaded submodule of the namespace) would change the examples of the specs that follow,
    and a worker process (``jobs``) would draw differently from the parent: importing them
    all first makes a seed's examples the same in every process and in any order of specs.
    """
    roots = {__name__.rpartition(".")[0]}
    top = getattr(xp, "__name__", "").partition(".")[0]
    module = sys.modules.get(top)
    path = getattr(module, "__file__", None) or ""
    if module is not None and hasattr(module, "__path__") and path and \
            "site-packages" not in path and "dist-packages" not in path:
        roots.add(top)
    for root in sorted(roots):
        _import_package(root)


@functools.lru_cache(maxsize=None)
def _import_package(root):
    """Import every module of package ``root`` (once per process: a run calls this for
    each namespace it checks)."""
    package = importlib.import_module(root)
    for info in pkgutil.walk_packages(package.__path__, root + "."):
        if not info.name.endswith("__main__"):
            try:
                importlib.import_module(info.name)
            except Exception:  # noqa: BLE001 -- an optional module that cannot load
                pass


def arrays_are_mutable(xp):
    """Whether ``x[0] = 1`` works on an array of ``xp`` (``xp.asarray([0, 1])``); False
    where it raises (jax.numpy's TypeError), True where the probe array cannot be built
    (the specs then report what is wrong).  :func:`run_namespace` probes once per run."""
    try:
        a = xp.asarray([0, 1])
    except Exception:  # noqa: BLE001 -- not this probe's business
        return True
    try:
        a[0] = 1
    except Exception:  # noqa: BLE001 -- TypeError, ValueError, NotImplementedError...
        return False
    return True


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


def checked_functions(spec):
    """The functions whose calls a spec's coverage record files by their signatures'
    cells (:class:`~laxarray.conformance.coverage.Record`): its own (``spec.name``; a
    device spec's name, ``device.reduction``, names no function)."""
    return (spec.name,)


def _dtype_keys(drawn):
    """The dtype names an example drew (both of a binary spec's pair), or ``["-"]``."""
    for label, value in drawn:
        if label in ("dtype", "dtypes") and value is not None:
            values = value if isinstance(value, (tuple, list)) else (value,)
            return sorted({str(v) for v in values})
    return ["-"]


def added_in(name):
    """The revision of the standard that added ``name`` (None: in every revision)."""
    return next((v for v, names in ADDED_IN.items() if name in names), None)


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


#: boundary examples run per hypothesis example (:func:`_run_boundaries`): a search's own
#: cost (engine start, the rejected all-zeros example) is most of a small example's, and a
#: batch of this many stays well within the choices one example may draw
BATCH = 16

#: examples of a batch's failing plan run alone, to find its failure again and shrink it
#: there (its draws in the batch came from further along hypothesis' stream)
ALONE = 25

_BLOB = re.compile(r"@reproduce_failure\([^\n]*\)")


def _replay(name, seed, max_examples, exc, plans=None):
    """Lines replaying the example with hypothesis (its ``reproduce_failure`` blob when it
    printed one, else the same seed and settings); needs hypothesis and this package.
    ``plans``: the example is the boundary example of the last of these plans, run after
    the others of its batch (:mod:`laxarray.conformance.boundaries`)."""
    notes = []
    for e in (exc, _first_error(exc)):
        notes.extend(getattr(e, "__notes__", []) or [])
    blob = next((m.group(0) for n in notes for m in [_BLOB.search(n)] if m), None)
    lines = ["from hypothesis import given, seed, settings, strategies as st"]
    if blob:
        lines[-1] += ", reproduce_failure"
    lines += [f"from {PACKAGE} import SPECS",
              f"from {PACKAGE}.spec import without_local_constants"]
    if plans is not None:
        lines += [f"from {PACKAGE} import boundaries", "",
                  "PLANS = [  # the failing plan last, after those of its batch before it"]
        lines += [f"    {p!r}," for p in plans] + ["]"]
    lines.append("")
    if blob:
        lines.append(blob)
    # a plan found failing alone ran ALONE examples (the seed gives the same ones again)
    examples = max_examples if plans is None else ALONE if len(plans) == 1 else 1
    call = f"    SPECS[{name!r}].check(xp, data)" if plans is None else \
        f"    boundaries.check_batch(SPECS[{name!r}], xp, data, PLANS)"
    lines += [f"@seed({seed})",
              f"@settings(max_examples={examples}, "
              "database=None, deadline=None)",
              "@given(st.data())",
              "def test(data):",
              call,
              "",
              "with without_local_constants():  # the runner's draws, in any process",
              "    test()"]
    return lines


def _replay_pinned(name, index):
    """Lines replaying pinned example ``index`` of spec ``name`` (:attr:`Spec.pinned`)."""
    return [f"from {PACKAGE} import SPECS",
            f"from {PACKAGE}.spec import Pinned", "",
            f"SPECS[{name!r}].check(xp, Pinned(SPECS[{name!r}].pinned()[{index}]))"]


def _snippet(namespace_label, name, seed, max_examples, exc, drawn, shrink, standalone=None,
             why="", pinned=None, plan=None, plans=None):
    """Python source reproducing a failure: the self-contained reproduction ``standalone``
    (see :mod:`laxarray.conformance.snippets`) when there is one, then hypothesis' replay
    of the example -- or of the spec's pinned example of index ``pinned`` -- (behind
    ``REPLAY = False`` after a self-contained part, so the snippet needs only NumPy and the
    namespace), with the drawn values as comments."""
    if pinned is not None:
        lines = [f"# {name} on {namespace_label}: pinned example {pinned}"]
    elif plan is not None:
        what = "minimal failing boundary example" if shrink else \
            "failing boundary example (not shrunk)"
        lines = [f"# {name} on {namespace_label}: {what} (seed {seed}, plan {plan!r})"]
    else:
        what = "minimal failing example" if shrink else "failing example (not shrunk)"
        lines = [f"# {name} on {namespace_label}: {what} (seed {seed})"]
    for label, value in drawn:  # (a multi-line repr stays a comment)
        lines += [f"#   {text}" for text in f"{label} = {value!r}".splitlines()]
    replay = _replay(name, seed, max_examples, exc, plans) if pinned is None else \
        _replay_pinned(name, pinned)
    by = "hypothesis" if pinned is None else "the spec"
    if standalone:
        lines += ["# Self-contained reproduction (needs NumPy and the namespace only):",
                  standalone, "",
                  f"# The same example replayed by {by} (needs hypothesis and "
                  f"{PACKAGE}):",
                  "REPLAY = False",
                  "if REPLAY:",
                  textwrap.indent("\n".join(replay), "    ")]
        return "\n".join(lines)
    if why:
        lines.append(f"# No self-contained reproduction: {why}.")
    lines += [f"# Replay of the example by {by} (needs hypothesis and "
              f"{PACKAGE}):",
              "import importlib", f"xp = importlib.import_module({namespace_label!r})", ""]
    return "\n".join(lines + replay)


def run_spec(xp, spec, *, max_examples=25, seed=0, namespace_label="xp", shrink=True,
             mutable=None, capabilities=None, boundary=True):
    """Run ``spec`` on namespace ``xp``: a :class:`Result`, never raises for the spec's sake.

    ``shrink=False`` reports the first failing example found instead of a minimal one
    (faster; the snippet still reproduces it).  ``mutable``: whether ``xp``'s arrays can be
    written to (default: probed, :func:`arrays_are_mutable`); a spec that needs writes is
    ``"unsupported"`` (:data:`IMMUTABLE`) where they cannot.  ``capabilities``: what
    ``xp`` can do (default: probed, :func:`laxarray.conformance.capabilities.probe`); a
    spec it makes inapplicable is ``"skipped"`` with the reason, and the specs draw no
    dtype the run's device (the target device, else the default one) lacks (noted in the
    message of a pass) and expect its default dtypes
    (:mod:`laxarray.conformance.device_dtypes`).  After a search that passed, the spec's
    pinned examples run, each once whatever
    ``max_examples`` (:attr:`~laxarray.conformance.spec.Spec.pinned`: a failure the search
    finds is reported on its small, shrunk example); a failing one is reported as it is.
    Before the search, the spec's boundary examples run (``boundary=True``,
    :mod:`laxarray.conformance.boundaries`): in batches of :data:`BATCH`, each batch a
    search of one example, so a failing one shrinks and gets a snippet like the search's.  The result's ``coverage``
    records the classes of input all the examples exercised
    (:mod:`laxarray.conformance.coverage`).
    """
    start = time.perf_counter()
    name = spec.name
    if capabilities is None:
        capabilities = caps_mod.probe(xp)
    reason = capabilities.version_reason(spec, added_in(name))
    if reason:
        return Result(name, "skipped", message=reason)
    # a device spec ("device.fft") checks several functions: only its extension must exist
    needed = (spec.extension if spec.kind == "device" else
              name if _is_namespace_name(name) else None)
    if needed:
        try:
            resolve(xp, needed)
        except AttributeError:
            if name in BEYOND_STANDARD:
                return Result(name, "skipped", message="not in the standard (NumPy's "
                              "extension of it), and not in the namespace")
            return Result(name, "unsupported", message=f"{needed} is not in the namespace")
    if mutable is None:
        mutable = arrays_are_mutable(xp)
    if spec.needs_mutation and not mutable:
        return Result(name, "unsupported", message=IMMUTABLE)
    reason = capabilities.needs_reason(spec)
    if reason:
        return Result(name, "skipped", message=reason)
    dtypes = {}
    examples = [0]
    pinned = [None]  # the index of the pinned example running, if one is
    last = [[]]
    failures = collections.deque(maxlen=64)  # (exception, drawn, calls) of failing examples
    record = coverage.Record(functions=checked_functions(spec),
                             broadcasting="broadcasting" in spec.tags)
    batch = [None]  # the plans of the boundary examples running (one example), if any
    plan = [None]  # the plan running (after a failure: the failing one) and its index
    at = [0]
    batch_seed = [0]  # the boundary example's seed (boundaries.begin)
    ran = {}  # index in the batch -> whether the spec took that plan's example
    seen = {}  # the draws the boundary examples met (boundaries.plans reads them)

    def body(data):
        if batch[0] is None:
            return one(data)
        batch_seed[0] = boundaries.begin(data)
        for at[0], plan[0] in enumerate(batch[0]):
            one(data)

    def one(data):
        drawn, calls = [], []
        last[0] = drawn
        outcome = "pass"
        try:
            if plan[0] is None:
                spec.check(target, data, drawn, calls)
            else:
                ran[at[0]] = boundaries.check(spec, target, data, plan[0], drawn, calls,
                                              seen, first=False,
                                              seed=(batch_seed[0], at[0]))
        except HypothesisException:
            raise
        except AssertionError as exc:
            outcome = "fail"
            failures.append((exc, drawn, calls))
            raise
        except Exception as exc:
            outcome = "error"
            failures.append((exc, drawn, calls))
            raise
        finally:
            if drawn or outcome != "pass":
                examples[0] += 1
                record.add(drawn, calls)
                for key in _dtype_keys(drawn):
                    if outcome == "pass":
                        dtypes.setdefault(key, "pass")
                    elif dtypes.get(key) != "fail":
                        dtypes[key] = outcome

    def search(n, shrinking=shrink):
        test = given(st.data())(body)
        test = settings(max_examples=n, deadline=None, database=None,
                        print_blob=True, derandomize=False,
                        # no explain phase: it re-runs the shrunk example's variations for
                        # comments the report does not show
                        phases=[p for p in Phase if p != Phase.explain
                                and (shrinking or p != Phase.shrink)],
                        suppress_health_check=list(HealthCheck))(test)
        test = hypothesis.seed(seed)(test)
        # no database: its key (a digest of the test's source) costs more than a boundary
        # example's search
        test._hypothesis_internal_database_key = None
        return test

    target = capabilities.target(xp)
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"), mutable_arrays(mutable), \
                excluding_dtypes(capabilities.excluded_dtypes), collecting_notes() as notes, \
                device_dtypes.using(capabilities.profile), without_local_constants():
            warnings.simplefilter("ignore")
            if boundary and boundaries.applies(spec):
                _run_boundaries(search, batch, at, ran, seen, record, shrink)
                plan[0] = None
                record.keywords = boundaries.keywords(seen)
            search(max_examples)()
            for pinned[0], draws in spec.pinned_examples():
                body(Pinned(draws))
            pinned[0] = None
    except BaseException as exc:  # noqa: BLE001 -- any failure is a reported outcome
        if isinstance(exc, (KeyboardInterrupt, SystemExit)):
            raise
        table = record.table()
        err = _first_error(exc)
        if isinstance(err, Unsatisfiable) and capabilities.excluded_dtypes:
            return Result(name, "skipped", examples[0], time.perf_counter() - start,
                          capabilities.no_dtype("lacks a dtype every example needs"))
        status = "fail" if isinstance(err, AssertionError) else "error"
        message = f"{type(err).__name__}: {err}".strip().splitlines()[0][:500]
        drawn, calls = last[0], None
        for e, d, c in reversed(failures):
            if e is err:
                drawn, calls = d, c
                break
        standalone, why = None, "the failing example's namespace calls were not recorded"
        if calls is not None:
            try:
                standalone, why = snippets.reproduction(xp, namespace_label, name, err, calls)
            except Exception as bug:  # noqa: BLE001 -- a reproduction must not hide the result
                standalone, why = None, f"writing it failed ({type(bug).__name__}: {bug})"
        return Result(name, status, examples[0], time.perf_counter() - start, message,
                      _snippet(namespace_label, name, seed, max_examples, exc, drawn, shrink,
                               standalone, why, pinned[0], plan[0],
                               None if batch[0] is None else batch[0][:at[0] + 1]),
                      standalone is not None,
                      "\n".join(f"{label} = {value!r}" for label, value in drawn), dtypes,
                      record.as_dict(), table, record.tried(), record.untried(name, table))
    table = record.table()
    if special_cases_check.has_cases(name):  # every special case the standard states
        cases = special_cases_check.outcome(target, name, namespace_label=namespace_label,
                                            exclude=capabilities.excluded_dtypes,
                                            mutable=mutable)
        if cases is not None:
            message, snippet, standalone, failed = cases
            dtypes.update(dict.fromkeys(failed, "fail"))
            return Result(name, "fail", examples[0], time.perf_counter() - start, message,
                          snippet, standalone, dtypes=dtypes, coverage=record.as_dict(),
                          combinations=table, tried=record.tried(),
                          untried=record.untried(name, table))
    lines = [f"{topic}: {', '.join(sorted(items))}" for topic, items in sorted(notes.items())]
    lines += [capabilities.dtype_note(spec)]
    return Result(name, "pass", examples[0], time.perf_counter() - start,
                  message="; ".join(line for line in lines if line), dtypes=dtypes,
                  coverage=record.as_dict(), combinations=table,
                  tried=record.tried(), untried=record.untried(name, table))


def _run_boundaries(search, batch, at, ran, seen, record, shrink):
    """Run the boundary examples (:func:`laxarray.conformance.boundaries.plans`) in
    batches of :data:`BATCH`, each one example of ``search(1, shrinking)`` with
    ``batch[0]`` set to its plans; a failure propagates with ``batch[0]`` and the running
    plan (``at[0]``, its index) still naming it.  A batch runs without shrinking; where
    ``shrink`` asks for it, its failing plan then runs alone (:data:`ALONE` examples),
    shrunk (a batch shrinks slowly: each step replays the plans before the failing one),
    and only if it passes there the batch again, shrunk.  A plan whose example
    the spec rejects (it ``assume``-s what the plan steered to, or a dtype the target's
    device lacks) is passed over, and not counted (``ran``).  A batch no example of which
    hypothesis can complete runs again plan by plan."""
    def run(plans, shrinking, examples=1):
        batch[0] = plans
        ran.clear()
        try:
            search(examples, shrinking)()
        except Unsatisfiable:
            return False
        record.boundary += sum(ran.values())
        return True

    def run_batch(chunk):
        if len(chunk) == 1 or not shrink:
            return run(chunk, shrink)
        try:
            return run(chunk, False)
        except Exception as first:  # noqa: BLE001 -- a failure, shrunk below
            failing = chunk[at[0]]
            run([failing], True, ALONE)  # raises its shrunk failure, if it fails alone
            run(chunk, True)             # else the batch's, shrunk
            raise first from None       # (passed when run again: the first one stands)

    done = 0
    todo = boundaries.plans(seen, done)
    while todo:
        for i in range(0, len(todo), BATCH):
            chunk = todo[i:i + BATCH]
            if not run_batch(chunk) and len(chunk) > 1:
                for one in chunk:
                    run([one], shrink)
        done += len(todo)
        todo = boundaries.plans(seen, done)
    batch[0] = None


def _worker_start(namespace, device, options):
    """A worker process's start (``--jobs``): import the namespace, probe it once."""
    xp = load_namespace(namespace)
    settle_imports(xp)  # the same modules, so the same examples, as the parent
    _WORKER.update(xp=xp, options=options, mutable=arrays_are_mutable(xp),
                   capabilities=caps_mod.probe(xp, device))


def _worker_run(name):
    """Run the spec ``name`` in this worker: its Result."""
    return run_spec(_WORKER["xp"], SPECS[name], mutable=_WORKER["mutable"],
                    capabilities=_WORKER["capabilities"], **_WORKER["options"])


def _worker_failed(name, message):
    """The Result of a spec whose worker died (or whose result could not come back)."""
    return Result(name, "error", message=message)


#: A worker process's namespace, probes and run options (:func:`_worker_start`).
_WORKER = {}


def _check_parallel(xp, namespace_label, device):
    """ValueError unless worker processes can rebuild the run: ``xp`` importable as
    ``namespace_label``, ``device`` a name (or None)."""
    try:
        same = load_namespace(namespace_label) is xp
    except ImportError:
        same = False
    if not same:
        raise ValueError(f"run_namespace: jobs > 1 needs the namespace importable as "
                         f"namespace_label; {namespace_label!r} is not {xp!r}")
    if device is not None and not isinstance(device, str):
        raise ValueError(f"run_namespace: jobs > 1 needs the device as a name; got {device!r}")


def _isatty(stream):
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class Progress:
    """A plain-text progress bar on a stream (stderr by default)."""

    def __init__(self, total, label="", stream=None, width=30):
        self.total, self.label, self.width = total, label, width
        self.stream = sys.stderr if stream is None else stream
        self.done = 0
        self.lines = not _isatty(self.stream)     # a log: a line per step, not a bar

    def update(self, name, seconds=None, status=None):
        """Advance one step, showing ``name``; on a stream that is not a terminal (a log), a
        line per step with its ``seconds`` and ``status``, so that a run cut off midway says
        where it was and what had failed."""
        self.done += 1
        if self.lines:
            took = "" if seconds is None else f" {seconds:.2f} s"
            verdict = "" if status is None else f" {status}"
            self.stream.write(f"{self.label} {self.done}/{self.total} {name}{took}{verdict}\n")
            self.stream.flush()
            return
        filled = self.width * self.done // max(self.total, 1)
        bar = "#" * filled + "." * (self.width - filled)
        self.stream.write(f"\r{self.label} [{bar}] {self.done}/{self.total} {name:<28.28}")
        self.stream.flush()

    def close(self):
        """End the bar's line."""
        if self.lines:
            return
        self.stream.write("\n")
        self.stream.flush()


def run_namespace(xp, specs, skipped=None, *, namespace_label="xp", version="2025.12",
                  max_examples=25, seed=0, progress=True, shrink=True, xfails=None,
                  unmapped=(), device=None, jobs=1):
    """Run ``specs`` on ``xp``: a :class:`Run` (``skipped``: ``{name: reason}`` to record).

    ``xfails``: ``{name: reason}`` of specs expected to fail: a failure (or an error, or a
    missing function) is reported ``"xfail"`` with the reason before its message, a pass
    ``"xpass"``.  ``unmapped``: lines of expectation files naming no spec, kept on the run
    for the reports.  ``device``: a device of ``xp`` (or its name) to create the inputs on
    (:class:`~laxarray.conformance.capabilities.OnDevice`).  Whether ``xp``'s arrays are
    mutable, and what it can do (:func:`~laxarray.conformance.capabilities.probe`), are
    probed once, for all specs.  ``jobs > 1`` runs the specs in that many worker processes
    (:mod:`laxarray.conformance.parallel`; the same results, less wall time): ``xp`` must
    then be the module importable as ``namespace_label`` and ``device`` a name or None.
    """
    run = Run(namespace_label, version, seed, max_examples, unmapped=list(unmapped))
    xfails = xfails or {}
    start = time.perf_counter()
    settle_imports(xp)
    mutable = arrays_are_mutable(xp)
    capabilities = caps_mod.probe(xp, device)
    run.notes = capabilities.notes()
    bar = Progress(len(specs), namespace_label) if progress else None

    def record(result):
        reason = xfails.get(result.name)
        if reason is not None and result.message != IMMUTABLE:
            if result.status in ("fail", "error", "unsupported"):
                result.status = "xfail"
                result.message = f"expected to fail ({reason}): {result.message}"
            elif result.status == "pass":
                result.status = "xpass"
                result.message = f"expected to fail ({reason}) but passed"
        run.results.append(result)
        if bar:
            bar.update(result.name, result.seconds, result.status)

    options = dict(max_examples=max_examples, seed=seed, namespace_label=namespace_label,
                   shrink=shrink)
    if jobs > 1 and len(specs) > 1:
        _check_parallel(xp, namespace_label, device)
        parallel.run_specs(specs, jobs=jobs, initializer=_worker_start,
                           initargs=(namespace_label, device, options), run=_worker_run,
                           failed=_worker_failed, on_result=record,
                           local=lambda name: run_spec(xp, SPECS[name], mutable=mutable,
                                                       capabilities=capabilities, **options))
    else:
        for spec in specs:
            record(run_spec(xp, spec, mutable=mutable, capabilities=capabilities, **options))
    if bar:
        bar.close()
    for name, reason in sorted((skipped or {}).items()):
        run.results.append(Result(name, "skipped", message=reason))
    run.results.sort(key=lambda r: r.name)
    run.seconds = time.perf_counter() - start
    return run
