"""RPC over real RabbitMQ: context propagation, cell routing, version caps,
and nova-compute's object indirection (and backports of objects newer than
it knows) through a real conductor process."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys

import oslo_messaging
import pytest
from oslo_utils import uuidutils
from oslo_versionedobjects import exception as ovo_exception

from nova import baserpc, context, exception, objects, rpc
from nova.conductor import rpcapi as conductor_rpcapi
from nova.conf import CONF
from nova.db import engines, migration
from nova.objects import base
from nova.states import task_states, vm_states
from tests.functional.boot.deployment import REPO, render
from tests.functional.rpc import newer_conductor as newer_conductor_module

pytestmark = [pytest.mark.rabbitmq]
objects.register_all()


class Endpoint:
    target = oslo_messaging.Target(version="1.0")

    def __init__(self, name):
        self.name = name

    def whoami(self, context, instance):
        return {
            "server": self.name,
            "user": context.user_id,
            "project": context.project_id,
            "roles": context.roles,
            "request_id": context.request_id,
            "global_request_id": context.global_request_id,
            "instance": instance,
        }


class API(rpc.RPCAPI):
    TOPIC = "rpc-test"
    VERSION = "1.1"
    UPGRADE_LEVEL = "compute"

    def whoami(self, ctxt, instance, version="1.0"):
        client = self.prepare(ctxt, version=version, timeout=10)
        return client.call(ctxt, "whoami", instance=instance)


@pytest.fixture
def servers(make_vhost):
    api_url, cell_url = make_vhost("api"), make_vhost("cell")
    CONF.set_override("transport_url", api_url)
    started = []
    for url, name in ((None, "api-level"), (cell_url, "cell1")):
        server = rpc.get_server(
            oslo_messaging.Target(topic="rpc-test", server=name),
            [Endpoint(name)],
            transport=rpc.get_transport(url),
        )
        server.start()
        started.append(server)
    yield cell_url
    for server in started:
        server.stop()
        server.wait()
    rpc.cleanup()
    CONF.clear_override("transport_url")


def _context():
    return context.RequestContext(
        user_id="alice",
        project_id="proj",
        roles=["member"],
        global_request_id="req-" + uuidutils.generate_uuid(),
        overwrite=False,
    )


def test_context_and_objects_cross_and_cells_are_routed(servers):
    ctxt = _context()
    instance = objects.Instance(uuid=uuidutils.generate_uuid(), vm_state="active")
    answer = API().whoami(ctxt, instance)
    assert answer["server"] == "api-level"
    assert (answer["user"], answer["project"], answer["roles"]) == (
        "alice",
        "proj",
        ["member"],
    )
    assert answer["request_id"] == ctxt.request_id
    assert answer["global_request_id"] == ctxt.global_request_id
    assert isinstance(answer["instance"], objects.Instance)
    assert answer["instance"].uuid == instance.uuid

    cell = objects.CellMapping(
        uuid=uuidutils.generate_uuid(),
        transport_url=servers,
        database_connection="sqlite://",
    )
    with context.target_cell(ctxt, cell) as cctxt:
        assert API().whoami(cctxt, instance)["server"] == "cell1"


def test_version_caps(servers):
    ctxt = _context()
    CONF.set_override("compute", "1.0", group="upgrade_levels")
    try:
        capped = API()
        assert capped.whoami(ctxt, None, version="1.0")["server"] == "api-level"
        with pytest.raises(exception.RPCPinnedToOldVersion):
            capped.whoami(ctxt, None, version="1.1")
    finally:
        CONF.clear_override("compute", group="upgrade_levels")
    # Without the cap the call goes out, and the 1.0 server refuses it.
    with pytest.raises(oslo_messaging.RemoteError, match="UnsupportedVersion"):
        API().whoami(ctxt, None, version="1.1")


@contextlib.contextmanager
def _conductor(make_vhost, tmp_path, module="nova.cmd.conductor"):
    """A real cell conductor process (``python -m module``); this process
    plays a compute host: no database, objects through the conductor."""
    url = make_vhost("cell")
    database = f"sqlite:///{tmp_path / 'cell.sqlite'}"
    migration.db_sync("main", database)
    config = tmp_path / "nova-cell.conf"
    config.write_text(
        render(
            {
                "DEFAULT": {"transport_url": url, "report_interval": 1},
                "database": {"connection": database},
            }
        )
    )
    with open(tmp_path / "conductor.log", "wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", module, "--config-file", str(config)],
            env=dict(os.environ, PYTHONPATH=str(REPO)),
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    CONF.set_override("transport_url", url)
    base.NovaObject.indirection_api = conductor_rpcapi.ConductorAPI()
    try:
        baserpc.BaseAPI("conductor").wait_until_ready(
            context.get_admin_context(), stop_waiting=lambda: process.poll() is not None
        )
        yield database
    finally:
        base.NovaObject.indirection_api = None
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)
        rpc.cleanup()
        CONF.clear_override("transport_url")
        engines.dispose(database)


@pytest.fixture
def conductor(make_vhost, tmp_path):
    with _conductor(make_vhost, tmp_path) as database:
        yield database


@pytest.fixture
def newer_conductor(make_vhost, tmp_path):
    """A conductor that knows a Service version this process does not."""
    with _conductor(
        make_vhost, tmp_path, "tests.functional.rpc.newer_conductor"
    ) as database:
        yield database


def test_objects_without_a_database_go_through_the_conductor(conductor):
    ctxt = context.get_admin_context()
    # No database here: anything not going through the conductor fails.
    with pytest.raises(exception.DatabaseNotConfigured):
        assert ctxt.db_connection
    service = objects.Service(ctxt, host="c1", binary="nova-compute", topic="compute")
    service.create()
    assert service.id and service.uuid and not service.obj_what_changed()
    service.report_count += 1
    service.save()
    assert service.report_count == 1
    assert objects.Service.get_by_compute_host(ctxt, "c1").report_count == 1
    assert objects.Service.get_by_host_and_binary(ctxt, "c1", "nova-x") is None
    # What [upgrade_levels] compute = auto reads in a compute.
    assert objects.Service.get_minimum_version(ctxt, "nova-compute") == 0
    service.version = 9
    service.save()
    assert objects.Service.get_minimum_version(ctxt, "nova-compute") == 9

    instance = objects.Instance(
        ctxt,
        project_id="p",
        vm_state=vm_states.BUILDING,
        task_state=task_states.SCHEDULING,
        flavor=objects.Flavor(
            id=1,
            flavorid="f",
            name="f",
            memory_mb=64,
            vcpus=1,
            root_gb=0,
            ephemeral_gb=0,
            swap=0,
            extra_specs={},
        ),
    )
    instance.create()
    assert instance.id
    instance.task_state = task_states.SPAWNING
    instance.save(expected_task_state=task_states.SCHEDULING)
    stale = objects.Instance.get_by_uuid(ctxt, instance.uuid, expected_attrs=[])
    assert stale.task_state == task_states.SPAWNING
    # Lazy-loading works remotely too.
    assert stale.flavor.name == "f"
    stale.task_state = None
    with pytest.raises(exception.UnexpectedTaskStateError):
        stale.save(expected_task_state=task_states.SCHEDULING)
    with pytest.raises(exception.InstanceNotFound):
        objects.Instance.get_by_uuid(ctxt, uuidutils.generate_uuid())

    # The conductor wrote it all to its database.
    base.NovaObject.indirection_api = None
    CONF.set_override("connection", conductor, group="database")
    try:
        stored = objects.Instance.get_by_uuid(
            context.get_admin_context(), instance.uuid
        )
        assert stored.task_state == task_states.SPAWNING
    finally:
        CONF.clear_override("connection", group="database")


def _from_the_next_release(ctxt) -> dict:
    """A Service as a service of the next release sends it: version 1.2,
    with a field this code does not know."""
    service = objects.Service(
        ctxt, id=7, host="c1", binary="nova-compute", topic="compute", version=11
    )
    primitive = service.obj_to_primitive()
    primitive["nova_object.version"] = newer_conductor_module.NEWER_VERSION
    primitive["nova_object.data"]["next_release_field"] = "new"
    primitive["nova_object.changes"].append("next_release_field")
    return primitive


def test_newer_objects_are_backported_by_the_conductor(newer_conductor):
    ctxt = context.get_admin_context()
    serializer = rpc.RequestContextSerializer()
    assert objects.Service.VERSION < newer_conductor_module.NEWER_VERSION
    # The conductor (newest of the deployment) turns it into the version
    # this process knows.
    service = serializer.deserialize_entity(ctxt, _from_the_next_release(ctxt))
    assert isinstance(service, objects.Service)
    assert service.VERSION == objects.Service.VERSION
    assert (service.id, service.host, service.version) == (7, "c1", 11)
    assert "next_release_field" not in service.fields
    # Without a conductor to ask, the object cannot be read.
    base.NovaObject.indirection_api = None
    with pytest.raises(ovo_exception.IncompatibleObjectVersion):
        serializer.deserialize_entity(ctxt, _from_the_next_release(ctxt))
