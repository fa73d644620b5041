"""``nova-scheduler``: chooses hosts for instances and claims them in
Placement."""

from __future__ import annotations

import sys

from nova import service


def main(argv=None) -> int:
    return service.main("nova-scheduler", "scheduler", argv)


if __name__ == "__main__":
    sys.exit(main())
