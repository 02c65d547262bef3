'use strict';
// The RP2040's path to its flash chip, in place of rp2040js's stubs: the SSI (XIP_SSI_BASE 0x18000000, a
// Synopsys DW_apb_ssi) shifting DR0 frames to the chip and its answers into the RX FIFO, and IO_QSPI
// (0x40018000), whose GPIO_QSPI_SS_CTRL.OUTOVER the boot ROM uses to hold CS low or high around a command.
// The chip's CS is low when OUTOVER forces it low, or (OUTOVER normal) while the SSI, with SER bit 0 set,
// is shifting: boot2 lets the SSI frame its commands, the ROM's and the SDK's flash routines force CS.
// Frames take simulated time (frame bits x BAUDR system clocks), so TXFLR/RXFLR/SR move as on the chip.
// XIP reads are not modelled here: rp2040js reads them straight from mcu.flash.
const { BasePeripheral } = require('rp2040js');

// SSI register offsets (RP2040 datasheet 4.10.13)
const CTRLR0 = 0x00;
const CTRLR1 = 0x04;
const SSIENR = 0x08;
const SER = 0x10;
const BAUDR = 0x14;
const TXFLR = 0x20;
const RXFLR = 0x24;
const SR = 0x28;
const ISR = 0x30;
const RISR = 0x34;
const TXOICR = 0x38;
const RXOICR = 0x3c;
const RXUICR = 0x40;
const ICR = 0x48;
const IDR = 0x58;
const SSI_VERSION_ID = 0x5c;
const DR0 = 0x60; // DR0..DR35 (0x60..0xec) all reach the same FIFOs
const DR_LAST = 0xec;
const SPI_CTRLR0 = 0xf4;
const FIFO_DEPTH = 16;
const SR_BUSY = 1 << 0;
const SR_TFNF = 1 << 1;
const SR_TFE = 1 << 2;
const SR_RFNE = 1 << 3;
const SR_RFF = 1 << 4;
const TMOD_TX_ONLY = 1;
const TMOD_EEPROM_READ = 3;
const FRF_STD = 0;

// IO_QSPI: each of the six pins has STATUS at 8n and CTRL at 8n + 4; pin 1 is SS
const QSPI_PINS = 6;
const SS_PIN = 1;
const OUTOVER_INVERT = 1;
const OUTOVER_LOW = 2;
const OUTOVER_HIGH = 3;

// The chip select line: OUTOVER from IO_QSPI, the SSI's own select; the chip sees its edges.
class QspiBus {
  constructor(chip) {
    this.chip = chip;
    this.outover = 0;
    this.ssiSelect = false;
    this.low = false;
  }
  update() {
    const o = this.outover;
    const low = o === OUTOVER_LOW ? true : o === OUTOVER_HIGH ? false : o === OUTOVER_INVERT ? !this.ssiSelect : this.ssiSelect;
    if (low === this.low) return;
    this.low = low;
    if (low) this.chip.select();
    else this.chip.deselect();
  }
  transfer(byte) {
    return this.low ? this.chip.transfer(byte) : 0xff; // MISO floats high with CS high
  }
}

class SSI extends BasePeripheral {
  constructor(rp2040, bus, clock) {
    super(rp2040, 'SSI');
    this.bus = bus;
    // as the boot ROM leaves it before boot2 (its flash_exit_xip: standard SPI, 8-bit frames, TX and RX,
    // SER 1): the emulator starts at boot2, skipping the ROM's boot
    this.ctrlr0 = 7 << 16;
    this.ctrlr1 = 0;
    this.ssienr = 1;
    this.ser = 1;
    this.baudr = 6;
    this.spiCtrlr0 = 0;
    this.other = new Map(); // registers kept but not acted on
    this.tx = [];
    this.rx = [];
    this.shifting = false;
    this.enhanced = null; // the enhanced-mode transaction under way
    this.sticky = 0; // TXO (bit 1), RXU (bit 2), RXO (bit 3) raw interrupts
    this.alarm = clock.createAlarm(() => this.frameDone());
  }

