'use strict';
// The steps' sources: the Wokwi scenario, the key words, the random keys; and the console's errors
const test = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const path = require('path');
const { Netlist } = require('../lib/netlist');
const { parseScenario, parseDuration } = require('../lib/scenario');
const { crop, randomKeys, serialErrors, RANDOM_MIX } = require('../lib/run');
const { keySteps } = require('../lib/keys');

const ROOT = path.resolve(__dirname, '..', '..', '..');
const diagram = JSON.parse(fs.readFileSync(path.join(ROOT, 'diagram.json'), 'utf8'));

test('scenario: the Wokwi YAML subset', () => {
  const s = parseScenario(fs.readFileSync(path.join(ROOT, 'wokwi', 'scenario.yaml'), 'utf8'));
  assert.strictEqual(s.version, 1);
  assert.deepStrictEqual(s.steps[0], { 'wait-serial': 'SULTAN READY' });
  assert.deepStrictEqual(s.steps[2], { 'set-control': { 'part-id': 'btnRight', control: 'pressed', value: 1 } });
  assert.strictEqual(parseDuration('60ms'), 60);
  assert.strictEqual(parseDuration('1.5s'), 1500);
  // comments, both quotes, and a file of comments only (no steps)
  const c = parseScenario("# c\nname: x  # why\nsteps:\n  - wait-serial: 'it''s'\n  - wait-serial: \"a: b\"\n");
  assert.deepStrictEqual(c, { name: 'x', steps: [{ 'wait-serial': "it's" }, { 'wait-serial': 'a: b' }] });
  assert.deepStrictEqual(parseScenario('# only a comment\n\n'), { steps: [] });
  // what the runner cannot play is refused with a reason
  assert.throws(() => parseScenario('steps:\n  - [1, 2]\n'), /step 1 is not a one-key map/);
  assert.throws(() => parseScenario('steps: 3\n'), /steps is not a list/);
  assert.throws(() => parseScenario('name: [\n'), /^Error: scenario: /);
});


test('run: the window crop takes the top-left w x h', () => {
  const pic = { width: 3, height: 2, rgb: Uint8Array.from({ length: 18 }, (_v, i) => i) };
  const c = crop(pic, 2, 1);
  assert.deepStrictEqual([c.width, c.height], [2, 1]);
  assert.deepStrictEqual(Array.from(c.rgb), [0, 1, 2, 3, 4, 5]);
  assert.strictEqual(crop(pic, 160, 128).width, 3);
});

test('run: seeded random keys repeat and use the mix', () => {
  const a = randomKeys(50, 7);
  assert.strictEqual(a, randomKeys(50, 7));
  assert.notStrictEqual(a, randomKeys(50, 8));
  assert.ok(a.split(' ').every((k) => RANDOM_MIX.includes(k)));
});

test('run: console errors, but a RELOAD\'s KeyboardInterrupt', () => {
  const tb = (last) => `Traceback (most recent call last):\n  File "code.py", line 1, in <module>\n${last}\n`;
  assert.deepStrictEqual(serialErrors('SULTAN READY\n' + tb('KeyboardInterrupt: ')), []);
  assert.deepStrictEqual(serialErrors(tb('ImportError: no module named x')), ['an exception: ImportError: no module named x']);
  assert.deepStrictEqual(serialErrors('SULTAN save failed: MemoryError\n'), ['a MemoryError']);
});


test('keys: NAME? is pressed and shot without waiting for its line', () => {
  const buttons = new Netlist(diagram).buttons();
  const steps = keySteps('START A? RIGHT', buttons, 60, 100, true);
  const kinds = steps.map((s) => Object.keys(s)[0]);
  assert.deepStrictEqual(kinds, [
    'take-screenshot',
    'set-control', 'delay', 'set-control', 'wait-serial', 'take-screenshot', 'delay', // START
    'set-control', 'delay', 'set-control', 'delay', 'take-screenshot', // A?: no wait-serial
    'set-control', 'delay', 'set-control', 'wait-serial', 'take-screenshot', 'delay', // RIGHT
  ]);
  assert.strictEqual(steps[11]['take-screenshot']['save-to'], '02-A.png');
  assert.strictEqual(steps[16]['take-screenshot']['save-to'], '03-RIGHT.png');
  assert.throws(() => keySteps('Q?', buttons, 60, 100, false), /unknown key/);
});

test('keys: RESET and CUT@ms; the key before a cut is not waited for', () => {
  const buttons = new Netlist(diagram).buttons();
  const steps = keySteps('RIGHT START CUT@10050 RESET WAIT:100 CUT@5.25', buttons, 60, 100, false);
  const kinds = steps.map((s) => Object.keys(s)[0]);
  assert.deepStrictEqual(steps[9], { delay: '100ms', idle: true }); // WAIT: its share in WFI is reported
  assert.deepStrictEqual(kinds, [
    'set-control', 'delay', 'set-control', 'wait-serial', 'delay', // RIGHT
    'set-control', 'release-before-cut', // START, pressed, its line not waited for
    'power-cycle', 'power-cycle', 'delay', 'power-cycle',
  ]);
  assert.deepStrictEqual(steps[7]['power-cycle'], { kind: 'CUT', after_ms: 10050, from: 'press' });
  assert.deepStrictEqual(steps[8]['power-cycle'], { kind: 'RESET' });
  assert.deepStrictEqual(steps[10]['power-cycle'], { kind: 'CUT', after_ms: 5.25, from: 'now' });
  assert.throws(() => keySteps('CUT@x', buttons, 60, 100, false), /bad cut/);
});

test('keys: CUT@WRITE+ms aims at the next flash write; its key is not waited for', () => {
  const buttons = new Netlist(diagram).buttons();
  const steps = keySteps('START CUT@WRITE+12.5 LEFT', buttons, 60, 100, false);
  assert.deepStrictEqual(steps.slice(0, 3).map((s) => Object.keys(s)[0]), ['set-control', 'release-before-cut', 'power-cycle']);
  assert.deepStrictEqual(steps[2]['power-cycle'], { kind: 'CUT', write_ms: 12.5 });
  assert.throws(() => keySteps('CUT@WRITE+x', buttons, 60, 100, false), /bad cut/);
});

test('keys: each power cycle shoots the boot at READY (NN-READY.png) when shots are on', () => {
  const buttons = new Netlist(diagram).buttons();
  const steps = keySteps('START CUT@WRITE+1 LEFT RESET', buttons, 60, 100, true);
  const names = steps.filter((s) => s['take-screenshot']).map((s) => s['take-screenshot']['save-to']);
  assert.deepStrictEqual(names, ['00-ready.png', '01-READY.png', '02-LEFT.png', '03-READY.png']);
});
