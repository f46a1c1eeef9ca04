# Coven: `make play` to play, `make test` to run every check.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PIP := $(BIN)/python -m pip --disable-pip-version-check -qq
# Playing needs only Coven and its runtime dependencies; the test tools come with `make test`.
PLAY_STAMP := $(VENV)/.installed-play
TEST_STAMP := $(VENV)/.installed-test

.PHONY: play test typecheck wheel-check screenshots bench ladder soak clean duel-results

$(BIN)/python:
	@echo "Creating $(VENV) with $(PYTHON)..."
	@$(PYTHON) -m venv $(VENV)

$(PLAY_STAMP): pyproject.toml | $(BIN)/python
	@echo "Installing Coven into $(VENV)..."
	@$(PIP) install -e .
	@touch $@

$(TEST_STAMP): pyproject.toml | $(BIN)/python
	@echo "Installing Coven and its test tools into $(VENV)..."
	@$(PIP) install -e '.[test]'
	@touch $@ $(PLAY_STAMP)

play: $(PLAY_STAMP)
	@$(BIN)/coven

# The tests run with byte-code caches on even where the environment turns them off: the servers, players
# and commands the tests start (hundreds of fresh interpreters) then load compiled modules instead of
# compiling the whole tree again each time, and compileall does that once, on every CPU, beforehand.
# ruff goes first (it takes a second). mypy runs beside pytest, in the CPU time pytest's workers leave idle
# while they wait on timers and child processes; its output is printed once pytest ends, and the run fails
# when either fails.
test: $(TEST_STAMP)
	$(BIN)/ruff check engine saves tui tests
	@env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m compileall -q -j 0 engine saves tui tests
	@typed=$$(mktemp); trap 'rm -f "$$typed"' EXIT; \
	echo "$(BIN)/python -m mypy engine saves tui  (beside pytest; its output follows pytest's)"; \
	$(BIN)/python -m mypy engine saves tui > "$$typed" 2>&1 & mypy=$$!; \
	echo "env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m pytest"; \
	env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m pytest; tests=$$?; \
	wait $$mypy; types=$$?; echo "mypy engine saves tui:"; cat "$$typed"; \
	if [ $$types -ne 0 ]; then echo "make test: mypy failed (exit $$types)"; fi; \
	if [ $$tests -ne 0 ]; then echo "make test: pytest failed (exit $$tests)"; fi; \
	[ $$tests -eq 0 ] && [ $$types -eq 0 ]
	@$(MAKE) --no-print-directory wheel-check

typecheck: $(TEST_STAMP)
	$(BIN)/python -m mypy engine saves tui
	$(BIN)/ruff check engine saves tui tests

# Build a wheel, install it in a scratch venv outside the source tree and run it there.
wheel-check: $(TEST_STAMP)
	@PYTHON=$(PYTHON) bash .ci/wheel-check

screenshots: $(TEST_STAMP)
	$(BIN)/python -m tui.screenshots screenshots

# Wizards Cup's duels resolved ahead (engine/wizards_cup/duel_results.py), after a change to its wizards or duels.
duel-results: $(PLAY_STAMP)
	$(BIN)/python -m engine.wizards_cup.write_duel_results

bench: $(PLAY_STAMP)
	$(BIN)/coven bench wizards-cup

# Every bot level against every other (100 seat-mirrored games a pairing), written into the README's tables.
ladder: $(PLAY_STAMP)
	$(BIN)/coven ladder wizards-cup --games 100 --seed 1 --readme README.md
	$(BIN)/coven ladder witchdraft --games 100 --seed 1 --readme README.md
	# Wizbits Hard searches for about 20 s of CPU a game: fewer games keep this under half an hour.
	$(BIN)/coven ladder wizbits --games 24 --seed 1 --readme README.md

# The torture tests of many processes on one database, run far longer than `make test` runs them:
# COVEN_TORTURE_COMMANDS commands beside the writers (default here 400), in the order COVEN_TORTURE_SEED picks.
# Then SOAK_GAMES random Wizards Cup games, each checked whole (`make test` plays until they show every wizard,
# power, option and outcome, about 35).
SOAK_COMMANDS ?= 400
SOAK_GAMES ?= 250
soak: $(TEST_STAMP)
	COVEN_TORTURE_COMMANDS=$(SOAK_COMMANDS) $(BIN)/python -m pytest tests/serve/test_store_torture.py -n 0 -s -q
	COVEN_RANDOM_GAMES=$(SOAK_GAMES) $(BIN)/python -m pytest tests/engine/wizards_cup/test_wizards_cup_play.py -n 0 -q \
		-k test_random_games_finish_and_round_trip_through_export_and_import

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
