"""The connection to libvirtd, and the events it sends.

One connection per nova-compute, opened on first use and opened again
when libvirtd went away (a restart of the daemon closes it). Domain
lifecycle events are read by a thread running libvirt's default event loop
and handed to a callback (the driver turns them into power states).
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from oslo_log import log as logging

from nova import exception

try:
    import libvirt
except ImportError:  # hosts without the libvirt driver
    libvirt = None

LOG = logging.getLogger(__name__)

LifecycleCallback = Callable[[str, int], None]

_event_loop_lock = threading.Lock()
_event_loop_started = False


def _start_event_loop() -> None:
    """Run libvirt's default event loop on a daemon thread, once per process.

    It must be registered before a connection is opened for that connection
    to deliver events.
    """
    global _event_loop_started
    with _event_loop_lock:
        if _event_loop_started:
            return
        libvirt.virEventRegisterDefaultImpl()

        def run() -> None:
            while True:
                libvirt.virEventRunDefaultImpl()

        threading.Thread(target=run, name="libvirt-events", daemon=True).start()
        _event_loop_started = True


def _ignore_errors(_ctx, _error) -> None:
    # libvirt prints every error to stderr unless told otherwise; errors
    # reach us as exceptions anyway.
    return None


class Host:
    """A libvirt connection that reopens itself when it was closed."""

    def __init__(self, uri: str, lifecycle_callback: LifecycleCallback | None = None):
        if libvirt is None:
            raise exception.HypervisorUnavailable(
                reason="the libvirt-python package is not installed"
            )
        self.uri = uri
        self._lifecycle_callback = lifecycle_callback
        self._conn = None
        self._lock = threading.Lock()
        libvirt.registerErrorHandler(_ignore_errors, None)
        if lifecycle_callback is not None:
            _start_event_loop()

    def get_connection(self):
        """The open connection, reconnecting if libvirtd closed the last one.

        :raises HypervisorUnavailable: libvirtd does not answer.
        """
        with self._lock:
            conn = self._conn
            if conn is not None:
                try:
                    if conn.isAlive():
                        return conn
                except libvirt.libvirtError:
                    pass
                LOG.warning("Connection to %s was lost; reconnecting", self.uri)
                self._conn = None
            self._conn = self._connect()
            return self._conn

    def _connect(self):
        try:
            conn = libvirt.open(self.uri)
        except libvirt.libvirtError as exc:
            raise exception.HypervisorUnavailable(
                reason=f"cannot connect to {self.uri}: {exc}"
            ) from exc
        conn.registerCloseCallback(self._closed, None)
        if self._lifecycle_callback is not None:
            conn.domainEventRegisterAny(
                None,
                libvirt.VIR_DOMAIN_EVENT_ID_LIFECYCLE,
                self._lifecycle_event,
                None,
            )
        LOG.info("Connected to libvirt at %s", self.uri)
        return conn

    def _closed(self, conn, reason, _opaque) -> None:
        LOG.warning("libvirt closed the connection to %s (reason %s)", self.uri, reason)
        with self._lock:
            if self._conn is conn:
                self._conn = None

    def _lifecycle_event(self, _conn, domain, event, _detail, _opaque) -> None:
        try:
            self._lifecycle_callback(domain.UUIDString(), event)
        except Exception:  # the event thread must survive any handler
            LOG.exception("Handling lifecycle event %s of %s failed", event, domain)

    def close(self) -> None:
        with self._lock:
            conn, self._conn = self._conn, None
        if conn is not None:
            try:
                conn.close()
            except libvirt.libvirtError:
                pass

    def get_domain(self, instance):
        """The domain of ``instance`` (its uuid is the domain's).

        :raises InstanceNotFound: libvirt has no such domain.
        """
        try:
            return self.get_connection().lookupByUUIDString(instance.uuid)
        except libvirt.libvirtError as exc:
            if exc.get_error_code() == libvirt.VIR_ERR_NO_DOMAIN:
                raise exception.InstanceNotFound(instance_id=instance.uuid) from exc
            raise

    def list_domains(self) -> list:
        return self.get_connection().listAllDomains(0)
