"""A USB host on the SAMD51's full-speed bus: it enumerates the device as a PC does and opens its CDC port.

Once the firmware turns the D+ pull-up on (USB enabled, CTRLB.DETACH clear) the host waits out the attach
debounce, resets the bus, reads the device and configuration descriptors, sets the address and the
configuration, then opens the first CDC ACM function: SET_LINE_CODING and SET_CONTROL_LINE_STATE with DTR
(CircuitPython's "serial connected"). From then on it reads the data interface's bulk IN endpoint and hands
the bytes to ``on_serial``; ``write()`` sends bytes to its bulk OUT endpoint (Ctrl-C, Ctrl-D).

Each transaction takes its time on the 12 Mbit/s wire (a 64-byte packet about 50 us) and is decided by the
device at its end. A transaction the device NAKs is not retried on a clock: it waits until the firmware next
changes that endpoint (an idle serial port costs nothing), as a host retrying in every frame would see it;
on EP0 it gives up after 5 s, as Linux does. The MSC, HID and MIDI interfaces are left alone, as a host
without those drivers would.

A board with no ``UsbHost`` is a board on a charger: the device is never reset and never configured.
"""

import struct

from .periph.usb import ACK, NAK, STALL

# Full-speed timing (USB 2.0 spec): a byte is 8 bit times at 12 Mbit/s (bit stuffing not counted)
BYTE_NS = 8 * 1_000_000_000 / 12_000_000
# a transaction: token (4 bytes with SYNC and EOP), turnaround, data packet (SYNC, PID, CRC16, EOP: 4 + n),
# turnaround, handshake (2)
TRANSACTION_OVERHEAD = 12
FRAME_NS = 1_000_000
ATTACH_DEBOUNCE_NS = 100_000_000    # TATTDB: the host waits this long after it sees the pull-up
RESET_NS = 10_000_000               # TDRST: SE0 held for the bus reset
RESET_RECOVERY_NS = 50_000_000      # TRSTRCY 10 ms "plus some extra" (Linux hub_port_reset: 10 + 40):
                                    # TinyUSB drops a SETUP queued before its bus reset was handled
SET_ADDRESS_RECOVERY_NS = 2_000_000  # TDSETADDR
CONTROL_TIMEOUT_NS = 5_000_000_000  # a control transaction NAKed this long fails (Linux USB_CTRL_GET_TIMEOUT)
TIMEOUT_RETRIES = 3                 # a transaction with no handshake is tried this many times, a frame apart
ENUMERATION_TRIES = 3               # then the whole enumeration again from a bus reset, as Linux does
DEVICE_ADDRESS = 1

# Standard requests and descriptor types (USB 2.0 chapter 9), CDC PSTN requests
GET_DESCRIPTOR, SET_ADDRESS, SET_CONFIGURATION, CLEAR_FEATURE = 6, 5, 9, 1
SET_LINE_CODING, SET_CONTROL_LINE_STATE = 0x20, 0x22
DEVICE, CONFIGURATION, STRING, INTERFACE, ENDPOINT, DEVICE_QUALIFIER = 1, 2, 3, 4, 5, 6
CLASS_CDC, CDC_SUBCLASS_ACM, CLASS_CDC_DATA = 0x02, 0x02, 0x0A
ENDPOINT_HALT = 0
DTR, RTS = 0x01, 0x02
LINE_CODING = struct.pack("<IBBB", 115200, 0, 0, 8)   # not 1200 baud: that asks for the bootloader

SLEEP, WAIT_TX, SETUP, IN, OUT = "sleep", "wait-tx", "setup", "in", "out"


def transaction_ns(payload):
    return round((TRANSACTION_OVERHEAD + payload) * BYTE_NS)


def parse_configuration(data):
    """The interfaces of a configuration descriptor: [{number, class, subclass, endpoints: [(address,
    attributes, max_packet)]}], alternate settings folded into their interface."""
    interfaces = []
    pos = 0
    while pos + 2 <= len(data) and data[pos] >= 2:
        length, kind = data[pos], data[pos + 1]
        body = data[pos: pos + length]
        if kind == INTERFACE and length >= 9:
            interfaces.append({"number": body[2], "class": body[5], "subclass": body[6], "endpoints": []})
        elif kind == ENDPOINT and length >= 7 and interfaces:
            interfaces[-1]["endpoints"].append((body[2], body[3] & 3, body[4] | (body[5] << 8)))
        pos += length
    return interfaces


