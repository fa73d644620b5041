"""Security groups in Neutron, in nova's shapes: the proxy API
(``os-security-groups``, ``os-security-group-rules``) and a server's groups
(``addSecurityGroup``, ``removeSecurityGroup``,
``/servers/{id}/os-security-groups``), which act on its ports.

A group as nova shows it::

    {"id", "name", "description", "tenant_id",
     "rules": [{"id", "parent_group_id", "ip_protocol", "from_port",
                "to_port", "ip_range": {"cidr"} or {},
                "group": {"name", "tenant_id"} or {}}]}

Only ingress rules are shown and made (nova-network had no others). Neutron's
answers become nova's errors: 404 not found, 400 a bad or duplicate rule or
a group in use, 403 over quota, 409 a name several groups have.
"""

from __future__ import annotations

from typing import Any

import netaddr
from oslo_log import log as logging
from oslo_utils import uuidutils

from nova import exception
from nova.network import neutron_client

LOG = logging.getLogger(__name__)

MAX_PORT = 65535
MAX_ICMP = 255
PROTOCOLS = ("tcp", "udp", "icmp")


def validate_id(group_id: str) -> None:
    """:raises Invalid: ``group_id`` is not a Neutron id (a UUID)."""
    if not uuidutils.is_uuid_like(group_id):
        raise exception.Invalid("Security group id should be uuid")


def validate_property(value: Any, name: str) -> str:
    """A group's ``name`` or ``description``: a string of 1 to 255
    characters once stripped.

    :raises Invalid: it is not.
    """
    if not isinstance(value, str):
        raise exception.Invalid(f"Security group {name} is not a string or unicode")
    stripped = value.strip()
    if not stripped:
        raise exception.Invalid(f"Security group {name} cannot be empty.")
    if len(stripped) > 255:
        raise exception.Invalid(
            f"Security group {name} should not be greater than 255 characters."
        )
    return stripped


def _port_number(value: Any, name: str) -> int | None:
    if value is None or value == "":
        return None
    try:
        return int(value)
    except (TypeError, ValueError) as exc:
        raise exception.Invalid(f"{name} is not an integer") from exc


def new_rule(
    parent_group_id: str,
    ip_protocol: str | None,
    from_port: Any,
    to_port: Any,
    cidr: str | None,
    group_id: str | None,
) -> dict[str, Any]:
    """Neutron's body of an ingress rule for the nova-style request.

    :raises Invalid: a bad protocol, port range or CIDR, or both a CIDR
        and a source group.
    """
    if cidr and group_id:
        raise exception.Invalid(
            "Not enough parameters: specify either cidr or group_id, not both"
        )
    protocol = (ip_protocol or "").lower() or None
    if protocol is not None and protocol not in PROTOCOLS:
        raise exception.Invalid(f"Invalid IP protocol {ip_protocol}.")
    low = _port_number(from_port, "from_port")
    high = _port_number(to_port, "to_port")
    if protocol in ("tcp", "udp"):
        if low is None or high is None:
            raise exception.Invalid(
                "Invalid port range: from_port and to_port are needed"
            )
        if not (1 <= low <= MAX_PORT and 1 <= high <= MAX_PORT) or low > high:
            raise exception.Invalid(
                f"Invalid port range {low}:{high}. Valid TCP ports should be "
                "between 1-65535"
            )
    elif protocol == "icmp":
        # -1 is "any type" / "any code".
        for value, what in ((low, "type"), (high, "code")):
            if value is not None and not -1 <= value <= MAX_ICMP:
                raise exception.Invalid(
                    f"ICMP {what} {value} is out of range: -1 to 255"
                )
        low = None if low == -1 else low
        high = None if high == -1 else high
        if low is None and high is not None:
            raise exception.Invalid("An ICMP code needs an ICMP type")
    elif low is not None or high is not None:
        if (low, high) != (-1, -1):
            raise exception.Invalid("Ports need a protocol (tcp, udp or icmp)")
        low = high = None
    ethertype = "IPv4"
    if not group_id:
        cidr = cidr or "0.0.0.0/0"
        try:
            network = netaddr.IPNetwork(cidr)
        except (netaddr.AddrFormatError, ValueError, TypeError) as exc:
            raise exception.Invalid(f"Invalid cidr {cidr}.") from exc
        ethertype = f"IPv{network.version}"
    return {
        "security_group_id": parent_group_id,
        "direction": "ingress",
        "ethertype": ethertype,
        "protocol": protocol,
        "port_range_min": low,
        "port_range_max": high,
        "remote_ip_prefix": None if group_id else cidr,
        "remote_group_id": group_id or None,
    }


