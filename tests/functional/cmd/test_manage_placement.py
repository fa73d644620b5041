"""nova-manage placement audit and heal_allocations, against a real
Placement of their own and real databases on every backend."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import types
import uuid

import pytest
import sqlalchemy as sa

from nova import context as nova_context
from nova import objects, placement
from nova.db import engines
from nova.db.api import models as api_models
from nova.db.main import models as main_models
from tests.fixtures import placement as placement_fixture
from tests.functional.cmd.conftest import add_compute_node, sqlite_only

INVENTORY = {
    "VCPU": {"total": 8},
    "MEMORY_MB": {"total": 8192},
    "DISK_GB": {"total": 100},
}
SMALL = {"vcpus": 2, "memory_mb": 512, "root_gb": 10}


@pytest.fixture(scope="module")
def own_placement(tmp_path_factory):
    """A Placement only these tests use: an audit looks at every provider,
    and --delete would remove other tests' allocations."""
    placement_fixture.require_placement()
    server = placement_fixture.start_placement(tmp_path_factory.mktemp("audit"))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def client(own_placement):
    client = placement_fixture.make_client(own_placement.endpoint)
    yield client
    for provider in client.list_providers():
        for consumer in client.get_allocations_for_provider(provider.uuid):
            client.remove_allocations(consumer)
        client.delete_provider(provider.uuid)


@pytest.fixture
def cloud(nova_manage, client, own_placement):
    """Cells mapped, nova.conf naming the Placement, one compute node with
    its provider and inventory."""
    cell1_uuid = nova_manage.setup_cells()
    nova_manage.write_conf(
        placement={
            "auth_type": "admin_token",
            "token": placement_fixture.NOAUTH_TOKEN,
            "endpoint_override": own_placement.endpoint,
        }
    )
    placement.reset()
    add_compute_node(nova_manage.cell1, "c1")
    with engines.transaction(nova_manage.cell1) as session:
        node_uuid = session.scalar(sa.select(main_models.ComputeNode.uuid))
    client.ensure_provider(node_uuid, "c1")
    client.set_inventory(node_uuid, INVENTORY)
    yield types.SimpleNamespace(
        manage=nova_manage, cell1_uuid=cell1_uuid, node_uuid=node_uuid
    )
    placement.reset()


def cell_context(cloud):
    cell = types.SimpleNamespace(
        uuid=cloud.cell1_uuid, database_connection=cloud.manage.cell1
    )
    with nova_context.target_cell(nova_context.get_admin_context(), cell) as cctxt:
        return cctxt


def map_instance(cloud, instance_uuid: str, in_cell: bool = True) -> None:
    with engines.transaction(cloud.manage.api) as session:
        cell_id = session.scalar(
            sa.select(api_models.CellMapping.id).where(
                api_models.CellMapping.uuid == cloud.cell1_uuid
            )
        )
        session.add(
            api_models.InstanceMapping(
                instance_uuid=instance_uuid,
                cell_id=cell_id if in_cell else None,
                project_id="p",
                user_id="u",
            )
        )


def create_instance(cloud, host="c1", task_state=None, **flavor) -> str:
    flavor = {**SMALL, **flavor}
    instance = objects.Instance(
        cell_context(cloud), project_id="p", user_id="u", host=host, node=host,
        task_state=task_state,
        flavor=objects.Flavor(
            id=1, flavorid="f", name="f", ephemeral_gb=0, swap=0, extra_specs={},
            **flavor,
        ),
    )  # fmt: skip
    instance.create()
    map_instance(cloud, instance.uuid)
    return instance.uuid


def allocate(client, cloud, consumer: str, vcpus: int = 1) -> None:
    client.put_allocations(
        consumer, {cloud.node_uuid: {"resources": {"VCPU": vcpus}}}, "p", "u", None
    )


def consumers(client, cloud) -> set[str]:
    return set(client.get_allocations_for_provider(cloud.node_uuid))


def test_audit_finds_orphans_and_deletes_them(cloud, client):
    live = create_instance(cloud)
    deleted = create_instance(cloud)
    objects.Instance.get_by_uuid(cell_context(cloud), deleted).destroy()
    migration = objects.Migration(cell_context(cloud), status="migrating")
    migration.create()
    finished = objects.Migration(cell_context(cloud), status="confirmed")
    finished.create()
    with engines.transaction(cloud.manage.cell1) as session:
        model = main_models.Migration
        session.execute(
            sa.update(model).where(model.uuid == finished.uuid).values(deleted=model.id)
        )
    scheduling = str(uuid.uuid4())
    map_instance(cloud, scheduling, in_cell=False)
    unknown = str(uuid.uuid4())
    everyone = {live, deleted, migration.uuid, finished.uuid, scheduling, unknown}
    for consumer in everyone:
        allocate(client, cloud, consumer)

    found = cloud.manage("placement", "audit", "--verbose")

    assert found.code == 3, found.err
    reported = {line.split()[3] for line in found.out.splitlines() if "belong" in line}
    assert reported == {deleted, finished.uuid, unknown}
    assert f"Processing resource provider {cloud.node_uuid}" in found.out
    assert consumers(client, cloud) == everyone

    other = client.create_provider("empty", uuid=str(uuid.uuid4()))
    only_other = cloud.manage("placement", "audit", "--resource_provider", other.uuid)
    assert only_other.code == 0, only_other.err

    removed = cloud.manage("placement", "audit", "--delete")

    assert removed.code == 4, removed.err
    assert consumers(client, cloud) == {live, migration.uuid, scheduling}
    assert cloud.manage("placement", "audit").code == 0


