#!/usr/bin/env node
// Offline run of the Wokwi image on real CircuitPython: rp2040js boots the UF2 (CircuitPython + our
// CIRCUITPY FAT at 0x100000), this file models what diagram.json wires to the Pico: the 74HC165 with
// its eight buttons and the ILI9341 (SPI stream decoded into a framebuffer, saved as PNG), and it
// captures the USB CDC serial console.  Steps come from a Wokwi CLI scenario (the same YAML the Wokwi
// CLI runs) and/or from --keys.
//
//   node tools/emulate/emulate.js --firmware build/wokwi/sultan.uf2 --bootrom vendor-local/bootrom.js \
//        [--scenario wokwi/scenario.yaml] [--keys "RIGHT A START"] [--out DIR] [--timeout-s 900]
//        [--window 160x128] [--report FILE.json] [--random-keys N --seed S] [--no-shots]
//        [--flash-in FLASH.bin] [--flash-out FLASH.bin] [--flash-time-scale 1]
//
// --keys words (lib/keys.js): NAME (a press; waits for its "SULTAN key=NAME" line, then a screenshot
// NN-NAME.png), NAME*n (n of them), NAME*n! (a burst: n quick presses, then a wait for all n lines; no
// screenshots), NAME? (a press not waited for: the key that wakes a dark screen), RELOAD (Ctrl-C, then Ctrl-D on the serial console: a soft reload, then a wait for SULTAN
// READY), WAIT:ms (that long with no key: the save store writes after 10 s of no key), RESET (a power
// cycle: a fresh RP2040, RAM lost, flash kept; then a wait for SULTAN READY), CUT@ms (a power cut that
// many simulated ms after the previous key's press, whose line is then not waited for, or after the
// previous word's end; an erase or program under way is left part done, seeded by --seed; then as RESET).
// The flash is a W25Q16JV model (lib/flash.js) behind the SSI and IO_QSPI (lib/qspi.js): erases and
// programs take the datasheet's time and persist across RESET and CUT; --flash-out writes the 2 MB at the
// end, --flash-in starts from such an image instead of the UF2. --flash-time-scale 0 makes erases and programs
// instant: CircuitPython holds interrupts off through an NVM write (~50 ms), which swallows a shorter key
// press as on a real board; tests about pixels, not timing, can do without that.
// --report writes the timings in simulated ms (one timeline across power cycles): each serial line,
// READY (with its boot and ms since that boot's power-on), per key the press, the keypad scan that latched
// it, its SULTAN key= line and the RAMWR pixels sent in between; and `flash`: command counts, each erase
// and program {op, addr, len, start_ms, end_ms}, each power cycle {at_ms, during, addr, progress, kind}
// and each boot {boot, cause, at_ms, ready_ms, ready}.
// The NeoPixels diagram.json chains to a Pico GPIO are decoded from the words the firmware pushes into
// the PIO state machine that drives that pin (lib/neopixel.js): each frame ("show") is logged as
// `neopixels #rrggbb ...` and goes in the report's `neopixels` ({at_ms, pixels: [[r, g, b], ...]}).  The
// PIO runs on this file's clock, each enabled state machine at its clock divider, one instruction a PIO
// clock (rp2040js does not time the delay cycles).  --after-ms N runs N ms more after the last step.
// --window WxH crops screenshots to the picture's top-left WxH: the game driven as a smaller display
// (tools/wokwi_image.py uf2 --size, the test profile tools/emulate/profile_pico_window.py).
//
// The firmware and the RP2040 bootrom are never in git: pass them by path or in SULTAN_UF2 and
// RP2040_BOOTROM (a raw 16 KB .bin, or a .js file with the words as hex, as in rp2040js-circuitpython).
'use strict';

const fs = require('fs');
const path = require('path');
const { Simulator, USBCDC, ConsoleLogger, LogLevel } = require('rp2040js');
const { loadUF2 } = require('./lib/uf2');
const { ILI9341 } = require('./lib/ili9341');
const { HC165 } = require('./lib/hc165');
const { Netlist } = require('./lib/netlist');
const { parseScenario, parseDuration } = require('./lib/scenario');
const { encodePNG } = require('./lib/png');
const { crop, randomKeys, serialErrors, rng } = require('./lib/run');
const { keySteps, KEYPAD_SCAN_MS } = require('./lib/keys');
const { paceEmptyReads } = require('./lib/usbserial');
const { FlashChip } = require('./lib/flash');
const { NeoPixelStream, describe } = require('./lib/neopixel');
const { attachQspi } = require('./lib/qspi');
const { parseArgs, bad, loadBootrom } = require('./lib/options');

