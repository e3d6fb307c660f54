"""A runner verdict at a seed is the same in every process, whatever the process imported.

hypothesis (6.131 on) mixes into its draws constants it collects from the source of the
local modules a process has imported, so the same seed drew different examples in different
pytest-xdist workers (a broken ``squeeze`` slipped through at seed 4 in one CI worker and
was caught at example 30 everywhere else).  The runner draws without them."""

import importlib
import sys

import pytest

from laxarray.conformance import SPECS, runner, spec as spec_mod

from test_broken_namespaces import _squeeze_all, broken


def _verdicts(ns):
    out = []
    for seed in range(4):
        r = runner.run_spec(ns, SPECS["squeeze"], max_examples=25, seed=seed,
                            namespace_label="broken", shrink=False)
        out.append((r.status, r.examples, r.snippet))
    return out


def _import_constants_module(tmp_path, name):
    """Import a new local module full of float literals in the range specs draw from."""
    body = "\n".join(f"C{i} = ({i / 97 - 1.5!r}, {i / 89 + 0.25!r})" for i in range(300))
    (tmp_path / f"{name}.py").write_text(body + "\n")
    sys.path.insert(0, str(tmp_path))
    try:
        importlib.import_module(name)
    finally:
        sys.path.remove(str(tmp_path))


def test_the_runner_draws_no_constant_of_the_modules_a_process_imported(tmp_path):
    if spec_mod._providers is None:
        pytest.skip("this hypothesis collects no constants from imported modules")
    _import_constants_module(tmp_path, "lax_constants_collected")
    state = spec_mod._CONSTANTS_STATE       # the ci profile's session already holds a block
    collect = state["collector"] if state["depth"] else spec_mod._providers._get_local_constants
    assert (7 / 89 + 0.25) in collect().floats   # hypothesis collected them
    with spec_mod.without_local_constants():
        assert len(spec_mod._providers._get_local_constants()) == 0


def test_a_seed_draws_the_same_examples_after_new_imports(tmp_path):
    ns = broken(squeeze=_squeeze_all)
    before = _verdicts(ns)
    _import_constants_module(tmp_path, "lax_constants_later")
    assert _verdicts(ns) == before
