'use strict';
// The emulator's screenshots: 8-bit RGB PNGs, written by pngjs.
const { PNG } = require('pngjs');

// rgb: Uint8Array of width*height*3.  No row filter, as the hand-written writer before it: the
// fastest to write, and a shot decodes to the same pixels.
function encodePNG(width, height, rgb) {
  const data = Buffer.from(rgb.buffer, rgb.byteOffset, width * height * 3);
  return PNG.sync.write(
    { width, height, data },
    { colorType: 2, inputColorType: 2, inputHasAlpha: false, bitDepth: 8, filterType: 0, deflateLevel: 9,
      deflateStrategy: 0 },
  );
}
module.exports = { encodePNG };
