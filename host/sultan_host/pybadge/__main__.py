import sys

from sultan_host.pybadge.cli import main

sys.exit(main())