class SecurityGroupAPI(neutron_client.NeutronClient):
    """Neutron's security groups, as nova's API shows and changes them."""

    # -- shapes ---------------------------------------------------------------

    def _format_rule(self, rule: dict, names: dict[str, dict]) -> dict[str, Any]:
        protocol = rule.get("protocol")
        low, high = rule.get("port_range_min"), rule.get("port_range_max")
        if protocol and low is None and high is None:
            low, high = (
                (1, MAX_PORT) if protocol.upper() in ("TCP", "UDP") else (-1, -1)
            )
        view: dict[str, Any] = {
            "id": rule["id"],
            "parent_group_id": rule["security_group_id"],
            "ip_protocol": protocol,
            "from_port": low,
            "to_port": high,
            "group": {},
            "ip_range": {},
        }
        remote = rule.get("remote_group_id")
        if remote:
            source = names.get(remote, {})
            view["group"] = {
                "name": source.get("name"),
                "tenant_id": source.get("project_id"),
            }
        else:
            view["ip_range"] = {
                "cidr": rule.get("remote_ip_prefix")
                or ("0.0.0.0/0" if rule.get("ethertype", "IPv4") == "IPv4" else "::/0")
            }
        return view

    def _format(self, group: dict, names: dict[str, dict]) -> dict[str, Any]:
        return {
            "id": group["id"],
            "name": group["name"],
            "description": group.get("description"),
            "tenant_id": group.get("project_id"),
            "rules": [
                self._format_rule(rule, names)
                for rule in group.get("security_group_rules", [])
                if rule.get("direction") == "ingress"
            ],
        }

    def _format_all(self, context, groups: list[dict]) -> list[dict[str, Any]]:
        """Nova's view of ``groups``, naming the source groups of rules (one
        look-up for those not among them)."""
        names = {group["id"]: group for group in groups}
        missing = {
            rule["remote_group_id"]
            for group in groups
            for rule in group.get("security_group_rules", [])
            if rule.get("remote_group_id") and rule["remote_group_id"] not in names
        }
        if missing:
            for group in self._list(context, "security-groups", id=sorted(missing)):
                names[group["id"]] = group
        return [self._format(group, names) for group in groups]

    # -- groups ---------------------------------------------------------------

    def _group(self, context, group_id: str) -> dict[str, Any]:
        validate_id(group_id)
        return self._show(
            context,
            "security-groups",
            group_id,
            exception.SecurityGroupNotFound(security_group_id=group_id),
        )

    def list(self, context, all_projects: bool = False) -> list[dict[str, Any]]:
        """The caller's project's groups (every project's for an admin who
        asks for ``all_projects``), by name."""
        params = (
            {}
            if all_projects and context.is_admin
            else {"project_id": context.project_id}
        )
        groups = self._list(context, "security-groups", **params)
        groups.sort(key=lambda group: (group.get("project_id") or "", group["name"]))
        return self._format_all(context, groups)

    def get(self, context, group_id: str) -> dict[str, Any]:
        """:raises SecurityGroupNotFound: no such group of the caller's."""
        return self._format_all(context, [self._group(context, group_id)])[0]

    def create(self, context, name: str, description: str) -> dict[str, Any]:
        """:raises SecurityGroupLimitExceeded: over the project's quota."""
        # Nova calls Neutron as its service user: the group is the caller's.
        body = {
            "name": name,
            "description": description,
            "project_id": context.project_id,
        }
        response = self._call(
            context, "POST", "/security-groups", json={"security_group": body}
        )
        self._raise_for_group(response, name)
        return self.get(context, response.json()["security_group"]["id"])

    def update(
        self, context, group_id: str, name: str, description: str
    ) -> dict[str, Any]:
        self._group(context, group_id)
        body = {"name": name, "description": description}
        response = self._call(
            context,
            "PUT",
            f"/security-groups/{group_id}",
            json={"security_group": body},
        )
        self._raise_for_group(response, group_id)
        return self.get(context, group_id)

    def delete(self, context, group_id: str) -> None:
        """:raises Invalid: the group is in use, or is ``default`` and the
        caller no admin (Neutron's rule, which nova's service user is above)."""
        group = self._group(context, group_id)
        if group["name"] == "default" and not context.is_admin:
            raise exception.Invalid("Removing default security group not allowed.")
        response = self._call(context, "DELETE", f"/security-groups/{group_id}")
        self._raise_for_group(response, group_id)

    @staticmethod
    def _raise_for_group(response, group: str) -> None:
        if response.status_code < 400:
            return
        message = neutron_client.error_message(response)
        if response.status_code == 404:
            raise exception.SecurityGroupNotFound(security_group_id=group)
        if neutron_client.error_type(response) == "OverQuota":
            raise exception.SecurityGroupLimitExceeded(reason=message)
        # A group in use or the default one (409), a bad value (400).
        raise exception.Invalid(message)

    # -- rules ----------------------------------------------------------------

    def create_rule(self, context, body: dict[str, Any]) -> dict[str, Any]:
        """Add the ingress rule ``body`` (from :func:`new_rule`).

        :raises SecurityGroupNotFound: its group or source group is not
            the caller's.
        :raises SecurityGroupRuleExists: (400) the group has it already.
        """
        parent = self._group(context, body["security_group_id"])
        if body.get("remote_group_id"):
            self._group(context, body["remote_group_id"])
        response = self._call(
            context,
            "POST",
            "/security-group-rules",
            json={"security_group_rule": {**body, "project_id": parent["project_id"]}},
        )
        if response.status_code >= 400:
            error = neutron_client.error_type(response)
            if error == "SecurityGroupRuleExists":
                raise exception.SecurityGroupRuleExists(rule=body["security_group_id"])
            if error == "OverQuota":
                raise exception.SecurityGroupLimitExceeded(
                    reason=neutron_client.error_message(response)
                )
            if response.status_code == 404:
                raise exception.SecurityGroupNotFound(
                    security_group_id=body["security_group_id"]
                )
            raise exception.Invalid(neutron_client.error_message(response))
        rule = response.json()["security_group_rule"]
        names = {}
        if rule.get("remote_group_id"):
            names[rule["remote_group_id"]] = self._group(
                context, rule["remote_group_id"]
            )
        return self._format_rule(rule, names)

    def delete_rule(self, context, rule_id: str) -> None:
        """:raises SecurityGroupNotFound: (404) no such rule of the caller's."""
        if not uuidutils.is_uuid_like(rule_id):
            raise exception.Invalid("Security group rule id should be uuid")
        response = self._call(context, "GET", f"/security-group-rules/{rule_id}")
        if response.status_code == 404:
            raise exception.SecurityGroupRuleNotFound(rule_id=rule_id)
        # A rule is the caller's when its group is.
        try:
            self._group(
                context, response.json()["security_group_rule"]["security_group_id"]
            )
        except exception.SecurityGroupNotFound as exc:
            raise exception.SecurityGroupRuleNotFound(rule_id=rule_id) from exc
        response = self._call(context, "DELETE", f"/security-group-rules/{rule_id}")
        if response.status_code == 404:
            raise exception.SecurityGroupRuleNotFound(rule_id=rule_id)
        if response.status_code >= 400:
            raise exception.Invalid(neutron_client.error_message(response))

    # -- a server's groups ----------------------------------------------------

    def _group_id_by_name(self, context, project_id: str, name_or_id: str) -> str:
        """:raises SecurityGroupNotFound: the project has no such group.
        :raises NoUniqueMatch: (409) several have that name."""
        groups = self._list(context, "security-groups", project_id=project_id)
        by_id = [g["id"] for g in groups if g["id"] == name_or_id]
        if by_id:
            return by_id[0]
        by_name = [g["id"] for g in groups if g["name"] == name_or_id]
        if len(by_name) > 1:
            raise exception.NoUniqueMatch(
                f"Multiple security_group matches found for name '{name_or_id}', "
                "use an ID to be more specific."
            )
        if not by_name:
            raise exception.SecurityGroupNotFound(security_group_id=name_or_id)
        return by_name[0]

    def for_instance(self, context, instance) -> list[dict[str, Any]]:
        """The groups of the instance's ports, in nova's shape."""
        ports = self._list(context, "ports", device_id=instance.uuid)
        ids = sorted({gid for port in ports for gid in port.get("security_groups", [])})
        if not ids:
            return []
        groups = self._list(context, "security-groups", id=ids)
        groups.sort(key=lambda group: group["name"])
        return self._format_all(context, groups)

    def _ports_of(self, context, instance) -> list[dict[str, Any]]:
        ports = self._list(context, "ports", device_id=instance.uuid)
        if not ports:
            raise exception.NotFound(
                f"instance_id {instance.uuid} could not be found as device id "
                "on any ports"
            )
        for port in ports:
            if not port.get("port_security_enabled", True) or not port.get("fixed_ips"):
                raise exception.SecurityGroupCannotBeApplied()
        return ports

    def _set_groups(self, context, port: dict, groups: list[str]) -> None:
        response = self._call(
            context,
            "PUT",
            f"/ports/{port['id']}",
            json={"port": {"security_groups": groups}},
        )
        if response.status_code >= 400:
            raise exception.Invalid(neutron_client.error_message(response))

    def add_to_instance(self, context, instance, name: str) -> None:
        """Put every port of the instance in the group ``name``.

        :raises SecurityGroupExistsForInstance: (400) they are in it.
        """
        group_id = self._group_id_by_name(context, instance.project_id, name)
        ports = self._ports_of(context, instance)
        if all(group_id in port.get("security_groups", []) for port in ports):
            raise exception.SecurityGroupExistsForInstance(
                security_group_id=name, instance_id=instance.uuid
            )
        for port in ports:
            groups = port.get("security_groups", [])
            if group_id not in groups:
                self._set_groups(context, port, [*groups, group_id])

    def remove_from_instance(self, context, instance, name: str) -> None:
        """Take every port of the instance out of the group ``name``.

        :raises SecurityGroupNotExistsForInstance: (400) none is in it.
        """
        group_id = self._group_id_by_name(context, instance.project_id, name)
        ports = self._list(context, "ports", device_id=instance.uuid)
        found = False
        for port in ports:
            groups = port.get("security_groups", [])
            if group_id in groups:
                found = True
                self._set_groups(
                    context, port, [gid for gid in groups if gid != group_id]
                )
        if not found:
            raise exception.SecurityGroupNotExistsForInstance(
                security_group_id=name, instance_id=instance.uuid
            )
