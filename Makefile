# `make demo` and `make test` work on a fresh clone with only python3 installed.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test test-deep lint format test-sklearn bench clean

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
MULTIDEVICE := XLA_FLAGS=--xla_force_host_platform_device_count=8

# the main suite runs in $(WORKERS) processes (pytest-xdist): 619 -> 350 s on the 2-core CI
WORKERS ?= 2

test: lint
	$(PY) -m pytest -n $(WORKERS)
	$(MULTIDEVICE) $(PY) -m pytest tests/multidevice

# Deeper hypothesis profile (more examples, random seeds); minutes to hours.
test-deep: lint
	HYPOTHESIS_PROFILE=deep $(PY) -m pytest -n $(WORKERS)
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

bench: $(STAMP)
	$(PY) benchmarks/dispatch.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
