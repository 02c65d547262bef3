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
const { PNG } = require('pngjs');
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

// --- the flash chip (lib/flash.js), the SSI and IO_QSPI (lib/qspi.js), the power-cycle key words (lib/keys.js)
const { FlashChip, OP_MS } = require('../lib/flash');
const { rng } = require('../lib/run');

// a chip on a 2 MB buffer and a settable clock (ns)
function makeChip() {
  const t = { ns: 0 };
  const notes = [];
  const chip = new FlashChip(new Uint8Array(2 * 1024 * 1024).fill(0xff), { now: () => t.ns, log: (m) => notes.push(m) });
  const cmd = (bytes) => {
    chip.select();
    const out = bytes.map((b) => chip.transfer(b));
    chip.deselect();
    return out;
  };
  const status = () => cmd([0x05, 0])[1];
  return { chip, t, cmd, status, notes };
}

test('flash: JEDEC ID EF 40 15 (2 MB), unique ID after 4 dummy bytes, ABh device ID', () => {
  const { cmd } = makeChip();
  // CircuitPython's supervisor_flash_init reads 4 bytes and takes byte 3 as log2 of the size
  assert.deepStrictEqual(cmd([0x9f, 0, 0, 0]).slice(1), [0xef, 0x40, 0x15]);
  const uid = cmd([0x4b, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]).slice(5);
  assert.strictEqual(uid.length, 8);
  assert.ok(uid.some((b) => b !== 0xff));
  assert.strictEqual(cmd([0xab, 0, 0, 0, 0])[4], 0x14);
});

test('flash: read 03h and fast read 0Bh (one dummy byte) from the address sent', () => {
  const { chip, cmd } = makeChip();
  chip.mem.set([1, 2, 3, 4], 0x1234);
  assert.deepStrictEqual(cmd([0x03, 0x00, 0x12, 0x34, 0, 0, 0]).slice(4), [1, 2, 3]);
  assert.deepStrictEqual(cmd([0x0b, 0x00, 0x12, 0x35, 0, 0, 0]).slice(5), [2, 3]);
});

test('flash: a 4 KB erase needs WEL, holds BUSY for 45 ms, then the sector is 0xFF and WEL clear', () => {
  const { chip, t, cmd, status } = makeChip();
  chip.mem.fill(0, 0x3000, 0x5000);
  cmd([0x20, 0x00, 0x30, 0x10]); // no write enable: ignored
  assert.strictEqual(status(), 0);
  assert.strictEqual(chip.counts.ignored_no_write_enable, 1);
  cmd([0x06]);
  assert.strictEqual(status(), 0x02); // WEL
  cmd([0x20, 0x00, 0x30, 0x10]); // any address in the sector
  assert.strictEqual(status() & 1, 1);
  t.ns = (OP_MS.erase4k - 0.01) * 1e6;
  assert.strictEqual(status(), 0x03);
  assert.strictEqual(chip.mem[0x3000], 0); // the bytes change when the erase ends
  t.ns = OP_MS.erase4k * 1e6;
  assert.strictEqual(status(), 0);
  assert.ok(chip.mem.subarray(0x3000, 0x4000).every((b) => b === 0xff));
  assert.strictEqual(chip.mem[0x4000], 0); // the next sector untouched
  assert.deepStrictEqual(chip.ops, [{ op: 'erase4k', addr: 0x3000, len: 4096, start_ms: 0, end_ms: 45 }]);
});

test('flash: 32 KB and 64 KB block erases take their block and their time', () => {
  const { chip, t, cmd, status } = makeChip();
  chip.mem.fill(0);
  cmd([0x06]);
  cmd([0x52, 0x01, 0x80, 0x00]);
  t.ns = OP_MS.erase32k * 1e6;
  assert.strictEqual(status(), 0);
  cmd([0x06]);
  cmd([0xd8, 0x02, 0x00, 0x00]);
  t.ns += (OP_MS.erase64k - 1) * 1e6;
  assert.strictEqual(status() & 1, 1);
  t.ns += 1e6;
  assert.strictEqual(status(), 0);
  const erased = (a, n) => chip.mem.subarray(a, a + n).every((b) => b === 0xff);
  assert.ok(erased(0x18000, 0x8000) && erased(0x20000, 0x10000));
  assert.strictEqual(chip.mem[0x17fff], 0);
  assert.strictEqual(chip.mem[0x30000], 0);
  assert.deepStrictEqual(chip.ops.map((o) => [o.op, o.addr, o.len]), [['erase32k', 0x18000, 0x8000], ['erase64k', 0x20000, 0x10000]]);
});

