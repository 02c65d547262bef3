'use strict';
// The board diagram.json wires: the Pico and its parts (the 74HC165 and its buttons, the ILI9341 and its
// backlight, the NeoPixels, the USB console, the flash chip).  The parts' models and the flash chip live on
// across power cycles; each boot gets a fresh RP2040 (lib/power.js) and the parts are attached to it again.
const fs = require('fs');
const { USBCDC } = require('rp2040js');
const { ILI9341 } = require('./ili9341');
const { HC165 } = require('./hc165');
const { FlashChip } = require('./flash');
const { NeoPixelStream, describe } = require('./neopixel');
const { attachQspi } = require('./qspi');
const { paceEmptyReads } = require('./usbserial');
const { encodePNG } = require('./png');
const { crop, rng } = require('./run');
const { SerialConsole } = require('./console');
const { powerOn, Timeline, FLASH_SIZE } = require('./power');

const SPI_BYTE_NANOS = 320; // 8 bits at 25 MHz: until the firmware has set the SPI's clock
const CYCLE_NANOS = 1e9 / 125e6; // the core at 125 MHz, CircuitPython's clk_sys on the RP2040
const PIO_TICK_NS = 1000; // while a PIO runs and the core sleeps, the clock moves at most this far at once
const BACKLIGHT_SAMPLE_NS = 1e6; // the backlight's duty is looked at every simulated ms the core runs
const GPIO_FUNC_PWM = 4; // IO_BANK0 GPIOn_CTRL.FUNCSEL
const GPIO_FUNC_SIO = 5;

// each enabled state machine of a running PIO, `nanos` more of its clock (clk_sys / its divider)
function stepPios(pios, nanos) {
  for (const pio of pios) {
    if (pio.stopped) continue;
    for (const sm of pio.machines) {
      if (!sm.enabled) continue;
      const period = ((sm.clockDivInt || 65536) + sm.clockDivFrac / 256) * CYCLE_NANOS;
      sm.owedNanos = (sm.owedNanos || 0) + nanos;
      for (; sm.owedNanos >= period; sm.owedNanos -= period) sm.step();
    }
    pio.checkChangedPins();
  }
}

// The ILI9341 LED pin's duty (null: diagram.json ties it to 3V3): PWM, the slice's compare / (TOP + 1)
// while the slice is enabled; a plain output, 0 or 1; no function, 0.
function ledDuty(mcu, pin) {
  const io = mcu.gpio[pin];
  if (io.functionSelect === GPIO_FUNC_PWM) {
    const ch = mcu.pwm.channels[(pin >> 1) & 7];
    const level = pin & 1 ? ch.cc >>> 16 : ch.cc & 0xffff;
    return { duty: ch.csr & 1 ? Math.min(1, level / (ch.top + 1)) : 0, how: `PWM ${level}/${ch.top + 1}` };
  }
  if (io.functionSelect === GPIO_FUNC_SIO) return { duty: io.outputValue ? 1 : 0, how: 'GPIO' };
  return { duty: 0, how: 'off' };
}

// The DMA pacing timers (audiopwmio's sample clock): clk_sys * X / Y with TIMERn = X << 16 | Y, as in the
// datasheet; rp2040js 1.4.1 divides the other way round (a 16 kHz timer fired every 0.001 ns, and a looping
// tone stopped the clock) and reads TIMER3 as TIMER3 >>> 36.
function fixDmaTimers(mcu) {
  mcu.dma.getTimer = (treq) => {
    if (treq === 63) return 1 / (mcu.clkSys / 1e6); // permanent: a transfer a clk_sys cycle
    const timer = [mcu.dma.timer0, mcu.dma.timer1, mcu.dma.timer2, mcu.dma.timer3][treq - 59];
    const x = timer >>> 16;
    const y = timer & 0xffff;
    return timer === undefined || !x || !y ? 0 : (y / x) * (1e6 / mcu.clkSys); // microseconds
  };
}

