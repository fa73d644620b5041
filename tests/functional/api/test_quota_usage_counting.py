"""Quota usage of servers, counted as upstream counts it: the live
instances of every cell (cell0's failed builds too) plus the build
requests of servers not in a cell yet; with [quota]
count_usage_from_placement, cores and RAM from Placement's usages."""

from __future__ import annotations

import datetime

import pytest
import sqlalchemy as sa
from oslo_utils import uuidutils

from nova import context as nova_context
from nova import objects, placement
from nova.conf import CONF
from nova.db import engines
from nova.db.api import models as api_models
from nova.states import vm_states
from tests.functional.api.conftest import ADMIN, fault
from tests.functional.api.test_down_cell import down_cell  # noqa: F401
from tests.functional.api.test_quotas import _boot, _set
from tests.functional.api.test_servers import _in_cell

pytestmark = pytest.mark.parametrize("cloud_databases", ["sqlite"], indirect=True)

SIZE = {"vcpus": 2, "memory_mb": 256}


def _in_use(api, project="demo", user=None) -> dict:
    query = f"?user_id={user}" if user else ""
    detail = api.get(f"/v2.1/os-quota-sets/{project}/detail{query}", token=ADMIN)
    body = detail.json()["quota_set"]
    return {r: body[r]["in_use"] for r in ("instances", "cores", "ram")}


def test_cells_and_build_requests_are_counted(
    api, nova_conf, glance, flavor, conductor
):
    _in_cell(nova_conf, "cell1", **SIZE)
    _in_cell(nova_conf, "cell1", user_id="someone", **SIZE)
    # A build that failed to schedule lives in cell0 and still counts.
    _in_cell(nova_conf, "cell0", vm_state=vm_states.ERROR, **SIZE)
    # Neither a deleted nor a soft-deleted server uses anything.
    _in_cell(nova_conf, "cell1", **SIZE).destroy()
    _in_cell(nova_conf, "cell1", vm_state=vm_states.SOFT_DELETED, **SIZE)
    # Another project's server is not this one's.
    _in_cell(nova_conf, "cell1", project="other", **SIZE)
    assert _in_use(api) == {"instances": 3, "cores": 6, "ram": 768}
    # Accepted, not yet in a cell: the build request (flavor 1: 1 vCPU,
    # 512 MB).
    assert _boot(api, glance.active).status_code == 202
    assert _in_use(api) == {"instances": 4, "cores": 7, "ram": 1280}
    assert _in_use(api, user="someone") == {"instances": 1, "cores": 2, "ram": 256}
    limits = api.get("/v2.1/limits").json()["limits"]["absolute"]
    assert (limits["totalInstancesUsed"], limits["totalCoresUsed"]) == (4, 7)


def _boot_into_cell1(api, nova_conf, glance, conductor):
    """Boot one server and create its instance in cell1, as the
    superconductor's hand-over does first; the build request stays."""
    assert _boot(api, glance.active).status_code == 202
    uuid = conductor.builds[0]["build_requests"][0].instance.uuid
    cell = nova_conf["cells"]["cell1"]
    with nova_context.target_cell(nova_context.get_admin_context(), cell) as cctxt:
        objects.Instance(
            cctxt, uuid=uuid, project_id="demo", user_id="demo",
            vm_state=vm_states.BUILDING, vcpus=1, memory_mb=512,
        ).create()  # fmt: skip
    return uuid, cell


def test_a_build_the_superconductor_placed_counts_once(
    api, nova_conf, glance, flavor, conductor
):
    uuid, cell = _boot_into_cell1(api, nova_conf, glance, conductor)
    # The instance is in cell1 and its mapping says so; the build request
    # is not deleted yet.
    with engines.transaction(nova_conf["urls"]["api"]) as session:
        cell_id = session.scalar(
            sa.select(api_models.CellMapping.id).where(
                api_models.CellMapping.uuid == cell.uuid
            )
        )
        session.execute(
            sa.update(api_models.InstanceMapping)
            .where(api_models.InstanceMapping.instance_uuid == uuid)
            .values(cell_id=cell_id)
        )
    assert _in_use(api) == {"instances": 1, "cores": 1, "ram": 512}


