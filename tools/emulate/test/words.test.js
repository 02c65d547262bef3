'use strict';
// The steps' sources: the Wokwi scenario and the key words (sultan_host.keywords); the console's errors
const test = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const path = require('path');
const { Netlist } = require('../lib/netlist');
const { parseScenario, parseDuration } = require('../lib/scenario');
const os = require('os');
const { crop, serialErrors } = require('../lib/run');
const { keywordSteps, readSteps, WordError } = require('../lib/words');

const ROOT = path.resolve(__dirname, '..', '..', '..');
const diagram = JSON.parse(fs.readFileSync(path.join(ROOT, 'diagram.json'), 'utf8'));

test('scenario: the Wokwi YAML subset', () => {
  const s = parseScenario(fs.readFileSync(path.join(ROOT, 'wokwi', 'scenario.yaml'), 'utf8'));
  assert.strictEqual(s.version, 1);
  assert.deepStrictEqual(s.steps[0], { 'wait-serial': 'SULTAN READY' });
  const press = s.steps[2]['set-control'];
  assert.deepStrictEqual([press.control, press.value], ['pressed', 1]);
  assert.ok(new Netlist(diagram).buttons().byId(press['part-id']), press['part-id']);
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

test('run: console errors, but a RELOAD\'s KeyboardInterrupt', () => {
  const tb = (last) => `Traceback (most recent call last):\n  File "code.py", line 1, in <module>\n${last}\n`;
  assert.deepStrictEqual(serialErrors('SULTAN READY\n' + tb('KeyboardInterrupt: ')), []);
  assert.deepStrictEqual(serialErrors(tb('ImportError: no module named x')), ['an exception: ImportError: no module named x']);
  assert.deepStrictEqual(serialErrors('SULTAN save failed: MemoryError\n'), ['a MemoryError']);
});

const OPTS = { keys: null, randomKeys: 0, seed: 1, keyMs: 60, gapMs: 100, shots: true };

test('words: --keys are parsed by sultan_host.keywords, on diagram.json\'s part ids', () => {
  const steps = keywordSteps({ ...OPTS, keys: 'START DOWN*2!' });
  assert.deepStrictEqual(steps[0], { 'take-screenshot': { 'part-id': 'lcd', 'save-to': '00-ready.png' } });
  assert.deepStrictEqual(steps[1], { 'set-control': { 'part-id': 'btnStart', control: 'pressed', value: 1 }, key: 'START', burst: false });
  assert.deepStrictEqual(steps.filter((s) => s['wait-key-lines']), [{ 'wait-key-lines': 2 }]);
  assert.throws(() => keywordSteps({ ...OPTS, keys: 'START JUMP' }), (e) => e instanceof WordError && /^--keys: unknown key JUMP/.test(e.message));
});

test('words: seeded random keys repeat, and follow --keys', () => {
  const a = keywordSteps({ ...OPTS, keys: 'A', randomKeys: 20, seed: 7, shots: false });
  const names = (steps) => steps.filter((s) => s.key).map((s) => s.key);
  assert.deepStrictEqual(names(a), names(keywordSteps({ ...OPTS, keys: 'A', randomKeys: 20, seed: 7, shots: false })));
  assert.notDeepStrictEqual(names(a), names(keywordSteps({ ...OPTS, keys: 'A', randomKeys: 20, seed: 8, shots: false })));
  assert.strictEqual(names(a)[0], 'A');
  assert.strictEqual(names(a).length, 21);
});

test('words: --steps takes the parser\'s JSON or a bare list, and refuses what no step is', () => {
  const buttons = new Netlist(diagram).buttons();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'steps-'));
  const file = (name, doc) => {
    const f = path.join(dir, name);
    fs.writeFileSync(f, typeof doc === 'string' ? doc : JSON.stringify(doc));
    return f;
  };
  const press = { 'set-control': { 'part-id': 'btnA', control: 'pressed', value: 1 }, key: 'A', burst: false };
  assert.deepStrictEqual(readSteps(file('a.json', { keys: 'A', steps: [press, { delay: '60ms' }] }), buttons), [press, { delay: '60ms' }]);
  assert.deepStrictEqual(readSteps(file('b.json', [{ 'soft-reload': true }]), buttons), [{ 'soft-reload': true }]);
  const refused = (name, doc) => assert.throws(() => readSteps(file(name, doc), buttons), WordError);
  refused('c.json', '{"steps": [');
  refused('d.json', { steps: 3 });
  refused('e.json', [{ jump: 1 }]);
  refused('f.json', [{ 'set-control': { 'part-id': 'btnZ', control: 'pressed', value: 1 } }]);
  assert.throws(() => readSteps(file('g.json', [[1]]), buttons), /step 1 is no step/);
  fs.rmSync(dir, { recursive: true });
});