def find_cdc(interfaces):
    """(communication interface, bulk IN address, bulk OUT address, max packet) of the first CDC ACM function,
    or None. Its data interface is the next CDC data interface after it."""
    for i, itf in enumerate(interfaces):
        if itf["class"] != CLASS_CDC or itf["subclass"] != CDC_SUBCLASS_ACM:
            continue
        for data in interfaces[i + 1:]:
            if data["class"] != CLASS_CDC_DATA:
                continue
            bulk = [e for e in data["endpoints"] if e[1] == 2]
            ins = [e for e in bulk if e[0] & 0x80]
            outs = [e for e in bulk if not e[0] & 0x80]
            if ins and outs:
                return itf["number"], ins[0][0], outs[0][0], outs[0][2]
    return None


def string_text(desc):
    return bytes(desc[2:desc[0]]).decode("utf-16-le", "replace") if desc and len(desc) >= 2 else ""


class Task:
    __slots__ = ("gen", "epoch", "tries")

    def __init__(self, gen, epoch):
        self.gen, self.epoch, self.tries = gen, epoch, 0


class HostPort:
    """The host controller's side of the bus, which a UsbHost owns: tasks (generators) yield requests, each a
    sleep, a wait for ``wake_writer``, or one transaction on the wire, which gets back (handshake, data)."""

    def __init__(self, mcu, usb):
        self.mcu = mcu
        self.usb = usb
        self.address = 0
        self.max_packet0 = 8
        self.bulk_packet = 64
        self.transactions = 0
        self.timeouts = 0             # transactions the device did not answer
        self._epoch = 0               # a new connection starts a new epoch: older tasks die
        self._bus_free_ns = 0
        self._parked = {}             # endpoint number -> [(task, request)] NAKed, waiting for the firmware
        self._tx_waiter = None
        usb.on_endpoint = self._on_endpoint

    def new_epoch(self):
        self._epoch += 1
        self._parked.clear()
        self._tx_waiter = None
        self.address = 0

    def spawn(self, gen):
        self._step(Task(gen, self._epoch), None)

    def _step(self, task, value):
        if task.epoch != self._epoch:
            return
        try:
            request = task.gen.send(value)
        except StopIteration:
            return
        kind = request[0]
        if kind == SLEEP:
            self._after(request[1], task, None)
        elif kind == WAIT_TX:
            self._tx_waiter = task
        else:
            task.tries = 0
            self._issue(task, request)

    def _after(self, ns, task, value):
        self.mcu.at(ns, lambda: self._step(task, value))

    def wake_writer(self):
        waiter, self._tx_waiter = self._tx_waiter, None
        if waiter is not None:
            self._after(0, waiter, None)

    def _issue(self, task, request):
        """The transaction takes the wire after whatever is on it, and is decided at its end (an IN is timed
        as a full packet)."""
        now = self.mcu.now_ns()
        kind, n = request[0], request[2]
        payload = len(request[3]) if kind != IN else (self.max_packet0 if n == 0 else self.bulk_packet)
        end = max(now, self._bus_free_ns) + transaction_ns(payload)
        self._bus_free_ns = end
        self.mcu.at(end - now, lambda: self._complete(task, request))

    def _complete(self, task, request):
        if task.epoch != self._epoch:
            return
        kind, address, n, data = request
        self.transactions += 1
        if kind == SETUP:
            result = (self.usb.setup(address, n, data), b"")
        elif kind == IN:
            result = self.usb.in_token(address, n)
        else:
            result = (self.usb.out_token(address, n, data), b"")
        if result[0] == NAK:
            self._park(task, request)
        elif result[0] is None and task.tries + 1 < TIMEOUT_RETRIES:
            task.tries += 1
            self.timeouts += 1
            self.mcu.at(FRAME_NS, lambda: self._issue(task, request))
        else:
            self._step(task, result)

    def _park(self, task, request):
        """Wait for the firmware to change the endpoint; on EP0 give up after CONTROL_TIMEOUT_NS."""
        entry = (task, request)
        self._parked.setdefault(request[2], []).append(entry)
        if request[2] == 0:
            self.mcu.at(CONTROL_TIMEOUT_NS, lambda: self._expire(entry))

    def _expire(self, entry):
        waiting = self._parked.get(0, [])
        if any(e is entry for e in waiting):
            waiting[:] = [e for e in waiting if e is not entry]
            self.mcu.log("usb", "host: control transfer timed out (%s NAKed for 5 s)" % entry[1][0])
            self._step(entry[0], (None, b""))

    def _on_endpoint(self, n):
        for task, request in self._parked.pop(n, ()):
            self._issue(task, request)

    def token(self, kind, n, data=b""):
        return (yield (kind, self.address, n, bytes(data)))

    def control(self, request_type, request, value, index, data_or_length):
        """A control transfer on EP0: returns the IN data (or b"" for OUT) or None if it failed/stalled."""
        out = b"" if isinstance(data_or_length, int) else bytes(data_or_length)
        length = data_or_length if isinstance(data_or_length, int) else len(out)
        setup = struct.pack("<BBHHH", request_type, request, value, index, length)
        handshake, _ = yield from self.token(SETUP, 0, setup)
        if handshake != ACK:
            return None
        if request_type & 0x80:
            got = b""
            while len(got) < length:
                handshake, chunk = yield from self.token(IN, 0)
                if handshake != ACK:
                    return None
                got += chunk
                if len(chunk) < self.max_packet0:
                    break
            handshake, _ = yield from self.token(OUT, 0)   # status: a zero-length OUT
            return got if handshake == ACK else None
        for pos in range(0, len(out), self.max_packet0):
            handshake, _ = yield from self.token(OUT, 0, out[pos: pos + self.max_packet0])
            if handshake != ACK:
                return None
        handshake, _ = yield from self.token(IN, 0)        # status: a zero-length IN
        return b"" if handshake == ACK else None

    def get_descriptor(self, kind, index, length, language=0):
        return (yield from self.control(0x80, GET_DESCRIPTOR, (kind << 8) | index, language, length))


