'use strict';
// --report's JSON: the run on one simulated timeline (ms) across power cycles.
const { FLASH_SIZE, NVM_ADDR, NVM_LEN, CIRCUITPY_ADDR } = require('./power');

// board: the Board after its run; idles: the steps' WAIT spans; error: why the run failed, or null
function report(opts, board, idles, error) {
  const { console: con, time, lcd } = board;
  const lines = con.lines;
  const boots = con.boots;
  const ready = lines.filter((l) => l.text.startsWith('SULTAN READY'));
  const bootOf = (ms) => boots.filter((b) => b.at_ms <= ms).length - 1;
  return {
    firmware: opts.flashIn ? null : opts.firmware,
    flash_in: opts.flashIn,
    window: opts.window,
    error: error || null,
    sim_ms: time.ms(),
    wall_s: time.wallS(),
    pixels: lcd.pixelsWritten,
    first_line_ms: lines.length ? lines[0].ms : null,
    // ms: on the run's one timeline; boot_ms: since that boot's power-on
    ready: ready.map((l) => ({ ms: l.ms, text: l.text, boot: bootOf(l.ms), boot_ms: l.ms - boots[bootOf(l.ms)].at_ms })),
    keys: con.keys.map(({ pixels_at_press, ...r }) => r),
    neopixel_chain: board.strip ? { gpio: board.strip.din, parts: board.strip.chain } : null,
    neopixels: board.pixels.frames,
    // the LED pin's duty: each change {at_ms, duty 0..1}; wfi_ms: all of the run's time in WFI;
    // idle: each WAIT:ms word's span and its time in WFI
    backlight: board.backlight,
    wfi_ms: board.wfiNanos / 1e6,
    idle: idles,
    flash: {
      ...board.chip.report(),
      nvm: { addr: NVM_ADDR, len: NVM_LEN },
      circuitpy: { addr: CIRCUITPY_ADDR, len: FLASH_SIZE - CIRCUITPY_ADDR },
      boots,
    },
    lines,
  };
}

module.exports = { report };
