"""What an instance is told about itself, in both formats.

:class:`InstanceMetadata` is built once per instance (and cached by the
metadata API's handler); :meth:`InstanceMetadata.lookup_openstack` and
:meth:`InstanceMetadata.lookup_ec2` answer a path below ``/openstack`` or
``/`` (EC2) with the data at that path: a dict (a directory, listed), a
string or bytes (a file), or ``None`` (nothing there).
:meth:`InstanceMetadata.config_drive_files` lays the same trees out as the
files of a config drive.
"""

from __future__ import annotations

import base64
import json
import os
from collections.abc import Callable, Iterator
from typing import Any

import netaddr

import nova.conf
from nova import exception
from nova.metadata import password, vendordata
from nova.network import model as network_model

CONF = nova.conf.CONF

# EC2 versions, oldest first; each adds keys to meta-data.
EC2_VERSIONS = (
    "1.0",
    "2007-01-19",
    "2007-03-01",
    "2007-08-29",
    "2007-10-10",
    "2007-12-15",
    "2008-02-01",
    "2008-09-01",
    "2009-04-04",
)
# OpenStack versions, oldest first, and the one each file appeared in.
OPENSTACK_VERSIONS = (
    "2012-08-10",
    "2013-04-04",
    "2013-10-17",
    "2015-10-15",
    "2016-06-30",
    "2016-10-06",
    "2017-02-22",
    "2018-08-27",
    "2020-10-14",
)
LATEST = "latest"
FOLSOM = "2012-08-10"
GRIZZLY = "2013-04-04"
HAVANA = "2013-10-17"
LIBERTY = "2015-10-15"
NEWTON_TWO = "2016-10-06"

MD_JSON = "meta_data.json"
VD_JSON = "vendor_data.json"
VD2_JSON = "vendor_data2.json"
NW_JSON = "network_data.json"
USER_DATA = "user_data"
PASSWORD = "password"


def _version_at_least(version: str, minimum: str) -> bool:
    # "latest" is newer than any date; dates compare as strings.
    return version == LATEST or version >= minimum


def ec2_instance_id(instance) -> str:
    """The EC2 id of the instance (``i-`` and its database id in hex)."""
    return f"i-{instance.id:08x}"


def ec2_image_id(image_ref: str | None, kind: str = "ami") -> str | None:
    """An EC2-style id for a Glance image: the kind and the first 8 hex
    digits of its uuid, stable for the image."""
    if not image_ref:
        return None
    return f"{kind}-{image_ref.replace('-', '')[:8]}"


