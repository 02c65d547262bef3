# Sultan — every target bootstraps .venv from the pinned requirements first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat requirements.txt pyproject.toml | cksum | cut -d' ' -f1)
# The marker counts only while the environment is whole (every pinned distribution and what it needs,
# at its version, with all its files; the project imports): a half-deleted .venv reinstalls itself.
VENV_CHECK = $(BIN)/python tools/venv_check.py requirements.txt
ifneq ($(shell $(VENV_CHECK) sultan sultan_host >/dev/null 2>&1 && echo ok),ok)
$(shell rm -f $(VENV)/.installed-*)
endif

.PHONY: test sim cli bench lint clean winnable bundle help

## make help: these lines, every target with its options (no .venv needed)
help:
	@sed -n 's/^## //p' $(firstword $(MAKEFILE_LIST))

$(STAMP): requirements.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --disable-pip-version-check -q -r requirements.txt
	@# pip takes a distribution whose record is intact for installed, however many of its files are gone
	$(VENV_CHECK) 2>/dev/null | xargs -r $(BIN)/pip install --disable-pip-version-check -q --force-reinstall --no-deps
	$(BIN)/pip install --disable-pip-version-check -q --no-deps -e .
	$(VENV_CHECK) sultan sultan_host
	rm -f $(VENV)/.installed-* && touch $@

## make test [JOBS=auto]: mypy of the device code, then the whole host test suite, one worker a core (an idle
## worker takes tests from a busy one: the emulator tests are long)
## (engine on CPython and on the MicroPython VM, screen, saves, firmware build, tools; with the firmware in
## vendor-local/, the game on real CircuitPython in tools/emulate)
JOBS ?= auto
test: $(STAMP)
	$(BIN)/python tools/typecheck_device.py
	$(BIN)/python -m pytest -n $(JOBS) --dist worksteal host_tests

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

# ---------------------------------------------------------------- firmware
CP ?= 9
# the firmware and bootrom are never in git; by default they are looked for in vendor-local/,
# the UF2 of CircuitPython $(CP).x (CP=8: the 8.2.7 one, CP=9: 9.2.8)
CIRCUITPYTHON_UF2 ?= $(lastword $(sort $(wildcard vendor-local/adafruit-circuitpython-raspberry_pi_pico-*-$(CP).*.uf2)))
RP2040_BOOTROM ?= $(firstword $(wildcard vendor-local/bootrom*.bin vendor-local/bootrom*.js))
# BOARD=pybadge|pygamer: the badge's own CircuitPython in vendor-local/<board>/ (nothing that globs for Pico files
# finds it) or ../shared/firmware/<board>/, CP=10 unless CP is given; the harness takes the newest of that major
# by version number.
# PYBADGE_UF2=<file> / PYGAMER_UF2=<file> name an image outright.
BADGES := pybadge pygamer
comma := ,
BADGE_VAR = $(if $(filter pygamer,$(BOARD)),PYGAMER_UF2,PYBADGE_UF2)
BADGE_CP = $(if $(filter command line environment override,$(origin CP)),$(CP),10)
BADGE_FOUND = $(wildcard $(foreach d,vendor-local ../shared/firmware,$(d)/$(BOARD)/adafruit-circuitpython-$(BOARD)-*-$(BADGE_CP).*.uf2))
EMULATE_DEPS := tools/emulate/node_modules/.sultan-installed
.PHONY: build deploy wokwi wokwi-web emulate emulate-deps bench-device bench-cpu cp-tests typecheck wokwi-check emulate-check bench-device-check
# emulator test options (a settings.toml on the image; see docs/firmware.md):
# SIZE=160x128 (the ILI9341 as a 160x128 window: the PyBadge layout), DEAL=n, MEMTRACE=1
WOKWI_TEST_OPTS = $(if $(SIZE),--size $(SIZE)) $(if $(DEAL),--deal $(DEAL)) $(if $(MEMTRACE),--memtrace)

## make build [CP=8|9|10] [PY_ONLY=1] [MPY_CROSS=path]: build/CIRCUITPY for that CircuitPython
build: $(STAMP)
	$(BIN)/python tools/build_circuitpy.py --cp $(CP) $(if $(PY_ONLY),--py-only) $(if $(MPY_CROSS),--mpy-cross "$(MPY_CROSS)")

## make bundle: dist/sultan-<version>.zip, what a player installs: Sultan/README.txt and one folder a CircuitPython
## major (8.x, 9.x, 10.x) to copy onto CIRCUITPY; the same checkout gives the same bytes
bundle: $(STAMP)
	SULTAN_CHECKOUT="$(CURDIR)" $(BIN)/python -m sultan_host.board.bundle