  get dfs() {
    return ((this.ctrlr0 >>> 16) & 0x1f) + 1; // bits per frame
  }
  get tmod() {
    return (this.ctrlr0 >>> 8) & 3;
  }
  get frf() {
    return (this.ctrlr0 >>> 21) & 3;
  }
  frameNanos(bits) {
    const div = this.baudr & 0xfffe || 2;
    return (bits * div * 1e9) / this.rp2040.clkSys;
  }

  readUint32(offset) {
    switch (offset) {
      case CTRLR0:
        return this.ctrlr0;
      case CTRLR1:
        return this.ctrlr1;
      case SSIENR:
        return this.ssienr;
      case SER:
        return this.ser;
      case BAUDR:
        return this.baudr;
      case TXFLR:
        return this.tx.length;
      case RXFLR:
        return this.rx.length;
      case SR:
        return (
          (this.shifting ? SR_BUSY : 0) |
          (this.tx.length < FIFO_DEPTH ? SR_TFNF : 0) |
          (this.tx.length === 0 ? SR_TFE : 0) |
          (this.rx.length ? SR_RFNE : 0) |
          (this.rx.length >= FIFO_DEPTH ? SR_RFF : 0)
        );
      case ISR:
      case RISR:
        return this.sticky;
      case TXOICR:
      case RXOICR:
      case RXUICR:
      case ICR:
        this.sticky = 0; // clear-on-read
        return 0;
      case IDR:
        return 0x51535049;
      case SSI_VERSION_ID:
        return 0x3430312a;
      case SPI_CTRLR0:
        return this.spiCtrlr0;
    }
    if (offset >= DR0 && offset <= DR_LAST) {
      if (!this.rx.length) {
        this.sticky |= 1 << 2;
        return 0;
      }
      return this.rx.shift();
    }
    return this.other.get(offset) || 0;
  }

  writeUint32(offset, value) {
    switch (offset) {
      case CTRLR0:
        this.ctrlr0 = value;
        return;
      case CTRLR1:
        this.ctrlr1 = value & 0xffff;
        return;
      case SSIENR:
        this.ssienr = value & 1;
        if (!this.ssienr) this.halt();
        return;
      case SER:
        this.ser = value & 1;
        return;
      case BAUDR:
        this.baudr = value & 0xffff;
        return;
      case SPI_CTRLR0:
        this.spiCtrlr0 = value;
        return;
    }
    if (offset >= DR0 && offset <= DR_LAST) {
      if (!this.ssienr) return;
      if (this.tx.length >= FIFO_DEPTH) {
        this.sticky |= 1 << 1;
        return;
      }
      this.tx.push(value >>> 0);
      this.kick();
      return;
    }
    this.other.set(offset, value);
  }

  // disabling the SSI empties the FIFOs and ends a transfer
  halt() {
    this.alarm.cancel();
    this.tx = [];
    this.rx = [];
    this.enhanced = null;
    this.endTransfer();
  }

  endTransfer() {
    if (!this.shifting) return;
    this.shifting = false;
    this.bus.ssiSelect = false;
    this.bus.update();
  }

  kick() {
    if (this.shifting) return;
    if (this.frf !== FRF_STD) {
      // enhanced (dual/quad) mode: an instruction entry then an address entry start the transaction
      const instL = [0, 4, 8, 16][(this.spiCtrlr0 >>> 8) & 3];
      const addrL = ((this.spiCtrlr0 >>> 2) & 0xf) * 4;
      const need = (instL ? 1 : 0) + (addrL ? 1 : 0);
      if (this.tx.length < Math.max(need, 1)) return;
      const instruction = instL ? this.tx.shift() : 0;
      const address = addrL ? this.tx.shift() : 0;
      const frames = this.tmod === TMOD_EEPROM_READ || this.tmod === 2 ? this.ctrlr1 + 1 : 0;
      const lanes = this.frf === 2 ? 4 : 2;
      const bits = instL + addrL / lanes + ((this.spiCtrlr0 >>> 11) & 0x1f) + (frames * this.dfs) / lanes;
      this.startTransfer(() => {
        const words = this.bus.low ? this.bus.chip.enhanced(instruction & 0xff, address >>> 0, frames) : new Array(frames).fill(0);
        for (const w of words) this.receive(w);
        this.tx = [];
      }, bits);
      return;
    }
    if (!this.tx.length) return;
    this.startTransfer(null, this.dfs);
  }

