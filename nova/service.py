"""The runner every nova daemon uses: service record, heartbeats, RPC, periodic
tasks, signals.

Starting a service: find or create its row in the services table (through
the conductor for nova-compute, which has no database), let the manager
prepare the host, consume RPC messages on its topic (``<topic>`` and
``<topic>.<host>``), then beat every ``report_interval`` and run the
manager's periodic tasks, each on a thread of its own.

Stopping (SIGTERM, SIGINT): stop consuming, let in-flight requests finish
(at most ``graceful_shutdown_timeout`` seconds), stop the heartbeat and the
periodic tasks, clean up and exit. SIGHUP reloads the mutable options of
the configuration files.
"""

from __future__ import annotations

import logging as std_logging
import os
import signal
import sys
import threading
import time
from typing import Any, NoReturn

import oslo_messaging
from oslo_config import cfg
from oslo_log import log as logging
from oslo_utils import importutils

import nova.conf
from nova import baserpc, config, exception, objects, rpc, upgrade_levels
from nova import context as nova_context
from nova.manager import Manager, PeriodicTask
from nova.objects import base as objects_base
from nova.objects import service as service_obj

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)

MANAGERS = {
    "nova-compute": "nova.compute.manager.ComputeManager",
    "nova-conductor": "nova.conductor.manager.ConductorManager",
    "nova-scheduler": "nova.scheduler.manager.SchedulerManager",
}
# How long a service waits between attempts to reach its database or, for
# nova-compute, the conductor, while starting.
STARTUP_RETRY_SECONDS = 5.0


