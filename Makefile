# Two commands matter: `make run` (serve the app with demo data) and `make test` (lint + tests).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# pytest-xdist workers for `make test` (one per core; `make test TEST_WORKERS=0` runs in-process).
TEST_WORKERS ?= auto

.PHONY: install run test lint fmt messages worker bench clean mlflow-venv

install: $(STAMP)

$(STAMP): requirements.txt requirements-dev.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	touch $(STAMP)

# The MLflow server the import tests start lives apart (requirements-mlflow.txt says why).
MLFLOW_VENV := .venv-mlflow
MLFLOW_STAMP := $(MLFLOW_VENV)/.installed

mlflow-venv: $(MLFLOW_STAMP)

$(MLFLOW_STAMP): requirements-mlflow.txt
	test -x $(MLFLOW_VENV)/bin/python || $(PYTHON) -m venv $(MLFLOW_VENV)
	$(MLFLOW_VENV)/bin/python -m pip install --quiet -r requirements-mlflow.txt
	touch $(MLFLOW_STAMP)

run: install
	./scripts/run

test: install $(MLFLOW_STAMP)
	$(BIN)/ruff check .
	$(BIN)/lint-imports --no-cache
	DJANGO_ENV=test $(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadgroup $(PYTEST_ARGS)

lint: install
	$(BIN)/ruff check .
	$(BIN)/lint-imports --no-cache
	$(BIN)/ruff format --check .

fmt: install
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

messages: install
	$(BIN)/python scripts/i18n.py

worker: install
	$(BIN)/celery -A config worker -B --loglevel=info

bench: install
	./bench/run

clean:
	rm -rf $(VENV) var staticfiles .pytest_cache .ruff_cache
