'use strict';
// The steps (a Wokwi scenario's and the key words', lib/words.js) walked on the board: presses, waits for
// console lines, soft reloads, power cycles and cuts, idle spans and screenshots.
const path = require('path');
const { parseDuration } = require('./scenario');
const { KEYPAD_SCAN_MS } = require('./words');

const KEY_TIMEOUT_MS = 20000; // simulated: a key whose line has not come by then was lost

class StepRunner {
  // fail(msg): the run's end with an error (it does not return)
  constructor(board, opts, fail) {
    this.board = board;
    this.console = board.console;
    this.time = board.time;
    this.opts = opts;
    this.fail = fail;
    this.deadline = board.time.started + opts.timeoutS * 1000;
    this.idles = []; // per WAIT:ms word: {from_ms, ms, wfi_ms}
    this.shots = [];
    this.pixelsAtShot = 0;
    this.pendingRelease = null; // the key pressed just before a cut: {id, at_ms}
    this.lastChange = new Map(); // part-id -> simulated ms of its last press or release
  }
  run(steps) {
    for (const step of steps) this.step(step);
  }
  step(step) {
    const [kind, arg] = Object.entries(step)[0];
    if (kind === 'wait-serial') this.waitSerial(String(arg));
    else if (kind === 'wait-key-lines') this.waitKeyLines(arg);
    else if (kind === 'soft-reload') this.softReload();
    else if (kind === 'power-cycle') this.powerCycle(arg);
    else if (kind === 'release-before-cut') this.pendingRelease = { id: arg['part-id'], at_ms: this.time.ms() + arg.ms };
    else if (kind === 'delay' && step.idle) this.idle(parseDuration(arg));
    else if (kind === 'delay') this.board.runFor(parseDuration(arg) * 1e6);
    else if (kind === 'set-control') this.setControl(arg, step);
    else if (kind === 'take-screenshot') this.screenshot(arg);
    else if (kind === 'expect-pin' || kind === 'wait-pin') throw new Error(kind + ' is not supported offline');
    else throw new Error('unknown step ' + kind);
  }
  // run until done(), in 5 ms slices; fails on the run's deadline, a stopped program, a lost key
  waitFor(what, done, { sinceMs = this.time.ms(), allowStop = false } = {}) {
    for (;;) {
      if (done()) return;
      if (Date.now() > this.deadline) this.fail('timed out waiting for ' + what);
      if (!allowStop && this.console.stopped()) this.fail('the program stopped before ' + what);
      if (this.time.ms() - sinceMs > KEY_TIMEOUT_MS && what.startsWith('SULTAN key')) this.fail(`no ${what} line within ${KEY_TIMEOUT_MS / 1000} s simulated`);
      this.board.runFor(5e6);
    }
  }
  waitReady(what) {
    this.waitFor(what, () => this.console.take('SULTAN READY'));
  }
  waitSerial(text) {
    if (this.opts.noUsb) {
      this.board.runFor((text === 'SULTAN READY' ? 8000 : 1000) * 1e6); // no console: time enough for it
      return;
    }
    this.board.note('wait-serial ' + JSON.stringify(text));
    this.waitFor(JSON.stringify(text), () => {
      if (process.env.EMULATE_TRACE && Math.floor(this.time.ms()) % 1000 < 5) {
        const { lcd, console: con } = this.board;
        this.board.log(`trace: pc=0x${this.board.on.core.PC.toString(16)} lcd commands=${lcd.commands} pixels=${lcd.pixelsWritten} serial=${con.text.length}`);
      }
      return this.console.take(text);
    });
  }
  waitKeyLines(n) {
    this.waitFor(`SULTAN key= lines of a burst of ${n}`, () => this.console.pendingKeys() === 0, { sinceMs: this.time.ms() });
    this.console.skipAll();
  }
  // Ctrl-C stops code.py; Ctrl-D reloads it (RAM is reset, flash stays)
  softReload() {
    this.board.log('soft reload: Ctrl-C');
    this.console.write('\x03');
    const from = this.console.consumed;
    this.waitFor('the REPL prompt after Ctrl-C', () => /to reload\.?\s*\n/.test(this.console.text.slice(from)), { allowStop: true });
    this.console.skipAll();
    this.board.log('soft reload: Ctrl-D');
    this.console.write('\x04');
    this.board.runFor(100e6);
    this.waitReady('SULTAN READY after the reload');
  }
  // the key pressed before a cut, released on time
  releasePending(beforeMs = Infinity) {
    const p = this.pendingRelease;
    if (!p || p.at_ms >= beforeMs) return;
    this.board.runUntil(p.at_ms);
    this.board.setButton(p.id, false);
    this.pendingRelease = null;
  }
  powerCycle(arg) {
    if (arg.kind === 'CUT' && arg.write_ms !== undefined) this.runToWrite(arg.write_ms);
    else if (arg.kind === 'CUT') this.runToCut(arg);
    this.pendingRelease = null;
    this.board.powerCycle(arg.kind);
    if (this.opts.noUsb) this.board.runFor(8000e6); // no console: as wait-serial does
    else this.waitReady(`SULTAN READY after ${arg.kind}`);
  }
  // run until the next erase or program starts (the key before was pressed: release it on time), then ms more
  runToWrite(ms) {
    const chip = this.board.chip;
    const from = chip.ops.length;
    const since = this.time.ms();
    while (chip.ops.length === from) {
      if (this.time.ms() - since > KEY_TIMEOUT_MS) this.fail(`CUT@WRITE: no flash write within ${KEY_TIMEOUT_MS / 1000} s simulated`);
      if (Date.now() > this.deadline) this.fail('timed out waiting for a flash write');
      if (this.pendingRelease && this.time.ms() >= this.pendingRelease.at_ms) {
        this.board.setButton(this.pendingRelease.id, false);
        this.pendingRelease = null;
      }
      this.board.runFor(0.05e6);
    }
    if (this.pendingRelease) this.board.setButton(this.pendingRelease.id, false);
    this.board.runUntil(chip.ops[from].start_ms + ms);
  }
  // CUT@ms: that long after the previous key's press, or after now
  runToCut(arg) {
    const keys = this.console.keys;
    const last = keys[keys.length - 1];
    const target = (arg.from === 'press' && last ? last.press_ms : this.time.ms()) + arg.after_ms;
    this.releasePending(target);
    if (target < this.time.ms()) this.board.log(`warning: CUT@${arg.after_ms} lands ${(this.time.ms() - target).toFixed(1)} ms in the past; cutting now`);
    this.board.runUntil(target);
  }
  // WAIT:ms, with the share of it the core spends in WFI
  idle(ms) {
    const from = this.time.ms();
    const wfi = this.board.wfiNanos;
    this.board.runFor(ms * 1e6);
    const rec = { from_ms: from, ms: this.time.ms() - from, wfi_ms: (this.board.wfiNanos - wfi) / 1e6 };
    this.idles.push(rec);
    this.board.note(`WAIT ${rec.ms.toFixed(0)} ms: the core in WFI ${((100 * rec.wfi_ms) / rec.ms).toFixed(1)}% of it`);
  }
  setControl(arg, step) {
    if (arg.control !== 'pressed') throw new Error('only the pressed control is modelled, not ' + arg.control);
    const id = arg['part-id'];
    const down = Number(arg.value) !== 0;
    const since = this.time.ms() - (this.lastChange.get(id) ?? -1e9);
    if (since < KEYPAD_SCAN_MS) this.board.log(`warning: ${id} changed after ${since.toFixed(1)} ms; keypad scans every ${KEYPAD_SCAN_MS} ms and may miss it`);
    this.lastChange.set(id, this.time.ms());
    if (down && step.key) this.board.latchWanted = this.console.pressed(step.key, !!step.burst);
    this.board.setButton(id, down);
  }
  screenshot(arg) {
    const name = path.basename(arg['save-to'] || `screenshot-${this.shots.length + 1}.png`);
    const file = path.join(this.opts.out, name);
    const lcd = this.board.lcd;
    this.board.savePicture(file);
    this.shots.push(file);
    this.board.note(`screenshot ${file} (${lcd.pixelsWritten - this.pixelsAtShot} pixels sent since the last one)`);
    this.pixelsAtShot = lcd.pixelsWritten;
  }
}

module.exports = { StepRunner, KEY_TIMEOUT_MS };
