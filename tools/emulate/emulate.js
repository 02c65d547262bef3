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
//
// --keys words: NAME (a press; waits for its "SULTAN key=NAME" line, then a screenshot NN-NAME.png),
// NAME*n (n of them), NAME*n! (a burst: n quick presses, then a wait for all n lines; no screenshots),
// RELOAD (Ctrl-C, then Ctrl-D on the serial console: a soft reload, then a wait for SULTAN READY),
// WAIT:ms (that long with no key: the save store writes after 10 s of no key).
// --report writes the timings in simulated ms: each serial line, READY, and per key the press, the
// keypad scan that latched it, its SULTAN key= line and the RAMWR pixels sent in between.
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
const { crop, randomKeys, serialErrors } = require('./lib/run');

const ROOT = path.resolve(__dirname, '..', '..');
const SPI_BYTE_NANOS = 320; // 8 bits at 25 MHz: until the firmware has set the SPI's clock
const KEYPAD_SCAN_MS = 20; // keypad.ShiftRegisterKeys' default interval

function usage(msg) {
  if (msg) console.error('emulate: ' + msg);
  console.error(
    'usage: emulate.js --firmware IMAGE.uf2 --bootrom BOOTROM(.bin|.js) [--diagram diagram.json]\n' +
      '       [--scenario FILE.yaml] [--keys "RIGHT A ..."] [--key-ms 60] [--gap-ms 400]\n' +
      '       [--out DIR] [--serial-log FILE] [--timeout-s N] [--final-screenshot NAME.png] [--quiet]\n' +
      '       [--window WxH] [--report FILE.json] [--random-keys N] [--seed S] [--no-shots]\n' +
      '       [--no-usb]  (no USB host at all: wait-serial becomes a wait of 8 s for READY, 1 s otherwise)',
  );
  process.exit(2);
}

// a bad argument: one line, exit 2
function bad(msg) {
  console.error('emulate: ' + String(msg).slice(0, 300));
  process.exit(2);
}

function positive(text, name, { zero = false } = {}) {
  if (!/^[0-9]{1,9}$/.test(String(text))) bad(`${name} ${String(text).slice(0, 20)}: want a whole number`);
  const n = Number(text);
  if (!zero && n < 1) bad(`${name} ${text}: want at least 1`);
  return n;
}

function parseArgs(argv) {
  const opts = {
    firmware: process.env.SULTAN_UF2 || null,
    bootrom: process.env.RP2040_BOOTROM || null,
    diagram: path.join(ROOT, 'diagram.json'),
    scenario: null,
    keys: null,
    keyMs: 60,
    gapMs: 100,
    out: path.join(ROOT, 'build', 'emulate'),
    serialLog: null,
    timeoutS: 900,
    finalScreenshot: null,
    quiet: false,
    noUsb: false,
    window: null,
    report: null,
    randomKeys: 0,
    seed: 1,
    shots: true,
  };
  for (let i = 2; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      if (i + 1 >= argv.length) bad('missing value for ' + a);
      return argv[++i];
    };
    if (a === '--firmware') opts.firmware = next();
    else if (a === '--bootrom') opts.bootrom = next();
    else if (a === '--diagram') opts.diagram = next();
    else if (a === '--scenario') opts.scenario = next();
    else if (a === '--keys') opts.keys = next();
    else if (a === '--key-ms') opts.keyMs = positive(next(), a);
    else if (a === '--gap-ms') opts.gapMs = positive(next(), a, { zero: true });
    else if (a === '--out') opts.out = next();
    else if (a === '--serial-log') opts.serialLog = next();
    else if (a === '--timeout-s') opts.timeoutS = positive(next(), a);
    else if (a === '--window') opts.window = parseWindow(next());
    else if (a === '--report') opts.report = next();
    else if (a === '--random-keys') opts.randomKeys = positive(next(), a, { zero: true });
    else if (a === '--seed') opts.seed = positive(next(), a, { zero: true });
    else if (a === '--no-shots') opts.shots = false;
    else if (a === '--final-screenshot') opts.finalScreenshot = next();
    else if (a === '--quiet') opts.quiet = true;
    else if (a === '--no-usb') opts.noUsb = true;
    else if (a === '-h' || a === '--help') usage();
    else bad('unknown argument ' + a);
  }
  if (!opts.firmware) bad('no firmware: --firmware or SULTAN_UF2');
  if (!opts.bootrom) bad('no bootrom: --bootrom or RP2040_BOOTROM');
  for (const [name, file] of [['--firmware', opts.firmware], ['--bootrom', opts.bootrom], ['--diagram', opts.diagram], ['--scenario', opts.scenario]]) {
    if (file !== null && !(fs.existsSync(file) && fs.statSync(file).isFile())) bad(`${name} ${file}: no such file`);
  }
  if (opts.keyMs <= KEYPAD_SCAN_MS) bad(`--key-ms ${opts.keyMs}: keypad scans every ${KEYPAD_SCAN_MS} ms, press longer`);
  return opts;
}