class Service:
    """One running nova service (binary) on one host."""

    def __init__(
        self,
        host: str,
        binary: str,
        topic: str,
        manager: Manager,
        report_interval: float | None = None,
        periodic_enable: bool | None = None,
    ) -> None:
        self.host = host
        self.binary = binary
        self.topic = topic
        self.manager = manager
        self.report_interval = (
            CONF.report_interval if report_interval is None else report_interval
        )
        self.periodic_enable = (
            CONF.periodic_enable if periodic_enable is None else periodic_enable
        )
        self.service_ref = None
        self._rpc_server = None
        self._stopping = threading.Event()
        self._stopped = threading.Event()
        self._threads: list[threading.Thread] = []

    @classmethod
    def create(
        cls,
        binary: str,
        topic: str,
        host: str | None = None,
        manager: str | None = None,
        **kwargs: Any,
    ) -> Service:
        """A service of ``binary`` with its usual manager class."""
        host = host or CONF.host
        manager_class = importutils.import_class(manager or MANAGERS[binary])
        return cls(host, binary, topic, manager_class(host=host), **kwargs)

    # -- starting ---------------------------------------------------------

    def start(self) -> None:
        """Register, prepare the host and start consuming; returns at once."""
        context = nova_context.get_admin_context()
        if objects_base.NovaObject.indirection_api is not None:
            # Without a database, everything starts with the conductor.
            baserpc.BaseAPI("conductor").wait_until_ready(
                context, stop_waiting=self._stopping.is_set
            )
        self.service_ref = self._wait_for_service_record(context)
        self.manager.init_host(self.service_ref)
        target = oslo_messaging.Target(topic=self.topic, server=self.host)
        endpoints = [
            self.manager,
            baserpc.BaseRPCEndpoint(self.binary),
            *self.manager.additional_endpoints(),
        ]
        self._rpc_server = rpc.get_server(target, endpoints)
        self._rpc_server.start()
        LOG.info(
            "%s (version %s) on %s consuming topic %s",
            self.binary,
            service_obj.SERVICE_VERSION,
            self.host,
            self.topic,
        )
        self.manager.post_start_hook()
        if self.report_interval and self.report_interval > 0:
            self._spawn("heartbeat", self._heartbeat_loop)
        if self.periodic_enable:
            self._spawn("periodic-tasks", self._periodic_loop)

    def _spawn(self, name: str, target) -> None:
        thread = threading.Thread(
            target=target, name=f"{self.binary}-{name}", daemon=True
        )
        thread.start()
        self._threads.append(thread)

    def _wait_for_service_record(self, context):
        """The service's row, created or updated; waits for the database
        (or the conductor) to answer."""
        while True:
            try:
                return self._ensure_service_record(context)
            except (exception.DatabaseNotConfigured, exception.ServiceTooOld):
                raise
            except Exception as exc:  # the DB or conductor is not up yet
                if self._stopping.wait(STARTUP_RETRY_SECONDS):
                    raise
                LOG.warning(
                    "%s on %s cannot record its service yet (%s); retrying",
                    self.binary,
                    self.host,
                    exc,
                )

    def _ensure_service_record(self, context):
        # Peers may already cap their messages at what the newer services
        # of this binary speak: an older one must not join them.
        minimum = objects.Service.get_minimum_version(context, self.binary)
        if minimum > service_obj.SERVICE_VERSION:
            raise exception.ServiceTooOld(
                thisver=service_obj.SERVICE_VERSION, minver=minimum
            )
        service = objects.Service.get_by_host_and_binary(
            context, self.host, self.binary
        )
        if service is None:
            service = objects.Service(
                context,
                host=self.host,
                binary=self.binary,
                topic=self.topic,
                report_count=0,
                version=service_obj.SERVICE_VERSION,
            )
            try:
                service.create()
            except exception.ServiceBinaryExists:
                # Another process of this service on this host won the race.
                return objects.Service.get_by_host_and_binary(
                    context, self.host, self.binary
                )
            LOG.info("Created service record %s for %s", service.uuid, self.binary)
            return service
        if service.version != service_obj.SERVICE_VERSION:
            service.version = service_obj.SERVICE_VERSION
            service.save()
        return service

    # -- running ----------------------------------------------------------

    def _heartbeat_loop(self) -> None:
        # Beat at once: a restarted service's row still holds its last
        # heartbeat from before, so it would look down (and the scheduler's
        # ComputeFilter drop it) for a whole report_interval.
        while True:
            self.report_state()
            if self._stopping.wait(self.report_interval):
                return

    def report_state(self) -> None:
        """One heartbeat; failures are logged and the next one retries."""
        try:
            self.service_ref.report_count += 1
            self.service_ref.save()
        except Exception as exc:  # DB or conductor briefly unreachable
            LOG.warning("Heartbeat of %s on %s failed: %s", self.binary, self.host, exc)

    def _periodic_loop(self) -> None:
        context = nova_context.get_admin_context()
        next_run: dict[str, float] = {}
        while not self._stopping.is_set():
            now = time.monotonic()
            tasks = [t for t in self.manager.periodic_tasks() if t.spacing > 0]
            for task in tasks:
                due = next_run.setdefault(
                    task.name, now if task.run_immediately else now + task.spacing
                )
                if due <= now and not self._stopping.is_set():
                    self._run_periodic_task(context, task)
                    next_run[task.name] = time.monotonic() + task.spacing
            wait = min((next_run[t.name] for t in tasks), default=now + 60.0)
            self._stopping.wait(max(0.0, wait - time.monotonic()))

    def _run_periodic_task(self, context, task: PeriodicTask) -> None:
        try:
            task.function(context)
        except Exception:  # one failing run must not stop the others
            LOG.exception("Periodic task %s failed", task.name)

    # -- stopping ---------------------------------------------------------

    def stop(self, timeout: float | None = None) -> bool:
        """Stop consuming, wait for in-flight requests, stop the threads.

        :param timeout: seconds to wait for in-flight requests; None uses
            ``graceful_shutdown_timeout`` (0 there waits forever).
        :returns: False if requests were still running at the timeout.
        """
        if timeout is None:
            timeout = CONF.graceful_shutdown_timeout or None
        self._stopping.set()
        finished = True
        if self._rpc_server is not None:
            self._wake_listener()
            self._rpc_server.stop()
            finished = self._rpc_server.wait_for_requests(timeout)
            if not finished:
                LOG.warning(
                    "%s on %s stopped with requests still running after %ss",
                    self.binary,
                    self.host,
                    timeout,
                )
            # Releasing the worker threads and the listener's connection
            # waits up to a second for idle workers to notice; nobody needs
            # to wait for that.
            threading.Thread(
                target=self._rpc_server.wait, name="rpc-server-wait", daemon=True
            ).start()
        for thread in self._threads:
            thread.join(timeout=5)
        self.manager.cleanup_host()
        self._stopped.set()
        LOG.info("%s on %s stopped", self.binary, self.host)
        return finished

    def _wake_listener(self) -> None:
        """Make the RPC listener notice the stop now.

        It checks whether to stop only between waits for a message, and
        after an idle while each wait lasts up to 5 s; a ping to our own
        queue ends the wait (a stale one, left queued, is harmless).
        """
        context = nova_context.get_admin_context()
        try:
            baserpc.BaseAPI(self.topic).wake(context, self.host)
        except Exception as exc:  # the broker may be gone: stop anyway
            LOG.debug("Could not wake the RPC listener of %s: %s", self.binary, exc)

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the service stopped; False on timeout."""
        return self._stopped.wait(timeout)

    def reset(self) -> None:
        """Reload the mutable options (``[upgrade_levels]`` among them, whose
        ``auto`` is looked up again) and let the manager drop its caches."""
        LOG.info("Reloading the configuration of %s", self.binary)
        CONF.mutate_config_files()
        upgrade_levels.reset()
        self.manager.reset()


def serve(service: Service) -> NoReturn:
    """Run ``service`` in the foreground until SIGTERM or SIGINT, then end
    the process.

    Called from the main thread of a console script. The exit status is 0
    after a graceful stop, 1 if requests had to be abandoned.
    """
    stop_requested = threading.Event()
    reload_requested = threading.Event()

    def on_stop(signum, _frame):
        LOG.info("Caught %s, stopping", signal.Signals(signum).name)
        stop_requested.set()

    def on_reload(_signum, _frame):
        reload_requested.set()

    signal.signal(signal.SIGTERM, on_stop)
    signal.signal(signal.SIGINT, on_stop)
    signal.signal(signal.SIGHUP, on_reload)
    service.start()
    # Signal handlers run between bytecodes of the main thread, hence the
    # short waits rather than one long one.
    while not stop_requested.wait(0.5):
        if reload_requested.is_set():
            reload_requested.clear()
            service.reset()
    finished = service.stop()
    rpc.cleanup()
    if not finished:
        LOG.warning("Exiting with requests abandoned")
    _exit(0 if finished else 1)


def _exit(status: int) -> NoReturn:
    """End the process now that its work is done or abandoned.

    Worker threads still inside an abandoned request would keep a normal
    exit waiting; and tearing the interpreter down (collecting every module
    and object) takes seconds on a busy host and serves nothing once the
    connections are closed. So flush the logs and leave.
    """
    std_logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)


def main(binary: str, topic: str, argv=None, prepare=None) -> int:
    """The body of a daemon's console script: parse ``argv`` (default
    ``sys.argv``; ``--config-file`` …), run ``prepare``, serve until told
    to stop."""
    try:
        config.parse_args(sys.argv if argv is None else argv)
    except cfg.Error as exc:
        print(f"{binary}: {exc}", file=sys.stderr)
        return 2
    objects.register_all()
    if prepare is not None:
        prepare()
    serve(Service.create(binary, topic))
