'use strict';
// --keys words into emulator steps (no emulator needed; unit-tested in test/units.test.js).
//
// NAME (a press; waits for its "SULTAN key=NAME" line, then a screenshot NN-NAME.png), NAME*n, NAME*n!
// (a burst: n quick presses, then a wait for all n lines; no screenshots), NAME? (a press that need not be
// played, as the key that wakes a dark screen: no line waited for, a screenshot after the gap), RELOAD (Ctrl-C, Ctrl-D: a soft
// reload, then a wait for SULTAN READY), WAIT:ms (that long with no key), RESET (a power cycle: RAM lost,
// flash kept; then a wait for SULTAN READY), CUT@ms (power lost that many ms after the previous key's press,
// or after the end of the previous word when that is no plain key; then the board boots again as RESET),
// CUT@WRITE+ms (power lost that many ms after the next flash erase or program starts: aimed at a save).
// After each power cycle's READY a screenshot NN-READY.png (with shots on).
// A key right before CUT@ is pressed and released but its line is not waited for: the cut may land
// inside what the key started (its frame, its save).

const KEYPAD_SCAN_MS = 20; // keypad.ShiftRegisterKeys' default interval

function keySteps(keys, buttons, keyMs, gapMs, shots = true) {
  const steps = shots ? [{ 'take-screenshot': { 'part-id': 'lcd', 'save-to': '00-ready.png' } }] : [];
  let shot = 0;
  const press = (b, ms, burst) => {
    steps.push({ 'set-control': { 'part-id': b.id, control: 'pressed', value: 1 }, key: b.name, burst });
    steps.push({ delay: ms + 'ms' });
    steps.push({ 'set-control': { 'part-id': b.id, control: 'pressed', value: 0 } });
  };
  // the screen a power cycle's boot shows at READY (a damaged save's message is on it): NN-READY.png
  const shootReady = () => {
    if (!shots) return;
    shot++;
    steps.push({ 'take-screenshot': { 'part-id': 'lcd', 'save-to': `${String(shot).padStart(2, '0')}-READY.png` } });
  };
  const words = keys.split(/[\s,]+/).filter(Boolean);
  words.forEach((word, w) => {
    const cutNext = w + 1 < words.length && /^CUT@/i.test(words[w + 1]);
    const upper = word.toUpperCase();
    if (upper === 'RELOAD') {
      steps.push({ 'soft-reload': true });
      return;
    }
    if (upper === 'RESET') {
      steps.push({ 'power-cycle': { kind: 'RESET' } });
      shootReady();
      return;
    }
    const aimed = /^CUT@WRITE\+(\d{1,5}(?:\.\d{1,3})?)$/i.exec(word);
    if (aimed) {
      // aimed at the flash: that many ms after the next erase or program starts (the save's write)
      steps.push({ 'power-cycle': { kind: 'CUT', write_ms: Number(aimed[1]) } });
      shootReady();
      return;
    }
    const cut = /^CUT@(\d{1,7}(?:\.\d{1,3})?)$/i.exec(word);
    if (cut) {
      const prev = w > 0 ? words[w - 1] : '';
      const fromPress = /^[A-Za-z]+(?:\*\d{1,4})?$/.test(prev) && !/^(RELOAD|RESET)$/i.test(prev);
      steps.push({ 'power-cycle': { kind: 'CUT', after_ms: Number(cut[1]), from: fromPress ? 'press' : 'now' } });
      shootReady();
      return;
    }
    if (/^CUT@/i.test(word)) throw new Error('bad cut ' + word.slice(0, 40) + ' (want CUT@ms, e.g. CUT@10050)');
    const wait = /^WAIT:(\d{1,6})$/i.exec(word);
    if (wait) {
      steps.push({ delay: wait[1] + 'ms', idle: true }); // (the report's `idle`: the share of it in WFI)
      return;
    }
    const unplayed = /^([A-Za-z]+)\?$/.exec(word);
    if (unplayed) {
      const u = buttons.byName(unplayed[1]);
      if (!u) throw new Error('unknown key ' + unplayed[1].slice(0, 20));
      press(u, keyMs, false);
      steps.push({ delay: gapMs + 'ms' });
      shot++;
      if (shots) steps.push({ 'take-screenshot': { 'part-id': 'lcd', 'save-to': `${String(shot).padStart(2, '0')}-${u.name}.png` } });
      return;
    }
    const m = /^([A-Za-z]+)(?:\*(\d{1,4}))?(!?)$/.exec(word);
    if (!m) throw new Error('bad key ' + word.slice(0, 40));
    const b = buttons.byName(m[1]);
    if (!b) throw new Error('unknown key ' + m[1].slice(0, 20) + ' (have ' + buttons.names().join(' ') + ' RELOAD RESET CUT@ms CUT@WRITE+ms WAIT:ms NAME?)');
    const n = Number(m[2] || 1);
    if (m[3]) {
      // a burst: quick presses (keypad's queue holds them), then all their lines
      for (let k = 0; k < n; k++) {
        press(b, 2 * KEYPAD_SCAN_MS, true);
        steps.push({ delay: 2 * KEYPAD_SCAN_MS + 'ms' });
      }
      steps.push({ 'wait-key-lines': n });
      steps.push({ delay: gapMs + 'ms' });
      return;
    }
    for (let k = 0; k < n; k++) {
      if (cutNext && k === n - 1) {
        // the cut is timed from this press: press and release it, then the cut step runs the clock on
        steps.push({ 'set-control': { 'part-id': b.id, control: 'pressed', value: 1 }, key: b.name, burst: false, cutNext: true });
        steps.push({ 'release-before-cut': { 'part-id': b.id, ms: keyMs } });
        continue;
      }
      press(b, keyMs, false);
      steps.push({ 'wait-serial': 'SULTAN key=' + b.name });
      shot++;
      if (shots) steps.push({ 'take-screenshot': { 'part-id': 'lcd', 'save-to': `${String(shot).padStart(2, '0')}-${b.name}.png` } });
      steps.push({ delay: gapMs + 'ms' });
    }
  });
  return steps;
}

module.exports = { keySteps, KEYPAD_SCAN_MS };