const SPI_BYTE_NANOS = 320; // 8 bits at 25 MHz: until the firmware has set the SPI's clock
const cycleNanos = 1e9 / 125e6; // the core at 125 MHz, CircuitPython's clk_sys on the RP2040
const PIO_TICK_NS = 1000;
const BACKLIGHT_SAMPLE_NS = 1e6; // the backlight's duty is looked at every simulated ms the core runs
const GPIO_FUNC_PWM = 4; // IO_BANK0 GPIOn_CTRL.FUNCSEL
const GPIO_FUNC_SIO = 5; // while a PIO runs and the core sleeps, the clock moves at most this far at once
// The Pico's 2 MB flash (CircuitPython's ports/raspberrypi/mpconfigport.h, 8.2.7 to 10.2.1): the firmware,
// then microcontroller.nvm in the 4 KB sector at CIRCUITPY_FIRMWARE_SIZE (1020 KB), then CIRCUITPY at 1 MB.
const FLASH_SIZE = 2 * 1024 * 1024;
const NVM_ADDR = 1020 * 1024;
const NVM_LEN = 4096;
const CIRCUITPY_ADDR = 1024 * 1024;

// One power-on of the board: a fresh RP2040 (RAM, peripherals, clock) with the flash bytes given, and the
// parts diagram.json wires to it re-attached.  The parts' models (panel, shift register) and the flash chip
// live on across power cycles; each boot gets its own clock, so simulated time is base + clock.nanos.
function powerOn(rom, flashBytes, chip, parts) {
  const sim = new Simulator();
  const mcu = sim.rp2040;
  mcu.logger = new ConsoleLogger(LogLevel.Error);
  mcu.loadBootrom(rom); // (resets the RP2040, flash to 0xff)
  mcu.flash.set(flashBytes);
  attachQspi(mcu, chip);
  parts(mcu, sim.clock);
  mcu.core.PC = 0x10000000;
  return { sim, mcu, clock: sim.clock, core: mcu.core };
}

