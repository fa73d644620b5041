"""Pose as many compute hosts from one process, for scale benchmarks.

Each fake host is what a real nova-compute with the fake virt driver leaves
behind: its service record, its compute node (written by the resource
tracker from FakeDriver's report) and its resource provider with inventory
in Placement, then a host mapping once discovered. No RPC server runs for
them: the scheduler never calls computes, and heartbeats are refreshed in
one statement (:func:`heartbeat`) instead of one per host.
"""

from __future__ import annotations

import concurrent.futures
import datetime
import threading

import sqlalchemy as sa

from nova import objects
from nova.compute.resource_tracker import ResourceTracker
from nova.db import engines
from nova.db.main import models as main_models
from nova.objects import host_mapping
from nova.virt.fake import FakeDriver


def add_host(context, name: str) -> None:
    """One fake compute host, as its nova-compute would register it."""
    service = objects.Service(
        context, host=name, binary="nova-compute", topic="compute"
    )
    service.create()
    driver = FakeDriver()
    driver.init_host(name)
    ResourceTracker(name, driver).update_available_resource(context, service.id)


def add_hosts(context, names: list[str], workers: int = 4) -> None:
    """Register ``names`` (a few at a time: Placement is the bottleneck)
    and map them to their cell."""
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        for future in [pool.submit(add_host, context, name) for name in names]:
            future.result()
    host_mapping.discover_hosts(context)


def heartbeat(cell_database_url: str) -> None:
    """Every fake host reports in now."""
    now = datetime.datetime.now(datetime.UTC).replace(tzinfo=None)
    with engines.get_engine(cell_database_url).begin() as connection:
        connection.execute(sa.update(main_models.Service).values(last_seen_up=now))


def keep_alive(cell_database_url: str, interval: float = 10.0) -> threading.Event:
    """Heartbeat every fake host every ``interval`` seconds from a daemon
    thread, until the returned event is set."""
    stop = threading.Event()

    def beat() -> None:
        while not stop.is_set():
            heartbeat(cell_database_url)
            stop.wait(interval)

    threading.Thread(target=beat, name="fake-heartbeats", daemon=True).start()
    return stop


def registered_hosts(context) -> int:
    """How many fake hosts an earlier run left in the cell database."""
    return len(objects.ServiceList.get_by_binary(context, "nova-compute"))
