'use strict';
// The flash chip (lib/flash.js) alone, and behind the SSI and IO_QSPI (lib/qspi.js) on rp2040js
const test = require('node:test');
const assert = require('node:assert');
const { Simulator } = require('rp2040js');
const { FlashChip, OP_MS } = require('../lib/flash');
const { attachQspi } = require('../lib/qspi');
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
