'use strict';
// The console's reading, the timeline across power cycles, the backlight's duty and the step runner, on
// stand-ins for the RP2040 (no firmware):  node --test tools/emulate/test
const test = require('node:test');
const assert = require('node:assert');
const { SerialConsole, plainLine } = require('../lib/console');
const { Timeline } = require('../lib/power');
const { ledDuty } = require('../lib/board');
const { StepRunner } = require('../lib/steps');

const bytes = (text) => new TextEncoder().encode(text);

function makeConsole() {
  const time = new Timeline();
  time.start({ nanos: 0 });
  const lcd = { pixelsWritten: 0 };
  const con = new SerialConsole({ time, pixels: () => lcd.pixelsWritten, quiet: true });
  const sent = [];
  con.attach({ sendSerialByte: (b) => sent.push(b) });
  return { time, lcd, con, sent };
}

test('console: lines lose the terminal escapes and carry their simulated time', () => {
  assert.strictEqual(plainLine('\x1b]0;🐍 code.py\x1b\\SULTAN READY\r'), 'SULTAN READY');
  assert.strictEqual(plainLine('\x1b[2K\x1b[0Gabc'), 'abc');
  const { time, con } = makeConsole();
  con.booted('power-on');
  time.clock.nanos = 5e6;
  con.receive(bytes('boot\r\nSULTAN RE'));
  time.clock.nanos = 7e6;
  con.receive(bytes('ADY board=pico\r\n'));
  assert.deepStrictEqual(con.lines, [{ ms: 5, text: 'boot' }, { ms: 7, text: 'SULTAN READY board=pico' }]);
  assert.deepStrictEqual(con.boots[0], { boot: 0, cause: 'power-on', at_ms: 0, ready_ms: 7, ready: 'SULTAN READY board=pico' });
});

test('console: a key line fills the oldest waiting record of that key, with the pixels sent since its press', () => {
  const { lcd, con } = makeConsole();
  const a = con.pressed('A', false);
  const b = con.pressed('A', true);
  lcd.pixelsWritten = 300;
  con.receive(bytes('SULTAN key=B\nSULTAN key=A t=3\n'));
  assert.strictEqual(a.line, 'SULTAN key=A t=3');
  assert.strictEqual(a.pixels, 300);
  assert.strictEqual(b.line, null);
  assert.strictEqual(con.pendingKeys(), 1);
});

test('console: take() matches after the last match only; power lost ends a line and loses waiting keys', () => {
  const { con, sent } = makeConsole();
  con.receive(bytes('SULTAN READY\nx\n'));
  assert.ok(con.take('SULTAN READY'));
  assert.ok(!con.take('SULTAN READY'));
  const k = con.pressed('UP', false);
  con.receive(bytes('SULTAN ke'));
  con.powerLost();
  assert.strictEqual(con.lines[con.lines.length - 1].text, 'SULTAN ke');
  assert.ok(k.lost && con.pendingKeys() === 0);
  assert.ok(!con.stopped());
  con.receive(bytes('Code done running.\n'));
  assert.ok(con.stopped());
  con.write('\x03');
  assert.deepStrictEqual(sent, [3]);
});

test('timeline: each boot starts its clock where the last one stopped', () => {
  const t = new Timeline();
  assert.strictEqual(t.ms(), 0);
  const first = { nanos: 0 };
  t.start(first);
  first.nanos = 2.5e6;
  t.stop();
  const second = { nanos: 1e6 };
  t.start(second);
  assert.strictEqual(t.ms(), 3.5);
});

test('backlight: PWM compare over TOP + 1 while the slice runs; a plain output is 0 or 1', () => {
  const mcu = (funcsel, cc, csr, out = false) => ({
    gpio: { 13: { functionSelect: funcsel, outputValue: out } },
    pwm: { channels: { 6: { cc, csr, top: 999 } } },
  });
  assert.deepStrictEqual(ledDuty(mcu(4, 250 << 16, 1), 13), { duty: 0.25, how: 'PWM 250/1000' });
  assert.strictEqual(ledDuty(mcu(4, 250 << 16, 0), 13).duty, 0);
  assert.deepStrictEqual(ledDuty(mcu(5, 0, 0, true), 13), { duty: 1, how: 'GPIO' });
  assert.strictEqual(ledDuty(mcu(31, 0, 0, true), 13).duty, 0);
});

// a board whose clock moves only when the runner runs it, recording what happens when
function fakeBoard() {
  const { time, lcd, con } = makeConsole();
  const events = [];
  const board = {
    time, lcd, console: con, wfiNanos: 0, latchWanted: null, chip: { ops: [] },
    runFor: (nanos) => { time.clock.nanos += nanos; },
    runUntil: (ms) => { if (ms > time.ms()) time.clock.nanos = ms * 1e6; },
    setButton: (id, down) => events.push([time.ms(), id, down]),
    powerCycle: (kind) => events.push([time.ms(), kind]),
    note: () => {},
    log: () => {},
  };
  return { board, events };
}

test('steps: a key before CUT@ms is released on time and the cut lands that long after its press', () => {
  const { board, events } = fakeBoard();
  const runner = new StepRunner(board, { noUsb: true, timeoutS: 60, out: '/nonexistent' }, (msg) => assert.fail(msg));
  runner.run([
    { delay: '10ms' },
    { 'set-control': { 'part-id': 'btnA', control: 'pressed', value: 1 }, key: 'A', burst: false, cutNext: true },
    { 'release-before-cut': { 'part-id': 'btnA', ms: 60 } },
    { 'power-cycle': { kind: 'CUT', after_ms: 100, from: 'press' } },
  ]);
  assert.deepStrictEqual(events, [[10, 'btnA', true], [70, 'btnA', false], [110, 'CUT']]);
  assert.strictEqual(board.console.keys[0].press_ms, 10);
  assert.strictEqual(board.latchWanted, board.console.keys[0]);
});

test('steps: WAIT records its span; an unknown step or a pin step is refused', () => {
  const { board } = fakeBoard();
  const runner = new StepRunner(board, { noUsb: true, timeoutS: 60 }, (msg) => assert.fail(msg));
  runner.run([{ delay: '250ms', idle: true }]);
  assert.deepStrictEqual(runner.idles, [{ from_ms: 0, ms: 250, wfi_ms: 0 }]);
  assert.throws(() => runner.run([{ 'wait-pin': {} }]), /not supported offline/);
  assert.throws(() => runner.run([{ jump: 1 }]), /unknown step jump/);
});
