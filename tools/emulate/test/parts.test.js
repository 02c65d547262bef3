'use strict';
// The parts' models alone (74HC165, ILI9341, NeoPixels), the netlist and the PNG writer:  node --test tools/emulate/test
const test = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const path = require('path');
const zlib = require('zlib');
const { PNG } = require('pngjs');
const { ILI9341 } = require('../lib/ili9341');
const { HC165 } = require('../lib/hc165');
const { Netlist } = require('../lib/netlist');
const { encodePNG } = require('../lib/png');
const { NeoPixelStream, wordBits, describe, RESET_NS } = require('../lib/neopixel');

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
  assert.deepStrictEqual(w.lcd, { SCK: 18, MOSI: 19, CS: 17, DC: 21, RST: 20, LED: 13 });
  // a backlight tied to a supply: no GPIO to watch
  const tied = JSON.parse(JSON.stringify(diagram));
  for (const c of tied.connections) if (c[1] === 'lcd1:LED') c[0] = 'pico:3V3';
  assert.strictEqual(new Netlist(tied).wiring().lcd.LED, null);
  assert.deepStrictEqual(w.sr, { PL: 11, CP: 10, Q7: 12 });
  const d = Object.fromEntries(net.buttons().list.map((b) => [b.name, b.d]));
  assert.deepStrictEqual(d, { LEFT: 0, UP: 1, DOWN: 2, RIGHT: 3, SELECT: 4, START: 5, A: 6, B: 7 });
  assert.deepStrictEqual(net.neopixels(), { din: 22, chain: ['np1', 'np2', 'np3', 'np4', 'np5'] });
});

// CircuitPython's neopixel_write: autopull at 8 bits (PULL_THRESH 8 << 25), shift left; each byte
// written to TXF lands on all four byte lanes
const CP_SHIFTCTRL = (1 << 17) | (8 << 25);
const lanes = (b) => (b * 0x01010101) >>> 0;

test('neopixel: a FIFO word gives the bits the state machine shifts out', () => {
  assert.deepStrictEqual(wordBits(lanes(0xa5), CP_SHIFTCTRL), [1, 0, 1, 0, 0, 1, 0, 1]);
  // shift right: LSB first; threshold 0 means 32 bits
  assert.deepStrictEqual(wordBits(0x00000001, (1 << 19) | (4 << 25)), [1, 0, 0, 0]);
  assert.strictEqual(wordBits(0x12345678, 0).length, 32);
  // a 24-bit GRB word shifted left from bit 31 (as pico-sdk's ws2812 example pushes it)
  assert.deepStrictEqual(wordBits(0xff000000, 24 << 25).slice(0, 9), [1, 1, 1, 1, 1, 1, 1, 1, 0]);
});

test('neopixel: bytes are green, red, blue; a pause longer than the reset time ends a frame', () => {
  const got = [];
  const s = new NeoPixelStream({ onFrame: (f) => got.push(f) });
  const show = (t0, rgbs) => {
    let t = t0;
    for (const [r, g, b] of rgbs) for (const v of [g, r, b]) s.push((t += 10000), lanes(v), CP_SHIFTCTRL); // 10 us a byte
  };
  show(1e6, [[40, 28, 0], [5, 3, 0], [0, 0, 0]]);
  show(1e6 + 90000 + RESET_NS + 1, [[0, 0, 0], [0, 36, 10], [0, 4, 1]]);
  assert.strictEqual(got.length, 1); // the second is latched only by the next pause or the run's end
  s.end();
  assert.deepStrictEqual(s.frames.map((f) => f.pixels), [
    [[40, 28, 0], [5, 3, 0], [0, 0, 0]],
    [[0, 0, 0], [0, 36, 10], [0, 4, 1]],
  ]);
  assert.strictEqual(s.frames[0].at_ms, 1.01);
  assert.strictEqual(describe(s.frames[1]), '#000000 #00240a #000401');
  assert.strictEqual(s.end(), null); // nothing under way
});

test('neopixel: a frame cut mid-pixel keeps its whole pixels and says what is left', () => {
  const s = new NeoPixelStream();
  for (const v of [1, 2, 3, 4]) s.push(0, lanes(v), CP_SHIFTCTRL);
  const f = s.end();
  assert.deepStrictEqual(f.pixels, [[2, 1, 3]]);
  assert.strictEqual(f.extra_bits, 8);
});


test('png: a valid file that decodes back', () => {
  const rgb = new Uint8Array([255, 0, 0, 0, 255, 0, 0, 0, 255, 9, 9, 9]);
  const png = encodePNG(2, 2, rgb);
  assert.strictEqual(png.subarray(1, 4).toString('ascii'), 'PNG');
  const idat = png.indexOf('IDAT');
  const len = png.readUInt32BE(idat - 4);
  const raw = zlib.inflateSync(png.subarray(idat + 4, idat + 4 + len));
  assert.deepStrictEqual(Array.from(raw), [0, 255, 0, 0, 0, 255, 0, 0, 0, 0, 255, 9, 9, 9]); // rows unfiltered
  const back = PNG.sync.read(png);
  assert.deepStrictEqual([back.width, back.height, back.colorType], [2, 2, 2]);
  assert.deepStrictEqual(Array.from(back.data.filter((_v, i) => i % 4 !== 3)), Array.from(rgb));
});
