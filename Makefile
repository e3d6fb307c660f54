# `make demo` and `make test` work on a fresh clone with only python3 installed.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
DOCS_STAMP := $(VENV)/.installed-docs

.PHONY: demo test test-deep test-isa lint format test-sklearn test-scipy bench docs docs-check \
	dist portable-wheel test-install clean

$(PY):
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(PY) pyproject.toml
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[test]"
	touch $(STAMP)

demo: $(STAMP)
	$(PY) examples/demo.py
	$(PY) examples/sparse_logistic_regression.py

# tests/multidevice needs 8 (host) devices: its own process, with the flag set before jax starts
MULTIDEVICE := XLA_FLAGS="$(XLA_FLAGS) --xla_force_host_platform_device_count=8"

# the main suite runs in $(WORKERS) processes (pytest-xdist): 619 -> 350 s on the 2-core CI;
# each worker takes a contiguous run of tests and steals from the other's at the end
# (--dist worksteal): a file's tests mostly stay in one worker, so the programs they share
# compile once, and neither worker idles while the other finishes a long file
WORKERS ?= 2
DIST := --dist worksteal

# tests/multidevice and the lint run beside the main suite (multidevice keeps about one
# core busy for a minute and a half, lint for ten seconds; the two workers' compiles share
# the rest); their reports follow the main one; any of them failing fails the target.
# The package and the tests are byte-compiled first: where PYTHONDONTWRITEBYTECODE is set,
# every process the suite starts would compile laxarray's sources again on import
test: $(STAMP)
	@rm -f .multidevice.log .lint.log .isa.log .tpu.log; \
	$(PY) -m compileall -q -j 0 laxarray tests > /dev/null; \
	($(MAKE) --no-print-directory lint > .lint.log 2>&1) & ln=$$!; \
	($(MULTIDEVICE) $(PY) -m pytest tests/multidevice > .multidevice.log 2>&1) & md=$$!; \
	($(MAKE) --no-print-directory test-isa > .isa.log 2>&1; a=$$?; \
	 LAXARRAY_PLATFORM=tpu $(PY) -m pytest tests/platform_tpu > .tpu.log 2>&1; \
	 b=$$?; exit $$((a || b))) & isa=$$!; \
	$(PY) -m pytest -n $(WORKERS) $(DIST) --ignore=tests/test_docs_site.py; main=$$?; \
	wait $$ln; lint=$$?; wait $$md; multi=$$?; wait $$isa; isabits=$$?; \
	echo "== lint (ruff, mypy on tests/typing/usage.py) =="; cat .lint.log; \
	echo "== tests/multidevice (8 host devices, its own process) =="; cat .multidevice.log; \
	echo "== exact-bit tests compiled for AVX2 (make test-isa) =="; cat .isa.log; \
	echo "== tests/platform_tpu (the TPU's backend record, LAXARRAY_PLATFORM=tpu) =="; \
	cat .tpu.log; \
	test $$lint -eq 0 && test $$main -eq 0 && test $$multi -eq 0 && test $$isabits -eq 0

# The exact-bit tests again, with XLA:CPU compiling for AVX2 whatever this CPU has more
# (XLA compiles for the host's instruction set: a float64 -> float16 conversion rounded
# twice on one and once on another, issue 57), so a result that depends on the instruction
# set fails here rather than on a user's machine. tools/isa_bits.py compares every
# elementwise function across instruction sets; docs/performance.md has its findings.
ISA_TESTS := tests/array_api/test_log_base.py tests/array_api/test_division_rounding.py \
	tests/array_api/test_inplace_casting.py tests/array_api/test_linspace.py \
	tests/array_api/test_sinh_cosh.py tests/array_api/test_pow.py \
	tests/array_api/test_signed_zeros.py \
	tests/array_api/test_complex_special_cases.py tests/numpy_api/test_spacing_frexp.py \
	tests/numpy_api/test_bfloat16.py tests/numpy_api/test_np_float16.py \
	tests/core/test_nan_extremes.py tests/core/test_compiler_options.py \
	tests/conformance/test_flushing.py
test-isa: $(STAMP)
	XLA_FLAGS="$(XLA_FLAGS) --xla_cpu_max_isa=AVX2" $(PY) -m pytest -p no:cacheprovider $(ISA_TESTS)

# Deeper hypothesis profile (more examples, random seeds); minutes to hours.
test-deep: lint
	HYPOTHESIS_PROFILE=deep $(PY) -m pytest -n $(WORKERS) $(DIST)
	HYPOTHESIS_PROFILE=deep $(MULTIDEVICE) $(PY) -m pytest tests/multidevice

# ruff (rules in pyproject.toml) and mypy on typical user code (tests/typing/usage.py); seconds
lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy tests/typing/usage.py
	$(PY) tests/typing/usage.py

