"""Registering projects, users, roles, services and endpoints in Keystone.

Done in-process through the identity v3 REST API with a keystoneauth1
session (one token, a few dozen small requests: well under a second), not by
running the ``openstack`` CLI once per object. Every operation looks before
it creates, so registering the same plan twice changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import requests
from keystoneauth1 import adapter, session
from keystoneauth1.identity import v3

from nova.launcher.keystone import ADMIN_PROJECT, ADMIN_USER, DOMAIN

DOMAIN_ID = "default"
INTERFACES = ("public", "internal", "admin")


@dataclass(frozen=True)
class EndpointPlan:
    """A catalog service with the same URL on all three interfaces."""

    service_type: str
    service_name: str
    url: str
    description: str = ""


@dataclass(frozen=True)
class UserPlan:
    """A user with ``roles`` on ``project`` (created if missing)."""

    name: str
    password: str
    project: str
    roles: tuple[str, ...]


@dataclass
class CatalogPlan:
    """Everything to register besides what ``keystone-manage bootstrap`` did."""

    region: str
    projects: dict[str, str] = field(default_factory=dict)  # name -> description
    roles: tuple[str, ...] = ()
    users: list[UserPlan] = field(default_factory=list)
    endpoints: list[EndpointPlan] = field(default_factory=list)


def admin_session(
    auth_url: str, admin_password: str, timeout: float = 30.0
) -> session.Session:
    """A keystoneauth1 session of the bootstrap admin (project ``admin``)."""
    auth = v3.Password(
        auth_url=auth_url,
        username=ADMIN_USER,
        password=admin_password,
        project_name=ADMIN_PROJECT,
        user_domain_name=DOMAIN,
        project_domain_name=DOMAIN,
    )
    http = requests.Session()
    http.trust_env = False  # loopback: ignore proxy settings
    return session.Session(auth=auth, session=http, timeout=timeout)


class IdentityAdmin:
    """Idempotent identity operations, authenticated as the bootstrap admin."""

    def __init__(self, auth_url: str, admin_password: str, timeout: float = 30.0):
        self._api = adapter.Adapter(
            admin_session(auth_url, admin_password, timeout),
            endpoint_override=auth_url,
            connect_retries=3,
        )

    def _list(self, path: str, key: str, **query: str) -> list[dict[str, Any]]:
        return self._api.get(path, params=query).json()[key]

    def _create(self, path: str, key: str, body: dict[str, Any]) -> str:
        return self._api.post(path, json={key: body}).json()[key]["id"]

    def project(self, name: str, description: str = "") -> str:
        found = self._list("/projects", "projects", name=name, domain_id=DOMAIN_ID)
        if found:
            return found[0]["id"]
        return self._create(
            "/projects",
            "project",
            {"name": name, "domain_id": DOMAIN_ID, "description": description},
        )

    def role(self, name: str) -> str:
        found = [
            role
            for role in self._list("/roles", "roles", name=name)
            if role.get("domain_id") is None
        ]
        if found:
            return found[0]["id"]
        return self._create("/roles", "role", {"name": name})

    def user(self, name: str, password: str, project_id: str) -> str:
        """The user's id; an existing user gets ``password`` set again."""
        found = self._list("/users", "users", name=name, domain_id=DOMAIN_ID)
        if found:
            user_id = found[0]["id"]
            self._api.patch(f"/users/{user_id}", json={"user": {"password": password}})
            return user_id
        return self._create(
            "/users",
            "user",
            {
                "name": name,
                "password": password,
                "domain_id": DOMAIN_ID,
                "default_project_id": project_id,
            },
        )

    def grant(self, project_id: str, user_id: str, role_id: str) -> None:
        # PUT on an assignment is itself idempotent.
        self._api.put(f"/projects/{project_id}/users/{user_id}/roles/{role_id}")

    def service(self, service_type: str, name: str, description: str = "") -> str:
        found = [
            svc
            for svc in self._list("/services", "services", type=service_type)
            if svc.get("name") == name
        ]
        if found:
            return found[0]["id"]
        return self._create(
            "/services",
            "service",
            {"type": service_type, "name": name, "description": description},
        )

    def endpoint(self, service_id: str, interface: str, url: str, region: str) -> str:
        """Create the endpoint, or correct the URL of an existing one."""
        found = self._list(
            "/endpoints",
            "endpoints",
            service_id=service_id,
            interface=interface,
            region_id=region,
        )
        if found:
            endpoint = found[0]
            if endpoint["url"] != url:
                self._api.patch(
                    f"/endpoints/{endpoint['id']}", json={"endpoint": {"url": url}}
                )
            return endpoint["id"]
        return self._create(
            "/endpoints",
            "endpoint",
            {
                "service_id": service_id,
                "interface": interface,
                "url": url,
                "region_id": region,
            },
        )

    def register(self, plan: CatalogPlan) -> None:
        """Make Keystone hold everything in ``plan``."""
        project_ids = {
            name: self.project(name, description)
            for name, description in plan.projects.items()
        }
        role_ids = {name: self.role(name) for name in _unique(plan.roles)}
        for user in plan.users:
            project_id = project_ids.get(user.project) or self.project(user.project)
            user_id = self.user(user.name, user.password, project_id)
            for role in user.roles:
                if role not in role_ids:
                    role_ids[role] = self.role(role)
                self.grant(project_id, user_id, role_ids[role])
        for entry in plan.endpoints:
            service_id = self.service(
                entry.service_type, entry.service_name, entry.description
            )
            for interface in INTERFACES:
                self.endpoint(service_id, interface, entry.url, plan.region)


def _unique(names: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(names))
