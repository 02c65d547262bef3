"""A SAMD51 (Cortex-M4F) machine on Unicorn, with Python models of the SoC's peripherals and a board's parts.

``Mcu`` (mcu.py) owns the CPU, memory map, time and MMIO dispatch; ``nvic.py`` the exceptions; each peripheral
is a ``periph.Peripheral``; ``boards/`` say which parts hang on which pins. ``python -m samd51 --uf2 X`` boots
a firmware and prints where it went.
"""
