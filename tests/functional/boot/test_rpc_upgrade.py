"""A rolling upgrade of the build messages: with ``[upgrade_levels]`` capping
conductor RPC at 1.2 and compute RPC at 1.8 everywhere (the versions before
BuildParameters), every client sends a build in its older keyword form, and
the new servers still build, reschedule included.

A client that sent the newer form despite its cap would be refused on the
spot (RPCPinnedToOldVersion), and the build would not end
ACTIVE.
"""

from __future__ import annotations

import pytest
from oslo_utils import uuidutils

from nova import context as nova_context
from nova.conf import CONF
from nova.states import vm_states
from tests.functional.boot.deployment import flavor

pytestmark = [
    pytest.mark.rabbitmq,
    pytest.mark.parametrize("db_backend", ["sqlite"], indirect=True),
]

PREVIOUS_VERSIONS = {"conductor": "1.2", "compute": "1.8"}


@pytest.fixture
def common_options() -> dict:
    return {"upgrade_levels": PREVIOUS_VERSIONS}


@pytest.fixture
def capped_api(deployment):
    """This process, as nova-api, capped like the daemons."""
    for service, version in PREVIOUS_VERSIONS.items():
        CONF.set_override(service, version, group="upgrade_levels")
    yield
    for service in PREVIOUS_VERSIONS:
        CONF.clear_override(service, group="upgrade_levels")


def test_capped_services_build_and_reschedule_in_the_older_forms(
    deployment, capped_api
):
    # Every first try lands on "big", whose spawns fail: the build goes
    # API -> superconductor (conductor 1.0 form) -> big (compute 1.0 form)
    # -> cell conductor (conductor 1.1 form) -> small (compute 1.0 form).
    deployment.start_big_and_small(big_fails=True)
    big, small = deployment.hosts
    user = nova_context.RequestContext(
        user_id="demo",
        project_id=uuidutils.generate_uuid(),
        roles=["member"],
        overwrite=False,
    )
    uuids = deployment.boot(user, flavor("m1", memory_mb=512), count=2, name="old")
    found = deployment.wait_for_states(
        nova_context.get_admin_context(), uuids, {vm_states.ACTIVE, vm_states.ERROR}
    )
    instances = [instance for _, instance in found.values()]
    assert {i.vm_state for i in instances} == {vm_states.ACTIVE}, [
        i.fault.message if i.fault else None for i in instances
    ]
    assert {i.host for i in instances} == {small}
    assert "Rescheduling" in deployment.log_tail(big, lines=400)