function main() {
  const opts = parseArgs(process.argv);
  const net = new Netlist(JSON.parse(fs.readFileSync(opts.diagram, 'utf8')));
  const wiring = net.wiring();

  let rom;
  try {
    rom = loadBootrom(opts.bootrom);
    if (rom.length !== 4096) throw new Error('not an RP2040 bootrom (want its 16 KB, raw or as bootrom.js)');
  } catch (e) {
    bad(`--bootrom ${opts.bootrom}: ${e.message}`);
  }
  const image = new Uint8Array(FLASH_SIZE).fill(0xff);
  if (opts.flashIn) {
    const data = fs.readFileSync(opts.flashIn);
    if (data.length !== FLASH_SIZE) bad(`--flash-in ${opts.flashIn}: ${data.length} bytes, want a ${FLASH_SIZE}-byte flash image (as --flash-out writes)`);
    image.set(data);
  } else {
    try {
      const into = { flash: new Uint8Array(16 * 1024 * 1024).fill(0xff) };
      loadUF2(fs.readFileSync(opts.firmware), into);
      image.set(into.flash.subarray(0, FLASH_SIZE));
    } catch (e) {
      bad(`--firmware ${opts.firmware}: ${e.message}`);
    }
  }

  // simulated time: the boots before this one, plus this boot's clock
  let baseNanos = 0;
  let board = null;
  const nowNanos = () => baseNanos + (board ? board.clock.nanos : 0);
  const simMs = () => nowNanos() / 1e6;
  const started = Date.now();
  const log = (msg) => console.error(`[emulate ${(simMs() / 1000).toFixed(3)}s sim, ${((Date.now() - started) / 1000).toFixed(1)}s wall] ${msg}`);
  const chip = new FlashChip(image, { now: nowNanos, log: (msg) => log(msg), timeScale: opts.flashTimeScale });

  // --- the 74HC165 and its buttons (the register and the buttons outlive a power cycle)
  const sr = new HC165();
  const buttons = net.buttons();
  let refreshQ7 = () => {};
  let latchWanted = null; // the key record waiting for the keypad scan that loads its press
  const setButton = (id, pressed) => {
    const b = buttons.byId(id);
    if (!b) throw new Error('no pushbutton with part-id ' + id);
    sr.setInput(b.d, pressed);
    refreshQ7();
  };

  // --- the ILI9341 on SPI
  const lcd = new ILI9341();

  // --- the NeoPixels (the strip outlives a power cycle)
  const strip = net.neopixels();
  const pixels = new NeoPixelStream({ onFrame: (f) => { if (!opts.quiet) log('neopixels ' + describe(f)); } });

  // --- the ILI9341's backlight (its LED pin on a Pico GPIO; null when diagram.json ties it to 3V3): the duty
  // the firmware drives it at, sampled every BACKLIGHT_SAMPLE_NS while the core runs (PWM: the slice's
  // compare / (TOP + 1) while the slice is enabled; a plain output: 0 or 1; no function: 0)
  const backlight = { gpio: wiring.lcd.LED, duty: wiring.lcd.LED === null ? 1 : null, changes: [] };
  let nextBacklightSample = 0;
  const sampleBacklight = (mcu) => {
    const pin = backlight.gpio;
    const io = mcu.gpio[pin];
    let duty = 0;
    let how = 'off';
    if (io.functionSelect === GPIO_FUNC_PWM) {
      const ch = mcu.pwm.channels[(pin >> 1) & 7];
      const level = pin & 1 ? ch.cc >>> 16 : ch.cc & 0xffff;
      duty = ch.csr & 1 ? Math.min(1, level / (ch.top + 1)) : 0;
      how = `PWM ${level}/${ch.top + 1}`;
    } else if (io.functionSelect === GPIO_FUNC_SIO) {
      duty = io.outputValue ? 1 : 0;
      how = 'GPIO';
    }
    if (duty === backlight.duty) return;
    backlight.duty = duty;
    backlight.changes.push({ at_ms: simMs(), duty });
    if (!opts.quiet) log(`backlight ${(duty * 100).toFixed(1)}% (${how})`);
  };

  // --- USB serial
  let serial = '';
  let consumed = 0; // wait-serial matches lines after the last match
  const serialLog = opts.serialLog ? fs.openSync(opts.serialLog, 'w') : null;
  let cdc = null;
  let decoder = null;
  const lines = []; // {ms, text}: each complete serial line and when it ended (simulated)
  const keyRecords = []; // per key press, for --report
  const boots = []; // {boot, cause, at_ms, ready_ms, ready}: each power-on and its READY line
  let lineStart = 0;
  const onSerialData = (bytes) => {
    const text = decoder.decode(bytes, { stream: true });
    serial += text;
    for (let eol = serial.indexOf('\n', lineStart); eol >= 0; eol = serial.indexOf('\n', lineStart)) {
      // without the terminal's escapes (CircuitPython's title bar: ESC ] 0 ; ... ESC \\)
      const line = serial
        .slice(lineStart, eol)
        .replace(/\x1b\][^\x1b\x07]*(?:\x1b\\|\x07)/g, '')
        .replace(/\x1b\[[0-9;]*[A-Za-z]/g, '')
        .replace(/\r$/, '');
      lineStart = eol + 1;
      const ms = simMs();
      lines.push({ ms, text: line });
      const boot = boots[boots.length - 1];
      if (line.startsWith('SULTAN READY') && boot && boot.ready === null) {
        boot.ready = line;
        boot.ready_ms = ms;
      }
      const m = /^SULTAN key=(\w+)/.exec(line);
      if (m) {
        const rec = keyRecords.find((r) => r.line === null && !r.lost && r.name === m[1]);
        if (rec) {
          rec.line = line;
          rec.line_ms = ms;
          rec.pixels = lcd.pixelsWritten - rec.pixels_at_press;
        }
      }
    }
    if (!opts.quiet) process.stdout.write(text);
    if (serialLog !== null) fs.writeSync(serialLog, text);
  };
  const writeSerial = (text) => {
    for (const b of Buffer.from(text, 'utf8')) cdc.sendSerialByte(b);
  };

  // the parts on this boot's RP2040
  const attachParts = (mcu, clock) => {
    const gp = (n) => mcu.gpio[n];
    const q7 = gp(wiring.sr.Q7);
    refreshQ7 = () => q7.setInputValue(sr.q7);
    gp(wiring.sr.PL).addListener(() => {
      const high = gp(wiring.sr.PL).outputValue;
      sr.setPL(high);
      if (!high && latchWanted) {
        latchWanted.latch_ms = simMs();
        latchWanted = null;
      }
      refreshQ7();
    });
    gp(wiring.sr.CP).addListener(() => {
      sr.setCP(gp(wiring.sr.CP).outputValue);
      refreshQ7();
    });
    refreshQ7();
    const spi = mcu.spi[(wiring.lcd.SCK >> 3) & 1];
    const cs = gp(wiring.lcd.CS);
    const dc = gp(wiring.lcd.DC);
    // Each byte completes a little later, as on the wire (and so that DMA sees the FIFOs move the
    // way the hardware moves them; completing inside onTransmit stalls CircuitPython's DMA writes).
    const spiDone = clock.createAlarm(() => spi.completeTransmit(0));
    spi.onTransmit = (value) => {
      if (!cs.outputValue) lcd.write(dc.outputValue, value);
      // 8 bits at the rate the firmware set (clk_peri / (CPSDVSR * (1 + SCR)), as on the chip:
      // 24 MHz asked gives 20.8 MHz)
      const hz = spi.clockFrequency;
      spiDone.schedule(hz > 0 ? 8e9 / hz : SPI_BYTE_NANOS);
    };
    gp(wiring.lcd.RST).addListener(() => {
      if (!gp(wiring.lcd.RST).outputValue) lcd.reset();
    });
    decoder = new TextDecoder();
    cdc = opts.noUsb ? { sendSerialByte() {} } : paceEmptyReads(new USBCDC(mcu.usbCtrl));
    cdc.onSerialData = onSerialData;
    chip.attach(mcu.flash, nowNanos, clock.createAlarm(() => chip.settle()));
    // The DMA pacing timers (audiopwmio's sample clock): clk_sys * X / Y with TIMERn = X << 16 | Y, as in
    // the datasheet; rp2040js 1.4.1 divides the other way round (a 16 kHz timer fired every 0.001 ns, and
    // a looping tone stopped the clock) and reads TIMER3 as TIMER3 >>> 36.
    mcu.dma.getTimer = (treq) => {
      if (treq === 63) return 1 / (mcu.clkSys / 1e6); // permanent: a transfer a clk_sys cycle
      const timer = [mcu.dma.timer0, mcu.dma.timer1, mcu.dma.timer2, mcu.dma.timer3][treq - 59];
      const x = timer >>> 16;
      const y = timer & 0xffff;
      return timer === undefined || !x || !y ? 0 : (y / x) * (1e6 / mcu.clkSys); // microseconds
    };
    // The PIO steps on this file's clock (runFor): rp2040js runs it from Node timers, which never fire
    // in a run that does not yield to the event loop.  Words for the NeoPixel pin's state machine (its
    // side-set pin, as CircuitPython's neopixel_write sets it) are decoded as they enter the TX FIFO.
    for (const pio of mcu.pio) {
      pio.run = () => {};
      for (const sm of pio.machines) {
        const write = sm.writeFIFO.bind(sm);
        sm.writeFIFO = (value) => {
          if (strip && !sm.txFIFO.full && sm.sidesetCount && sm.sidesetBase === strip.din) pixels.push(nowNanos(), value, sm.shiftCtrl);
          write(value);
        };
      }
    }
  };
  const boot = (cause) => {
    nextBacklightSample = 0; // (each boot's clock starts at 0)
    const flash = board ? board.mcu.flash.slice(0, FLASH_SIZE) : image;
    if (board) baseNanos += board.clock.nanos;
    boots.push({ boot: boots.length, cause, at_ms: baseNanos / 1e6, ready_ms: null, ready: null });
    board = powerOn(rom, flash, chip, attachParts);
  };
  boot('power-on');

  // --- running
  let wfiNanos = 0; // simulated time the core spent waiting for an interrupt (WFI / WFE), all boots
  const idles = []; // per WAIT:ms word: {from_ms, ms, wfi_ms}
  const deadline = started + opts.timeoutS * 1000;
  // each enabled state machine of a running PIO, `nanos` more of its clock (clk_sys / its divider)
  function stepPios(pios, nanos) {
    for (const pio of pios) {
      if (pio.stopped) continue;
      for (const sm of pio.machines) {
        if (!sm.enabled) continue;
        const period = ((sm.clockDivInt || 65536) + sm.clockDivFrac / 256) * cycleNanos;
        sm.owedNanos = (sm.owedNanos || 0) + nanos;
        for (; sm.owedNanos >= period; sm.owedNanos -= period) sm.step();
      }
      pio.checkChangedPins();
    }
  }
  function runFor(nanos) {
    const { clock, core, mcu } = board;
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
        wfiNanos += clock.nanos - before;
      } else {
        clock.tick(core.executeInstruction() * cycleNanos);
        if (backlight.gpio !== null && clock.nanos >= nextBacklightSample) {
          nextBacklightSample = clock.nanos + BACKLIGHT_SAMPLE_NS;
          sampleBacklight(mcu);
        }
      }
      if (pio) stepPios(pios, clock.nanos - before);
    }
  }
  const savePicture = (file) => {
    const pic = lcd.rgb(wiring.lcdRotate);
    const { width, height, rgb } = opts.window ? crop(pic, opts.window.width, opts.window.height) : pic;
    fs.writeFileSync(file, encodePNG(width, height, rgb));
  };
  const writeFlash = () => {
    if (opts.flashOut) fs.writeFileSync(opts.flashOut, board.mcu.flash.subarray(0, FLASH_SIZE));
  };
  const writeReport = (error) => {
    writeFlash();
    pixels.end(); // the last frame: the run is over
    if (!opts.report) return;
    const ready = lines.filter((l) => l.text.startsWith('SULTAN READY'));
    const bootOf = (ms) => boots.filter((b) => b.at_ms <= ms).length - 1;
    fs.writeFileSync(
      opts.report,
      JSON.stringify(
        {
          firmware: opts.flashIn ? null : opts.firmware,
          flash_in: opts.flashIn,
          window: opts.window,
          error: error || null,
          sim_ms: simMs(),
          wall_s: (Date.now() - started) / 1000,
          pixels: lcd.pixelsWritten,
          first_line_ms: lines.length ? lines[0].ms : null,
          // ms: on the run's one timeline; boot_ms: since that boot's power-on
          ready: ready.map((l) => ({ ms: l.ms, text: l.text, boot: bootOf(l.ms), boot_ms: l.ms - boots[bootOf(l.ms)].at_ms })),
          keys: keyRecords.map(({ pixels_at_press, ...r }) => r),
          neopixel_chain: strip ? { gpio: strip.din, parts: strip.chain } : null,
          neopixels: pixels.frames,
          // the LED pin's duty: each change {at_ms, duty 0..1}; wfi_ms: all of the run's time in WFI;
          // idle: each WAIT:ms word's span and its time in WFI
          backlight,
          wfi_ms: wfiNanos / 1e6,
          idle: idles,
          flash: { ...chip.report(), nvm: { addr: NVM_ADDR, len: NVM_LEN }, circuitpy: { addr: CIRCUITPY_ADDR, len: FLASH_SIZE - CIRCUITPY_ADDR }, boots },
          lines,
        },
        null,
        1,
      ),
    );
  };
  const fail = (msg) => {
    log('FAILED: ' + msg);
    const shot = path.join(opts.out, 'failure.png');
    savePicture(shot);
    log('screen at failure: ' + shot);
    writeReport(msg);
    process.exit(1);
  };

  fs.mkdirSync(opts.out, { recursive: true });

  let steps = [];
  if (opts.scenario) steps = steps.concat(parseScenario(fs.readFileSync(opts.scenario, 'utf8')).steps);
  let keys = opts.keys || '';
  if (opts.randomKeys) keys += ' ' + randomKeys(opts.randomKeys, opts.seed);
  if (keys.trim()) {
    if (!opts.scenario) steps.push({ 'wait-serial': 'SULTAN READY' });
    try {
      steps = steps.concat(keySteps(keys, buttons, opts.keyMs, opts.gapMs, opts.shots));
    } catch (e) {
      bad('--keys: ' + e.message);
    }
  }
  const KEY_TIMEOUT_MS = 20000; // simulated: a key whose line has not come by then was lost
  const stopped = (from) => /Code done running|Press any key to enter the REPL|You are in safe mode/.test(serial.slice(from));
  const waitFor = (what, done, { sinceMs = simMs(), allowStop = false } = {}) => {
    for (;;) {
      if (done()) return;
      if (Date.now() > deadline) fail('timed out waiting for ' + what);
      if (!allowStop && stopped(consumed)) fail('the program stopped before ' + what);
      if (simMs() - sinceMs > KEY_TIMEOUT_MS && what.startsWith('SULTAN key')) fail(`no ${what} line within ${KEY_TIMEOUT_MS / 1000} s simulated`);
      runFor(5e6);
    }
  };
  const waitReady = (what) =>
    waitFor(what, () => {
      const idx = serial.indexOf('SULTAN READY', consumed);
      const eol = idx >= 0 ? serial.indexOf('\n', idx) : -1;
      if (eol < 0) return false;
      consumed = eol + 1;
      return true;
    });
  const runUntil = (ms) => {
    if (ms > simMs()) runFor((ms - simMs()) * 1e6);
  };
  // a power cycle: RESET, or a cut (an erase or program under way is left part done, seeded)
  const powerCycle = (kind) => {
    const rand = rng((opts.seed * 0x9e3779b1 + chip.cuts.length * 0x85ebca6b + 1) >>> 0);
    const cut = chip.powerCut(rand);
    cut.kind = kind;
    log(`${kind}: power off${cut.during ? ` during ${cut.during} at 0x${cut.addr.toString(16)} (${Math.round(cut.progress * 100)}% done)` : ''}; booting again`);
    for (const b of buttons.list) sr.setInput(b.d, false); // no finger survives a power cut
    lcd.reset();
    lcd.fb.fill(0);
    latchWanted = null;
    for (const r of keyRecords) if (r.line === null) r.lost = true; // its line will never come
    if (serial.length > lineStart) onSerialData(new TextEncoder().encode('\n')); // end a line cut short
    consumed = serial.length;
    boot(kind);
    if (opts.noUsb) runFor(8000e6); // no console: as wait-serial does
    else waitReady(`SULTAN READY after ${kind}`);
  };
  const shots = [];
  let pixelsAtShot = 0;
  let pendingRelease = null; // the key pressed just before a cut: {id, at_ms}
  const lastChange = new Map(); // part-id -> simulated ms of its last press or release
  for (const step of steps) {
    const [kind, arg] = Object.entries(step)[0];
    if (kind === 'wait-serial' && opts.noUsb) {
      runFor((String(arg) === 'SULTAN READY' ? 8000 : 1000) * 1e6);
    } else if (kind === 'wait-serial') {
      const text = String(arg);
      if (!opts.quiet) log('wait-serial ' + JSON.stringify(text));
      const found = () => {
        const idx = serial.indexOf(text, consumed);
        const eol = idx >= 0 ? serial.indexOf('\n', idx) : -1;
        if (eol < 0) return false;
        consumed = eol + 1;
        return true;
      };
      waitFor(JSON.stringify(text), () => {
        if (process.env.EMULATE_TRACE && Math.floor(simMs()) % 1000 < 5)
          log(`trace: pc=0x${board.core.PC.toString(16)} lcd commands=${lcd.commands} pixels=${lcd.pixelsWritten} serial=${serial.length}`);
        return found();
      });
    } else if (kind === 'wait-key-lines') {
      const since = simMs();
      const pending = () => keyRecords.filter((r) => r.line === null && !r.lost).length;
      waitFor(`SULTAN key= lines of a burst of ${arg}`, () => pending() === 0, { sinceMs: since });
      consumed = serial.length;
    } else if (kind === 'soft-reload') {
      // Ctrl-C stops code.py; Ctrl-D reloads it (RAM is reset, flash stays)
      log('soft reload: Ctrl-C');
      writeSerial('\x03');
      const from = consumed;
      waitFor('the REPL prompt after Ctrl-C', () => /to reload\.?\s*\n/.test(serial.slice(from)), { allowStop: true });
      consumed = serial.length;
      log('soft reload: Ctrl-D');
      writeSerial('\x04');
      runFor(100e6);
      waitReady('SULTAN READY after the reload');
    } else if (kind === 'power-cycle') {
      if (arg.kind === 'CUT' && arg.write_ms !== undefined) {
        // run until the next erase or program starts (the key before was pressed: release it on time)
        const from = chip.ops.length;
        const since = simMs();
        while (chip.ops.length === from) {
          if (simMs() - since > KEY_TIMEOUT_MS) fail(`CUT@WRITE: no flash write within ${KEY_TIMEOUT_MS / 1000} s simulated`);
          if (Date.now() > deadline) fail('timed out waiting for a flash write');
          if (pendingRelease && simMs() >= pendingRelease.at_ms) {
            setButton(pendingRelease.id, false);
            pendingRelease = null;
          }
          runFor(0.05e6);
        }
        if (pendingRelease) setButton(pendingRelease.id, false);
        runUntil(chip.ops[from].start_ms + arg.write_ms);
      } else if (arg.kind === 'CUT') {
        const last = keyRecords[keyRecords.length - 1];
        const target = (arg.from === 'press' && last ? last.press_ms : simMs()) + arg.after_ms;
        if (pendingRelease && pendingRelease.at_ms < target) {
          runUntil(pendingRelease.at_ms);
          setButton(pendingRelease.id, false);
        }
        if (target < simMs()) log(`warning: CUT@${arg.after_ms} lands ${(simMs() - target).toFixed(1)} ms in the past; cutting now`);
        runUntil(target);
      }
      pendingRelease = null;
      powerCycle(arg.kind);
    } else if (kind === 'release-before-cut') {
      pendingRelease = { id: arg['part-id'], at_ms: simMs() + arg.ms };
    } else if (kind === 'delay' && step.idle) {
      const from = simMs();
      const wfi = wfiNanos;
      runFor(parseDuration(arg) * 1e6);
      const rec = { from_ms: from, ms: simMs() - from, wfi_ms: (wfiNanos - wfi) / 1e6 };
      idles.push(rec);
      if (!opts.quiet) log(`WAIT ${rec.ms.toFixed(0)} ms: the core in WFI ${((100 * rec.wfi_ms) / rec.ms).toFixed(1)}% of it`);
    } else if (kind === 'delay') {
      runFor(parseDuration(arg) * 1e6);
    } else if (kind === 'set-control') {
      if (arg.control !== 'pressed') throw new Error('only the pressed control is modelled, not ' + arg.control);
      const down = Number(arg.value) !== 0;
      const since = simMs() - (lastChange.get(arg['part-id']) ?? -1e9);
      if (since < KEYPAD_SCAN_MS) log(`warning: ${arg['part-id']} changed after ${since.toFixed(1)} ms; keypad scans every ${KEYPAD_SCAN_MS} ms and may miss it`);
      lastChange.set(arg['part-id'], simMs());
      if (down && step.key) {
        const rec = { name: step.key, burst: !!step.burst, press_ms: simMs(), latch_ms: null, line_ms: null, line: null, pixels: null, pixels_at_press: lcd.pixelsWritten };
        keyRecords.push(rec);
        latchWanted = rec;
      }
      setButton(arg['part-id'], down);
    } else if (kind === 'take-screenshot') {
      const name = path.basename(arg['save-to'] || `screenshot-${shots.length + 1}.png`);
      const file = path.join(opts.out, name);
      savePicture(file);
      shots.push(file);
      if (!opts.quiet) log(`screenshot ${file} (${lcd.pixelsWritten - pixelsAtShot} pixels sent since the last one)`);
      pixelsAtShot = lcd.pixelsWritten;
    } else if (kind === 'expect-pin' || kind === 'wait-pin') {
      throw new Error(kind + ' is not supported offline');
    } else {
      throw new Error('unknown step ' + kind);
    }
  }
  if (opts.afterMs) runFor(opts.afterMs * 1e6);
  if (opts.finalScreenshot) {
    runFor(200e6);
    const file = path.join(opts.out, path.basename(opts.finalScreenshot));
    savePicture(file);
    log('screenshot ' + file);
  }
  const errors = serialErrors(serial);
  if (errors.length) fail('the serial console shows ' + errors.join('; '));
  if (serialLog !== null) fs.closeSync(serialLog);
  writeReport(null);
  const unknown = Object.keys(chip.unknown);
  log(`done: ${steps.length} steps, ${lcd.pixelsWritten} pixels written, ${lcd.commands} LCD commands; flash: ${chip.ops.length} erases/programs, ${chip.cuts.length} power cycles${unknown.length ? ', commands not modelled: ' + unknown.join(' ') : ''}`);
  process.exit(0);
}

main();
