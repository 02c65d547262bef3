'use strict';
// The USB CDC console as the steps read it: the text, its lines with their simulated times, each boot's
// SULTAN READY line, and each pressed key's record matched to its "SULTAN key=NAME" line.
const fs = require('fs');

const STOPPED = /Code done running|Press any key to enter the REPL|You are in safe mode/;

// a console line without the terminal's escapes (CircuitPython's title bar: ESC ] 0 ; ... ESC \\)
function plainLine(raw) {
  return raw
    .replace(/\x1b\][^\x1b\x07]*(?:\x1b\\|\x07)/g, '')
    .replace(/\x1b\[[0-9;]*[A-Za-z]/g, '')
    .replace(/\r$/, '');
}

class SerialConsole {
  // time: the run's Timeline; pixels(): RAMWR pixels sent so far (a key's record counts those up to its line)
  constructor({ time, pixels, quiet = false, serialLog = null }) {
    this.time = time;
    this.pixels = pixels;
    this.quiet = quiet;
    this.file = serialLog ? fs.openSync(serialLog, 'w') : null;
    this.text = '';
    this.consumed = 0; // wait-serial matches lines after the last match
    this.lineStart = 0;
    this.lines = []; // {ms, text}: each complete serial line and when it ended (simulated)
    this.keys = []; // per key press, for the report
    this.boots = []; // {boot, cause, at_ms, ready_ms, ready}: each power-on and its READY line
    this.cdc = null;
    this.decoder = null;
  }
  // a new boot's USB CDC (or a stand-in that sends nothing, with no USB host)
  attach(cdc) {
    this.decoder = new TextDecoder();
    this.cdc = cdc;
    cdc.onSerialData = (bytes) => this.receive(bytes);
  }
  receive(bytes) {
    const text = this.decoder.decode(bytes, { stream: true });
    this.text += text;
    for (let eol = this.text.indexOf('\n', this.lineStart); eol >= 0; eol = this.text.indexOf('\n', this.lineStart)) {
      const line = plainLine(this.text.slice(this.lineStart, eol));
      this.lineStart = eol + 1;
      this.onLine(line, this.time.ms());
    }
    if (!this.quiet) process.stdout.write(text);
    if (this.file !== null) fs.writeSync(this.file, text);
  }
  onLine(line, ms) {
    this.lines.push({ ms, text: line });
    const boot = this.boots[this.boots.length - 1];
    if (line.startsWith('SULTAN READY') && boot && boot.ready === null) {
      boot.ready = line;
      boot.ready_ms = ms;
    }
    const m = /^SULTAN key=(\w+)/.exec(line);
    if (!m) return;
    const rec = this.keys.find((r) => r.line === null && !r.lost && r.name === m[1]);
    if (rec) {
      rec.line = line;
      rec.line_ms = ms;
      rec.pixels = this.pixels() - rec.pixels_at_press;
    }
  }
  write(text) {
    for (const b of Buffer.from(text, 'utf8')) this.cdc.sendSerialByte(b);
  }
  // `text` in a line after the last match: consume up to that line's end
  take(text) {
    const idx = this.text.indexOf(text, this.consumed);
    const eol = idx >= 0 ? this.text.indexOf('\n', idx) : -1;
    if (eol < 0) return false;
    this.consumed = eol + 1;
    return true;
  }
  skipAll() {
    this.consumed = this.text.length;
  }
  stopped(from = this.consumed) {
    return STOPPED.test(this.text.slice(from));
  }
  // a key pressed: its record waits for its line
  pressed(name, burst) {
    const rec = { name, burst, press_ms: this.time.ms(), latch_ms: null, line_ms: null, line: null, pixels: null, pixels_at_press: this.pixels() };
    this.keys.push(rec);
    return rec;
  }
  pendingKeys() {
    return this.keys.filter((r) => r.line === null && !r.lost).length;
  }
  // power lost: no pressed key's line will come, and a line cut short ends here
  powerLost() {
    for (const r of this.keys) if (r.line === null) r.lost = true;
    if (this.text.length > this.lineStart) this.receive(new TextEncoder().encode('\n'));
    this.skipAll();
  }
  booted(cause) {
    this.boots.push({ boot: this.boots.length, cause, at_ms: this.time.ms(), ready_ms: null, ready: null });
  }
  close() {
    if (this.file !== null) fs.closeSync(this.file);
  }
}

module.exports = { SerialConsole, plainLine };