  startTransfer(enhanced, bits) {
    this.shifting = true;
    this.enhanced = enhanced;
    this.bus.ssiSelect = (this.ser & 1) === 1;
    this.bus.update();
    this.alarm.schedule(this.frameNanos(bits));
  }

  receive(word) {
    if (this.rx.length >= FIFO_DEPTH) this.sticky |= 1 << 3;
    else this.rx.push(word >>> 0);
  }

  // one frame shifted: its answer into the RX FIFO; the next frame, or the end of the transfer
  frameDone() {
    if (this.enhanced) {
      const done = this.enhanced;
      this.enhanced = null;
      done();
      this.endTransfer();
      return;
    }
    const bytes = Math.ceil(this.dfs / 8);
    const mode = this.tmod;
    const out = this.tx.shift();
    let word = 0;
    for (let k = bytes - 1; k >= 0; k--) word = (word << 8) | this.bus.transfer((out >>> (8 * k)) & 0xff);
    if (mode !== TMOD_TX_ONLY && mode !== TMOD_EEPROM_READ) this.receive(word);
    if (mode === TMOD_EEPROM_READ && !this.tx.length) {
      // EEPROM read: after the command and address, NDF + 1 frames are clocked in, CS held
      for (let f = 0; f <= this.ctrlr1; f++) {
        let w = 0;
        for (let k = 0; k < bytes; k++) w = (w << 8) | this.bus.transfer(0);
        this.receive(w);
      }
    }
    if (this.tx.length) this.alarm.schedule(this.frameNanos(this.dfs));
    else this.endTransfer();
  }
}

class IOQSPI extends BasePeripheral {
  constructor(rp2040, bus) {
    super(rp2040, 'IO_QSPI');
    this.bus = bus;
    this.ctrl = new Array(QSPI_PINS).fill(0); // FUNCSEL 0 (XIP), no overrides: as the ROM leaves them
    this.other = new Map();
  }
  readUint32(offset) {
    if (offset < 8 * QSPI_PINS) {
      const pin = offset >>> 3;
      if (offset & 4) return this.ctrl[pin];
      // STATUS: OUTTOPAD (bit 9) for SS, the level the chip sees
      return pin === SS_PIN && !this.bus.low ? 1 << 9 : 0;
    }
    return this.other.get(offset) || 0;
  }
  writeUint32(offset, value) {
    if (offset < 8 * QSPI_PINS) {
      if (!(offset & 4)) return; // STATUS is read-only
      const pin = offset >>> 3;
      this.ctrl[pin] = value >>> 0;
      if (pin === SS_PIN) {
        this.bus.outover = (value >>> 8) & 3;
        this.bus.update();
      }
      return;
    }
    this.other.set(offset, value);
  }
}

// Puts the SSI and IO_QSPI models on an rp2040js RP2040, talking to `chip`.
function attachQspi(mcu, chip) {
  const bus = new QspiBus(chip);
  const ssi = new SSI(mcu, bus, mcu.clock);
  const io = new IOQSPI(mcu, bus);
  mcu.peripherals[0x18000] = ssi;
  mcu.peripherals[0x40018] = io;
  // SIO's GPIO_HI_IN reads the SS pad: BOOTSEL released, so it reads high (pull-up, input enabled:
  // PADS_QSPI's reset value 0x5a). rp2040js leaves it low with input off, and CircuitPython 10's
  // BOOTSEL check then waits for ever for the button to be let go.
  mcu.qspi[SS_PIN].padValue = 0x5a;
  mcu.qspi[SS_PIN].setInputValue(true);
  return { bus, ssi, io };
}

module.exports = { attachQspi, QspiBus, SSI, IOQSPI };
