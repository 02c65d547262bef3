'use strict';
// The ILI9341 as seen from its SPI pins: commands (D/C low) and their data bytes (D/C high).
// Modelled: SWRESET, CASET, PASET, RAMWR (RGB565, 16 bits a pixel), MADCTL, COLMOD, INVON/INVOFF,
// DISPON/DISPOFF; the rest is accepted and ignored.  The panel is 240 columns x 320 rows, portrait.
//
// MADCTL (0x36): MY 0x80 row order, MX 0x40 column order, MV 0x20 row/column exchange, BGR 0x08.
// Column/page addresses are exchanged first (MV), then mirrored (MX, MY) in panel memory.  The panel
// shows memory column c at x = 239 - c: that is why upright portrait is MADCTL MX (0x48, rotation 0
// in the Arduino and CircuitPython drivers) and why the CircuitPython driver's landscape 0x38 (MV)
// draws the picture turned a quarter clockwise, to be read with the panel turned a quarter
// counter-clockwise (diagram.json: "rotate": "270").
const fs = require('fs');
const { encodePNG } = require('./png');

const W = 240;
const H = 320;

class ILI9341 {
  constructor() {
    this.fb = new Uint16Array(W * H); // panel pixels, as seen, row-major
    this.commands = 0;
    this.pixelsWritten = 0;
    this.reset();
  }
  reset() {
    this.cmd = -1;
    this.args = [];
    this.madctl = 0;
    this.inverted = false;
    this.on = false;
    this.x0 = 0;
    this.x1 = W - 1;
    this.y0 = 0;
    this.y1 = H - 1;
    this.x = 0;
    this.y = 0;
    this.hi = -1;
  }
  write(isData, byte) {
    if (!isData) {
      this.command(byte);
      return;
    }
    if (this.cmd === 0x2c || this.cmd === 0x3c) {
      if (this.hi < 0) {
        this.hi = byte;
      } else {
        this.pixel((this.hi << 8) | byte);
        this.hi = -1;
      }
      return;
    }
    this.args.push(byte);
    const a = this.args;
    if (this.cmd === 0x2a && a.length === 4) {
      this.x0 = (a[0] << 8) | a[1];
      this.x1 = (a[2] << 8) | a[3];
    } else if (this.cmd === 0x2b && a.length === 4) {
      this.y0 = (a[0] << 8) | a[1];
      this.y1 = (a[2] << 8) | a[3];
    } else if (this.cmd === 0x36 && a.length === 1) {
      this.madctl = a[0];
    }
  }
  command(byte) {
    this.commands++;
    this.cmd = byte;
    this.args = [];
    this.hi = -1;
    if (byte === 0x01) {
      const fb = this.fb;
      this.reset();
      this.fb = fb;
    } else if (byte === 0x2c) {
      this.x = this.x0;
      this.y = this.y0;
    } else if (byte === 0x21) this.inverted = true;
    else if (byte === 0x20) this.inverted = false;
    else if (byte === 0x29) this.on = true;
    else if (byte === 0x28) this.on = false;
  }
  pixel(color) {
    const m = this.madctl;
    let col = this.x;
    let row = this.y;
    if (m & 0x20) [col, row] = [row, col];
    if (m & 0x40) col = W - 1 - col;
    if (m & 0x80) row = H - 1 - row;
    if (col >= 0 && col < W && row >= 0 && row < H) {
      if (!(m & 0x08)) color = (color & 0x07e0) | ((color >> 11) & 0x1f) | ((color & 0x1f) << 11);
      this.fb[row * W + (W - 1 - col)] = color;
      this.pixelsWritten++;
    }
    if (++this.x > this.x1) {
      this.x = this.x0;
      if (++this.y > this.y1) this.y = this.y0;
    }
  }
  // The picture as a viewer sees it with the part turned `rotate` degrees clockwise.
  rgb(rotate) {
    const r = ((Number(rotate) || 0) % 360 + 360) % 360;
    const quarter = r / 90;
    const w = quarter % 2 ? H : W;
    const h = quarter % 2 ? W : H;
    const out = new Uint8Array(w * h * 3);
    for (let py = 0; py < H; py++) {
      for (let px = 0; px < W; px++) {
        let c = this.fb[py * W + px];
        if (this.inverted) c = ~c & 0xffff;
        if (!this.on) c = 0;
        let x;
        let y;
        if (quarter === 0) [x, y] = [px, py];
        else if (quarter === 1) [x, y] = [H - 1 - py, px];
        else if (quarter === 2) [x, y] = [W - 1 - px, H - 1 - py];
        else [x, y] = [py, W - 1 - px];
        const o = (y * w + x) * 3;
        out[o] = ((c >> 11) & 0x1f) * 255 / 31;
        out[o + 1] = ((c >> 5) & 0x3f) * 255 / 63;
        out[o + 2] = (c & 0x1f) * 255 / 31;
      }
    }
    return { width: w, height: h, rgb: out };
  }
  savePNG(file, rotate) {
    const { width, height, rgb } = this.rgb(rotate);
    fs.writeFileSync(file, encodePNG(width, height, rgb));
  }
}
module.exports = { ILI9341, W, H };
