# Sultan — every target bootstraps .venv from the pinned requirements first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat requirements.txt pyproject.toml | cksum | cut -d' ' -f1)
# The marker counts only while the environment really imports: a half-deleted .venv reinstalls itself.
ifneq ($(shell $(BIN)/python -c "import pytest, sultan, sultan_host" >/dev/null 2>&1 && echo ok),ok)
$(shell rm -f $(VENV)/.installed-*)
endif

.PHONY: test sim cli bench lint clean winnable

$(STAMP): requirements.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --disable-pip-version-check -q -r requirements.txt
	$(BIN)/pip install --disable-pip-version-check -q --no-deps -e .
	rm -f $(VENV)/.installed-* && touch $@

## make test: mypy of the device code, then the whole host test suite
## (engine on CPython and on the MicroPython VM, screen, saves, firmware build, tools)
test: $(STAMP)
	$(BIN)/python tools/typecheck_device.py
	$(BIN)/python -m pytest host_tests

## make sim: play in a window (headless: SDL_VIDEODRIVER=dummy make sim ARGS="--frames 5 --screenshot out.png")
sim: $(STAMP)
	$(BIN)/python -m sultan_host.desktop.sim $(ARGS)

## make cli ARGS="play --deal 7 --auto --json"
cli: $(STAMP)
	$(BIN)/sultan $(ARGS)

## make bench: engine, save and screen benchmark figures (games/s, heap, bytes per move, writes, pixels)
bench: $(STAMP)
	$(BIN)/python -m sultan_host.bench.engine
	$(BIN)/python -m sultan_host.bench.save
	$(BIN)/python -m sultan_host.bench.screen

## make winnable: remake lib/sultan/rules/winnable_{seed,classic}.tbl (needed after any change to the generator or rules)
winnable: $(STAMP)
	$(BIN)/python -m sultan_host.analysis.winnable_table $(ARGS)

lint: $(STAMP)
	$(BIN)/ruff check lib host tools host_tests firmware

clean:
	rm -rf $(VENV) build .pytest_cache .hypothesis

# ---------------------------------------------------------------- firmware (issue 4)
CP ?= 9
# the firmware and bootrom are never in git; by default they are looked for in vendor-local/
CIRCUITPYTHON_UF2 ?= $(lastword $(sort $(wildcard vendor-local/adafruit-circuitpython-raspberry_pi_pico-*.uf2)))
RP2040_BOOTROM ?= $(firstword $(wildcard vendor-local/bootrom*.bin vendor-local/bootrom*.js))
EMULATE_DEPS := tools/emulate/node_modules/.sultan-installed
.PHONY: build deploy wokwi wokwi-web emulate emulate-deps typecheck

## make build [CP=8|9|10] [PY_ONLY=1] [MPY_CROSS=path]: build/CIRCUITPY for that CircuitPython
build: $(STAMP)
	$(BIN)/python tools/build_circuitpy.py --cp $(CP) $(if $(PY_ONLY),--py-only) $(if $(MPY_CROSS),--mpy-cross "$(MPY_CROSS)")

## make deploy [CIRCUITPY=/media/you/CIRCUITPY]: copy what changed onto the board's drive
deploy: build
	$(BIN)/python tools/deploy_circuitpy.py $(if $(CIRCUITPY),--to "$(CIRCUITPY)")

## make wokwi CIRCUITPYTHON_UF2=<Pico CircuitPython .uf2>: build/wokwi/sultan.uf2, the image wokwi.toml names
wokwi: $(STAMP)
	@test -n "$(CIRCUITPYTHON_UF2)" || { echo "usage: make wokwi CIRCUITPYTHON_UF2=<the Pico's CircuitPython .uf2> (or put it in vendor-local/)"; exit 2; }
	$(BIN)/python tools/wokwi_image.py uf2 --circuitpython "$(CIRCUITPYTHON_UF2)" $(if $(PY_ONLY),--py-only) $(if $(MPY_CROSS),--mpy-cross "$(MPY_CROSS)")

## make wokwi-web: build/wokwi-web, files for a wokwi.com CircuitPython project
wokwi-web: $(STAMP)
	$(BIN)/python tools/wokwi_image.py web

$(EMULATE_DEPS): tools/emulate/package.json tools/emulate/package-lock.json
	cd tools/emulate && npm ci --no-audit --no-fund --loglevel=error
	touch $@
emulate-deps: $(EMULATE_DEPS)

## make emulate CIRCUITPYTHON_UF2=... RP2040_BOOTROM=... [SCENARIO=wokwi/scenario.yaml | KEYS="RIGHT A"]
emulate: wokwi $(EMULATE_DEPS)
	@test -n "$(RP2040_BOOTROM)" || { echo "usage: make emulate CIRCUITPYTHON_UF2=... RP2040_BOOTROM=<bootrom .bin or bootrom.js>"; exit 2; }
	node tools/emulate/emulate.js --firmware build/wokwi/sultan.uf2 --bootrom "$(RP2040_BOOTROM)" \
	  $(if $(KEYS),--keys "$(KEYS)",--scenario $(or $(SCENARIO),wokwi/scenario.yaml)) --out build/emulate

## make typecheck: mypy of firmware/ and lib/ against circuitpython-stubs and each board's pins
typecheck: $(STAMP)
	$(BIN)/python tools/typecheck_device.py
