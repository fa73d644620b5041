"""Server groups honoured by moves: of two anti-affinity members, one on
each of the two hosts, neither may be cold-migrated or resized away, the
only other host holding the other member; the server stays as it was."""

from __future__ import annotations

import pytest

from nova import objects
from nova.states import vm_states
from tests.functional.api.conftest import ADMIN, fault
from tests.functional.moves.conftest import (
    SMALL_RESOURCES,
    action,
    allocations,
    boot,
    instance,
    migrations,
    provider,
    settled,
)

pytestmark = [
    pytest.mark.rabbitmq,
    pytest.mark.parametrize("db_backend", ["sqlite"], indirect=True),
]


def _anti_affinity_group(cloud, uuids: list[str]) -> None:
    """The servers become members of one anti-affinity group, as if booted
    into it (their request specs name it)."""
    group = objects.InstanceGroup(
        cloud.admin,
        name="spread",
        project_id=cloud.project,
        user_id="demo",
        policy="anti-affinity",
        members=uuids,
    )
    group.create()
    for uuid in uuids:
        spec = objects.RequestSpec.get_by_instance_uuid(cloud.admin, uuid)
        spec.instance_group = objects.InstanceGroup.get_by_uuid(cloud.admin, group.uuid)
        spec.save()


def test_anti_affinity_keeps_members_apart_on_move(cloud):
    first = boot(cloud, "first")
    second = boot(cloud, "second")
    source = instance(cloud, first).host
    [other] = [host for host in cloud.hosts if host != source]
    if instance(cloud, second).host != other:
        body = {"migrate": {"host": other}}
        response = action(cloud, second, body, token=ADMIN, version="2.56")
        assert response.status_code == 202, response.text
        settled(cloud, second, vm_states.RESIZED)
        assert action(cloud, second, {"confirmResize": None}).status_code == 204
        settled(cloud, second, vm_states.ACTIVE)
    _anti_affinity_group(cloud, [first, second])

    response = action(cloud, first, {"migrate": None}, token=ADMIN)
    assert response.status_code == 400, response.text
    assert "No valid host" in fault(response)[2]
    response = action(
        cloud, first, {"migrate": {"host": other}}, token=ADMIN, version="2.56"
    )
    assert response.status_code == 400, response.text
    response = action(cloud, first, {"resize": {"flavorRef": "medium"}})
    assert response.status_code == 400, response.text

    stayed = settled(cloud, first, vm_states.ACTIVE)
    assert stayed.host == source and stayed.flavor.flavorid == "small"
    assert [m.status for m in migrations(cloud, first)] == ["error"] * 3
    assert allocations(cloud, first) == {provider(cloud, source): SMALL_RESOURCES}
