'use strict';
// The Pico's QSPI flash chip, a W25Q16JV (2 MB), as the RP2040's boot ROM, boot2 and the pico-sdk drive it
// through the SSI: the chip sees CS edges and bytes in standard SPI mode (select / transfer / deselect), and
// the one quad-mode transaction boot2 sends to enter continuous read (enhanced).  XIP reads are not seen
// here: rp2040js serves them from the same bytes (`mem`, its mcu.flash).
//
// Erase, program and write-status take the datasheet's typical time: BUSY (status bit 0) stays set until
// then, and the bytes change at the end.  powerCut() leaves an operation in progress half done, as a real
// chip might: a seeded subset of the bits it was changing changed.

const SIZE = 2 * 1024 * 1024;
const PAGE = 256;
const SECTOR = 4096;
// W25Q16JV typical times, ms (datasheet, AC characteristics: tPP, tSE, tBE1, tBE2, tCE, tW)
const OP_MS = { program: 0.4, erase4k: 45, erase32k: 120, erase64k: 150, chip_erase: 5000, write_status: 10 };
const JEDEC_ID = [0xef, 0x40, 0x15]; // Winbond, W25Q16JV-IQ/JQ, 2^21 bytes
const DEVICE_ID = 0x14; // the older ID of ABh / 90h
const UNIQUE_ID = [0xe6, 0x60, 0x38, 0x11, 0x53, 0x4c, 0x54, 0x17]; // any 64 bits: the board's serial number
const SR2_QE = 0x02;

// The commands modelled, by opcode; anything else is counted as unknown and logged once.
const COMMANDS = {
  0x06: 'write_enable',
  0x04: 'write_disable',
  0x50: 'volatile_sr_write_enable',
  0x05: 'read_status1',
  0x35: 'read_status2',
  0x15: 'read_status3',
  0x01: 'write_status1',
  0x31: 'write_status2',
  0x11: 'write_status3',
  0x20: 'erase4k',
  0x52: 'erase32k',
  0xd8: 'erase64k',
  0xc7: 'chip_erase',
  0x60: 'chip_erase',
  0x02: 'page_program',
  0x03: 'read',
  0x0b: 'fast_read',
  0x9f: 'jedec_id',
  0x4b: 'unique_id',
  0xab: 'release_power_down',
  0x90: 'manufacturer_device_id',
  0xb9: 'power_down',
  0x66: 'reset_enable',
  0x99: 'reset',
  0xff: 'continuous_read_reset', // FFh: ends continuous read mode (no-op when not in it)
};
const ERASE_LEN = { 0x20: SECTOR, 0x52: 32 * 1024, 0xd8: 64 * 1024 };
const hex2 = (n) => '0x' + n.toString(16).padStart(2, '0');

class FlashChip {
  // mem: the bytes (rp2040js's mcu.flash; its first `size` bytes are the chip).
  // now(): simulated time in ns (one timeline across power cycles). log(msg): where notes go (stderr).
  // timeScale: erase/program/write-status times x this (1: the datasheet's; 0: instant)
  constructor(mem, { size = SIZE, now = () => 0, log = () => {}, timeScale = 1 } = {}) {
    this.mem = mem;
    this.timeScale = timeScale;
    this.size = size;
    this.now = now;
    this.log = log;
    this.alarm = null; // ends a busy operation on time (lazily settled otherwise)
    this.sr = [0, SR2_QE, 0x60]; // non-volatile: QE set, as the Pico's W25Q16JV-IQ ships; SR3 drive strength
    this.counts = {}; // command name -> how many
    this.unknown = {}; // opcode '0x5a' -> how many (not modelled)
    this.ops = []; // {op, addr, len, start_ms, end_ms}: each erase and program
    this.cuts = []; // {at_ms, during, addr, progress}
    this.powerOn();
  }

  // the chip's volatile state after power-up (or a software reset)
  powerOn() {
    this.wel = false;
    this.volatileWrite = false;
    this.busy = null;
    this.selected = false;
    this.continuous = false;
    this.poweredDown = false;
    this.resetArmed = false;
  }

  // a clock alarm that calls settle(); re-made at each boot (each boot has its own clock)
  attach(mem, now, alarm) {
    this.mem = mem;
    this.now = now;
    this.alarm = alarm;
  }

  count(name) {
    this.counts[name] = (this.counts[name] || 0) + 1;
  }

  status1() {
    this.settle();
    return (this.sr[0] & 0xfc) | (this.wel ? 2 : 0) | (this.busy ? 1 : 0);
  }

  // end the operation in progress if its time has come
  settle() {
    const op = this.busy;
    if (op && this.now() >= op.endNs) {
      this.busy = null;
      this.wel = false;
      op.apply(1, null);
    }
  }

