import sys

from sultan_host.bench.device.main import main

sys.exit(main())
