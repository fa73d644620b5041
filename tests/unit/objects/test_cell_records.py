"""ComputeNode, Service and Instance reads of a cell database."""

import datetime
import uuid

import pytest

from nova import exception, objects
from nova.db import engines
from nova.db.main import models


def _node(ctxt, host, mapped=0, deleted=False):
    with engines.transaction(ctxt.db_connection) as session:
        row = models.ComputeNode(
            uuid=str(uuid.uuid4()), host=host, hypervisor_hostname=host,
            vcpus=1, memory_mb=1, local_gb=1, vcpus_used=0, memory_mb_used=0,
            local_gb_used=0, hypervisor_type="fake", hypervisor_version=1,
            cpu_info="{}", mapped=mapped,
        )  # fmt: skip
        session.add(row)
        session.flush()
        if deleted:
            row.deleted = row.id


def test_compute_nodes_by_mapped_flag_and_host(ctxt):
    _node(ctxt, "new")
    _node(ctxt, "old", mapped=1)
    _node(ctxt, "gone", deleted=True)

    unmapped = objects.ComputeNodeList.get_all_by_not_mapped(ctxt, 1)
    assert [node.host for node in unmapped] == ["new"]
    node = unmapped[0]
    node.mapped = 1
    node.save()
    assert list(objects.ComputeNodeList.get_all_by_not_mapped(ctxt, 1)) == []
    assert objects.ComputeNodeList.get_all_by_host(ctxt, "new")[0].mapped == 1
    with pytest.raises(exception.ComputeHostNotFound):
        objects.ComputeNodeList.get_all_by_host(ctxt, "gone")
    assert len(objects.ComputeNodeList.get_all(ctxt)) == 2


def test_services_by_binary(ctxt):
    with engines.transaction(ctxt.db_connection) as session:
        session.add_all(
            [
                models.Service(host="c1", binary="nova-compute"),
                models.Service(host="c2", binary="nova-compute", disabled=True),
                models.Service(host="k1", binary="nova-conductor"),
            ]
        )
    enabled = objects.ServiceList.get_by_binary(ctxt, "nova-compute")
    assert [s.host for s in enabled] == ["c1"]
    every = objects.ServiceList.get_by_binary(
        ctxt, "nova-compute", include_disabled=True
    )
    assert [s.host for s in every] == ["c1", "c2"]


def test_instance_pages_in_creation_order(ctxt):
    day = datetime.datetime(2024, 1, 1)
    created = [day, day, day + datetime.timedelta(1), day - datetime.timedelta(1)]
    uuids = []
    with engines.transaction(ctxt.db_connection) as session:
        for created_at in created:
            uuids.append(str(uuid.uuid4()))
            session.add(models.Instance(uuid=uuids[-1], created_at=created_at))
    oldest_first = [uuids[3], uuids[0], uuids[1], uuids[2]]

    def page(marker=None):
        found = objects.InstanceList.get_page_oldest_first(ctxt, 2, marker)
        return [instance.uuid for instance in found]

    assert page() == oldest_first[:2]
    assert page(oldest_first[1]) == oldest_first[2:]
    assert page(oldest_first[3]) == []
    with pytest.raises(exception.MarkerNotFound):
        page(str(uuid.uuid4()))


def test_instances_by_host_and_uuid(ctxt):
    with engines.transaction(ctxt.db_connection) as session:
        session.add(
            models.Instance(uuid="11111111-1111-4111-8111-111111111111", host="h")
        )
    assert len(objects.InstanceList.get_by_host(ctxt, "h")) == 1
    assert objects.InstanceList.get_by_host(ctxt, "other").objects == []
    with pytest.raises(exception.InstanceNotFound):
        objects.Instance.get_by_uuid(ctxt, "22222222-2222-4222-8222-222222222222")
