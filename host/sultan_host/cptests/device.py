"""One board booted once to CircuitPython's raw REPL, then each script in a fresh copy of it.

The copy is a fork of this process: the child has the whole machine as it stood at the raw REPL's prompt
(Unicorn's registers and memory, the peripherals, the USB host, the clock), pastes the script over the CDC
console (raw REPL: text, Ctrl-D), runs until the raw REPL's two end markers, sends what it heard back
through a pipe and exits.  The parent's machine never runs again, so every script meets the same VM, and a
script that hangs or kills its process costs only that child.  (POSIX only: fork.)
"""

import os
import pickle
import select
import signal
import time

from samd51 import boards, fatimage
from samd51.mcu import Mcu
from samd51.usbhost import UsbHost

BOOT_LIMIT_MS = 60000       # simulated: a boot that has not reached the REPL by then never will
SLICE_MS = 2.0              # the run looks at the console this often (simulated)
RAW_PROMPT = b"raw REPL; CTRL-B to exit\r\n>"
AT_REST = (b"Press any key to enter the REPL", b"Done | ", b">>> ")   # 9.x says the first, 10.x the title
EOT = b"\x04"


class BootFailed(RuntimeError):
    """The board did not reach the raw REPL (the message says how far it got)."""


class Booted:
    """``board`` a samd51 board name; ``files`` {name: bytes} laid on CIRCUITPY (testlib's skip_if)."""

    def __init__(self, uf2, board="pybadge", files=None, tree=None):
        self.uf2, self.board_name = uf2, board
        started = time.time()
        self.mcu = Mcu(board=boards.load(board))
        self.mcu.load_uf2(uf2)
        if tree is not None:
            self.mcu.board.load_flash(fatimage.flash_image(tree, extra=files or {},
                                                           flash_size=self.mcu.board.FLASH.size))
        self.heard = bytearray()
        self.host = UsbHost(self.mcu, on_serial=self.heard.extend)
        self.mcu.reset()
        self._until(lambda: self.host.is_open() and any(m in self.heard for m in AT_REST), "the REPL's offer")
        self.banner = bytes(self.heard)
        self.host.write(b"\x03")     # any key: the REPL (Ctrl-C, so no stray character reaches it)
        self._until(lambda: self.heard.endswith(b">>> "), "the >>> prompt")
        self.host.write(b"\x01")     # Ctrl-A: the raw REPL
        self._until(lambda: self.heard.endswith(RAW_PROMPT), "the raw REPL")
        self.boot_ms = self.mcu.now_ns() / 1e6
        self.boot_wall_s = time.time() - started

    def _until(self, done, what):
        end = self.mcu.now_ns() + BOOT_LIMIT_MS * 1_000_000
        while not done():
            if self.mcu.now_ns() > end:
                raise BootFailed("no %s within %d s simulated; the console: %r" % (
                    what, BOOT_LIMIT_MS // 1000, bytes(self.heard[-300:])))
            reason = self.mcu.run(until_ns=self.mcu.now_ns() + int(SLICE_MS * 1e6))
            if reason != "cycles":
                raise BootFailed("the machine stopped before %s: %s" % (what, reason))

    def version(self):
        """The banner's 'Adafruit CircuitPython X on DATE; BOARD' line."""
        for line in bytes(self.heard).decode(errors="replace").splitlines():
            if line.startswith("Adafruit CircuitPython"):
                return line.strip()
        return None

    # -- one script, in a copy ------------------------------------------------------------------------------
    def run(self, script, sim_ms=60000, cpu_s=120):
        """The raw REPL's answer to ``script`` in a fresh copy of the booted machine: {stdout, stderr (bytes),
        sim_ms, cpu_s (the copy's host CPU), wall_s, error: None, or why the run has no answer (a machine
        stop, a time limit)}.  The host limit is CPU time, so a busy host does not turn a test into a crash;
        a copy that stops answering (a CPU stuck in Unicorn) is killed at ``cpu_s`` + 10 s of its CPU."""
        started = time.time()
        rd, wr = os.pipe()
        pid = os.fork()
        if pid == 0:   # the copy
            os.close(rd)
            code = 0
            try:
                answer = self._answer(script, sim_ms, cpu_s)
            except BaseException as err:  # noqa: BLE001  (the child must always answer and exit)
                answer, code = {"stdout": b"", "stderr": b"", "sim_ms": 0.0, "cpu_s": time.process_time(),
                                "error": "the runner failed: %s: %s" % (type(err).__name__, err)}, 1
            with os.fdopen(wr, "wb") as f:
                f.write(pickle.dumps(answer))
            os._exit(code)
        os.close(wr)
        data = _collect(rd, pid, cpu_s + 10)
        answer = pickle.loads(data) if data else {
            "stdout": b"", "stderr": b"", "sim_ms": None, "cpu_s": None,
            "error": "the copy stopped answering (killed after %d s of CPU)" % (cpu_s + 10)}
        answer["wall_s"] = time.time() - started
        return answer

    def _answer(self, script, sim_ms, cpu_s):
        mcu, heard = self.mcu, self.heard
        start = len(heard)
        t0 = mcu.now_ns()
        end = t0 + int(sim_ms * 1e6)
        cpu0 = time.process_time()
        self.host.write(bytes(script) + EOT)
        error = None
        while heard.count(EOT, start) < 2:
            if mcu.now_ns() >= end:
                error = "no end within %g s simulated" % (sim_ms / 1000)
                break
            if time.process_time() - cpu0 > cpu_s:
                error = "no end within %g s of host CPU" % cpu_s
                break
            reason = mcu.run(until_ns=mcu.now_ns() + int(SLICE_MS * 1e6))
            if reason != "cycles":
                error = "the machine stopped: %s" % reason
                break
        stdout, stderr = split_answer(bytes(heard[start:]))
        return {"stdout": stdout, "stderr": stderr, "sim_ms": (mcu.now_ns() - t0) / 1e6,
                "cpu_s": time.process_time() - cpu0, "error": error}


def _collect(rd, pid, cpu_limit):
    """What the copy ``pid`` writes to ``rd``; it is killed (and nothing returned) once it has used
    ``cpu_limit`` seconds of CPU without finishing."""
    chunks = []
    try:
        while True:
            if not select.select([rd], [], [], 1.0)[0]:
                if _cpu_of(pid) > cpu_limit:
                    os.kill(pid, signal.SIGKILL)
                    chunks = []
                    break
                continue
            chunk = os.read(rd, 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(rd)
        os.waitpid(pid, 0)
    return b"".join(chunks)


def _cpu_of(pid):
    """A process's CPU seconds so far (Linux's /proc: utime + stime)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def split_answer(raw):
    """(stdout, stderr) of the raw REPL's answer 'OK' stdout EOT stderr EOT (cut short: what came)."""
    if raw.startswith(b"OK"):
        raw = raw[2:]
    parts = raw.split(EOT, 2)
    return parts[0], parts[1] if len(parts) > 1 else b""
