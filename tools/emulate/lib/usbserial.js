'use strict';
// The USB host's serial line, paced as a real host paces it.
//
// rp2040js's USBCDC answers every OUT buffer the device arms at once (10 µs), with what its FIFO holds:
// mostly nothing.  CircuitPython re-arms the buffer after each zero-length packet, so an idle board took
// an interrupt every 10 µs of simulated time and seldom reached its WFI: its idle cost as much emulator
// time as its work (measured: 5.5 s of CPU for each simulated second of WAIT).  Here an empty answer
// comes after EMPTY_US, a USB frame (a real host has nothing to send until the next frame at the
// soonest); data still goes at once.  Some wake-up is needed: CircuitPython's idle waits for one.
const EMPTY_US = 1000;

function paceEmptyReads(cdc) {
  const usb = cdc.usb;
  const answer = usb.onEndpointRead;
  usb.onEndpointRead = (endpoint, size) => {
    if (endpoint === cdc.outEndpoint && cdc.txFIFO.empty) usb.endpointReadDone(endpoint, new Uint8Array(0), EMPTY_US);
    else answer(endpoint, size);
  };
  return cdc;
}

module.exports = { paceEmptyReads, EMPTY_US };