function parseWindow(text) {
  const m = /^([0-9]{2,3})x([0-9]{2,3})$/.exec(String(text));
  if (!m || Number(m[1]) < 16 || Number(m[1]) > 320 || Number(m[2]) < 16 || Number(m[2]) > 240)
    bad(`--window ${String(text).slice(0, 20)}: want WxH within 320x240, e.g. 160x128`);
  return { width: Number(m[1]), height: Number(m[2]) };
}

function loadBootrom(file) {
  const data = fs.readFileSync(file);
  if (file.endsWith('.js')) {
    const body = data.toString('utf8');
    const start = body.indexOf('[');
    const words = body.slice(start).match(/0x[0-9a-fA-F]{1,8}/g) || [];
    return Uint32Array.from(words.map((w) => parseInt(w, 16) >>> 0));
  }
  return new Uint32Array(data.buffer, data.byteOffset, Math.floor(data.length / 4));
}

// A keypad scan needs > 20 ms of a level; the keys shorthand keeps each press and gap longer than that.
// After each key it waits for the game's "SULTAN key=NAME" line and takes a screenshot NN-NAME.png.
function keySteps(keys, buttons, keyMs, gapMs, shots = true) {
  const steps = shots ? [{ 'take-screenshot': { 'part-id': 'lcd', 'save-to': '00-ready.png' } }] : [];
  let shot = 0;
  const press = (b, ms, burst) => {
    steps.push({ 'set-control': { 'part-id': b.id, control: 'pressed', value: 1 }, key: b.name, burst });
    steps.push({ delay: ms + 'ms' });
    steps.push({ 'set-control': { 'part-id': b.id, control: 'pressed', value: 0 } });
  };
  for (const word of keys.split(/[\s,]+/).filter(Boolean)) {
    if (word.toUpperCase() === 'RELOAD') {
      steps.push({ 'soft-reload': true });
      continue;
    }
    const wait = /^WAIT:(\d{1,6})$/i.exec(word);
    if (wait) {
      steps.push({ delay: wait[1] + 'ms' });
      continue;
    }
    const m = /^([A-Za-z]+)(?:\*(\d{1,4}))?(!?)$/.exec(word);
    if (!m) throw new Error('bad key ' + word.slice(0, 40));
    const b = buttons.byName(m[1]);
    if (!b) throw new Error('unknown key ' + m[1].slice(0, 20) + ' (have ' + buttons.names().join(' ') + ' RELOAD)');
    const n = Number(m[2] || 1);
    if (m[3]) {
      // a burst: quick presses (keypad's queue holds them), then all their lines
      for (let k = 0; k < n; k++) {
        press(b, 2 * KEYPAD_SCAN_MS, true);
        steps.push({ delay: 2 * KEYPAD_SCAN_MS + 'ms' });
      }
      steps.push({ 'wait-key-lines': n });
      steps.push({ delay: gapMs + 'ms' });
      continue;
    }
    for (let k = 0; k < n; k++) {
      press(b, keyMs, false);
      steps.push({ 'wait-serial': 'SULTAN key=' + b.name });
      shot++;
      if (shots) steps.push({ 'take-screenshot': { 'part-id': 'lcd', 'save-to': `${String(shot).padStart(2, '0')}-${b.name}.png` } });
      steps.push({ delay: gapMs + 'ms' });
    }
  }
  return steps;
}