class UsbHost:
    """Enumeration and the CDC port, over the bus its HostPort drives."""

    def __init__(self, mcu, on_serial=None, usb=None):
        self.mcu = mcu
        self.usb = usb if usb is not None else mcu.peripheral("USB")
        self.port = HostPort(mcu, self.usb)
        self.usb.on_attach = self._on_attach
        self._tx = bytearray()        # bytes for the CDC bulk OUT endpoint
        self.on_serial = on_serial
        self.received = bytearray()   # everything the serial port gave, when no ``on_serial`` is set
        self.state = "detached"       # detached, attached, enumerating, configured, open, failed
        self.device = {}              # from the descriptors: vid, pid, manufacturer, product, serial
        self.interfaces = []
        self.cdc = None
        self.opened_ns = None
        if self.usb.attached():
            self._on_attach(True)

    # -- serial ---------------------------------------------------------------------------------------------
    def write(self, data):
        """Queue bytes for the device's CDC bulk OUT endpoint (sent once the port is open)."""
        self._tx += bytes(data)
        self.port.wake_writer()

    def is_open(self):
        return self.state == "open"

    def _deliver(self, data):
        if self.on_serial is not None:
            self.on_serial(data)
        else:
            self.received += data

    # -- the cable ------------------------------------------------------------------------------------------
    def _on_attach(self, attached):
        self.port.new_epoch()        # what was under way belongs to the old connection
        self.cdc = None
        if attached:
            self.state = "attached"
            self.port.spawn(self._enumerate())
        elif self.state != "detached":
            self.state = "detached"
            self.mcu.log("usb", "host: device gone")

    # -- enumeration ----------------------------------------------------------------------------------------
    def _fail(self, why):
        self.state = "failed"
        self.mcu.log("usb", "host: enumeration failed: " + why)

    def _enumerate(self):
        yield (SLEEP, ATTACH_DEBOUNCE_NS)
        for _ in range(ENUMERATION_TRIES):
            yield from self._enumerate_once()
            if self.state != "failed":
                return

    def _enumerate_once(self):
        self.state = "enumerating"
        self.port.address = 0
        self.usb.bus_reset(True)
        yield (SLEEP, RESET_NS)
        self.usb.bus_reset(False)
        yield (SLEEP, RESET_RECOVERY_NS)
        self.port.max_packet0 = 8
        head = yield from self.port.get_descriptor(DEVICE, 0, 8)
        if not head or len(head) < 8:
            return self._fail("no device descriptor (%r)" % (head,))
        self.port.max_packet0 = head[7]
        if (yield from self.port.control(0x00, SET_ADDRESS, DEVICE_ADDRESS, 0, 0)) is None:
            return self._fail("SET_ADDRESS")
        yield (SLEEP, SET_ADDRESS_RECOVERY_NS)
        self.port.address = DEVICE_ADDRESS
        dev = yield from self.port.get_descriptor(DEVICE, 0, 18)
        if not dev or len(dev) < 18:
            return self._fail("device descriptor at the new address (%r)" % (dev,))
        vid, pid = struct.unpack_from("<HH", dev, 8)
        self.device = {"vid": vid, "pid": pid}
        qualifier = yield from self.port.get_descriptor(DEVICE_QUALIFIER, 0, 10)
        self.device["high_speed"] = qualifier is not None   # a full-speed-only device stalls it
        config = yield from self._read_configuration()
        if config is None:
            return self._fail("configuration descriptor")
        yield from self._read_strings(dev)
        if (yield from self.port.control(0x00, SET_CONFIGURATION, config[5], 0, 0)) is None:
            return self._fail("SET_CONFIGURATION")
        self.state = "configured"
        self.interfaces = parse_configuration(config)
        self.mcu.log("usb", "host: configured %04x:%04x %s %s, interfaces %s" % (
            vid, pid, self.device.get("manufacturer", ""), self.device.get("product", ""),
            " ".join("%d:%02x" % (i["number"], i["class"]) for i in self.interfaces)))
        yield from self._open_cdc()

    def _read_configuration(self):
        head = yield from self.port.get_descriptor(CONFIGURATION, 0, 9)
        if not head or len(head) < 9:
            return None
        total = struct.unpack_from("<H", head, 2)[0]
        config = yield from self.port.get_descriptor(CONFIGURATION, 0, total)
        return config if config is not None and len(config) >= total else None

    def _read_strings(self, dev):
        langs = yield from self.port.get_descriptor(STRING, 0, 255)
        if not langs or len(langs) < 4:
            return
        lang = struct.unpack_from("<H", langs, 2)[0]
        for name, index in (("manufacturer", dev[14]), ("product", dev[15]), ("serial", dev[16])):
            if index:
                text = yield from self.port.get_descriptor(STRING, index, 255, lang)
                self.device[name] = string_text(text)

    def _open_cdc(self):
        self.cdc = find_cdc(self.interfaces)
        if self.cdc is None:
            return self._fail("no CDC ACM interface")
        self.port.bulk_packet = self.cdc[3]
        itf = self.cdc[0]
        if (yield from self.port.control(0x21, SET_LINE_CODING, 0, itf, LINE_CODING)) is None:
            return self._fail("SET_LINE_CODING")
        if (yield from self.port.control(0x21, SET_CONTROL_LINE_STATE, DTR | RTS, itf, 0)) is None:
            return self._fail("SET_CONTROL_LINE_STATE")
        self.state = "open"
        self.opened_ns = self.mcu.now_ns()
        self.mcu.log("usb", "host: serial open (interface %d, IN 0x%02x, OUT 0x%02x)" % self.cdc[:3])
        self.port.spawn(self._read_serial())
        self.port.spawn(self._write_serial())

    def _read_serial(self):
        n = self.cdc[1] & 0x0F
        while True:
            handshake, data = yield from self.port.token(IN, n)
            if handshake == ACK:
                if data:
                    self._deliver(data)
            elif handshake == STALL:
                yield from self._clear_halt(self.cdc[1])
            else:
                yield (SLEEP, FRAME_NS)

    def _write_serial(self):
        n = self.cdc[2] & 0x0F
        while True:
            if not self._tx:
                yield (WAIT_TX,)
                continue
            chunk = bytes(self._tx[: self.cdc[3]])
            handshake, _ = yield from self.port.token(OUT, n, chunk)
            if handshake == ACK:
                del self._tx[: len(chunk)]
            elif handshake == STALL:
                yield from self._clear_halt(self.cdc[2])
            else:
                yield (SLEEP, FRAME_NS)

    def _clear_halt(self, address):
        self.mcu.log("usb", "host: endpoint 0x%02x stalled: CLEAR_FEATURE(ENDPOINT_HALT)" % address)
        yield from self.port.control(0x02, CLEAR_FEATURE, ENDPOINT_HALT, address, 0)
        yield (SLEEP, FRAME_NS)
