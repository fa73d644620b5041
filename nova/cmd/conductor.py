"""``nova-conductor``: the superconductor when ``[api_database] connection``
is set, else the conductor of the cell ``[database] connection`` names."""

from __future__ import annotations

import sys

from nova import service


def main(argv=None) -> int:
    return service.main("nova-conductor", "conductor", argv)


if __name__ == "__main__":
    sys.exit(main())
