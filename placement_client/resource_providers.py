"""Resource providers: look up, create, ensure, delete, and their usages."""

from __future__ import annotations

import dataclasses
from typing import Any

from oslo_log import log as logging

from placement_client import exception
from placement_client.transport import RequestContext, Transport

LOG = logging.getLogger(__name__)

# 1.14 adds parent/root provider UUIDs to the representation.
PROVIDER_READ_VERSION = "1.14"
# 1.20: POST returns the new provider; 1.23: error codes tell a duplicate
# name from a provider still in use.
PROVIDER_WRITE_VERSION = "1.23"
PROVIDER_USAGES_VERSION = "1.0"


@dataclasses.dataclass(frozen=True)
class ResourceProvider:
    """A resource provider as Placement reports it."""

    uuid: str
    name: str
    generation: int
    parent_provider_uuid: str | None = None
    root_provider_uuid: str | None = None

    @classmethod
    def from_body(cls, body: dict[str, Any]) -> ResourceProvider:
        return cls(
            uuid=body["uuid"],
            name=body["name"],
            generation=body["generation"],
            parent_provider_uuid=body.get("parent_provider_uuid"),
            root_provider_uuid=body.get("root_provider_uuid"),
        )


class ResourceProviderMethods:
    """Provider CRUD; mixed into :class:`placement_client.PlacementClient`."""

    _transport: Transport

    def get_provider(
        self, uuid: str, *, context: RequestContext | None = None
    ) -> ResourceProvider:
        """Return the provider with this UUID.

        :raises ResourceProviderNotFound: no such provider.
        """
        response = self._transport.request(
            "GET", f"/resource_providers/{uuid}", PROVIDER_READ_VERSION, context=context
        )
        return ResourceProvider.from_body(response.json())

    def find_provider(
        self, name: str, *, context: RequestContext | None = None
    ) -> ResourceProvider | None:
        """Return the provider with this name, or None (names are unique)."""
        response = self._transport.request(
            "GET",
            "/resource_providers",
            PROVIDER_READ_VERSION,
            params={"name": name},
            context=context,
        )
        providers = response.json()["resource_providers"]
        return ResourceProvider.from_body(providers[0]) if providers else None

    def list_providers(
        self, *, context: RequestContext | None = None
    ) -> list[ResourceProvider]:
        """Return every resource provider."""
        response = self._transport.request(
            "GET", "/resource_providers", PROVIDER_READ_VERSION, context=context
        )
        return [
            ResourceProvider.from_body(body)
            for body in response.json()["resource_providers"]
        ]

    def create_provider(
        self,
        name: str,
        *,
        uuid: str | None = None,
        parent_provider_uuid: str | None = None,
        context: RequestContext | None = None,
    ) -> ResourceProvider:
        """Create a provider; Placement picks the UUID when none is given.

        :raises ResourceProviderConflict: the name or UUID is taken.
        :raises PlacementAPIError: e.g. 400 when the parent does not exist.
        """
        body: dict[str, Any] = {"name": name}
        if uuid is not None:
            body["uuid"] = uuid
        if parent_provider_uuid is not None:
            body["parent_provider_uuid"] = parent_provider_uuid
        response = self._transport.request(
            "POST",
            "/resource_providers",
            PROVIDER_WRITE_VERSION,
            json=body,
            context=context,
        )
        provider = ResourceProvider.from_body(response.json())
        LOG.info("Created resource provider %s (%s)", provider.name, provider.uuid)
        return provider

    def ensure_provider(
        self,
        uuid: str,
        name: str | None = None,
        *,
        parent_provider_uuid: str | None = None,
        context: RequestContext | None = None,
    ) -> ResourceProvider:
        """Return the provider with this UUID, creating it if it is missing.

        Safe when several processes ensure the same provider at once: losing
        the creation race returns the winner's record. An existing provider is
        returned as it is, even if its name or parent differ.

        :param name: name for a new provider; defaults to the UUID.
        :raises ResourceProviderConflict: the name belongs to a provider with
            another UUID.
        """
        try:
            return self.get_provider(uuid, context=context)
        except exception.ResourceProviderNotFound:
            pass
        try:
            return self.create_provider(
                name or uuid,
                uuid=uuid,
                parent_provider_uuid=parent_provider_uuid,
                context=context,
            )
        except exception.ResourceProviderConflict as conflict:
            try:
                return self.get_provider(uuid, context=context)
            except exception.ResourceProviderNotFound:
                raise conflict from None

    def delete_provider(
        self, uuid: str, *, context: RequestContext | None = None
    ) -> bool:
        """Delete a provider; False if it did not exist.

        :raises ResourceProviderInUse: it has allocations or child providers.
        """
        try:
            self._transport.request(
                "DELETE",
                f"/resource_providers/{uuid}",
                PROVIDER_WRITE_VERSION,
                context=context,
            )
        except exception.ResourceProviderNotFound:
            return False
        LOG.info("Deleted resource provider %s", uuid)
        return True

    def get_provider_usages(
        self, uuid: str, *, context: RequestContext | None = None
    ) -> dict[str, int]:
        """Return the amount allocated per resource class on the provider.

        :raises ResourceProviderNotFound: no such provider.
        """
        response = self._transport.request(
            "GET",
            f"/resource_providers/{uuid}/usages",
            PROVIDER_USAGES_VERSION,
            context=context,
        )
        return response.json()["usages"]
