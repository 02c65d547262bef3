'use strict';
// Helpers of emulate.js that need no emulator (unit-tested in test/words.test.js).

// mulberry32: a small seeded generator (a power cut's partial erase or program)
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Errors on the console: MemoryError anywhere, and each traceback's last line, but for the
// KeyboardInterrupt of a RELOAD's Ctrl-C.
function serialErrors(text) {
  const out = [];
  if (/MemoryError/.test(text)) out.push('a MemoryError');
  const re = /Traceback \(most recent call last\):\r?\n(?:[ \t].*\r?\n)*(.*)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (!/^KeyboardInterrupt/.test(m[1])) out.push('an exception: ' + m[1].slice(0, 200));
  }
  return out;
}

// The top-left w x h of an RGB picture {width, height, rgb}: the test profile's window.
function crop(pic, w, h) {
  const width = Math.min(w, pic.width);
  const height = Math.min(h, pic.height);
  const out = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) out.set(pic.rgb.subarray(y * pic.width * 3, (y * pic.width + width) * 3), y * width * 3);
  return { width, height, rgb: out };
}

module.exports = { crop, serialErrors, rng };
