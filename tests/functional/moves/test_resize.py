"""Resize, confirm, revert and auto-confirm over the real services: after
each, the server's state and flavor, its migration record and exactly the
allocations Placement should hold."""

from __future__ import annotations

import pytest

from nova import quota
from nova.states import vm_states
from tests.functional.api.conftest import fault
from tests.functional.moves.conftest import (
    FLAVORS,
    SMALL_RESOURCES,
    action,
    allocations,
    boot,
    instance,
    migration_ended,
    migrations,
    provider,
    resources,
    settled,
)

pytestmark = [
    pytest.mark.rabbitmq,
    pytest.mark.parametrize("db_backend", ["sqlite"], indirect=True),
]

MEDIUM = resources(FLAVORS["medium"])


def _resized(cloud, uuid: str, flavor: str = "medium"):
    """Resize ``uuid`` to ``flavor``; the instance once RESIZED and its
    migration."""
    response = action(cloud, uuid, {"resize": {"flavorRef": flavor}})
    assert response.status_code == 202, response.text
    resized = settled(cloud, uuid, vm_states.RESIZED)
    return resized, migration_ended(cloud, uuid, "finished")


def test_resize_then_confirm(cloud):
    uuid = boot(cloud)
    source = instance(cloud, uuid).host
    [dest] = [host for host in cloud.hosts if host != source]

    resized, migration = _resized(cloud, uuid)

    assert resized.host == dest
    assert resized.flavor.flavorid == "medium"
    assert resized.old_flavor.flavorid == "small"
    assert (migration.source_compute, migration.dest_compute) == (source, dest)
    assert migration.migration_type == "resize"
    assert migration.user_id == "demo" and migration.project_id == cloud.project
    body = cloud.api.get(f"/v2.1/servers/{uuid}", version="2.47").json()["server"]
    assert body["status"] == "VERIFY_RESIZE"
    assert body["flavor"]["original_name"] == "medium"
    # The source is held by the migration, the destination by the server.
    assert allocations(cloud, uuid) == {provider(cloud, dest): MEDIUM}
    assert allocations(cloud, migration.uuid) == {
        provider(cloud, source): SMALL_RESOURCES
    }

    response = action(cloud, uuid, {"confirmResize": None})
    assert response.status_code == 204, response.text
    confirmed = settled(cloud, uuid, vm_states.ACTIVE)
    migration_ended(cloud, uuid, "confirmed")

    assert confirmed.host == dest and confirmed.flavor.flavorid == "medium"
    assert confirmed.old_flavor is None and confirmed.new_flavor is None
    assert allocations(cloud, uuid) == {provider(cloud, dest): MEDIUM}
    assert allocations(cloud, migration.uuid) == {}
    # Nothing left to confirm.
    response = action(cloud, uuid, {"confirmResize": None})
    assert response.status_code == 409, response.text


def test_revert_of_a_stopped_server_leaves_it_stopped_on_its_source(cloud):
    uuid = boot(cloud)
    source = instance(cloud, uuid).host
    assert action(cloud, uuid, {"os-stop": None}).status_code == 202
    settled(cloud, uuid, vm_states.STOPPED)

    _, migration = _resized(cloud, uuid)
    response = action(cloud, uuid, {"revertResize": None})
    assert response.status_code == 202, response.text
    reverted = settled(cloud, uuid, vm_states.STOPPED)
    migration_ended(cloud, uuid, "reverted")

    assert reverted.host == source
    assert reverted.flavor.flavorid == "small"
    assert reverted.memory_mb == 256 and reverted.vcpus == 1
    assert allocations(cloud, uuid) == {provider(cloud, source): SMALL_RESOURCES}
    assert allocations(cloud, migration.uuid) == {}
    status = cloud.api.get(f"/v2.1/servers/{uuid}").json()["server"]["status"]
    assert status == "SHUTOFF"


@pytest.mark.parametrize(
    "compute_options", [{"resize_confirm_window": 1}], indirect=True
)
def test_an_unconfirmed_resize_is_confirmed_after_the_window(cloud):
    uuid = boot(cloud)
    source = instance(cloud, uuid).host

    response = action(cloud, uuid, {"resize": {"flavorRef": "medium"}})
    assert response.status_code == 202, response.text
    migration = migration_ended(cloud, uuid, "confirmed")
    confirmed = settled(cloud, uuid, vm_states.ACTIVE)

    assert confirmed.host != source
    assert allocations(cloud, uuid) == {provider(cloud, confirmed.host): MEDIUM}
    assert allocations(cloud, migration.uuid) == {}


def test_a_disk_that_cannot_shrink_rolls_the_resize_back(cloud):
    uuid = boot(cloud)
    source = instance(cloud, uuid).host

    response = action(cloud, uuid, {"resize": {"flavorRef": "smaller-disk"}})
    assert response.status_code == 202, response.text
    migration = migration_ended(cloud, uuid, "error")
    rolled_back = settled(cloud, uuid, vm_states.ACTIVE)

    assert rolled_back.host == source and rolled_back.flavor.flavorid == "small"
    assert "Unable to resize disk down" in rolled_back.fault.message
    assert allocations(cloud, uuid) == {provider(cloud, source): SMALL_RESOURCES}
    assert allocations(cloud, migration.uuid) == {}


def test_no_host_for_the_new_flavor_is_400_and_nothing_moves(cloud):
    uuid = boot(cloud)
    source = instance(cloud, uuid).host

    response = action(cloud, uuid, {"resize": {"flavorRef": "huge"}})

    assert response.status_code == 400, response.text
    assert "No valid host was found" in fault(response)[2]
    after = instance(cloud, uuid)
    assert (after.vm_state, after.task_state) == (vm_states.ACTIVE, None)
    [migration] = migrations(cloud, uuid)
    assert migration.status == "error"
    assert allocations(cloud, uuid) == {provider(cloud, source): SMALL_RESOURCES}
    assert allocations(cloud, migration.uuid) == {}


def test_resize_refusals(cloud):
    uuid = boot(cloud)

    def refused(body, status, message):
        response = action(cloud, uuid, body)
        assert response.status_code == status, response.text
        assert message in fault(response)[2]

    refused({"resize": {"flavorRef": "small"}}, 400, "Resize requires a flavor change")
    refused({"resize": {"flavorRef": "nope"}}, 400, "Unable to locate requested flavor")
    refused(
        {"resize": {"flavorRef": "no-root-disk"}},
        400,
        "Resize to zero disk flavor is not allowed",
    )
    refused({"resize": {}}, 400, "flavorRef")
    refused({"resize": {"flavorRef": "medium", "bogus": 1}}, 400, "bogus")
    refused({"confirmResize": None}, 409, "confirmResize")
    refused({"revertResize": None}, 409, "revertResize")
    quota.set_limits(cloud.admin, cloud.project, {"cores": 1})
    refused(
        {"resize": {"flavorRef": "medium"}},
        403,
        "Quota exceeded for cores: Requested 1, but already used 1 of 1 cores",
    )
    after = instance(cloud, uuid)
    assert (after.vm_state, after.task_state) == (vm_states.ACTIVE, None)
    assert migrations(cloud, uuid) == []