## make deploy [CIRCUITPY=/media/you/CIRCUITPY] [FORCE=1]: copy what changed onto the board's drive
##   (FORCE=1: replace a code.py deploy did not write, kept as code.py.bak)
deploy: build
	$(BIN)/python tools/deploy_circuitpy.py $(if $(CIRCUITPY),--to "$(CIRCUITPY)") $(if $(FORCE),--force)

## make wokwi [CP=9|8 | CIRCUITPYTHON_UF2=<Pico CircuitPython .uf2>]: build/wokwi/sultan.uf2, the image wokwi.toml names
wokwi: wokwi-check $(STAMP)
	$(BIN)/python tools/wokwi_image.py uf2 --circuitpython "$(CIRCUITPYTHON_UF2)" $(if $(PY_ONLY),--py-only) $(if $(MPY_CROSS),--mpy-cross "$(MPY_CROSS)") $(WOKWI_TEST_OPTS)

## make wokwi-web: build/wokwi-web, files for a wokwi.com CircuitPython project
wokwi-web: $(STAMP)
	$(BIN)/python tools/wokwi_image.py web

$(EMULATE_DEPS): tools/emulate/package.json tools/emulate/package-lock.json
	cd tools/emulate && npm ci --no-audit --no-fund --loglevel=error
	touch $@
emulate-deps: $(EMULATE_DEPS)

ifneq ($(filter $(BADGES),$(BOARD)),)
## make emulate BOARD=pybadge|pygamer [CP=10|9] [DEAL=7] [KEYS="RIGHT A"] [COMPARE=1]: the badge's own CircuitPython
##   (the PyBadge's 10.2.1 or 9.1.1, the PyGamer's 10.2.1; vendor-local/<board>/ or PYBADGE_UF2= / PYGAMER_UF2=)
##   in the SAMD51 emulator, the same words (sultan_host.pybadge; on the PyGamer the arrows push its stick)
emulate: emulate-check $(STAMP)
	rm -rf build/emulate
	$(BIN)/python -m sultan_host.pybadge --board $(BOARD) $(if $($(BADGE_VAR)),--uf2 "$($(BADGE_VAR))",--cp $(BADGE_CP)) \
	  $(if $(DEAL),--deal $(DEAL)) $(if $(KEYS),--keys "$(KEYS)") --out build/emulate --report build/emulate/report.json
	$(if $(COMPARE),$(BIN)/python tools/emulate/compare_png.py --shots build/emulate --deal $(DEAL) --size 160x128 --keys "$(KEYS)")
else
## make emulate [CP=9|8] [SIZE=160x128] [DEAL=7] [SCENARIO=wokwi/scenario.yaml | KEYS="RIGHT A"] [COMPARE=1]
##   (COMPARE=1 with DEAL and KEYS: each screenshot against tools/screenshot.py's, in RGB565)
emulate: emulate-check wokwi $(EMULATE_DEPS)
	rm -rf build/emulate
	$(if $(KEYS),$(BIN)/python -m sultan_host.keywords --names pico --keys "$(KEYS)" > build/emulate-steps.json)
	node tools/emulate/emulate.js --firmware build/wokwi/sultan.uf2 --bootrom "$(RP2040_BOOTROM)" $(if $(SIZE),--window $(SIZE)) \
	  $(if $(KEYS),--steps build/emulate-steps.json,--scenario $(or $(SCENARIO),wokwi/scenario.yaml)) --out build/emulate
	$(if $(COMPARE),$(BIN)/python tools/emulate/compare_png.py --shots build/emulate --deal $(DEAL) --size $(or $(SIZE),320x240) --keys "$(KEYS)")
endif

# The firmware targets' own checks, made before anything they need (the .venv, node_modules), even under -j:
# a missing firmware is told in one line (exit 2) before minutes of installing.
# $(call need_file,VARIABLE,what it holds): a recipe line that fails unless $(VARIABLE) names a file
need_file = @test -f "$($(1))" || { echo "make $(@:-check=): $(if $($(1)),$(1)=$($(1)): no such file,no $(2) in vendor-local/: put it there or give $(1)=<its file>)"; exit 2; }
wokwi-check:
	$(call need_file,CIRCUITPYTHON_UF2,CircuitPython $(CP).x UF2 for the Pico)
ifneq ($(filter $(BADGES),$(BOARD)),)
emulate-check:
	@test -z "$($(BADGE_VAR))" -o -f "$($(BADGE_VAR))" || { echo "make emulate: $(BADGE_VAR)=$($(BADGE_VAR)): no such file"; exit 2; }
	@test -n "$($(BADGE_VAR))$(BADGE_FOUND)" || { echo "make emulate: no CircuitPython $(BADGE_CP).x UF2 for the $(BOARD) in vendor-local/$(BOARD)/ or ../shared/firmware/$(BOARD)/: put it there or give $(BADGE_VAR)=<its file>"; exit 2; }