test('flash: page program ANDs bits, wraps within its 256-byte page, and waits 0.4 ms', () => {
  const { chip, t, cmd, status } = makeChip();
  chip.mem[0x1ff] = 0x0f;
  chip.mem[0x100] = 0xf0;
  cmd([0x06]);
  cmd([0x02, 0x00, 0x01, 0xff, 0x3c, 0xaa]); // 0x1ff, then wraps to 0x100
  assert.strictEqual(status() & 1, 1);
  assert.strictEqual(chip.mem[0x1ff], 0x0f);
  t.ns = OP_MS.program * 1e6;
  assert.strictEqual(status(), 0);
  assert.strictEqual(chip.mem[0x1ff], 0x0f & 0x3c);
  assert.strictEqual(chip.mem[0x100], 0xf0 & 0xaa);
  assert.strictEqual(chip.mem[0x200], 0xff); // not the next page
  assert.deepStrictEqual(chip.ops.map((o) => [o.op, o.addr, o.len]), [['program', 0x100, 2]]);
});

test('flash: while BUSY only status reads are taken; write status waits 10 ms', () => {
  const { chip, t, cmd, status } = makeChip();
  cmd([0x06]);
  cmd([0x01, 0x00, 0x00]); // SR1 0, SR2 0 (QE off)
  cmd([0x06]); // ignored: busy
  assert.strictEqual(chip.counts.ignored_busy, 1);
  assert.strictEqual(cmd([0x35, 0])[1], 0x02); // still the old SR2 until done
  t.ns = OP_MS.write_status * 1e6;
  assert.strictEqual(status(), 0); // WEL not set by the ignored 06h
  assert.strictEqual(cmd([0x35, 0])[1], 0x00);
});

test('flash: an unknown command is counted and logged once; a cut-short erase is not executed', () => {
  const { chip, cmd, notes } = makeChip();
  cmd([0x5a, 0, 0, 0, 0]);
  cmd([0x5a, 0, 0, 0, 0]);
  assert.deepStrictEqual(chip.unknown, { '0x5a': 2 });
  assert.strictEqual(notes.length, 1);
  assert.match(notes[0], /0x5a/);
  cmd([0x06]);
  cmd([0x20, 0x00, 0x10]); // CS up before the address's last byte
  assert.strictEqual(chip.counts.ignored_bad_length, 1);
  assert.strictEqual(chip.ops.length, 0);
});

test('flash: continuous read mode (boot2 EBh, mode A0h) ends at the ROM exit-XIP sequence', () => {
  const { chip, cmd } = makeChip();
  chip.select();
  chip.enhanced(0xeb, 0x000000a0, 1);
  chip.deselect();
  assert.strictEqual(chip.continuous, true);
  assert.deepStrictEqual(cmd([0x9f, 0, 0, 0]).slice(1), [0xff, 0xff, 0xff]); // taken as address and mode bits
  assert.strictEqual(chip.continuous, false);
  cmd([0xff, 0xff]);
  assert.deepStrictEqual(cmd([0x9f, 0, 0, 0]).slice(1), [0xef, 0x40, 0x15]);
  assert.strictEqual(chip.counts.continuous_read_exit, 1);
});

function cutDuring(opBytes, seed, atMs, fill) {
  const { chip, t, cmd } = makeChip();
  chip.mem.fill(fill, 0, 0x2000);
  cmd([0x06]);
  cmd(opBytes);
  t.ns = atMs * 1e6;
  const cut = chip.powerCut(rng(seed));
  return { chip, cut };
}

