# `make demo` and `make test` work on a fresh clone with only python3 installed.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test test-sklearn bench clean

$(PY):
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(PY) pyproject.toml
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[test]"
	touch $(STAMP)

demo: $(STAMP)
	$(PY) examples/demo.py
	$(PY) examples/sparse_logistic_regression.py

test: $(STAMP)
	$(PY) -m pytest

# scikit-learn's own array-API tests on laxarray (tests/peers/sklearn_plugin.py); minutes
test-sklearn: $(STAMP)
	SCIPY_ARRAY_API=1 PYTHONPATH=tests/peers $(PY) -m pytest -p sklearn_plugin -p no:cacheprovider -o addopts= \
		--pyargs sklearn -k "array_api or array_namespace" -q -rfE

bench: $(STAMP)
	$(PY) benchmarks/dispatch.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
