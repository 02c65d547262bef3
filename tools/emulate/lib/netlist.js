'use strict';
// diagram.json as nets: which Pico GPIO each ILI9341 / 74HC165 pin is wired to, which 74HC165 input
// each pushbutton drives, and the NeoPixel chain.  The emulator takes its wiring from here and nowhere else.
class Netlist {
  constructor(diagram) {
    this.parts = diagram.parts;
    this.parent = new Map();
    for (const [a, b] of diagram.connections) this.union(a, b);
    for (const p of this.parts) {
      if (p.type === 'wokwi-pushbutton') {
        // each side of a tactile switch is one conductor
        this.union(p.id + ':1.l', p.id + ':1.r');
        this.union(p.id + ':2.l', p.id + ':2.r');
      }
    }
  }
  find(x) {
    if (!this.parent.has(x)) this.parent.set(x, x);
    let r = x;
    while (this.parent.get(r) !== r) r = this.parent.get(r);
    this.parent.set(x, r);
    return r;
  }
  union(a, b) {
    this.parent.set(this.find(a), this.find(b));
  }
  members(endpoint) {
    const root = this.find(endpoint);
    return [...this.parent.keys()].filter((k) => this.find(k) === root);
  }
  partOfType(type) {
    const found = this.parts.filter((p) => p.type === type);
    if (found.length !== 1) throw new Error(`diagram.json: want one ${type}, found ${found.length}`);
    return found[0];
  }
  gpioOf(endpoint) {
    const pico = this.partOfType('wokwi-pi-pico').id;
    const pins = this.members(endpoint)
      .filter((m) => m.startsWith(pico + ':GP'))
      .map((m) => Number(m.slice(pico.length + 3)));
    if (pins.length !== 1) throw new Error(`diagram.json: ${endpoint} is wired to ${pins.length} Pico GPIOs`);
    return pins[0];
  }
  wiring() {
    const lcd = this.partOfType('wokwi-ili9341');
    const sr = this.partOfType('wokwi-74hc165');
    const g = (part, pin) => this.gpioOf(part.id + ':' + pin);
    // the backlight: a Pico GPIO that drives it, or null when it is tied to a supply
    const pico = this.partOfType('wokwi-pi-pico').id;
    const led = this.members(lcd.id + ':LED').some((m) => m.startsWith(pico + ':GP')) ? g(lcd, 'LED') : null;
    return {
      lcd: { SCK: g(lcd, 'SCK'), MOSI: g(lcd, 'MOSI'), CS: g(lcd, 'CS'), DC: g(lcd, 'D/C'), RST: g(lcd, 'RST'), LED: led },
      lcdRotate: (lcd.rotate || 0),
      sr: { PL: g(sr, 'PL'), CP: g(sr, 'CP'), Q7: g(sr, 'Q7') },
    };
  }
  // The chain of wokwi-neopixels: the Pico GPIO on the first one's DIN and the parts in order, each
  // DOUT to the next one's DIN (null when there are none).
  neopixels() {
    const ids = new Set(this.parts.filter((p) => p.type === 'wokwi-neopixel').map((p) => p.id));
    if (!ids.size) return null;
    const pico = this.partOfType('wokwi-pi-pico').id;
    const first = [...ids].filter((id) => this.members(id + ':DIN').some((m) => m.startsWith(pico + ':GP')));
    if (first.length !== 1) throw new Error(`diagram.json: want one NeoPixel with its DIN on a Pico GPIO, found ${first.length}`);
    const chain = [first[0]];
    for (;;) {
      const next = this.members(chain[chain.length - 1] + ':DOUT')
        .filter((m) => m.endsWith(':DIN') && ids.has(m.slice(0, -4)))
        .map((m) => m.slice(0, -4));
      if (next.length !== 1 || chain.includes(next[0])) break;
      chain.push(next[0]);
    }
    return { din: this.gpioOf(first[0] + ':DIN'), chain };
  }
  buttons() {
    const sr = this.partOfType('wokwi-74hc165').id;
    const list = [];
    for (const p of this.parts.filter((q) => q.type === 'wokwi-pushbutton')) {
      const ds = ['1.l', '2.l']
        .flatMap((side) => this.members(p.id + ':' + side))
        .filter((m) => /^.+:D[0-7]$/.test(m) && m.startsWith(sr + ':'));
      if (ds.length !== 1) throw new Error(`diagram.json: button ${p.id} reaches ${ds.length} 74HC165 inputs`);
      const label = ((p.attrs && p.attrs.label) || p.id).toUpperCase();
      list.push({ id: p.id, name: label, d: Number(ds[0].slice(-1)) });
    }
    return {
      list,
      byId: (id) => list.find((b) => b.id === id),
      byName: (name) => list.find((b) => b.name === name.toUpperCase() || b.id === name),
      names: () => list.map((b) => b.name),
    };
  }
}
module.exports = { Netlist };
