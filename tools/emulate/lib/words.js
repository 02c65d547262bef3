'use strict';
// The key words' steps.  The grammar is written once, in Python (sultan_host.keywords, which the PyBadge
// harness uses too): --steps reads the JSON it prints, and --keys / --random-keys ask it for them.
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

const ROOT = path.resolve(__dirname, '..', '..', '..');

const KEYPAD_SCAN_MS = 20; // keypad.ShiftRegisterKeys' default interval
const KINDS = ['wait-serial', 'wait-key-lines', 'soft-reload', 'power-cycle', 'release-before-cut', 'delay', 'set-control', 'take-screenshot'];

// SULTAN_PYTHON, else the checkout's .venv, else python3 with the checkout's lib/ and host/ on its path
function python() {
  if (process.env.SULTAN_PYTHON) return process.env.SULTAN_PYTHON;
  const venv = path.join(ROOT, '.venv', 'bin', 'python');
  return fs.existsSync(venv) ? venv : 'python3';
}

// A word refused, or no parser to ask: the message is the command line's one line.
class WordError extends Error {}

// the steps of --keys (and --random-keys seeded ones after them) on diagram.json's buttons
function keywordSteps(opts) {
  const args = ['-m', 'sultan_host.keywords', '--names', 'pico', '--keys', opts.keys || ''];
  args.push('--random-keys', String(opts.randomKeys), '--seed', String(opts.seed));
  args.push('--key-ms', String(opts.keyMs), '--gap-ms', String(opts.gapMs));
  if (!opts.shots) args.push('--no-shots');
  const env = { ...process.env, PYTHONPATH: [path.join(ROOT, 'lib'), path.join(ROOT, 'host'), process.env.PYTHONPATH].filter(Boolean).join(path.delimiter) };
  const proc = spawnSync(python(), args, { env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const said = (proc.stderr || '').trim().split('\n').pop() || '';
  if (proc.error) throw new WordError(`--keys: no ${python()} to read the words with (sultan_host.keywords): ${proc.error.message}`);
  if (proc.status === 2) throw new WordError(said.replace(/^keywords: /, ''));
  if (proc.status !== 0) throw new WordError('--keys: sultan_host.keywords failed: ' + said);
  return JSON.parse(proc.stdout).steps;
}

// --steps FILE (or - for stdin): sultan_host.keywords' JSON ({"steps": [...]}) or a bare list of steps,
// each a map whose first key is its kind; a part-id must be one of diagram.json's buttons (or the lcd)
function readSteps(file, buttons) {
  try {
    const doc = JSON.parse(fs.readFileSync(file === '-' ? 0 : file, 'utf8'));
    const steps = Array.isArray(doc) ? doc : doc && doc.steps;
    if (!Array.isArray(steps)) throw new Error('no list of steps');
    steps.forEach((step, i) => checkStep(step, i, buttons));
    return steps;
  } catch (e) {
    throw new WordError(`--steps ${file}: ${e.message.split('\n')[0]}`);
  }
}

function checkStep(step, i, buttons) {
  const kind = step !== null && typeof step === 'object' && !Array.isArray(step) ? Object.keys(step)[0] : undefined;
  if (!KINDS.includes(kind)) throw new Error(`step ${i + 1} is no step: ${JSON.stringify(step).slice(0, 60)}`);
  const id = step[kind] && step[kind]['part-id'];
  if (kind !== 'take-screenshot' && id !== undefined && !buttons.byId(id)) throw new Error(`step ${i + 1}: no pushbutton ${String(id).slice(0, 20)} in diagram.json`);
}

module.exports = { keywordSteps, readSteps, WordError, KEYPAD_SCAN_MS };
