'use strict';
// Power-on: the bootrom and the flash image the first boot starts from, one timeline across power cycles,
// and a fresh RP2040 for each boot.
const fs = require('fs');
const { Simulator, ConsoleLogger, LogLevel } = require('rp2040js');
const { loadUF2 } = require('./uf2');
const { bad, loadBootrom } = require('./options');

// The Pico's 2 MB flash (CircuitPython's ports/raspberrypi/mpconfigport.h, 8.2.7 to 10.2.1): the firmware,
// then microcontroller.nvm in the 4 KB sector at CIRCUITPY_FIRMWARE_SIZE (1020 KB), then CIRCUITPY at 1 MB.
const FLASH_SIZE = 2 * 1024 * 1024;
const NVM_ADDR = 1020 * 1024;
const NVM_LEN = 4096;
const CIRCUITPY_ADDR = 1024 * 1024;

// the RP2040's bootrom from --bootrom (a bad one: one line, exit 2)
function readBootrom(file) {
  try {
    const rom = loadBootrom(file);
    if (rom.length !== 4096) throw new Error('not an RP2040 bootrom (want its 16 KB, raw or as bootrom.js)');
    return rom;
  } catch (e) {
    return bad(`--bootrom ${file}: ${e.message}`);
  }
}

// the flash the first boot starts from: a --flash-in image, or the UF2's blocks on an erased chip
function readFlash(opts) {
  const image = new Uint8Array(FLASH_SIZE).fill(0xff);
  if (opts.flashIn) {
    const data = fs.readFileSync(opts.flashIn);
    if (data.length !== FLASH_SIZE) bad(`--flash-in ${opts.flashIn}: ${data.length} bytes, want a ${FLASH_SIZE}-byte flash image (as --flash-out writes)`);
    image.set(data);
    return image;
  }
  try {
    const into = { flash: new Uint8Array(16 * 1024 * 1024).fill(0xff) };
    loadUF2(fs.readFileSync(opts.firmware), into);
    image.set(into.flash.subarray(0, FLASH_SIZE));
  } catch (e) {
    bad(`--firmware ${opts.firmware}: ${e.message}`);
  }
  return image;
}

// Simulated time: the boots before this one, plus this boot's clock; and the run's log lines on it.
class Timeline {
  constructor() {
    this.baseNanos = 0;
    this.clock = null;
    this.started = Date.now();
  }
  nanos() {
    return this.baseNanos + (this.clock ? this.clock.nanos : 0);
  }
  ms() {
    return this.nanos() / 1e6;
  }
  wallS() {
    return (Date.now() - this.started) / 1000;
  }
  // power off: the next boot's clock starts where this one's stopped
  stop() {
    if (this.clock) this.baseNanos += this.clock.nanos;
    this.clock = null;
  }
  start(clock) {
    this.clock = clock;
  }
  log(msg) {
    console.error(`[emulate ${(this.ms() / 1000).toFixed(3)}s sim, ${this.wallS().toFixed(1)}s wall] ${msg}`);
  }
}

// One power-on of the board: a fresh RP2040 (RAM, peripherals, clock) with the flash bytes given, and the
// parts diagram.json wires to it attached by `parts(mcu, clock)`.
function powerOn(rom, flashBytes, parts) {
  const sim = new Simulator();
  const mcu = sim.rp2040;
  mcu.logger = new ConsoleLogger(LogLevel.Error);
  mcu.loadBootrom(rom); // (resets the RP2040, flash to 0xff)
  mcu.flash.set(flashBytes);
  parts(mcu, sim.clock);
  mcu.core.PC = 0x10000000;
  return { sim, mcu, clock: sim.clock, core: mcu.core };
}

module.exports = { readBootrom, readFlash, powerOn, Timeline, FLASH_SIZE, NVM_ADDR, NVM_LEN, CIRCUITPY_ADDR };