def test_audit_deletes_only_the_audited_providers_share(cloud, client):
    other = client.create_provider("other", uuid=str(uuid.uuid4()))
    client.set_inventory(other.uuid, INVENTORY)
    orphan = str(uuid.uuid4())
    client.put_allocations(
        orphan,
        {
            cloud.node_uuid: {"resources": {"VCPU": 1}},
            other.uuid: {"resources": {"VCPU": 2}},
        },
        "p",
        "u",
        None,
    )

    result = cloud.manage(
        "placement", "audit", "--delete", "--resource_provider", cloud.node_uuid
    )

    assert result.code == 4, result.err
    left = client.get_allocations_for_consumer(orphan).allocations
    assert {rp: a["resources"] for rp, a in left.items()} == {other.uuid: {"VCPU": 2}}


@sqlite_only
@pytest.mark.parametrize("provider", ["not-a-uuid", "unknown"])
def test_audit_refuses_an_unknown_provider(cloud, provider):
    if provider == "unknown":
        provider = str(uuid.uuid4())
    result = cloud.manage("placement", "audit", "--resource_provider", provider)
    assert result.code == 127
    assert result.err.startswith("ERROR: ")


def test_heal_allocations_creates_the_missing_ones(cloud, client):
    first = create_instance(cloud)
    second = create_instance(cloud, vcpus=1)
    allocated = create_instance(cloud)
    allocate(client, cloud, allocated)
    create_instance(cloud, task_state="spawning")

    dry = cloud.manage("placement", "heal_allocations", "--dry-run")
    assert dry.code == 4, dry.err
    assert f"Would create allocations for instance {first}" in dry.out
    assert consumers(client, cloud) == {allocated}

    one = cloud.manage("placement", "heal_allocations", "--max-count", "1")
    assert one.code == 1, one.err
    assert consumers(client, cloud) == {allocated, first}

    rest = cloud.manage(
        "placement", "heal_allocations", "--verbose", "--skip-port-allocations"
    )
    assert rest.code == 0, rest.err
    assert consumers(client, cloud) == {allocated, first, second}
    healed = client.get_allocations_for_consumer(first)
    assert healed.allocations[cloud.node_uuid]["resources"] == {
        "VCPU": 2, "MEMORY_MB": 512, "DISK_GB": 10,
    }  # fmt: skip
    assert (healed.project_id, healed.user_id) == ("p", "u")

    assert cloud.manage("placement", "heal_allocations").code == 4
    assert (
        cloud.manage("placement", "heal_allocations", "--cell", cloud.cell1_uuid).code
        == 4
    )
    client.remove_allocations(second)
    in_cell = cloud.manage("placement", "heal_allocations", "--cell", cloud.cell1_uuid)
    assert in_cell.code == 0, in_cell.err
    assert second in consumers(client, cloud)

    forced = cloud.manage(
        "placement", "heal_allocations", "--instance", allocated, "--force"
    )
    assert forced.code == 0, forced.err
    resources = client.get_allocations_for_consumer(allocated).allocations
    assert resources[cloud.node_uuid]["resources"]["VCPU"] == 2


def test_heal_allocations_errors(cloud):
    ghost = create_instance(cloud, host="ghost")
    huge = create_instance(cloud, vcpus=100)

    no_node = cloud.manage("placement", "heal_allocations", "--instance", ghost)
    assert no_node.code == 2, no_node.err
    refused = cloud.manage("placement", "heal_allocations", "--instance", huge)
    assert refused.code == 3, refused.err
    assert "Unable to create allocations" in refused.err


@sqlite_only
@pytest.mark.parametrize(
    "args",
    [
        ["--instance", "00000000-0000-0000-0000-000000000001", "--cell", "x"],
        ["--force"],
        ["--max-count", "0"],
        ["--instance", "00000000-0000-0000-0000-000000000001"],
        ["--cell", "00000000-0000-0000-0000-000000000001"],
    ],
)
def test_heal_allocations_refuses_invalid_input(cloud, args):
    result = cloud.manage("placement", "heal_allocations", *args)
    assert result.code == 127, result.err
    assert result.err.startswith("ERROR: ")


@sqlite_only
def test_audit_with_placement_down_fails_in_one_line(cloud):
    cloud.manage.write_conf(
        placement={
            "auth_type": "admin_token",
            "token": placement_fixture.NOAUTH_TOKEN,
            "endpoint_override": "http://127.0.0.1:9",
        }
    )
    placement.reset()

    result = cloud.manage("placement", "audit")

    assert result.code == 1
    assert result.err.startswith("ERROR: Audit failed")
    assert len(result.err.strip().splitlines()) == 1


@sqlite_only
def test_console_script_exit_codes(cloud, client):
    """The installed script, as an operator runs it: exit codes included."""
    script = shutil.which("nova-manage", path=os.path.dirname(sys.executable))
    assert script, f"nova-manage is not installed next to {sys.executable}"
    allocate(client, cloud, str(uuid.uuid4()))
    gone = create_instance(cloud)
    objects.Instance.get_by_uuid(cell_context(cloud), gone).destroy()

    def run(*args: str) -> int:
        command = [script, "--config-file", str(cloud.manage.conf_path), *args]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120)
        return done.returncode

    assert run("placement", "audit") == 3
    assert run("placement", "audit", "--delete") == 4
    assert run("placement", "audit") == 0
    assert run("db", "archive_deleted_rows") == 1
    assert run("db", "archive_deleted_rows") == 0
    assert run("db", "purge", "--all") == 0
    assert run("db", "online_data_migrations") == 0
