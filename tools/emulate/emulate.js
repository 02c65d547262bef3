#!/usr/bin/env node
// Offline run of the Wokwi image on real CircuitPython: rp2040js boots the UF2 (CircuitPython + our
// CIRCUITPY FAT at 0x100000, lib/power.js), lib/board.js models what diagram.json wires to the Pico: the
// 74HC165 with its eight buttons, the ILI9341 (SPI stream decoded into a framebuffer, saved as PNG) and its
// backlight, the NeoPixels (lib/neopixel.js, from the PIO's words), the W25Q16JV flash behind the SSI
// (lib/flash.js, lib/qspi.js: the datasheet's erase and program times, kept across RESET and CUT); and
// lib/console.js reads the USB CDC serial console.  Steps come from a Wokwi CLI scenario (the same YAML the
// Wokwi CLI runs) and/or from the key words; lib/steps.js walks them, lib/report.js writes --report.
//
//   node tools/emulate/emulate.js --firmware build/wokwi/sultan.uf2 --bootrom vendor-local/bootrom.js \
//        [--scenario wokwi/scenario.yaml] [--keys "RIGHT A START" | --steps FILE.json] [--out DIR]
//        [--window 160x128] [--report FILE.json] [--random-keys N --seed S] [--no-shots] ...  (--help)
//
// The key words (NAME, NAME*n, NAME*n!, NAME?, NAME~ms, RELOAD, WAIT:ms, RESET, CUT@ms, CUT@WRITE+ms) are
// parsed once, in Python: sultan_host.keywords says what each does and prints their steps, which --steps
// takes; --keys asks it (lib/words.js).  docs/emulator.md has the rest.
//
// The firmware and the RP2040 bootrom are never in git: pass them by path or in SULTAN_UF2 and
// RP2040_BOOTROM (a raw 16 KB .bin, or a .js file with the words as hex, as in rp2040js-circuitpython).
'use strict';

const fs = require('fs');
const path = require('path');
const { Netlist } = require('./lib/netlist');
const { parseScenario } = require('./lib/scenario');
const { serialErrors } = require('./lib/run');
const { keywordSteps, readSteps } = require('./lib/words');
const { parseArgs, bad } = require('./lib/options');
const { readBootrom, readFlash } = require('./lib/power');
const { Board } = require('./lib/board');
const { StepRunner } = require('./lib/steps');
const { report } = require('./lib/report');

// the steps: the scenario's, then the key words' (after READY when there is no scenario)
// (a bad scenario, word or steps file: one line, exit 2)
function planSteps(opts, buttons) {
  let steps = [];
  try {
    if (opts.scenario) steps = parseScenario(fs.readFileSync(opts.scenario, 'utf8')).steps;
  } catch (e) {
    bad(`--scenario ${opts.scenario}: ${e.message}`);
  }
  const keyed = opts.steps !== null || (opts.keys || '').trim() || opts.randomKeys;
  if (!keyed) return steps;
  if (!opts.scenario) steps.push({ 'wait-serial': 'SULTAN READY' });
  try {
    return steps.concat(opts.steps !== null ? readSteps(opts.steps, buttons) : keywordSteps(opts));
  } catch (e) {
    return bad(e.message);
  }
}

function main() {
  const opts = parseArgs(process.argv);
  const net = new Netlist(JSON.parse(fs.readFileSync(opts.diagram, 'utf8')));
  const steps = planSteps(opts, net.buttons());
  const rom = readBootrom(opts.bootrom);
  const image = readFlash(opts);
  fs.mkdirSync(opts.out, { recursive: true });
  const board = new Board(opts, rom, image, net);
  board.boot('power-on');
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
