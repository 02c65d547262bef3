#!/usr/bin/env node
// Offline run of the Wokwi image on real CircuitPython: rp2040js boots the UF2 (CircuitPython + our
// CIRCUITPY FAT at 0x100000, lib/power.js), lib/board.js models what diagram.json wires to the Pico: the
// 74HC165 with its eight buttons and the ILI9341 (SPI stream decoded into a framebuffer, saved as PNG), and
// lib/console.js reads the USB CDC serial console.  Steps come from a Wokwi CLI scenario (the same YAML the
// Wokwi CLI runs) and/or from --keys; lib/steps.js walks them, lib/report.js writes --report.
//
//   node tools/emulate/emulate.js --firmware build/wokwi/sultan.uf2 --bootrom vendor-local/bootrom.js \
//        [--scenario wokwi/scenario.yaml] [--keys "RIGHT A START"] [--out DIR] [--timeout-s 900]
//        [--window 160x128] [--report FILE.json] [--random-keys N --seed S] [--no-shots]
//        [--flash-in FLASH.bin] [--flash-out FLASH.bin] [--flash-time-scale 1]
//
// --keys words (lib/keys.js): NAME (a press; waits for its "SULTAN key=NAME" line, then a screenshot
// NN-NAME.png), NAME*n (n of them), NAME*n! (a burst: n quick presses, then a wait for all n lines; no
// screenshots), NAME? (a press not waited for: the key that wakes a dark screen), RELOAD (Ctrl-C, then Ctrl-D on the serial console: a soft reload, then a wait for SULTAN
// READY), WAIT:ms (that long with no key: the save store writes after 10 s of no key), RESET (a power
// cycle: a fresh RP2040, RAM lost, flash kept; then a wait for SULTAN READY), CUT@ms (a power cut that
// many simulated ms after the previous key's press, whose line is then not waited for, or after the
// previous word's end; an erase or program under way is left part done, seeded by --seed; then as RESET).
// The flash is a W25Q16JV model (lib/flash.js) behind the SSI and IO_QSPI (lib/qspi.js): erases and
// programs take the datasheet's time and persist across RESET and CUT; --flash-out writes the 2 MB at the
// end, --flash-in starts from such an image instead of the UF2. --flash-time-scale 0 makes erases and programs
// instant: CircuitPython holds interrupts off through an NVM write (~50 ms), which swallows a shorter key
// press as on a real board; tests about pixels, not timing, can do without that.
// --report writes the timings in simulated ms (one timeline across power cycles): each serial line,
// READY (with its boot and ms since that boot's power-on), per key the press, the keypad scan that latched
// it, its SULTAN key= line and the RAMWR pixels sent in between; and `flash`: command counts, each erase
// and program {op, addr, len, start_ms, end_ms}, each power cycle {at_ms, during, addr, progress, kind}
// and each boot {boot, cause, at_ms, ready_ms, ready}.
// The NeoPixels diagram.json chains to a Pico GPIO are decoded from the words the firmware pushes into
// the PIO state machine that drives that pin (lib/neopixel.js): each frame ("show") is logged as
// `neopixels #rrggbb ...` and goes in the report's `neopixels` ({at_ms, pixels: [[r, g, b], ...]}).  The
// PIO runs on this file's clock, each enabled state machine at its clock divider, one instruction a PIO
// clock (rp2040js does not time the delay cycles).  --after-ms N runs N ms more after the last step.
// --window WxH crops screenshots to the picture's top-left WxH: the game driven as a smaller display
// (tools/wokwi_image.py uf2 --size, the test profile tools/emulate/profile_pico_window.py).
//
// The firmware and the RP2040 bootrom are never in git: pass them by path or in SULTAN_UF2 and
// RP2040_BOOTROM (a raw 16 KB .bin, or a .js file with the words as hex, as in rp2040js-circuitpython).
'use strict';

const fs = require('fs');
const path = require('path');
const { Netlist } = require('./lib/netlist');
const { parseScenario } = require('./lib/scenario');
const { randomKeys, serialErrors } = require('./lib/run');
const { keySteps } = require('./lib/keys');
const { parseArgs, bad } = require('./lib/options');
const { readBootrom, readFlash } = require('./lib/power');
const { Board } = require('./lib/board');
const { StepRunner } = require('./lib/steps');
const { report } = require('./lib/report');

// the steps: the scenario's, then the key words' (after READY when there is no scenario)
function planSteps(opts, buttons) {
  let steps = [];
  if (opts.scenario) steps = steps.concat(parseScenario(fs.readFileSync(opts.scenario, 'utf8')).steps);
  let keys = opts.keys || '';
  if (opts.randomKeys) keys += ' ' + randomKeys(opts.randomKeys, opts.seed);
  if (!keys.trim()) return steps;
  if (!opts.scenario) steps.push({ 'wait-serial': 'SULTAN READY' });
  try {
    return steps.concat(keySteps(keys, buttons, opts.keyMs, opts.gapMs, opts.shots));
  } catch (e) {
    return bad('--keys: ' + e.message);
  }
}

function main() {
  const opts = parseArgs(process.argv);
  const net = new Netlist(JSON.parse(fs.readFileSync(opts.diagram, 'utf8')));
  const rom = readBootrom(opts.bootrom);
  const image = readFlash(opts);
  fs.mkdirSync(opts.out, { recursive: true });
  const board = new Board(opts, rom, image, net);
  board.boot('power-on');
  const steps = planSteps(opts, board.buttons);
  let runner = null;
  // the flash image, the last NeoPixel frame, the report
  const finish = (error) => {
    if (opts.flashOut) fs.writeFileSync(opts.flashOut, board.flashBytes());
    board.pixels.end();
    if (opts.report) fs.writeFileSync(opts.report, JSON.stringify(report(opts, board, runner.idles, error), null, 1));
  };
  const fail = (msg) => {
    board.log('FAILED: ' + msg);
    const shot = path.join(opts.out, 'failure.png');
    board.savePicture(shot);
    board.log('screen at failure: ' + shot);
    finish(msg);
    process.exit(1);
  };
  runner = new StepRunner(board, opts, fail);
  runner.run(steps);
  if (opts.afterMs) board.runFor(opts.afterMs * 1e6);
  if (opts.finalScreenshot) {
    board.runFor(200e6);
    const file = path.join(opts.out, path.basename(opts.finalScreenshot));
    board.savePicture(file);
    board.log('screenshot ' + file);
  }
  const errors = serialErrors(board.console.text);
  if (errors.length) fail('the serial console shows ' + errors.join('; '));
  board.console.close();
  finish(null);
  const { chip, lcd } = board;
  const unknown = Object.keys(chip.unknown);
  board.log(`done: ${steps.length} steps, ${lcd.pixelsWritten} pixels written, ${lcd.commands} LCD commands; flash: ${chip.ops.length} erases/programs, ${chip.cuts.length} power cycles${unknown.length ? ', commands not modelled: ' + unknown.join(' ') : ''}`);
  process.exit(0);
}

main();
