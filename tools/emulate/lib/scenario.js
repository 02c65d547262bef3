'use strict';
// A Wokwi CLI scenario: `name`, `version`, `author` and a `steps` list whose items are one-key maps,
// each a scalar or a map of scalars.  js-yaml reads the YAML; this checks the shape the runner needs.
const yaml = require('js-yaml');

function parseScenario(text) {
  let doc = {}; // no document at all (only blanks and comments): no steps
  try {
    if (/^[ \t]*[^#\s]/m.test(text)) doc = yaml.load(text);
  } catch (e) {
    throw new Error('scenario: ' + e.message.split('\n')[0]);
  }
  if (doc === null) doc = {};
  if (typeof doc !== 'object' || Array.isArray(doc)) {
    throw new Error('scenario: not a map of name, version, steps');
  }
  const steps = doc.steps === undefined || doc.steps === null ? [] : doc.steps;
  if (!Array.isArray(steps)) throw new Error('scenario: steps is not a list');
  steps.forEach((step, i) => {
    const map = step !== null && typeof step === 'object' && !Array.isArray(step);
    const one = map && Object.keys(step).length === 1;
    if (!one) throw new Error('scenario: step ' + (i + 1) + ' is not a one-key map: ' + JSON.stringify(step));
  });
  return { ...doc, steps };
}

// "100ms", "1.5s", "250" (ms) -> milliseconds
function parseDuration(text) {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s)?\s*$/.exec(String(text));
  if (!m) throw new Error('bad duration ' + text);
  return Number(m[1]) * (m[2] === 's' ? 1000 : 1);
}

module.exports = { parseScenario, parseDuration };
