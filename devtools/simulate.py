"""``python -m devtools.simulate``: the playout command (``devtools.simulation.simulate``)."""

import sys

from devtools.simulation.simulate import main

if __name__ == "__main__":
    sys.exit(main())