  select() {
    if (this.selected) return;
    this.settle();
    this.selected = true;
    this.cmd = -1;
    this.pos = 0;
    this.addr = 0;
    this.page = null;
    this.args = [];
  }

  // one byte in on MOSI; returns the byte the chip drives on MISO meanwhile
  transfer(byte) {
    if (!this.selected) return 0xff;
    const i = this.pos++;
    if (i === 0) {
      if (this.continuous) {
        // in continuous read mode the first clocks are address and mode bits, not a command: the ROM's
        // exit-XIP sequence; the mode bits it sends (all 0s or all 1s) are not 10b, so the chip leaves it
        this.cmd = 'xip';
        return 0xff;
      }
      this.cmd = byte;
      this.opcode(byte);
      return 0xff;
    }
    if (this.cmd === 'xip' || this.cmd === null) return 0xff;
    return this.data(byte, i);
  }

  opcode(op) {
    const name = COMMANDS[op];
    if (!name) {
      const key = hex2(op);
      if (!this.unknown[key]) this.log(`flash: command ${key} is not modelled; ignored (counted in the report)`);
      this.unknown[key] = (this.unknown[key] || 0) + 1;
      this.cmd = null;
      return;
    }
    this.count(name);
    if (this.poweredDown && op !== 0xab) {
      this.count('ignored_powered_down');
      this.cmd = null;
      return;
    }
    this.settle();
    if (this.busy && op !== 0x05 && op !== 0x35 && op !== 0x15) {
      // while BUSY the chip takes only the status reads
      this.count('ignored_busy');
      this.cmd = null;
    }
  }

  data(byte, i) {
    const cmd = this.cmd;
    if (i <= 3 && (cmd === 0x03 || cmd === 0x0b || cmd === 0x02 || cmd in ERASE_LEN || cmd === 0x90)) {
      this.addr = ((this.addr << 8) | byte) & 0xffffff;
      if (cmd === 0x02 && i === 3) this.page = new Map();
      return 0xff;
    }
    switch (cmd) {
      case 0x05:
        return this.status1();
      case 0x35:
        return this.sr[1];
      case 0x15:
        return this.sr[2];
      case 0x9f:
        return i <= 3 ? JEDEC_ID[i - 1] : 0x00;
      case 0x4b:
        return i >= 5 && i <= 12 ? UNIQUE_ID[i - 5] : 0xff;
      case 0xab:
        return i >= 4 ? DEVICE_ID : 0xff;
      case 0x90:
        return (i - 4 + (this.addr & 1)) % 2 === 0 ? JEDEC_ID[0] : DEVICE_ID;
      case 0x03:
        return this.mem[this.addr++ % this.size];
      case 0x0b:
        if (i === 4) return 0xff; // the dummy byte
        return this.mem[this.addr++ % this.size];
      case 0x02: {
        // the page buffer: past the page's end the address wraps to its start; a byte sent twice, the last wins
        const at = (this.addr & ~(PAGE - 1)) | ((this.addr + i - 4) & (PAGE - 1));
        this.page.set(at % this.size, byte);
        return 0xff;
      }
      case 0x01:
      case 0x31:
      case 0x11:
        this.args.push(byte);
        return 0xff;
      default:
        return 0xff;
    }
  }

  deselect() {
    if (!this.selected) return;
    this.selected = false;
    const cmd = this.cmd;
    const n = this.pos; // bytes clocked, the opcode included
    if (cmd === 'xip') {
      this.continuous = false;
      this.count('continuous_read_exit');
      return;
    }
    if (cmd !== 0x99) this.resetArmed = false;
    if (cmd === null || cmd === -1) return;
    switch (cmd) {
      case 0x06:
        this.wel = true;
        break;
      case 0x04:
        this.wel = false;
        break;
      case 0x50:
        this.volatileWrite = true;
        break;
      case 0xb9:
        this.poweredDown = true;
        break;
      case 0xab:
        this.poweredDown = false;
        break;
      case 0x66:
        this.resetArmed = true;
        break;
      case 0x99:
        if (this.resetArmed) this.softReset();
        break;
      case 0x01:
      case 0x31:
      case 0x11:
        this.writeStatus(cmd);
        break;
      case 0x20:
      case 0x52:
      case 0xd8:
        // executed only if CS rises right after the address's last bit
        if (n !== 4) this.count('ignored_bad_length');
        else if (this.needWel()) this.erase(COMMANDS[cmd], this.addr & ~(ERASE_LEN[cmd] - 1), ERASE_LEN[cmd]);
        break;
      case 0xc7:
      case 0x60:
        if (n !== 1) this.count('ignored_bad_length');
        else if (this.needWel()) this.erase('chip_erase', 0, this.size);
        break;
      case 0x02:
        if (n < 5) this.count('ignored_bad_length');
        else if (this.needWel()) this.program(this.addr, this.page);
        break;
      default:
        break;
    }
    this.volatileWrite = this.volatileWrite && cmd === 0x50;
  }