def test_a_build_in_its_cell_before_its_mapping_says_so_counts_once(
    api, nova_conf, glance, flavor, conductor
):
    """The superconductor creates the instance in its cell, then points the
    mapping at the cell, then deletes the build request: a count between
    the first two steps sees the server twice unless it looks."""
    _boot_into_cell1(api, nova_conf, glance, conductor)
    assert _in_use(api) == {"instances": 1, "cores": 1, "ram": 512}


def test_create_is_refused_by_what_the_cells_hold(
    api, nova_conf, glance, flavor, conductor
):
    _set(api, "demo", cores=5)
    for _ in range(2):
        _in_cell(nova_conf, "cell1", **SIZE)
    response = _boot(api, glance.active, min_count=2)
    assert fault(response) == (
        "forbidden",
        403,
        "Quota exceeded for cores: Requested 2, but already used 4 of 5 cores",
    )
    assert conductor.builds == []
    assert _boot(api, glance.active).status_code == 202


@pytest.fixture
def placement_counting(monkeypatch, placement_client):
    CONF.set_override("count_usage_from_placement", True, group="quota")
    monkeypatch.setattr(placement, "client", lambda: placement_client)
    provider = placement_client.create_provider(f"q-{uuidutils.generate_uuid()}")
    placement_client.set_inventory(
        provider.uuid, {"VCPU": {"total": 64}, "MEMORY_MB": {"total": 65536}}
    )
    consumers = []

    def allocate(project, user, vcpus, ram):
        consumer = uuidutils.generate_uuid()
        resources = {"VCPU": vcpus, "MEMORY_MB": ram}
        assert placement_client.claim_resources(
            consumer,
            {"allocations": {provider.uuid: {"resources": resources}}},
            project,
            user,
        )
        consumers.append(consumer)

    yield allocate
    for consumer in consumers:
        placement_client.remove_allocations(consumer)
    placement_client.delete_provider(provider.uuid)
    CONF.clear_override("count_usage_from_placement", group="quota")


def test_cores_and_ram_from_placement(
    api, nova_conf, glance, flavor, conductor, placement_counting
):
    project = f"p-{uuidutils.generate_uuid()[:8]}"
    placement_counting(project, "u1", 3, 1024)
    placement_counting(project, "u2", 1, 128)
    placement_counting("elsewhere", "u1", 8, 8192)
    # Instances come from the mappings: one server of u1, placed by hand.
    server = _in_cell(
        nova_conf, "cell1", project=project, user_id="u1",
        launched_at=datetime.datetime.now(datetime.UTC), **SIZE,
    )  # fmt: skip
    with engines.transaction(nova_conf["urls"]["api"]) as session:
        session.execute(
            sa.update(api_models.InstanceMapping)
            .where(api_models.InstanceMapping.instance_uuid == server.uuid)
            .values(user_id="u1")
        )
    assert _in_use(api, project) == {"instances": 1, "cores": 4, "ram": 1152}
    assert _in_use(api, project, user="u1") == {
        "instances": 1,
        "cores": 3,
        "ram": 1024,
    }
    # What Placement has allocated is what limits a create.
    _set(api, project, ram=1500)
    body = {"server": {"name": "q", "flavorRef": "1", "imageRef": glance.active,
                       "networks": "none"}}  # fmt: skip
    response = api.post("/v2.1/servers", body, version="2.96", token=f"u1:{project}")
    assert fault(response)[2] == (
        "Quota exceeded for ram: Requested 512, but already used 1152 of 1500 ram"
    )


def test_a_cell_that_does_not_answer_counts_nothing(
    api,
    nova_conf,
    glance,
    flavor,
    conductor,
    down_cell,  # noqa: F811
):
    _in_cell(nova_conf, "cell1", **SIZE)
    assert _in_use(api) == {"instances": 1, "cores": 2, "ram": 256}
    assert _boot(api, glance.active).status_code == 202