class InstanceMetadata:
    """The metadata of one instance, as of the moment it was built."""

    def __init__(
        self,
        instance,
        content: list[tuple[str, bytes]] | None = None,
        extra_md: dict[str, Any] | None = None,
    ) -> None:
        """``content`` is the personality files (path, bytes) and
        ``extra_md`` what meta_data.json adds (``admin_pass``): both only
        reach the guest on its config drive, never over the API."""
        self.instance = instance
        # openstack/content/0000, 0001, ... in the order they were given.
        self.content = {
            f"{index:04d}": (path, data)
            for index, (path, data) in enumerate(content or [])
        }
        self.extra_md = dict(extra_md or {})
        self.uuid = instance.uuid
        self.project_id = instance.project_id
        cache = instance.info_cache
        self.network_info = network_model.NetworkInfo.hydrate(
            cache.network_info if cache else None
        )
        self.user_data = (
            base64.b64decode(instance.user_data) if instance.user_data else None
        )
        self.password = password.extract_password(instance)
        self.vendordata = vendordata.VendorData(instance)
        self._openstack_files: dict[str, Callable[[str], Any]] = {
            MD_JSON: self._meta_data_json,
            USER_DATA: lambda version: self.user_data,
            PASSWORD: lambda version: self.password or "",
            VD_JSON: lambda version: json.dumps(self.vendordata.static()),
            NW_JSON: lambda version: json.dumps(self.network_data()),
            VD2_JSON: lambda version: json.dumps(self.vendordata.dynamic()),
        }

    # -- shared ----------------------------------------------------------

    @property
    def hostname(self) -> str:
        hostname = self.instance.hostname or ""
        if CONF.api.dhcp_domain:
            return f"{hostname}.{CONF.api.dhcp_domain}"
        return hostname

    def _public_keys(self) -> dict[str, str]:
        if not self.instance.key_name or not self.instance.key_data:
            return {}
        return {self.instance.key_name: self.instance.key_data}

    # -- OpenStack format ------------------------------------------------

    def _openstack_file_names(self, version: str) -> list[str]:
        names = [MD_JSON]
        if self.user_data is not None:
            names.append(USER_DATA)
        if _version_at_least(version, GRIZZLY):
            names.append(PASSWORD)
        if _version_at_least(version, HAVANA):
            names.append(VD_JSON)
        if _version_at_least(version, LIBERTY):
            names.append(NW_JSON)
        if _version_at_least(version, NEWTON_TWO):
            names.append(VD2_JSON)
        return names

    def _meta_data_json(self, version: str) -> str:
        instance = self.instance
        public_keys = self._public_keys()
        body: dict[str, Any] = {
            "uuid": instance.uuid,
            "name": instance.display_name,
            "hostname": self.hostname,
            "launch_index": instance.launch_index,
            "availability_zone": instance.availability_zone,
            "meta": dict(instance.metadata),
            # Fresh entropy for guests that boot with little of their own.
            "random_seed": base64.b64encode(os.urandom(512)).decode(),
            "project_id": instance.project_id,
        }
        if public_keys:
            body["public_keys"] = public_keys
            body["keys"] = [
                {"name": name, "type": "ssh", "data": data}
                for name, data in public_keys.items()
            ]
        if self.content:
            body["files"] = [
                {"path": path, "content_path": f"/content/{key}"}
                for key, (path, _) in self.content.items()
            ]
        body.update(self.extra_md)
        if _version_at_least(version, "2017-02-22"):
            # Tagged devices are not recorded here, so there are none.
            body["devices"] = []
        if _version_at_least(version, "2020-10-14"):
            body["dedicated_cpus"] = []
        return json.dumps(body)

    def network_data(self) -> dict[str, list]:
        """``network_data.json``: links, networks and DNS services from the
        instance's network info."""
        links, networks, services = [], [], []
        for vif in self.network_info:
            network = vif["network"]
            link_id = vif["devname"] or f"tap{(vif['id'] or '')[:11]}"
            links.append(
                {
                    "id": link_id,
                    "vif_id": vif["id"],
                    "type": vif["type"] or "ethernet",
                    "mtu": network["meta"].get("mtu") if network else None,
                    "ethernet_mac_address": vif["address"],
                }
            )
            for subnet in network["subnets"] if network else []:
                version = subnet["version"] or 4
                gateway = _address(subnet["gateway"])
                for ip in subnet["ips"]:
                    if ip["type"] != "fixed":
                        continue
                    entry = {
                        "id": f"network{len(networks)}",
                        "link": link_id,
                        "network_id": network["id"],
                        "type": f"ipv{version}",
                        "ip_address": ip["address"],
                        "routes": [
                            {
                                "network": route["cidr"],
                                "gateway": _address(route["gateway"]),
                            }
                            for route in subnet["routes"]
                        ],
                    }
                    if subnet["cidr"]:
                        entry["netmask"] = _netmask(subnet["cidr"])
                    if gateway:
                        entry["routes"].append(
                            {
                                "network": "0.0.0.0" if version == 4 else "::",
                                "netmask": "0.0.0.0" if version == 4 else "::",
                                "gateway": gateway,
                            }
                        )
                    networks.append(entry)
                for dns in subnet["dns"]:
                    service = {"type": "dns", "address": dns["address"]}
                    if service not in services:
                        services.append(service)
        return {"links": links, "networks": networks, "services": services}

    def lookup_openstack(self, path: list[str]) -> Any:
        """``/openstack/<path>``: the versions, a version's files, a file."""
        if not path:
            return [*OPENSTACK_VERSIONS, LATEST]
        version, rest = path[0], path[1:]
        if version not in OPENSTACK_VERSIONS and version != LATEST:
            return None
        names = self._openstack_file_names(version)
        if not rest:
            return dict.fromkeys(names, "")
        if len(rest) != 1 or rest[0] not in names:
            return None
        return self._openstack_files[rest[0]](version)

    def config_drive_files(self) -> Iterator[tuple[str, bytes]]:
        """(path, bytes) of every file on the instance's config drive: the
        EC2 versions not in ``[api] config_drive_skip_versions``, every
        OpenStack version but its password (a guest posts that), and the
        personality files under ``openstack/content``."""
        skipped = set(CONF.api.config_drive_skip_versions.split())
        for version in self.ec2_versions():
            if version in skipped:
                continue
            tree = self.ec2_metadata(version)
            yield (
                f"ec2/{version}/meta-data.json",
                json.dumps(tree["meta-data"]).encode(),
            )
            if "user-data" in tree:
                yield f"ec2/{version}/user-data", tree["user-data"]
        for version in [*OPENSTACK_VERSIONS, LATEST]:
            for name in self._openstack_file_names(version):
                if name == PASSWORD:
                    continue
                data = self._openstack_files[name](version)
                yield f"openstack/{version}/{name}", _as_bytes(data)
        for key, (_, data) in self.content.items():
            yield f"openstack/content/{key}", data

    # -- EC2 format ------------------------------------------------------

    @staticmethod
    def ec2_versions() -> list[str]:
        """``/``: the EC2 versions served, oldest first, then latest."""
        return [*EC2_VERSIONS, LATEST]

    def ec2_metadata(self, version: str) -> dict[str, Any]:
        """The EC2 tree of ``version``: ``meta-data`` and ``user-data``."""
        instance = self.instance
        fixed = [ip["address"] for ip in self.network_info.fixed_ips()]
        floating = [ip["address"] for ip in self.network_info.floating_ips()]
        hostname = self.hostname
        meta: dict[str, Any] = {
            "ami-id": ec2_image_id(instance.image_ref),
            "ami-launch-index": instance.launch_index,
            "ami-manifest-path": "FIXME",
            "instance-id": ec2_instance_id(instance),
            "hostname": hostname,
            "local-ipv4": fixed[0] if fixed else "",
            "reservation-id": instance.reservation_id,
            "security-groups": ["default"],
        }
        public_keys = self._public_keys()
        if public_keys:
            meta["public-keys"] = {
                f"{index}={name}": {"openssh-key": data}
                for index, (name, data) in enumerate(public_keys.items())
            }
        if _version_at_least(version, "2007-01-19"):
            meta["local-hostname"] = hostname
            meta["public-hostname"] = hostname
            meta["public-ipv4"] = floating[0] if floating else ""
        if _version_at_least(version, "2007-08-29"):
            meta["instance-type"] = instance.flavor.name
        if _version_at_least(version, "2007-10-10"):
            for kind, ref in (
                ("aki", instance.kernel_id),
                ("ari", instance.ramdisk_id),
            ):
                if ref:
                    name = "kernel-id" if kind == "aki" else "ramdisk-id"
                    meta[name] = ec2_image_id(ref, kind)
        if _version_at_least(version, "2007-12-15"):
            meta["block-device-mapping"] = {
                "ami": "vda",
                "root": instance.root_device_name or "/dev/vda",
            }
        if _version_at_least(version, "2008-02-01"):
            meta["placement"] = {"availability-zone": instance.availability_zone}
        if _version_at_least(version, "2008-09-01"):
            meta["instance-action"] = "none"
        # A key without a value (no image, say) is not listed at all.
        meta = {key: value for key, value in meta.items() if value is not None}
        tree: dict[str, Any] = {"meta-data": meta}
        if self.user_data is not None:
            tree["user-data"] = self.user_data
        return tree

    def lookup_ec2(self, path: list[str]) -> Any:
        """``/<path>`` in the EC2 format."""
        if not path:
            return self.ec2_versions()
        version = path[0]
        if version not in EC2_VERSIONS and version != LATEST:
            return None
        data: Any = self.ec2_metadata(version)
        for part in path[1:]:
            if isinstance(data, dict) and part in data:
                data = data[part]
                continue
            # public-keys/0/openssh-key: listed as "0=name", reached as "0".
            if isinstance(data, dict):
                aliased = [key for key in data if key.split("=", 1)[0] == part]
                if aliased:
                    data = data[aliased[0]]
                    continue
            return None
        return data


def _as_bytes(data: str | bytes) -> bytes:
    return data if isinstance(data, bytes) else data.encode()


def _address(ip: network_model.IP | None) -> str | None:
    return ip["address"] if ip else None


def _netmask(cidr: str) -> str:
    return str(netaddr.IPNetwork(cidr).netmask)


def instance_metadata(instance) -> InstanceMetadata:
    """The metadata of ``instance``; a deleted instance has none."""
    if instance.deleted:
        raise exception.InstanceNotFound(instance_id=instance.uuid)
    return InstanceMetadata(instance)
