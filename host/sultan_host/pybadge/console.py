"""The CDC console as emulate.js reads it: the text, its lines with their simulated times (the terminal's
title escapes taken out), READY per boot, and each key record's line."""

import codecs
import re

TITLE = re.compile(r"\x1b\][^\x1b\x07]*(?:\x1b\\|\x07)")
CSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
KEY_LINE = re.compile(r"^SULTAN key=(\w+)")
STOPPED = re.compile(r"Code done running|Press any key to enter the REPL|You are in safe mode")
TRACEBACK = re.compile(r"Traceback \(most recent call last\):\r?\n(?:[ \t][^\r\n]*\r?\n)*([^\r\n]*)")


class Console:
    def __init__(self, now_ms, echo=None):
        self.now_ms = now_ms
        self.echo = echo            # fn(text): stdout unless --quiet
        self.text = ""
        self.lines = []             # {ms, text}
        self.consumed = 0           # waits match after the last match
        self.boots = None           # the Machine's boots list (READY lines go on them)
        self.keys = []              # key records (the runner's), matched to their lines here
        self._start = 0
        self._decode = codecs.getincrementaldecoder("utf-8")("replace").decode  # a character split by USB

    def hear(self, data):
        text = self._decode(bytes(data))
        self.text += text
        if self.echo is not None:
            self.echo(text)
        while True:
            eol = self.text.find("\n", self._start)
            if eol < 0:
                break
            self._line(CSI.sub("", TITLE.sub("", self.text[self._start:eol])).rstrip("\r"))
            self._start = eol + 1

    def _line(self, line):
        ms = self.now_ms()
        self.lines.append({"ms": ms, "text": line})
        boot = self.boots[-1] if self.boots else None
        if line.startswith("SULTAN READY") and boot is not None and boot["ready"] is None:
            boot["ready"], boot["ready_ms"] = line, ms
        m = KEY_LINE.match(line)
        if m:
            for rec in self.keys:
                if rec["line"] is None and not rec.get("lost") and rec["name"] == m.group(1):
                    rec["line"], rec["line_ms"] = line, ms
                    rec["pixels"] = rec.pop("_panel").pixels_written - rec.pop("_pixels")
                    break

    def end_line(self):
        """A line cut short by a power cut ends here."""
        if len(self.text) > self._start:
            self.hear(b"\n")
        self.consumed = len(self.text)

    def take(self, needle):
        """True (and consumed up to that line's end) if ``needle`` is in a whole line after the last take."""
        i = self.text.find(needle, self.consumed)
        eol = self.text.find("\n", i) if i >= 0 else -1
        if eol < 0:
            return False
        self.consumed = eol + 1
        return True

    def stopped(self, since=None):
        return STOPPED.search(self.text, self.consumed if since is None else since) is not None

    def errors(self):
        """MemoryError anywhere, and each traceback's last line but a RELOAD's KeyboardInterrupt."""
        out = ["a MemoryError"] if "MemoryError" in self.text else []
        for m in TRACEBACK.finditer(self.text):
            if not m.group(1).startswith("KeyboardInterrupt"):
                out.append("an exception: " + m.group(1)[:200])
        return out
