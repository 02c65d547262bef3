"""The installed ``sultan``: an early Ctrl-C ends quietly (``sultan_host.stop``), then the CLI."""

from sultan_host import stop


def sultan():
    stop.early("sultan")
    from sultan_host.cli.main import main

    stop.ready()
    return stop.finish("sultan", main)
