"""What a compute host has and uses: its compute nodes and its Placement
inventory.

At start and periodically, each node the driver reports gets its
ComputeNode record (through the conductor: nova-compute has no database)
and its resource provider in Placement (uuid = compute node uuid, name =
hypervisor hostname) with VCPU, MEMORY_MB and DISK_GB inventory, allocation
ratios and reserved amounts. Placement, not this tracker, decides whether an
instance fits: the scheduler claims there before a build reaches the host.
"""

from __future__ import annotations

import math
import threading

from oslo_log import log as logging

import nova.conf
from nova import exception, objects, placement
from nova.states import vm_states

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)


def allocation_ratio(kind: str, node=None) -> float:
    """``<kind>_allocation_ratio`` when set; else the node's current ratio;
    else ``initial_<kind>_allocation_ratio`` (kind: cpu, ram, disk)."""
    configured = getattr(CONF, f"{kind}_allocation_ratio")
    if configured:
        return configured
    current = getattr(node, f"{kind}_allocation_ratio", None) if node else None
    return current or getattr(CONF, f"initial_{kind}_allocation_ratio")


def inventory_of(node) -> dict[str, dict]:
    """The Placement inventory of a compute node."""

    def record(total: int, reserved: int, ratio: float) -> dict:
        return {
            "total": total,
            "reserved": min(reserved, total),
            "min_unit": 1,
            "max_unit": total,
            "step_size": 1,
            "allocation_ratio": ratio,
        }

    inventory = {
        "VCPU": record(node.vcpus, CONF.reserved_host_cpus, node.cpu_allocation_ratio),
        "MEMORY_MB": record(
            node.memory_mb, CONF.reserved_host_memory_mb, node.ram_allocation_ratio
        ),
        "DISK_GB": record(
            node.local_gb,
            math.ceil(CONF.reserved_host_disk_mb / 1024),
            node.disk_allocation_ratio,
        ),
    }
    # A class with nothing to offer cannot be an inventory record.
    return {rc: r for rc, r in inventory.items() if r["total"] > 0}


# Task states that keep a host's disks and network busy (upstream's list);
# the scheduler's IoOpsFilter and IoOpsWeigher read their count.
_IO_TASK_STATES = frozenset(
    {
        "resize_migrating",
        "rebuilding",
        "resize_prep",
        "image_snapshot",
        "image_backup",
        "rescuing",
        "unshelving",
    }
)


