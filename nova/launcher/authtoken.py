"""keystoneauth password options for a service user, as config sections."""

from __future__ import annotations

from dataclasses import dataclass

from nova.launcher.keystone import DOMAIN

SERVICE_PROJECT = "service"


@dataclass(frozen=True)
class ServiceUser:
    """A user in the ``service`` project that a service authenticates as."""

    username: str
    password: str
    auth_url: str
    region: str
    project_name: str = SERVICE_PROJECT

    def auth_options(self) -> dict[str, object]:
        """Options a keystoneauth ``password`` plugin loads from a group
        (``[placement]``, ``[glance]``, … in nova.conf)."""
        return {
            "auth_type": "password",
            "auth_url": self.auth_url,
            "username": self.username,
            "password": self.password,
            "project_name": self.project_name,
            "user_domain_name": DOMAIN,
            "project_domain_name": DOMAIN,
            "region_name": self.region,
        }

    def authtoken_section(self) -> dict[str, object]:
        """A ``[keystone_authtoken]`` section for keystonemiddleware."""
        return {
            "www_authenticate_uri": self.auth_url,
            **self.auth_options(),
            "memcached_servers": None,
        }