test('flash: a power cut inside an erase leaves a seeded part of the sector erased; repeatable', () => {
  const a = cutDuring([0x20, 0, 0x10, 0], 7, OP_MS.erase4k / 2, 0x00);
  const b = cutDuring([0x20, 0, 0x10, 0], 7, OP_MS.erase4k / 2, 0x00);
  const c = cutDuring([0x20, 0, 0x10, 0], 8, OP_MS.erase4k / 2, 0x00);
  const sector = (x) => x.chip.mem.subarray(0x1000, 0x2000);
  assert.deepStrictEqual(a.cut, { at_ms: 22.5, during: 'erase4k', addr: 0x1000, progress: 0.5 });
  assert.deepStrictEqual(sector(a), sector(b));
  assert.notDeepStrictEqual(sector(a), sector(c));
  let ones = 0;
  for (const byte of sector(a)) for (let bit = 1; bit < 0x100; bit <<= 1) ones += byte & bit ? 1 : 0;
  assert.ok(ones > 4096 * 8 * 0.4 && ones < 4096 * 8 * 0.6, `about half the bits erased, got ${ones}`);
  assert.strictEqual(a.chip.mem[0x0fff], 0x00); // outside the sector
  assert.strictEqual(a.chip.busy, null);
  assert.strictEqual(a.chip.ops[0].cut_ms, 22.5);
  // after the cut the chip has lost WEL: a new erase needs a new write enable
  a.chip.select();
  [0x20, 0, 0x10, 0].forEach((x) => a.chip.transfer(x));
  a.chip.deselect();
  assert.strictEqual(a.chip.ops.length, 1);
});

test('flash: a power cut inside a page program leaves a seeded subset of its 0 bits programmed', () => {
  const data = Array.from({ length: 256 }, () => 0x00);
  const { chip, cut } = cutDuring([0x02, 0, 0x01, 0, ...data], 3, OP_MS.program / 4, 0xff);
  assert.strictEqual(cut.during, 'program');
  assert.strictEqual(cut.addr, 0x100);
  const page = chip.mem.subarray(0x100, 0x200);
  assert.ok(page.some((b) => b !== 0xff) && page.some((b) => b !== 0x00), 'some bits programmed, not all');
  assert.strictEqual(chip.mem[0x200], 0xff);
  const none = cutDuring([0x20, 0, 0x10, 0], 3, OP_MS.erase4k + 1, 0x00); // after the erase ended
  assert.strictEqual(none.cut.during, null);
  assert.ok(none.chip.mem.subarray(0x1000, 0x2000).every((b) => b === 0xff));
});

// The SSI and IO_QSPI on a real rp2040js RP2040: register sequences as the ROM and boot2 write them.
const { Simulator } = require('rp2040js');
const { attachQspi } = require('../lib/qspi');
const SSI_BASE = 0x18000000;
const IO_QSPI_SS_CTRL = 0x4001800c;

function qspiBoard() {
  const sim = new Simulator();
  const mcu = sim.rp2040;
  const chip = new FlashChip(mcu.flash, { now: () => sim.clock.nanos });
  attachQspi(mcu, chip);
  chip.attach(mcu.flash, () => sim.clock.nanos, sim.clock.createAlarm(() => chip.settle()));
  const ssi = (off) => mcu.readUint32(SSI_BASE + off);
  const run = (ns) => sim.clock.tick(ns);
  return { sim, mcu, chip, ssi, run };
}

test('qspi: CS forced low by IO_QSPI OUTOVER, bytes shifted in simulated time, answers in the RX FIFO', () => {
  const { mcu, chip, ssi, run } = qspiBoard();
  mcu.writeUint32(IO_QSPI_SS_CTRL, 2 << 8); // OUTOVER low: the chip is selected
  for (const b of [0x9f, 0, 0, 0]) mcu.writeUint32(SSI_BASE + 0x60, b);
  assert.strictEqual(ssi(0x20), 4); // TXFLR: nothing shifted yet
  assert.strictEqual(ssi(0x28) & 0b1101, 0b0001); // SR: BUSY, TX not empty, RX empty
  run(1e6);
  assert.strictEqual(ssi(0x20), 0);
  assert.strictEqual(ssi(0x24), 4); // RXFLR
  assert.strictEqual(ssi(0x28) & 0b1101, 0b1100); // idle, TX empty, RX not empty
  const rx = [0, 1, 2, 3].map(() => ssi(0x60));
  assert.deepStrictEqual(rx.slice(1), [0xef, 0x40, 0x15]);
  // the ROM's hw_write_masked-style read-xor-write through the atomic alias, to OUTOVER high
  mcu.writeUint32(IO_QSPI_SS_CTRL + 0x1000, (2 << 8) ^ (3 << 8));
  assert.strictEqual(mcu.readUint32(IO_QSPI_SS_CTRL), 3 << 8);
  assert.strictEqual(chip.selected, false);
  assert.strictEqual(mcu.readUint32(0x4001801c) & (3 << 16), 0); // SD1 INOVER clear: the ROM's "not aborted"
});

