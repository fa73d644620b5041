"""A daemon run by the shutdown tests: nova's service runner with a manager
whose one RPC method takes as long as it is told, stamping files when it
starts and finishes. Usage: python -m tests.functional.service.slow_daemon
--config-file FILE."""

from __future__ import annotations

import pathlib
import sys
import time

import oslo_messaging

import nova.conf
from nova import config, manager, objects, service

CONF = nova.conf.CONF


class SlowManager(manager.Manager):
    target = oslo_messaging.Target(version="1.0")

    def __init__(self, host):
        super().__init__(host, "slow")

    def work(self, context, seconds: float, stamps: str) -> None:
        directory = pathlib.Path(stamps)
        (directory / "started").write_text(str(time.time()))
        time.sleep(seconds)
        (directory / "finished").write_text(str(time.time()))


def main() -> int:
    config.parse_args(sys.argv)
    objects.register_all()
    return service.serve(
        service.Service(CONF.host, "nova-slow", "slow", SlowManager(CONF.host))
    )


if __name__ == "__main__":
    sys.exit(main())
