"""Soft delete over HTTP: DELETE with ``reclaim_instance_interval`` > 0,
the ``restore`` and ``forceDelete`` actions, their 404s, 409s and 403s.
nova-compute is a recording double (tests/functional/boot/test_soft_delete
runs the flow on real computes)."""

from __future__ import annotations

import uuid

import pytest

from nova import context as nova_context
from nova import objects
from nova.conf import CONF
from tests.functional.api.conftest import OTHER, fault
from tests.functional.api.test_servers import _in_cell


@pytest.fixture
def reclaim():
    CONF.set_override("reclaim_instance_interval", 3600)
    yield
    CONF.clear_override("reclaim_instance_interval")


def _compute_up(cloud, host="compute-1"):
    context = nova_context.get_admin_context()
    with nova_context.target_cell(context, cloud["cells"]["cell1"]) as cctxt:
        objects.Service(
            cctxt, host=host, binary="nova-compute", topic="compute",
            report_count=1, disabled=False,
        ).create()  # fmt: skip


def _cell_instance(cloud, instance_uuid):
    context = nova_context.get_admin_context()
    with nova_context.target_cell(context, cloud["cells"]["cell1"]) as cctxt:
        return objects.Instance.get_by_uuid(cctxt, instance_uuid)


def _action(api, server_id, name, token=None):
    kwargs = {"token": token} if token else {}
    return api.post(f"/v2.1/servers/{server_id}/action", {name: None}, **kwargs)


def test_delete_is_soft_with_a_reclaim_interval(
    api, nova_conf, flavor, compute_rpc, reclaim
):
    server = _in_cell(nova_conf, "cell1", host="compute-1")
    _compute_up(nova_conf)
    assert api.delete(f"/v2.1/servers/{server.uuid}").status_code == 204
    assert compute_rpc.soft_deleted == [server.uuid]
    assert compute_rpc.terminated == []
    kept = _cell_instance(nova_conf, server.uuid)
    assert kept.task_state == "soft-deleting" and kept.deleted_at is not None
    assert not kept.deleted


def test_delete_without_a_running_host_is_hard_even_with_an_interval(
    api, nova_conf, flavor, compute_rpc, reclaim
):
    server = _in_cell(nova_conf, "cell1", host="compute-gone")
    assert api.delete(f"/v2.1/servers/{server.uuid}").status_code == 204
    assert compute_rpc.soft_deleted == []
    assert api.get(f"/v2.1/servers/{server.uuid}").status_code == 404


def test_restore_a_soft_deleted_server(api, nova_conf, flavor, compute_rpc):
    server = _in_cell(nova_conf, "cell1", vm_state="soft-delete")
    _compute_up(nova_conf)
    # Another project's server does not exist for it.
    response = _action(api, server.uuid, "restore", token=OTHER)
    assert response.status_code == 404
    response = _action(api, server.uuid, "restore")
    assert response.status_code == 202, response.text
    assert compute_rpc.restored == [server.uuid]
    restoring = _cell_instance(nova_conf, server.uuid)
    assert restoring.task_state == "restoring" and restoring.deleted_at is None
    # A second restore while the first runs: 409.
    assert fault(_action(api, server.uuid, "restore"))[1] == 409


def test_restore_a_server_that_is_not_soft_deleted_is_a_conflict(
    api, nova_conf, flavor, compute_rpc
):
    server = _in_cell(nova_conf, "cell1")
    name, code, _ = fault(_action(api, server.uuid, "restore"))
    assert (name, code) == ("conflictingRequest", 409)
    assert compute_rpc.restored == []
    assert _cell_instance(nova_conf, server.uuid).vm_state == "active"


@pytest.mark.parametrize("action", ["restore", "forceDelete"])
def test_missing_server_is_a_404(api, nova_conf, action):
    response = _action(api, str(uuid.uuid4()), action)
    assert fault(response)[:2] == ("itemNotFound", 404)


def test_force_delete_deletes_a_soft_deleted_server_at_once(
    api, nova_conf, flavor, compute_rpc, reclaim
):
    server = _in_cell(nova_conf, "cell1", vm_state="soft-delete")
    _compute_up(nova_conf)
    assert _action(api, server.uuid, "forceDelete").status_code == 202
    assert compute_rpc.terminated == [server.uuid]
    assert compute_rpc.soft_deleted == []
    assert _cell_instance(nova_conf, server.uuid).task_state == "deleting"
    # Busy deleting: a second forceDelete is a conflict.
    assert fault(_action(api, server.uuid, "forceDelete"))[1] == 409
