'use strict';
// The serial line's pacing (lib/usbserial.js) on a stand-in for rp2040js's USBCDC: no firmware needed.
const test = require('node:test');
const assert = require('node:assert');
const { paceEmptyReads, EMPTY_US } = require('../lib/usbserial');

function fakeCdc() {
  const fifo = [];
  const done = [];
  const cdc = {
    outEndpoint: 2,
    txFIFO: { get empty() { return fifo.length === 0; } },
    sendSerialByte(b) { fifo.push(b); },
    usb: {
      endpointReadDone(endpoint, buffer, delayUs = 10) { done.push({ endpoint, bytes: Array.from(buffer), delayUs }); },
    },
  };
  // as rp2040js: an armed OUT buffer is answered at once with what the FIFO holds
  cdc.usb.onEndpointRead = (endpoint, size) => {
    cdc.usb.endpointReadDone(endpoint, fifo.splice(0, size));
  };
  return { cdc, done };
}

test('an OUT buffer armed with nothing to send is answered a USB frame later, data at once', () => {
  const { cdc, done } = fakeCdc();
  paceEmptyReads(cdc);
  cdc.usb.onEndpointRead(2, 64);
  assert.deepStrictEqual(done[0], { endpoint: 2, bytes: [], delayUs: EMPTY_US });
  cdc.sendSerialByte(3);
  cdc.sendSerialByte(4);
  cdc.usb.onEndpointRead(2, 64);
  assert.deepStrictEqual(done[1], { endpoint: 2, bytes: [3, 4], delayUs: 10 });
  cdc.usb.onEndpointRead(0, 64); // the control endpoint: as before
  assert.deepStrictEqual(done[2], { endpoint: 0, bytes: [], delayUs: 10 });
});
