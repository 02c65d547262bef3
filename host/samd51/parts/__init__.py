"""Parts on a SAMD51 board, outside the microcontroller: they outlive a power cycle of the Mcu.

Shared here: how a power cut leaves a flash operation part done (``part_done``).
"""


def part_done(old, target, progress, rng):
    """The bytes a cut leaves after ``progress`` (0..1) of an operation that turns ``old`` into ``target``.

    Each bit the operation changes has changed with probability ``progress`` (rng: random.Random, seeded).
    An erase only sets bits (0 -> 1), a NOR program only clears them (1 -> 0); both are this one rule.
    """
    if progress >= 1:
        return bytes(target)
    out = bytearray(old)
    if progress <= 0:
        return bytes(out)
    for i, (a, b) in enumerate(zip(old, target, strict=True)):
        diff = a ^ b
        if not diff:
            continue
        flip = 0
        bit = 1
        while bit < 0x100:
            if diff & bit and rng.random() < progress:
                flip |= bit
            bit <<= 1
        out[i] = a ^ flip
    return bytes(out)
