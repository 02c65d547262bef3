"""Where the device package lives on this machine."""

import os

import sultan

# The folder that holds the device package: MICROPYPATH for the MicroPython VM, the build's source.
LIB = os.path.dirname(os.path.dirname(os.path.abspath(sultan.__file__)))
# The folder that holds this host package (MicroPython tests of host helpers add it to MICROPYPATH).
HOST = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
