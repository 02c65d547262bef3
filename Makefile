# Sultan — every target bootstraps .venv from the pinned requirements first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat requirements.txt | cksum | cut -d' ' -f1)

.PHONY: test sim cli bench lint clean

$(STAMP): requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --disable-pip-version-check -q -r requirements.txt
	rm -f $(VENV)/.installed-* && touch $@

## make test: the whole host test suite (engine on CPython and on the MicroPython VM, screen, tools)
test: $(STAMP)
	$(BIN)/python -m pytest host_tests

## make sim: play in a window (headless: SDL_VIDEODRIVER=dummy make sim ARGS="--frames 5 --screenshot out.png")
sim: $(STAMP)
	$(BIN)/python tools/sim.py $(ARGS)

## make cli ARGS="play --deal 7 --auto --json"
cli: $(STAMP)
	$(BIN)/python tools/sultan_cli.py $(ARGS)

## make bench: engine benchmark figures (games/s, heap, bytes per move)
bench: $(STAMP)
	$(BIN)/python tools/bench_engine.py

lint: $(STAMP)
	$(BIN)/ruff check lib tools host_tests firmware

clean:
	rm -rf $(VENV) build .pytest_cache .hypothesis
