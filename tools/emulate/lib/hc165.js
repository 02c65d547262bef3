'use strict';
// 74HC165 parallel-in/serial-out shift register, as wired on the Wokwi board: CE and DS to GND.
// PL low: the register follows D0..D7 (asynchronous parallel load).  PL high: each rising CP edge
// shifts towards Q7 (DS enters at the bottom).  Q7 is bit 7, so D7 comes out first.
class HC165 {
  constructor() {
    this.inputs = 0; // D0..D7 as bits 0..7 (high = button pressed: pull-downs, buttons to 3V3)
    this.reg = 0;
    this.pl = true;
    this.cp = false;
    this.ds = 0;
  }
  setInput(d, high) {
    if (high) this.inputs |= 1 << d;
    else this.inputs &= ~(1 << d);
    if (!this.pl) this.reg = this.inputs;
  }
  setPL(high) {
    this.pl = high;
    if (!high) this.reg = this.inputs;
  }
  setCP(high) {
    if (high && !this.cp && this.pl) this.reg = ((this.reg << 1) | this.ds) & 0xff;
    this.cp = high;
  }
  get q7() {
    return (this.reg & 0x80) !== 0;
  }
}
module.exports = { HC165 };