test('qspi: with OUTOVER normal the SSI frames a command itself (boot2 reading status register 2)', () => {
  const { mcu, chip, ssi, run } = qspiBoard();
  mcu.writeUint32(SSI_BASE + 0x60, 0x35);
  mcu.writeUint32(SSI_BASE + 0x60, 0x00);
  assert.strictEqual(chip.selected, true);
  run(1e6);
  assert.strictEqual(chip.selected, false); // CS up when the TX FIFO ran dry
  ssi(0x60);
  assert.strictEqual(ssi(0x60), 0x02);
  assert.strictEqual(chip.counts.read_status2, 1);
  mcu.writeUint32(SSI_BASE + 0x08, 0); // disabled: FIFOs emptied, DR0 writes ignored
  mcu.writeUint32(SSI_BASE + 0x60, 0x9f);
  assert.strictEqual(ssi(0x20), 0);
});

test('qspi: an erase through the SSI ends when the chip says, on the simulator clock', () => {
  const { mcu, chip, ssi, run } = qspiBoard();
  mcu.flash.fill(0, 0xff000, 0x100000);
  const forced = (bytes) => {
    mcu.writeUint32(IO_QSPI_SS_CTRL, 2 << 8);
    for (const b of bytes) mcu.writeUint32(SSI_BASE + 0x60, b);
    run(1e6);
    const rx = bytes.map(() => ssi(0x60));
    mcu.writeUint32(IO_QSPI_SS_CTRL, 3 << 8);
    return rx;
  };
  forced([0x06]);
  forced([0x20, 0x0f, 0xf0, 0x00]);
  assert.strictEqual(forced([0x05, 0])[1] & 1, 1);
  run(50e6);
  assert.ok(mcu.flash.subarray(0xff000, 0x100000).every((b) => b === 0xff)); // by the alarm, before any poll
  assert.strictEqual(forced([0x05, 0])[1], 0);
  assert.strictEqual(chip.ops[0].op, 'erase4k');
});

const { keySteps } = require('../lib/keys');
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

test('flash: --flash-time-scale 0 makes an erase end at once; a cut then finds nothing under way', () => {
  const chip = new FlashChip(new Uint8Array(2 * 1024 * 1024).fill(0), { now: () => 5e6, timeScale: 0 });
  for (const bytes of [[0x06], [0x20, 0, 0x20, 0]]) {
    chip.select();
    bytes.forEach((b) => chip.transfer(b));
    chip.deselect();
  }
  chip.select();
  chip.transfer(0x05);
  assert.strictEqual(chip.transfer(0), 0);
  chip.deselect();
  assert.ok(chip.mem.subarray(0x2000, 0x3000).every((b) => b === 0xff));
  assert.strictEqual(chip.powerCut(rng(1)).during, null);
  assert.strictEqual(chip.report().time_scale, 0);
});

test('keys: each power cycle shoots the boot at READY (NN-READY.png) when shots are on', () => {
  const buttons = new Netlist(diagram).buttons();
  const steps = keySteps('START CUT@WRITE+1 LEFT RESET', buttons, 60, 100, true);
  const names = steps.filter((s) => s['take-screenshot']).map((s) => s['take-screenshot']['save-to']);
  assert.deepStrictEqual(names, ['00-ready.png', '01-READY.png', '02-LEFT.png', '03-READY.png']);
});
