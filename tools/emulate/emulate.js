#!/usr/bin/env node
// Offline run of the Wokwi image on real CircuitPython: rp2040js boots the UF2 (CircuitPython + our
// CIRCUITPY FAT at 0x100000), this file models what diagram.json wires to the Pico: the 74HC165 with
// its eight buttons and the ILI9341 (SPI stream decoded into a framebuffer, saved as PNG), and it
// captures the USB CDC serial console.  Steps come from a Wokwi CLI scenario (the same YAML the Wokwi
// CLI runs) and/or from --keys.
//
//   node tools/emulate/emulate.js --firmware build/wokwi/sultan.uf2 --bootrom vendor-local/bootrom.js \
//        [--scenario wokwi/scenario.yaml] [--keys "RIGHT A START"] [--out DIR] [--timeout-s 900]
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

const ROOT = path.resolve(__dirname, '..', '..');
const SPI_BYTE_NANOS = 320; // 8 bits at 25 MHz
const KEYPAD_SCAN_MS = 20; // keypad.ShiftRegisterKeys' default interval

function usage(msg) {
  if (msg) console.error('emulate: ' + msg);
  console.error(
    'usage: emulate.js --firmware IMAGE.uf2 --bootrom BOOTROM(.bin|.js) [--diagram diagram.json]\n' +
      '       [--scenario FILE.yaml] [--keys "RIGHT A ..."] [--key-ms 60] [--gap-ms 400]\n' +
      '       [--out DIR] [--serial-log FILE] [--timeout-s N] [--final-screenshot NAME.png] [--quiet]\n' +
      '       [--no-usb]  (no USB host at all: wait-serial becomes a wait of 8 s for READY, 1 s otherwise)',
  );
  process.exit(2);
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
  };
  for (let i = 2; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      if (i + 1 >= argv.length) usage('missing value for ' + a);
      return argv[++i];
    };
    if (a === '--firmware') opts.firmware = next();
    else if (a === '--bootrom') opts.bootrom = next();
    else if (a === '--diagram') opts.diagram = next();
    else if (a === '--scenario') opts.scenario = next();
    else if (a === '--keys') opts.keys = next();
    else if (a === '--key-ms') opts.keyMs = Number(next());
    else if (a === '--gap-ms') opts.gapMs = Number(next());
    else if (a === '--out') opts.out = next();
    else if (a === '--serial-log') opts.serialLog = next();
    else if (a === '--timeout-s') opts.timeoutS = Number(next());
    else if (a === '--final-screenshot') opts.finalScreenshot = next();
    else if (a === '--quiet') opts.quiet = true;
    else if (a === '--no-usb') opts.noUsb = true;
    else if (a === '-h' || a === '--help') usage();
    else usage('unknown argument ' + a);
  }
  if (!opts.firmware) usage('no firmware: --firmware or SULTAN_UF2');
  if (!opts.bootrom) usage('no bootrom: --bootrom or RP2040_BOOTROM');
  return opts;
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
function keySteps(keys, buttons, keyMs, gapMs) {
  const steps = [{ 'take-screenshot': { 'part-id': 'lcd', 'save-to': '00-ready.png' } }];
  let shot = 0;
  for (const word of keys.split(/[\s,]+/).filter(Boolean)) {
    const m = /^([A-Za-z]+)(?:\*(\d+))?$/.exec(word);
    if (!m) throw new Error('bad key ' + word);
    const b = buttons.byName(m[1]);
    if (!b) throw new Error('unknown key ' + m[1] + ' (have ' + buttons.names().join(' ') + ')');
    for (let n = 0; n < Number(m[2] || 1); n++) {
      steps.push({ 'set-control': { 'part-id': b.id, control: 'pressed', value: 1 } });
      steps.push({ delay: keyMs + 'ms' });
      steps.push({ 'set-control': { 'part-id': b.id, control: 'pressed', value: 0 } });
      steps.push({ 'wait-serial': 'SULTAN key=' + b.name });
      shot++;
      steps.push({ 'take-screenshot': { 'part-id': 'lcd', 'save-to': `${String(shot).padStart(2, '0')}-${b.name}.png` } });
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
  mcu.loadBootrom(loadBootrom(opts.bootrom));
  loadUF2(fs.readFileSync(opts.firmware), mcu);

  // --- the 74HC165 and its buttons
  const sr = new HC165();
  const gp = (n) => mcu.gpio[n];
  const q7 = gp(wiring.sr.Q7);
  const refreshQ7 = () => q7.setInputValue(sr.q7);
  gp(wiring.sr.PL).addListener(() => {
    sr.setPL(gp(wiring.sr.PL).outputValue);
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
    spiDone.schedule(SPI_BYTE_NANOS);
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
  cdc.onSerialData = (bytes) => {
    const text = decoder.decode(bytes, { stream: true });
    serial += text;
    if (!opts.quiet) process.stdout.write(text);
    if (serialLog !== null) fs.writeSync(serialLog, text);
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
  const fail = (msg) => {
    log('FAILED: ' + msg);
    const shot = path.join(opts.out, 'failure.png');
    lcd.savePNG(shot, wiring.lcdRotate);
    log('screen at failure: ' + shot);
    process.exit(1);
  };

  fs.mkdirSync(opts.out, { recursive: true });
  mcu.core.PC = 0x10000000;

  let steps = [];
  if (opts.scenario) steps = steps.concat(parseScenario(fs.readFileSync(opts.scenario, 'utf8')).steps);
  if (opts.keys) {
    if (!opts.scenario) steps.push({ 'wait-serial': 'SULTAN READY' });
    steps = steps.concat(keySteps(opts.keys, buttons, opts.keyMs, opts.gapMs));
  }
  const shots = [];
  let pixelsAtShot = 0;
  const lastChange = new Map(); // part-id -> simulated ms of its last press or release
  for (const step of steps) {
    const [kind, arg] = Object.entries(step)[0];
    if (kind === 'wait-serial' && opts.noUsb) {
      runFor((String(arg) === 'SULTAN READY' ? 8000 : 1000) * 1e6);
    } else if (kind === 'wait-serial') {
      const text = String(arg);
      log('wait-serial ' + JSON.stringify(text));
      for (;;) {
        const idx = serial.indexOf(text, consumed);
        if (idx >= 0) {
          const eol = serial.indexOf('\n', idx);
          if (eol >= 0) {
            consumed = eol + 1;
            break;
          }
        }
        if (Date.now() > deadline) fail('timed out waiting for ' + JSON.stringify(text));
        if (/Code done running|Press any key to enter the REPL|You are in safe mode/.test(serial.slice(consumed)))
          fail('the program stopped before ' + JSON.stringify(text));
        runFor(5e6);
        if (process.env.EMULATE_TRACE && Math.floor(simMs()) % 1000 < 5)
          log(`trace: pc=0x${core.PC.toString(16)} lcd commands=${lcd.commands} pixels=${lcd.pixelsWritten} serial=${serial.length}`);
      }
    } else if (kind === 'delay') {
      runFor(parseDuration(arg) * 1e6);
    } else if (kind === 'set-control') {
      if (arg.control !== 'pressed') throw new Error('only the pressed control is modelled, not ' + arg.control);
      const down = Number(arg.value) !== 0;
      const since = simMs() - (lastChange.get(arg['part-id']) ?? -1e9);
      if (since < KEYPAD_SCAN_MS) log(`warning: ${arg['part-id']} changed after ${since.toFixed(1)} ms; keypad scans every ${KEYPAD_SCAN_MS} ms and may miss it`);
      lastChange.set(arg['part-id'], simMs());
      setButton(arg['part-id'], down);
    } else if (kind === 'take-screenshot') {
      const name = path.basename(arg['save-to'] || `screenshot-${shots.length + 1}.png`);
      const file = path.join(opts.out, name);
      lcd.savePNG(file, wiring.lcdRotate);
      shots.push(file);
      log(`screenshot ${file} (${lcd.pixelsWritten - pixelsAtShot} pixels sent since the last one)`);
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
    lcd.savePNG(file, wiring.lcdRotate);
    log('screenshot ' + file);
  }
  if (serialLog !== null) fs.closeSync(serialLog);
  log(`done: ${steps.length} steps, ${lcd.pixelsWritten} pixels written, ${lcd.commands} LCD commands`);
  process.exit(0);
}

main();
