# Set-up is part of every target: a fresh clone needs only `make demo` or `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint bench check-weights install-check clean

# constraints.txt pins the exact versions tested here; pyproject.toml only declares compatible ranges.
$(STAMP): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c constraints.txt -e '.[dev,plot,server,postgres,multilingual,langgraph,openai-agents]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/tiermem demo

test: $(STAMP)
	$(BIN)/ruff check src tests benchmarks scripts
	$(BIN)/mypy
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/tiermem bench --records 100000 --scopes 1000

# Rebuild the injection classifiers from their training data and fail if the shipped weights differ (slow: every
# training row is embedded by both models); `make test` checks only that the weights' inputs are today's.
check-weights: $(STAMP)
	PYTHONPATH=src $(BIN)/python benchmarks/injection/embedding_classifier.py --check --model minilm
	PYTHONPATH=src $(BIN)/python benchmarks/injection/embedding_classifier.py --check --model e5

# The library installs beside a project that holds another numpy: a clean venv with an older numpy minor,
# then `pip install .` must keep that numpy and work (CI runs this after the tests).
CHECK_VENV := build/install-check
install-check:
	rm -rf $(CHECK_VENV)
	$(PYTHON) -m venv $(CHECK_VENV)
	$(CHECK_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(CHECK_VENV)/bin/python -m pip install --quiet 'numpy==2.3.5'
	$(CHECK_VENV)/bin/python -m pip install --quiet .
	$(CHECK_VENV)/bin/python scripts/install_check.py 2.3.5
	rm -rf $(CHECK_VENV)

clean:
	rm -rf $(VENV) build *.egg-info
