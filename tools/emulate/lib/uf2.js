'use strict';
// UF2: 512-byte blocks, each carrying up to 476 bytes for one flash address.
const MAGIC0 = 0x0a324655;
const MAGIC1 = 0x9e5d5157;
const MAGIC_END = 0x0ab16f30;
const FLAG_NOT_MAIN_FLASH = 0x1;
const FLASH_BASE = 0x10000000;

function loadUF2(buf, mcu) {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  let blocks = 0;
  for (let off = 0; off + 512 <= buf.length; off += 512) {
    if (view.getUint32(off, true) !== MAGIC0 || view.getUint32(off + 4, true) !== MAGIC1) continue;
    if (view.getUint32(off + 508, true) !== MAGIC_END) continue;
    const flags = view.getUint32(off + 8, true);
    if (flags & FLAG_NOT_MAIN_FLASH) continue;
    const addr = view.getUint32(off + 12, true);
    const size = view.getUint32(off + 16, true);
    if (size > 476 || addr < FLASH_BASE || addr + size > FLASH_BASE + mcu.flash.length) {
      throw new Error(`UF2 block ${off / 512}: bad address 0x${addr.toString(16)} size ${size}`);
    }
    mcu.flash.set(buf.subarray(off + 32, off + 32 + size), addr - FLASH_BASE);
    blocks++;
  }
  if (!blocks) throw new Error('no UF2 blocks found');
  return blocks;
}

module.exports = { loadUF2 };
