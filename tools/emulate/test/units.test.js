'use strict';
// Unit tests of the emulator's models; no firmware, no rp2040js needed:  node --test tools/emulate/test
const test = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const path = require('path');
const zlib = require('zlib');
const { ILI9341 } = require('../lib/ili9341');
const { HC165 } = require('../lib/hc165');
const { Netlist } = require('../lib/netlist');
const { parseScenario, parseDuration } = require('../lib/scenario');
const { encodePNG } = require('../lib/png');

const ROOT = path.resolve(__dirname, '..', '..', '..');
const diagram = JSON.parse(fs.readFileSync(path.join(ROOT, 'diagram.json'), 'utf8'));

function send(lcd, cmd, data = []) {
  lcd.write(false, cmd);
  for (const b of data) lcd.write(true, b);
}

test('74HC165: load while PL low, D7 first, shift on CP rising edges', () => {
  const sr = new HC165();
  sr.setInput(7, true); // B
  sr.setInput(0, true); // LEFT
  sr.setPL(false);
  sr.setPL(true);
  const bits = [];
  for (let i = 0; i < 8; i++) {
    bits.push(sr.q7 ? 1 : 0);
    sr.setCP(true);
    sr.setCP(false);
  }
  assert.deepStrictEqual(bits, [1, 0, 0, 0, 0, 0, 0, 1]);
  sr.setInput(6, true); // a press while shifting is not seen until the next load
  assert.strictEqual(sr.q7, false);
});

test('ILI9341: CASET/PASET/RAMWR fill a window; MADCTL 0x38 (CircuitPython landscape) reads upright at rotate 270', () => {
  const lcd = new ILI9341();
  send(lcd, 0x11);
  send(lcd, 0x36, [0x38]);
  send(lcd, 0x29);
  // logical landscape pixel (x=10, y=20), 2x1 window, red then green
  send(lcd, 0x2a, [0, 10, 0, 11]);
  send(lcd, 0x2b, [0, 20, 0, 20]);
  send(lcd, 0x2c, [0xf8, 0x00, 0x07, 0xe0]);
  const { width, height, rgb } = lcd.rgb(270);
  assert.strictEqual(width, 320);
  assert.strictEqual(height, 240);
  const at = (x, y) => Array.from(rgb.subarray((y * width + x) * 3, (y * width + x) * 3 + 3));
  assert.deepStrictEqual(at(10, 20), [255, 0, 0]);
  assert.deepStrictEqual(at(11, 20), [0, 255, 0]);
  assert.deepStrictEqual(at(12, 20), [0, 0, 0]);
  assert.strictEqual(lcd.pixelsWritten, 2);
});

test('ILI9341: portrait MADCTL 0x48 reads upright at rotate 0; display off is black', () => {
  const lcd = new ILI9341();
  send(lcd, 0x36, [0x48]);
  send(lcd, 0x2a, [0, 5, 0, 5]);
  send(lcd, 0x2b, [0, 7, 0, 7]);
  send(lcd, 0x2c, [0x00, 0x1f]);
  assert.deepStrictEqual(Array.from(lcd.rgb(0).rgb.subarray((7 * 240 + 5) * 3, (7 * 240 + 5) * 3 + 3)), [0, 0, 0]);
  send(lcd, 0x29);
  assert.deepStrictEqual(Array.from(lcd.rgb(0).rgb.subarray((7 * 240 + 5) * 3, (7 * 240 + 5) * 3 + 3)), [0, 0, 255]);
});

test('netlist: the wiring the emulator takes from diagram.json', () => {
  const net = new Netlist(diagram);
  const w = net.wiring();
  assert.deepStrictEqual(w.lcd, { SCK: 18, MOSI: 19, CS: 17, DC: 21, RST: 20 });
  assert.deepStrictEqual(w.sr, { PL: 11, CP: 10, Q7: 12 });
  const d = Object.fromEntries(net.buttons().list.map((b) => [b.name, b.d]));
  assert.deepStrictEqual(d, { LEFT: 0, UP: 1, DOWN: 2, RIGHT: 3, SELECT: 4, START: 5, A: 6, B: 7 });
});

test('scenario: the Wokwi YAML subset', () => {
  const s = parseScenario(fs.readFileSync(path.join(ROOT, 'wokwi', 'scenario.yaml'), 'utf8'));
  assert.strictEqual(s.version, 1);
  assert.deepStrictEqual(s.steps[0], { 'wait-serial': 'SULTAN READY' });
  assert.deepStrictEqual(s.steps[2], { 'set-control': { 'part-id': 'btnRight', control: 'pressed', value: 1 } });
  assert.strictEqual(parseDuration('60ms'), 60);
  assert.strictEqual(parseDuration('1.5s'), 1500);
});

test('png: a valid file that decodes back', () => {
  const rgb = new Uint8Array([255, 0, 0, 0, 255, 0, 0, 0, 255, 9, 9, 9]);
  const png = encodePNG(2, 2, rgb);
  assert.strictEqual(png.subarray(1, 4).toString('ascii'), 'PNG');
  const idat = png.indexOf('IDAT');
  const len = png.readUInt32BE(idat - 4);
  const raw = zlib.inflateSync(png.subarray(idat + 4, idat + 4 + len));
  assert.deepStrictEqual(Array.from(raw), [0, 255, 0, 0, 0, 255, 0, 0, 0, 0, 255, 9, 9, 9]);
});

const { crop, randomKeys, serialErrors, RANDOM_MIX } = require('../lib/run');

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