  needWel() {
    if (this.wel) return true;
    this.count('ignored_no_write_enable');
    return false;
  }

  softReset() {
    if (this.busy) this.interrupt(() => 0.5); // a reset ends an erase or program where it stands
    const sr = this.sr;
    this.powerOn();
    this.sr = sr;
  }

  writeStatus(cmd) {
    const first = cmd === 0x01 ? 0 : cmd === 0x31 ? 1 : 2;
    const values = this.args.slice(0, 3 - first);
    if (!values.length) return this.count('ignored_bad_length');
    const set = () => values.forEach((v, k) => (this.sr[first + k] = v));
    if (this.volatileWrite) return set(); // 50h then 01h: volatile bits, no wait
    if (!this.needWel()) return;
    this.start('write_status', first, values.length, OP_MS.write_status, (done) => done === 1 && set());
  }

  erase(op, addr, len) {
    const mem = this.mem;
    this.start(op, addr, len, OP_MS[op], (done, rand) => {
      for (let a = addr; a < addr + len; a++) mem[a] = done === 1 ? 0xff : mem[a] | randomBits(~mem[a] & 0xff, done, rand);
    });
  }

  program(addr, page) {
    const mem = this.mem;
    const first = Math.min(...page.keys());
    this.start('program', first, page.size, OP_MS.program, (done, rand) => {
      // NOR programming only takes bits from 1 to 0
      for (const [a, v] of page) mem[a] &= done === 1 ? v : ~randomBits(mem[a] & ~v & 0xff, done, rand);
    });
  }

  start(op, addr, len, ms, apply) {
    const startNs = this.now();
    const endNs = startNs + ms * this.timeScale * 1e6;
    const record = { op, addr, len, start_ms: startNs / 1e6, end_ms: endNs / 1e6 };
    if (op !== 'write_status') this.ops.push(record);
    else this.count('write_status_done');
    this.busy = { op, addr, startNs, endNs, apply, record };
    if (this.alarm) this.alarm.schedule(endNs - startNs);
  }

  // the operation in progress stops now: a seeded share of its bits (its progress) changed
  interrupt(rand) {
    const op = this.busy;
    this.busy = null;
    const span = op.endNs - op.startNs;
    const progress = span > 0 ? Math.min(1, Math.max(0, (this.now() - op.startNs) / span)) : 1;
    op.apply(progress, rand);
    op.record.cut_ms = this.now() / 1e6;
    return { op: op.op, addr: op.addr, progress };
  }

  // power lost now: an erase or program in progress is left part done (rand: a seeded [0, 1) source)
  powerCut(rand) {
    this.settle();
    if (this.alarm) this.alarm.cancel();
    const cut = { at_ms: this.now() / 1e6, during: null, addr: null, progress: null };
    if (this.busy) {
      const { op, addr, progress } = this.interrupt(rand);
      Object.assign(cut, { during: op, addr, progress: Math.round(progress * 1e4) / 1e4 });
    }
    this.cuts.push(cut);
    this.powerOn();
    return cut;
  }

  // the quad-mode transaction boot2 sends (Quad I/O Fast Read EBh with mode bits): XIP then runs from `mem`
  enhanced(instruction, address, dataFrames) {
    if (instruction === 0xeb) {
      this.count('quad_io_read');
      // address word: 24 address bits then the 8 mode bits; M5-4 = 10b keeps continuous read mode
      this.continuous = (address & 0x30) === 0x20;
      const a = (address >>> 8) % this.size;
      return Array.from({ length: dataFrames }, (_v, k) => this.mem[(a + 4 * k) % this.size] | (this.mem[(a + 4 * k + 1) % this.size] << 8) | (this.mem[(a + 4 * k + 2) % this.size] << 16) | (this.mem[(a + 4 * k + 3) % this.size] << 24));
    }
    const key = 'quad ' + hex2(instruction);
    if (!this.unknown[key]) this.log(`flash: quad-mode command ${hex2(instruction)} is not modelled; ignored`);
    this.unknown[key] = (this.unknown[key] || 0) + 1;
    return new Array(dataFrames).fill(0);
  }

  report() {
    return { size: this.size, time_scale: this.timeScale, counts: this.counts, unknown: this.unknown, ops: this.ops, cuts: this.cuts };
  }
}

// a seeded subset of `bits`, each kept with probability p
function randomBits(bits, p, rand) {
  let out = 0;
  for (let b = 1; b < 0x100; b <<= 1) if (bits & b && rand() < p) out |= b;
  return out;
}

module.exports = { FlashChip, COMMANDS, OP_MS, JEDEC_ID, SIZE, PAGE, SECTOR };
