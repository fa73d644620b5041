"""A caller's global request id (``X-OpenStack-Request-ID``, kept in the
request context) travels with the RPC messages of a build and a delete and
appears on the log lines each daemon writes for them: the superconductor,
the scheduler and the compute, processes on real RabbitMQ vhosts and real
Placement; this test process plays nova-api."""

from __future__ import annotations

import pytest
from oslo_utils import uuidutils

from nova import context as nova_context
from nova.states import vm_states
from tests.functional.boot.deployment import flavor, wait_for

pytestmark = [
    pytest.mark.rabbitmq,
    pytest.mark.parametrize("db_backend", ["sqlite"], indirect=True),
]


def test_the_global_request_id_reaches_every_daemons_log(deployment):
    admin = nova_context.get_admin_context()
    host = f"grid-host-{uuidutils.generate_uuid()[:8]}"
    deployment.start_all([host], vcpus=4, memory_mb=4096, local_gb=20)
    deployment.wait_for_computes(admin)

    global_id = f"req-{uuidutils.generate_uuid()}"
    caller = nova_context.RequestContext(
        user_id="demo",
        project_id=uuidutils.generate_uuid(),
        roles=["member"],
        global_request_id=global_id,
        overwrite=False,
    )
    [uuid] = deployment.boot(caller, flavor("small", memory_mb=512), name="grid")
    deployment.wait_for_states(admin, [uuid], {vm_states.ACTIVE})

    def logged_by_all() -> bool:
        return all(
            global_id in (deployment.directory / f"{name}.log").read_text()
            for name in ("superconductor", "scheduler", host)
        )

    wait_for(logged_by_all, 30, "the global request id in every daemon's log")
    # And only as that request's: a line with it carries its own request id too.
    compute_lines = [
        line
        for line in (deployment.directory / f"{host}.log").read_text().splitlines()
        if global_id in line
    ]
    assert all(caller.request_id in line for line in compute_lines), compute_lines
