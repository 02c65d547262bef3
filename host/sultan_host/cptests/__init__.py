"""CircuitPython's own tests (tests/basics and tests/float of the 10.2.1 tag) on the SAMD51 machine.

``source`` finds the tests (never in git), ``device`` runs one script in a fresh copy of a machine booted to
the raw REPL, ``judge`` decides as MicroPython's tests/run-tests.py does, ``report`` counts and writes.
``python -m sultan_host.cptests`` (``make cp-tests``) runs them.
"""
