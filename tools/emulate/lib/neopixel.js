'use strict';
// The NeoPixels (WS2812) diagram.json chains to a Pico GPIO, decoded from what the firmware pushes into
// a PIO state machine's TX FIFO (no emulator needed here; unit-tested in test/parts.test.js).
//
// CircuitPython's RP2040 neopixel_write (8.2.7 to 10.2.1) runs a side-set program on a state machine
// whose side-set pin is the NeoPixel pin, autopull every 8 bits, shifting left (MSB first), and writes
// the buffer a byte at a time into TXF (by DMA for more bytes than the FIFO holds); a byte write to a
// peripheral register reaches it on all four byte lanes, so each FIFO word is the byte four times.
// This model takes each word's bits as the state machine shifts them out (OUT_SHIFTDIR, PULL_THRESH),
// eight wire bits a byte, MSB first, three bytes a pixel in green, red, blue order.  A strip latches
// what it got once its data line stays low for the reset time: a pause of more than RESET_NS between
// two pushes ends a frame ("show").

const RESET_NS = 280000; // the WS2812B's reset (latch) time, 280 us

// SHIFTCTRL fields (RP2040 datasheet, SMx_SHIFTCTRL)
const OUT_SHIFTDIR_RIGHT = 1 << 19;
const PULL_THRESH_SHIFT = 25;

// The bits one FIFO word puts on the wire, in order, for a state machine's SHIFTCTRL.
function wordBits(word, shiftCtrl) {
  const n = ((shiftCtrl >>> PULL_THRESH_SHIFT) & 0x1f) || 32;
  const bits = [];
  if (shiftCtrl & OUT_SHIFTDIR_RIGHT) for (let i = 0; i < n; i++) bits.push((word >>> i) & 1);
  else for (let i = 31; i > 31 - n; i--) bits.push((word >>> i) & 1);
  return bits;
}

// [[r, g, b], ...] of a frame's bytes (green, red, blue each pixel); a short last pixel is left out.
function pixelsOf(bytes) {
  const out = [];
  for (let i = 0; i + 2 < bytes.length; i += 3) out.push([bytes[i + 1], bytes[i], bytes[i + 2]]);
  return out;
}

class NeoPixelStream {
  constructor({ resetNs = RESET_NS, onFrame = null } = {}) {
    this.resetNs = resetNs;
    this.onFrame = onFrame; // called with each frame as it is latched
    this.frames = []; // {at_ms, pixels: [[r, g, b], ...]} (+ extra_bits when a frame ends mid-byte or mid-pixel)
    this.bits = [];
    this.startNs = null;
    this.lastNs = null;
  }
  // a word pushed into the TX FIFO at simulated time `nanos`
  push(nanos, word, shiftCtrl) {
    if (this.lastNs !== null && nanos - this.lastNs > this.resetNs) this.end();
    if (this.startNs === null) this.startNs = nanos;
    this.lastNs = nanos;
    for (const b of wordBits(word >>> 0, shiftCtrl)) this.bits.push(b);
  }
  // the frame under way, latched (after a pause, or at the run's end)
  end() {
    if (this.startNs === null) return null;
    const bytes = [];
    for (let i = 0; i + 7 < this.bits.length; i += 8) {
      let v = 0;
      for (let k = 0; k < 8; k++) v = (v << 1) | this.bits[i + k];
      bytes.push(v);
    }
    const frame = { at_ms: this.startNs / 1e6, pixels: pixelsOf(bytes) };
    const extra = this.bits.length - 24 * frame.pixels.length;
    if (extra) frame.extra_bits = extra;
    this.frames.push(frame);
    this.bits = [];
    this.startNs = null;
    this.lastNs = null;
    if (this.onFrame) this.onFrame(frame);
    return frame;
  }
}

// one line for the log: each pixel as #rrggbb
function describe(frame) {
  const hex = (v) => v.toString(16).padStart(2, '0');
  return frame.pixels.map(([r, g, b]) => '#' + hex(r) + hex(g) + hex(b)).join(' ') + (frame.extra_bits ? ` (+${frame.extra_bits} bits)` : '');
}

module.exports = { NeoPixelStream, wordBits, pixelsOf, describe, RESET_NS };
