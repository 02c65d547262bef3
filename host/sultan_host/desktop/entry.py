"""The installed ``sultan-sim`` and ``sultan-screenshot``: an early Ctrl-C ends quietly
(``sultan_host.stop``), then the tool."""

from sultan_host import stop


def sim():
    stop.early("sim")
    from sultan_host.desktop.sim import main

    stop.ready()
    return stop.finish("sim", main)


def screenshot():
    """A PNG, or with ``--gif`` an animated GIF (``desktop.gif``), as ``tools/screenshot.py``."""
    import sys

    stop.early("screenshot")
    if "--gif" in sys.argv[1:]:
        from sultan_host.desktop.gif import main
    else:
        from sultan_host.desktop.screenshot import main

    stop.ready()
    return stop.finish("screenshot", main)
