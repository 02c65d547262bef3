import sys

from sultan_host.cptests.cli import main

sys.exit(main())