class Board {
  // image: the flash the first boot starts from; net: diagram.json's Netlist
  constructor(opts, rom, image, net) {
    this.opts = opts;
    this.rom = rom;
    this.image = image;
    this.wiring = net.wiring();
    this.time = new Timeline();
    this.on = null; // this power-on: {sim, mcu, clock, core}
    this.wfiNanos = 0; // simulated time the core spent waiting for an interrupt (WFI / WFE), all boots
    this.chip = new FlashChip(image, { now: () => this.time.nanos(), log: (msg) => this.time.log(msg), timeScale: opts.flashTimeScale });
    this.sr = new HC165();
    this.buttons = net.buttons();
    this.refreshQ7 = () => {};
    this.latchWanted = null; // the key record waiting for the keypad scan that loads its press
    this.lcd = new ILI9341();
    this.strip = net.neopixels();
    this.pixels = new NeoPixelStream({ onFrame: (f) => this.note('neopixels ' + describe(f)) });
    this.backlight = { gpio: this.wiring.lcd.LED, duty: this.wiring.lcd.LED === null ? 1 : null, changes: [] };
    this.nextBacklightSample = 0;
    this.console = new SerialConsole({ time: this.time, pixels: () => this.lcd.pixelsWritten, quiet: opts.quiet, serialLog: opts.serialLog });
  }
  log(msg) {
    this.time.log(msg);
  }
  // a log line that --quiet leaves out
  note(msg) {
    if (!this.opts.quiet) this.time.log(msg);
  }
  boot(cause) {
    this.nextBacklightSample = 0; // (each boot's clock starts at 0)
    const flash = this.on ? this.on.mcu.flash.slice(0, FLASH_SIZE) : this.image;
    this.time.stop();
    this.console.booted(cause);
    this.on = powerOn(this.rom, flash, (mcu, clock) => this.attach(mcu, clock));
    this.time.start(this.on.clock);
  }
  // the parts on this boot's RP2040
  attach(mcu, clock) {
    attachQspi(mcu, this.chip);
    this.attachKeys(mcu);
    this.attachLcd(mcu, clock);
    this.console.attach(this.opts.noUsb ? { sendSerialByte() {} } : paceEmptyReads(new USBCDC(mcu.usbCtrl)));
    this.chip.attach(mcu.flash, () => this.time.nanos(), clock.createAlarm(() => this.chip.settle()));
    fixDmaTimers(mcu);
    this.attachPio(mcu);
  }
  attachKeys(mcu) {
    const gp = (n) => mcu.gpio[n];
    const { PL, CP, Q7 } = this.wiring.sr;
    this.refreshQ7 = () => gp(Q7).setInputValue(this.sr.q7);
    gp(PL).addListener(() => {
      const high = gp(PL).outputValue;
      this.sr.setPL(high);
      if (!high && this.latchWanted) {
        this.latchWanted.latch_ms = this.time.ms();
        this.latchWanted = null;
      }
      this.refreshQ7();
    });
    gp(CP).addListener(() => {
      this.sr.setCP(gp(CP).outputValue);
      this.refreshQ7();
    });
    this.refreshQ7();
  }
  attachLcd(mcu, clock) {
    const pins = this.wiring.lcd;
    const spi = mcu.spi[(pins.SCK >> 3) & 1];
    const cs = mcu.gpio[pins.CS];
    const dc = mcu.gpio[pins.DC];
    const rst = mcu.gpio[pins.RST];
    // Each byte completes a little later, as on the wire (and so that DMA sees the FIFOs move the
    // way the hardware moves them; completing inside onTransmit stalls CircuitPython's DMA writes).
    const spiDone = clock.createAlarm(() => spi.completeTransmit(0));
    spi.onTransmit = (value) => {
      if (!cs.outputValue) this.lcd.write(dc.outputValue, value);
      // 8 bits at the rate the firmware set (clk_peri / (CPSDVSR * (1 + SCR)), as on the chip:
      // 24 MHz asked gives 20.8 MHz)
      const hz = spi.clockFrequency;
      spiDone.schedule(hz > 0 ? 8e9 / hz : SPI_BYTE_NANOS);
    };
    rst.addListener(() => {
      if (!rst.outputValue) this.lcd.reset();
    });
  }
  // The PIO steps on this file's clock (runFor): rp2040js runs it from Node timers, which never fire in a
  // run that does not yield to the event loop.  Words for the NeoPixel pin's state machine (its side-set
  // pin, as CircuitPython's neopixel_write sets it) are decoded as they enter the TX FIFO.
  attachPio(mcu) {
    const strip = this.strip;
    for (const pio of mcu.pio) {
      pio.run = () => {};
      for (const sm of pio.machines) {
        const write = sm.writeFIFO.bind(sm);
        sm.writeFIFO = (value) => {
          if (strip && !sm.txFIFO.full && sm.sidesetCount && sm.sidesetBase === strip.din) this.pixels.push(this.time.nanos(), value, sm.shiftCtrl);
          write(value);
        };
      }
    }
  }
  sampleBacklight(mcu) {
    const { duty, how } = ledDuty(mcu, this.backlight.gpio);
    if (duty === this.backlight.duty) return;
    this.backlight.duty = duty;
    this.backlight.changes.push({ at_ms: this.time.ms(), duty });
    this.note(`backlight ${(duty * 100).toFixed(1)}% (${how})`);
  }
  // `nanos` of simulated time: the core's instructions, its sleep in WFI, the PIOs beside it
  runFor(nanos) {
    const { clock, core, mcu } = this.on;
    const pios = mcu.pio;
    const target = clock.nanos + nanos;
    while (clock.nanos < target) {
      const pio = !pios[0].stopped || !pios[1].stopped;
      const before = clock.nanos;
      if (core.waiting && ((core.pendingInterrupts & core.enabledInterrupts) || core.pendingSystick)) {
        // WFI ends on an enabled interrupt already pending, PRIMASK or not (ARMv6-M B1.5.19);
        // rp2040js wakes only on a new arrival, and CircuitPython sleeps with interrupts off
        core.waiting = false;
      } else if (core.waiting) {
        const n = clock.nanosToNextAlarm;
        const most = pio ? Math.min(PIO_TICK_NS, target - clock.nanos) : target - clock.nanos;
        clock.tick(n > 0 ? Math.min(n, most) : most);
        this.wfiNanos += clock.nanos - before;
      } else {
        clock.tick(core.executeInstruction() * CYCLE_NANOS);
        if (this.backlight.gpio !== null && clock.nanos >= this.nextBacklightSample) {
          this.nextBacklightSample = clock.nanos + BACKLIGHT_SAMPLE_NS;
          this.sampleBacklight(mcu);
        }
      }
      if (pio) stepPios(pios, clock.nanos - before);
    }
  }
  // run on to simulated ms `ms` of the timeline (nothing if that is past)
  runUntil(ms) {
    if (ms > this.time.ms()) this.runFor((ms - this.time.ms()) * 1e6);
  }
  setButton(id, pressed) {
    const b = this.buttons.byId(id);
    if (!b) throw new Error('no pushbutton with part-id ' + id);
    this.sr.setInput(b.d, pressed);
    this.refreshQ7();
  }
  // Power lost (RESET, or a cut: an erase or program under way is left part done, seeded by --seed and
  // the cuts so far), then a fresh boot.
  powerCycle(kind) {
    const rand = rng((this.opts.seed * 0x9e3779b1 + this.chip.cuts.length * 0x85ebca6b + 1) >>> 0);
    const cut = this.chip.powerCut(rand);
    cut.kind = kind;
    this.log(`${kind}: power off${cut.during ? ` during ${cut.during} at 0x${cut.addr.toString(16)} (${Math.round(cut.progress * 100)}% done)` : ''}; booting again`);
    for (const b of this.buttons.list) this.sr.setInput(b.d, false); // no finger survives a power cut
    this.lcd.reset();
    this.lcd.fb.fill(0);
    this.latchWanted = null;
    this.console.powerLost();
    this.boot(kind);
  }
  savePicture(file) {
    const pic = this.lcd.rgb(this.wiring.lcdRotate);
    const { width, height, rgb } = this.opts.window ? crop(pic, this.opts.window.width, this.opts.window.height) : pic;
    fs.writeFileSync(file, encodePNG(width, height, rgb));
  }
  flashBytes() {
    return this.on.mcu.flash.subarray(0, FLASH_SIZE);
  }
}

module.exports = { Board, stepPios, ledDuty };
