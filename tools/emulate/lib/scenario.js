'use strict';
// The subset of YAML that a Wokwi CLI scenario uses: top-level `name`, `version`, `author` and a
// `steps` list whose items are one-key maps, each either a scalar or a nested map of scalars.
function scalar(text) {
  let t = text.trim();
  const hash = t.search(/\s#/);
  if (hash >= 0 && !/^["']/.test(t)) t = t.slice(0, hash).trim();
  if (/^".*"$/.test(t)) return JSON.parse(t);
  if (/^'.*'$/.test(t)) return t.slice(1, -1).replace(/''/g, "'");
  if (/^-?\d+(\.\d+)?$/.test(t)) return Number(t);
  return t;
}

function parseScenario(text) {
  const out = { steps: [] };
  let inSteps = false;
  let current = null; // the nested map of the step being read
  for (const raw of text.split(/\r?\n/)) {
    if (!raw.trim() || raw.trim().startsWith('#')) continue;
    const indent = raw.length - raw.trimStart().length;
    const line = raw.trim();
    if (indent === 0) {
      const m = /^([\w-]+):\s*(.*)$/.exec(line);
      if (!m) throw new Error('scenario: cannot read ' + JSON.stringify(raw));
      inSteps = m[1] === 'steps';
      if (!inSteps) out[m[1]] = scalar(m[2]);
      current = null;
      continue;
    }
    if (!inSteps) continue;
    let m = /^-\s+([\w-]+):\s*(.*)$/.exec(line);
    if (m) {
      if (m[2] === '') {
        current = {};
        out.steps.push({ [m[1]]: current });
      } else {
        current = null;
        out.steps.push({ [m[1]]: scalar(m[2]) });
      }
      continue;
    }
    m = /^([\w-]+):\s*(.*)$/.exec(line);
    if (m && current) {
      current[m[1]] = scalar(m[2]);
      continue;
    }
    throw new Error('scenario: cannot read ' + JSON.stringify(raw));
  }
  return out;
}

// "100ms", "1.5s", "250" (ms) -> milliseconds
function parseDuration(text) {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s)?\s*$/.exec(String(text));
  if (!m) throw new Error('bad duration ' + text);
  return Number(m[1]) * (m[2] === 's' ? 1000 : 1);
}

module.exports = { parseScenario, parseDuration };