# ruff's automatic fixes (unused imports and the like); layout is by hand (STYLE)
format: $(STAMP)
	$(VENV)/bin/ruff check --fix .

# scikit-learn's own array-API tests on laxarray (tests/peers/sklearn_plugin.py); minutes
test-sklearn: $(STAMP)
	SCIPY_ARRAY_API=1 PYTHONPATH=tests/peers $(PY) -m pytest -p sklearn_plugin -p no:cacheprovider -o addopts= \
		--pyargs sklearn -k "array_api or array_namespace" -q -rfE

# SciPy's own array-API tests on laxarray (tests/peers/scipy_plugin.py): the SciPy modules
# whose tests take the xp fixture, less scipy.ndimage (its output= tests need a writable
# NumPy buffer view of the array, which SciPy's own markers say jax.numpy and dask lack too);
# SCIPY_ARRAY_NAMESPACE=array_api_strict runs the same selection on array_api_strict for
# comparison; about an hour on laxarray
SCIPY_MODULES := scipy.stats scipy.optimize scipy.cluster scipy.interpolate scipy.differentiate \
	scipy.special scipy.signal scipy.fft scipy.integrate scipy.spatial scipy.linalg \
	scipy.constants scipy._lib
test-scipy: $(STAMP)
	SCIPY_ARRAY_API=1 PYTHONPATH=tests/peers $(PY) -m pytest -p scipy_plugin -p no:cacheprovider -o addopts= \
		-m array_api_backends --pyargs $(SCIPY_MODULES) -q -rfE

# The documentation site (issue 55): Sphinx with MyST and the furo theme, offline, into
# docs/_build/html (open docs/_build/html/index.html); the API reference is generated from
# the code at each build (docs/_ext/laxarray_reference.py -> docs/reference/). Seconds.
$(DOCS_STAMP): $(STAMP)
	$(PY) -m pip install --quiet -e ".[test,docs]"
	touch $(DOCS_STAMP)

docs: $(DOCS_STAMP)
	$(PY) -m sphinx -b html -q docs docs/_build/html
	@echo "docs/_build/html/index.html"

# Every entry of the reference checked (tools/docs_check.py: no object repr, a signature,
# Parameters for the goal set less tools/docs_parameters_allowlist.txt, examples that run,
# device claims the backend records back, jit fields; it prints the counts), the written
# pages (tools/docs_pages_check.py: no bare issue numbers, no private imports in the user
# pages' code, sidebar titles that are the pages' titles), then the site
# built with warnings as errors and read back (tests/test_docs_site.py; not in make test's
# run, .ci/run calls this after it). tools/docs_browser_check.py then opens the pages in
# headless Chromium, where installed.
docs-check: $(DOCS_STAMP)
	$(PY) tools/docs_check.py --report docs/_build/docs_check.json
	$(PY) tools/docs_pages_check.py
	$(PY) -m pytest -p no:xdist -p no:cacheprovider tests/test_docs_site.py

# The wheel users install (docs/install.md): dist/laxarray-<version>-py3-none-any.whl, built
# by pip from pyproject.toml in an isolated build environment (setuptools from the package
# index). Seconds.
dist: $(PY)
	rm -rf build dist/laxarray-*.whl   # (build/: setuptools would pack files left there)
	$(PY) -m pip wheel --quiet --no-deps -w dist .
	@ls dist/laxarray-*.whl

# A wheel of executables (docs/compilation.md): dist/laxarray_portable-<version>-py3-none-
# <platform>.whl, the sklearn workload compiled for this CPU's class (x86-64-v3: AVX2) by
# tools/portable_wheel.py with one worker a core; TIER_ARGS="--from calls.jsonl" compiles
# what a program recorded instead (LAXARRAY_RECORD=calls.jsonl). pip install it beside this
# very laxarray (the tier serves its exact source and jax only). Minutes; not part of make test.
TIER_ARGS ?= --workload sklearn
portable-wheel: $(STAMP)
	$(PY) tools/portable_wheel.py --jobs $$($(PY) -c "import os; print(os.cpu_count() or 1)") \
		$(TIER_ARGS)

# That wheel installed in a fresh virtual environment outside the clone (its dependencies
# from the package index), imported, and the README's first example run and its output
# compared with the README's (tests/test_install.py; about a minute, most of it pip).
# Not part of make test.
test-install: dist $(STAMP)
	LAXARRAY_TEST_INSTALL=1 $(PY) -m pytest -p no:xdist -p no:cacheprovider tests/test_install.py

bench: $(STAMP)
	$(PY) benchmarks/dispatch.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis .multidevice.log .lint.log .isa.log .tpu.log \
		docs/_build docs/reference docs/_generated build dist/laxarray-*.whl \
		dist/laxarray_portable-*.whl
