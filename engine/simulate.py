"""``python -m engine.simulate``: the playout command (``engine.testing.simulate``)."""

import sys

from engine.testing.simulate import main

if __name__ == "__main__":
    sys.exit(main())
