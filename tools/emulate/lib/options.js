'use strict';
// emulate.js's command line: options, the one-line errors (exit 2) and the bootrom file.
const fs = require('fs');
const path = require('path');
const { KEYPAD_SCAN_MS } = require('./words');

const ROOT = path.resolve(__dirname, '..', '..', '..');

function usage(msg) {
  if (msg) console.error('emulate: ' + msg);
  console.error(
    'usage: emulate.js --firmware IMAGE.uf2 --bootrom BOOTROM(.bin|.js) [--diagram diagram.json]\n' +
      '       [--scenario FILE.yaml] [--keys "RIGHT A ..."] [--key-ms 60] [--gap-ms 100]\n' +
      '       [--steps FILE.json|-]  (the words\' steps as python -m sultan_host.keywords --names pico prints them)\n' +
      '       [--out DIR] [--serial-log FILE] [--timeout-s N] [--final-screenshot NAME.png] [--quiet]\n' +
      '       [--window WxH] [--report FILE.json] [--random-keys N] [--seed S] [--no-shots]\n' +
      '       [--flash-in IMAGE.bin] [--flash-out IMAGE.bin]  (the 2 MB flash: start from it / write it at the end)\n' +
      '       [--flash-time-scale 1]  (erase/program times x this; 0: instant)\n' +
      '       [--no-usb]  (no USB host at all: wait-serial becomes a wait of 8 s for READY, 1 s otherwise)\n' +
      '       [--after-ms N]  (run N simulated ms more after the last step: lights and tones that outlast the keys)',
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
    steps: null,
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
    flashIn: null,
    flashOut: null,
    flashTimeScale: 1,
    randomKeys: 0,
    seed: 1,
    shots: true,
    afterMs: 0,
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
    else if (a === '--steps') opts.steps = next();
    else if (a === '--key-ms') opts.keyMs = positive(next(), a);
    else if (a === '--gap-ms') opts.gapMs = positive(next(), a, { zero: true });
    else if (a === '--out') opts.out = next();
    else if (a === '--serial-log') opts.serialLog = next();
    else if (a === '--timeout-s') opts.timeoutS = positive(next(), a);
    else if (a === '--window') opts.window = parseWindow(next());
    else if (a === '--report') opts.report = next();
    else if (a === '--flash-in') opts.flashIn = next();
    else if (a === '--flash-out') opts.flashOut = next();
    else if (a === '--flash-time-scale') opts.flashTimeScale = scale(next(), a);
    else if (a === '--random-keys') opts.randomKeys = positive(next(), a, { zero: true });
    else if (a === '--seed') opts.seed = positive(next(), a, { zero: true });
    else if (a === '--no-shots') opts.shots = false;
    else if (a === '--after-ms') opts.afterMs = positive(next(), a, { zero: true });
    else if (a === '--final-screenshot') opts.finalScreenshot = next();
    else if (a === '--quiet') opts.quiet = true;
    else if (a === '--no-usb') opts.noUsb = true;
    else if (a === '-h' || a === '--help') usage();
    else bad('unknown argument ' + a);
  }
  check(opts);
  return opts;
}

// what the options ask of each other and of the files they name
function check(opts) {
  if (!opts.firmware && !opts.flashIn) bad('no firmware: --firmware or SULTAN_UF2 (or a --flash-in image)');
  if (!opts.bootrom) bad('no bootrom: --bootrom or RP2040_BOOTROM');
  for (const [name, file] of [['--firmware', opts.firmware], ['--bootrom', opts.bootrom], ['--diagram', opts.diagram], ['--scenario', opts.scenario], ['--flash-in', opts.flashIn]]) {
    if (file !== null && !(fs.existsSync(file) && fs.statSync(file).isFile())) bad(`${name} ${file}: no such file`);
  }
  if (opts.steps !== null && (opts.keys !== null || opts.randomKeys)) bad('--steps or --keys / --random-keys, not both');
  if (opts.steps !== null && opts.steps !== '-' && !(fs.existsSync(opts.steps) && fs.statSync(opts.steps).isFile())) bad(`--steps ${opts.steps}: no such file`);
  if (opts.keyMs <= KEYPAD_SCAN_MS) bad(`--key-ms ${opts.keyMs}: keypad scans every ${KEYPAD_SCAN_MS} ms, press longer`);
}

function scale(text, name) {
  if (!/^[0-9]{1,3}(\.[0-9]{1,3})?$/.test(String(text))) bad(`${name} ${String(text).slice(0, 20)}: want a factor from 0 to 999, e.g. 0 or 0.5`);
  return Number(text);
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

module.exports = { parseArgs, bad, loadBootrom, ROOT };