function main() {
  const opts = parseArgs(process.argv);
  const net = new Netlist(JSON.parse(fs.readFileSync(opts.diagram, 'utf8')));
  const wiring = net.wiring();

  const sim = new Simulator();
  const mcu = sim.rp2040;
  const clock = sim.clock;
  mcu.logger = new ConsoleLogger(LogLevel.Error);
  try {
    const rom = loadBootrom(opts.bootrom);
    if (rom.length !== 4096) throw new Error('not an RP2040 bootrom (want its 16 KB, raw or as bootrom.js)');
    mcu.loadBootrom(rom);
  } catch (e) {
    bad(`--bootrom ${opts.bootrom}: ${e.message}`);
  }
  try {
    loadUF2(fs.readFileSync(opts.firmware), mcu);
  } catch (e) {
    bad(`--firmware ${opts.firmware}: ${e.message}`);
  }

  // --- the 74HC165 and its buttons
  const sr = new HC165();
  const gp = (n) => mcu.gpio[n];
  const q7 = gp(wiring.sr.Q7);
  const refreshQ7 = () => q7.setInputValue(sr.q7);
  let latchWanted = null; // the key record waiting for the keypad scan that loads its press
  gp(wiring.sr.PL).addListener(() => {
    const high = gp(wiring.sr.PL).outputValue;
    sr.setPL(high);
    if (!high && latchWanted) {
      latchWanted.latch_ms = clock.nanos / 1e6;
      latchWanted = null;
    }
    refreshQ7();
  });
  gp(wiring.sr.CP).addListener(() => {
    sr.setCP(gp(wiring.sr.CP).outputValue);
    refreshQ7();
  });
  const buttons = net.buttons();
  const setButton = (id, pressed) => {
    const b = buttons.byId(id);
    if (!b) throw new Error('no pushbutton with part-id ' + id);
    sr.setInput(b.d, pressed);
    refreshQ7();
  };

  // --- the ILI9341 on SPI
  const lcd = new ILI9341();
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

  // --- USB serial
  let serial = '';
  let consumed = 0; // wait-serial matches lines after the last match
  const serialLog = opts.serialLog ? fs.openSync(opts.serialLog, 'w') : null;
  const cdc = opts.noUsb ? { sendSerialByte() {} } : new USBCDC(mcu.usbCtrl);
  const decoder = new TextDecoder();
  const lines = []; // {ms, text}: each complete serial line and when it ended (simulated)
  const keyRecords = []; // per key press, for --report
  let lineStart = 0;
  cdc.onSerialData = (bytes) => {
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
      const ms = clock.nanos / 1e6;
      lines.push({ ms, text: line });
      const m = /^SULTAN key=(\w+)/.exec(line);
      if (m) {
        const rec = keyRecords.find((r) => r.line === null && r.name === m[1]);
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

  // --- running
  const started = Date.now();
  const deadline = started + opts.timeoutS * 1000;
  const cycleNanos = 1e9 / 125e6;
  const core = mcu.core;
  function runFor(nanos) {
    const target = clock.nanos + nanos;
    while (clock.nanos < target) {
      if (core.waiting) {
        const n = clock.nanosToNextAlarm;
        clock.tick(n > 0 ? Math.min(n, target - clock.nanos) : target - clock.nanos);
      } else {
        clock.tick(core.executeInstruction() * cycleNanos);
      }
    }
  }
  const simMs = () => clock.nanos / 1e6;
  const log = (msg) => console.error(`[emulate ${(simMs() / 1000).toFixed(3)}s sim, ${((Date.now() - started) / 1000).toFixed(1)}s wall] ${msg}`);
  const savePicture = (file) => {
    const pic = lcd.rgb(wiring.lcdRotate);
    const { width, height, rgb } = opts.window ? crop(pic, opts.window.width, opts.window.height) : pic;
    fs.writeFileSync(file, encodePNG(width, height, rgb));
  };
  const writeReport = (error) => {
    if (!opts.report) return;
    const ready = lines.filter((l) => l.text.startsWith('SULTAN READY'));
    fs.writeFileSync(
      opts.report,
      JSON.stringify(
        {
          firmware: opts.firmware,
          window: opts.window,
          error: error || null,
          sim_ms: simMs(),
          wall_s: (Date.now() - started) / 1000,
          pixels: lcd.pixelsWritten,
          first_line_ms: lines.length ? lines[0].ms : null,
          ready: ready.map((l) => ({ ms: l.ms, text: l.text })),
          keys: keyRecords.map(({ pixels_at_press, ...r }) => r),
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
  mcu.core.PC = 0x10000000;

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
  const shots = [];
  let pixelsAtShot = 0;
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
          log(`trace: pc=0x${core.PC.toString(16)} lcd commands=${lcd.commands} pixels=${lcd.pixelsWritten} serial=${serial.length}`);
        return found();
      });
    } else if (kind === 'wait-key-lines') {
      const since = simMs();
      const pending = () => keyRecords.filter((r) => r.line === null).length;
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
      waitFor('SULTAN READY after the reload', () => {
        const idx = serial.indexOf('SULTAN READY', consumed);
        const eol = idx >= 0 ? serial.indexOf('\n', idx) : -1;
        if (eol < 0) return false;
        consumed = eol + 1;
        return true;
      });
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
  log(`done: ${steps.length} steps, ${lcd.pixelsWritten} pixels written, ${lcd.commands} LCD commands`);
  process.exit(0);
}

main();