else
emulate-check:
	$(call need_file,CIRCUITPYTHON_UF2,CircuitPython $(CP).x UF2 for the Pico)
	$(call need_file,RP2040_BOOTROM,RP2040 bootrom (bootrom*.bin or bootrom.js))
endif
	@test -z "$(COMPARE)" || test -n "$(DEAL)" -a -n "$(KEYS)" || { echo "usage: make emulate COMPARE=1 DEAL=n KEYS=\"...\" [SIZE=160x128]"; exit 2; }
	@# (with the system's python: in a fresh clone there is no .venv yet)
	@test -z "$(COMPARE)" || why=$$(PYTHONPATH=lib:host $(PYTHON) -m sultan_host.board.compare_png --check-keys "$(KEYS)" 2>&1) || { echo "make emulate: $${why#compare_png: }"; exit 2; }
bench-device-check:
ifneq ($(if $(BOARDS),$(filter pico,$(subst $(comma), ,$(BOARDS))),pico),)
	$(call need_file,BENCH_UF2,CircuitPython 10.x/9.x/8.x UF2 for the Pico)
	$(call need_file,RP2040_BOOTROM,RP2040 bootrom (bootrom*.bin or bootrom.js))
endif
ifneq ($(filter wokwi emulate bench-device,$(MAKECMDGOALS)),)
$(STAMP) $(EMULATE_DEPS): | $(addsuffix -check,$(filter wokwi emulate bench-device,$(MAKECMDGOALS)))
endif

## make bench-device [DEAL=7] [SOAK=300] [CUTS=210] [WEAR=3] [ONLY=anim|table|saves|idle]: the game on CircuitPython
## 10.2.1, 9.2.8 and 8.2.7 (vendor-local/) in the emulator at 320x240 and 160x128: mem_free, start-up, key latencies,
## pixels, one table, and each animation's frame rate (a won deal's slides, hint, deal and cascade), another, both
## written into docs/figures.md with their date and firmware (SOAK:
## random keys on each firmware; CUTS: power cuts aimed inside each kind of save, and what each boot showed; WEAR:
## the NVM's erases a game at autoplay and at human pace; ONLY: just the animations, the table, CUTS and WEAR, or
## the idle board's WFI share; the badges' columns too, each image in vendor-local/pybadge/ and pygamer/ in the samd51
## emulator, with their own page of figures (goals, erase window); BOARDS=pybadge,pygamer: those alone, CUTS their cuts)
BENCH_UF2 ?= $(firstword $(wildcard vendor-local/adafruit-circuitpython-raspberry_pi_pico-*.uf2))
bench-device: bench-device-check $(STAMP) $(EMULATE_DEPS)
	$(BIN)/python -m sultan_host.bench.device $(if $(filter command line,$(origin BENCH_UF2)),--firmware "$(BENCH_UF2)") $(if $(RP2040_BOOTROM),--bootrom "$(RP2040_BOOTROM)") $(if $(DEAL),--deal $(DEAL)) $(if $(SOAK),--soak $(SOAK)) $(if $(CUTS),--cuts $(CUTS)) $(if $(WEAR),--wear $(WEAR)) $(if $(ONLY),--only $(ONLY)) $(if $(BOARDS),--boards $(BOARDS))

## make bench-cpu [PYSTONE=path]: the samd51 emulator's time model against published SAMD51 figures (range loops;
## pystone too, given CPython 3's Lib/test/pystone.py), written into docs/pybadge-figures.md
bench-cpu: $(STAMP)
	$(BIN)/python -m sultan_host.bench.device.cpu $(if $(PYSTONE),--pystone "$(PYSTONE)")

## make cp-tests [BOARDS=pybadge,pygamer] [CP=9|10] [ONLY=basics/list]: CircuitPython 10.2.1's tests/basics and
## tests/float (outside git: build/cptests/) on every SAMD51 image in vendor-local/<board>/, each test in a fresh copy
## of the booted board, judged as run-tests.py judges; counts, failures with why, times (build/cptests/results/)
cp-tests: $(STAMP)
	$(BIN)/python -m sultan_host.cptests $(if $(BOARDS),--boards $(BOARDS)) $(if $(filter command line environment override,$(origin CP)),--cp $(CP)) $(if $(ONLY),--only '$(ONLY)')

## make typecheck: mypy of firmware/ and lib/ against circuitpython-stubs and each board's pins
typecheck: $(STAMP)
	$(BIN)/python tools/typecheck_device.py
