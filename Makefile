# Coven: `make play` to play, `make test` to run every check.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play test typecheck screenshots bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

play: $(STAMP)
	$(BIN)/coven

test: $(STAMP)
	$(BIN)/python -m mypy engine saves
	$(BIN)/python -m pytest

typecheck: $(STAMP)
	$(BIN)/python -m mypy engine saves

screenshots: $(STAMP)
	$(BIN)/python -m tui.screenshots screenshots

bench: $(STAMP)
	$(BIN)/coven bench wizards-cup

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .hypothesis
