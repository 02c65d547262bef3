"""How instructions become time: what the C block counter (native.py) is told about the flash and the CMCC.

The core's own cycles come from the block's instructions (the Cortex-M4 TRM's table, in native.py). On top:
- a taken branch refills the pipeline: REFILL cycles;
- every 16-byte line a block fetches, and every line its PC-relative loads read, goes through the CMCC
  (4 KB, 4 ways, round robin). A hit costs nothing more; a miss, or any fetch while CMCC CTRL.CEN is 0,
  costs a line read from flash at the NVM's wait states.
- The wait states are NVMCTRL CTRLA.RWS, or with AUTOWS the datasheet's least for the CPU clock.
"""

REFILL = 1                   # a taken branch is 1 + P, P 1..3 (TRM table 3-1); 1 fits the NeoPixel loop below
LINE_READS = 1               # the NVM reads 128 bits at once: a line is one read
BUS = 1                      # the AHB cycle the CMCC adds to a line fill
# The least wait states for a clock (datasheet, NVM characteristics): (max MHz, RWS)
WAIT_STATES = ((24, 0), (51, 1), (77, 2), (101, 3), (119, 4))
MAX_WAIT = 5


def least_wait_states(hz):
    for mhz, rws in WAIT_STATES:
        if hz <= mhz * 1_000_000:
            return rws
    return MAX_WAIT


class FlashTiming:
    """Owns the CMCC's enable and the NVM's wait states, and keeps the counter's miss cost in step."""

    def __init__(self, counter, hz):
        self.counter = counter
        self.cache_on = False
        self.rws, self.auto = 0, True      # NVMCTRL CTRLA at reset: AUTOWS
        self.hz = hz
        self.counter.refill = REFILL
        self._update()

    def set_cache(self, on):
        self.cache_on = bool(on)
        self._update()

    def set_wait_states(self, rws, auto):
        self.rws, self.auto = rws, bool(auto)
        self._update()

    def clock_changed(self, hz):
        self.hz = hz
        self._update()

    def wait_states(self):
        return least_wait_states(self.hz) if self.auto else self.rws

    def miss_cycles(self):
        return LINE_READS * (1 + self.wait_states()) + BUS

    def _update(self):
        self.counter.cache_on = 1 if self.cache_on else 0
        self.counter.miss = self.miss_cycles()

    def figures(self):
        """The CMCC's hits and misses so far, and taken branches (for the CLI and the bench)."""
        c = self.counter
        return {"hits": c.hits, "misses": c.misses, "taken": c.taken, "wait_states": self.wait_states(),
                "cache_on": self.cache_on}