class ResourceTracker:
    """The compute nodes of one host."""

    def __init__(self, host: str, driver) -> None:
        self.host = host
        self.driver = driver
        self.compute_nodes: dict[str, objects.ComputeNode] = {}
        self._lock = threading.Lock()
        # Builds failed per node since its last successful one.
        self.failed_builds: dict[str, int] = {}

    def update_available_resource(self, context, service_id: int) -> None:
        """Refresh every node's record, usage and Placement inventory.

        Usage (vcpus_used, running_vms, ...) is informational: Placement
        holds the authoritative allocations, so it is recounted here, not
        after every build.
        """
        for nodename in self.driver.get_available_nodes(refresh=True):
            resources = self.driver.get_available_resource(nodename)
            with self._lock:
                node = self._node(context, nodename, resources, service_id)
                self._update_usage(context, node)
                node.save()
            self._report_inventory(context, node)

    def _node(self, context, nodename, resources, service_id) -> objects.ComputeNode:
        node = self.compute_nodes.get(nodename)
        if node is None:
            try:
                node = objects.ComputeNode.get_by_host_and_nodename(
                    context, self.host, nodename
                )
            except exception.ComputeHostNotFound:
                node = None
        values = {
            "service_id": service_id,
            "host": self.host,
            "hypervisor_hostname": nodename,
            "vcpus": resources["vcpus"],
            "memory_mb": resources["memory_mb"],
            "local_gb": resources["local_gb"],
            "hypervisor_type": resources["hypervisor_type"],
            "hypervisor_version": resources["hypervisor_version"],
            "cpu_info": resources.get("cpu_info") or "{}",
            "disk_available_least": resources.get("disk_available_least"),
            "supported_hv_specs": resources.get("supported_instances") or [],
            "host_ip": CONF.my_ip,
            "cpu_allocation_ratio": allocation_ratio("cpu", node),
            "ram_allocation_ratio": allocation_ratio("ram", node),
            "disk_allocation_ratio": allocation_ratio("disk", node),
        }
        if node is None:
            node = objects.ComputeNode(
                context,
                vcpus_used=0,
                memory_mb_used=0,
                local_gb_used=0,
                stats={},
                **values,
            )
            node.create()
            LOG.info("Created compute node %s (%s)", nodename, node.uuid)
        else:
            for name, value in values.items():
                if getattr(node, name, None) != value:
                    setattr(node, name, value)
        self.compute_nodes[nodename] = node
        return node

    def _update_usage(self, context, node) -> None:
        instances = objects.InstanceList.get_by_host_and_node(
            context, self.host, node.hypervisor_hostname, expected_attrs=["flavor"]
        )
        live = [i for i in instances if i.vm_state != vm_states.DELETED]
        vcpus = sum(i.flavor.vcpus for i in live)
        memory = sum(i.flavor.memory_mb for i in live)
        disk = sum(i.flavor.root_gb + i.flavor.ephemeral_gb for i in live)
        usage = {
            "vcpus_used": vcpus,
            "memory_mb_used": memory + CONF.reserved_host_memory_mb,
            "local_gb_used": disk + math.ceil(CONF.reserved_host_disk_mb / 1024),
            "running_vms": len(live),
            "current_workload": sum(1 for i in live if i.task_state is not None),
            "stats": {
                "num_instances": str(len(live)),
                "io_workload": str(
                    sum(
                        1
                        for i in live
                        if i.vm_state == vm_states.BUILDING
                        or i.task_state in _IO_TASK_STATES
                    )
                ),
                "failed_builds": str(
                    self.failed_builds.get(node.hypervisor_hostname, 0)
                ),
            },
        }
        usage["free_ram_mb"] = node.memory_mb - usage["memory_mb_used"]
        usage["free_disk_gb"] = node.local_gb - usage["local_gb_used"]
        for name, value in usage.items():
            if getattr(node, name, None) != value:
                setattr(node, name, value)

    def _report_inventory(self, context, node) -> None:
        client = placement.client()
        client.ensure_provider(node.uuid, node.hypervisor_hostname, context=context)
        client.set_inventory(node.uuid, inventory_of(node), context=context)

    def build_finished(self, context, nodename: str | None, failed: bool) -> None:
        """Count a build failure on ``nodename``, or reset the count after a
        success, and tell the scheduler (node stat ``failed_builds``, which
        BuildFailureWeigher reads) right away."""
        nodename = nodename or next(iter(self.compute_nodes), None)
        if nodename is None:
            return
        count = self.failed_builds.get(nodename, 0) + 1 if failed else 0
        if count == self.failed_builds.get(nodename, 0):
            return
        with self._lock:
            self.failed_builds[nodename] = count
            node = self.compute_nodes.get(nodename)
            if node is None:
                return
            node.stats = {**(node.stats or {}), "failed_builds": str(count)}
            node.save()

    def set_status_trait(self, context, disabled: bool) -> None:
        """Put ``COMPUTE_STATUS_DISABLED`` on the providers of this host's
        nodes while its service is disabled, and take it off otherwise, so
        that Placement leaves them out of allocation candidates."""
        client = placement.client()
        for node in list(self.compute_nodes.values()):
            current = client.get_traits(node.uuid, context=context)
            if disabled:
                wanted = current.traits | {placement.COMPUTE_STATUS_DISABLED}
            else:
                wanted = current.traits - {placement.COMPUTE_STATUS_DISABLED}
            if wanted != current.traits:
                client.set_traits(
                    node.uuid,
                    wanted,
                    generation=current.generation,
                    context=context,
                )
