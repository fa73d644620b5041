"""Cinder's v3 API on keystoneauth1: volumes and their attachments.

The volume API (:class:`nova.volume.api.VolumeAPI`) of a deployment with
``[cinder]`` configured. The endpoint is ``[cinder] endpoint_template``
(with the project filled in) or the catalog entry ``[cinder] catalog_info``
names (``<service_type>:<service_name>:<interface>``) in
``[cinder] os_region_name``. A request carrying a user's Keystone token is
made with that token and the user's own catalog, so the user sees exactly
the volumes Cinder shows them; without one (``noauth2``, or a service
acting on its own) the ``[cinder]`` service credentials are used. Every
request also carries a service token of the ``[cinder]`` user
(``X-Service-Token``): Cinder refuses to delete an attachment nova uses
to anyone but nova.

Requests are made at microversion 3.44 (the attachments API with
``attachment_complete``). Cinder's refusals become nova's exceptions:
404 → :class:`~nova.exception.VolumeNotFound` (or
:class:`~nova.exception.VolumeAttachmentNotFound`), 400/409 →
:class:`~nova.exception.InvalidVolume`, anything else or no answer →
:class:`~nova.exception.VolumeServiceUnavailable` (503).
"""

from __future__ import annotations

import logging
from typing import Any

from keystoneauth1 import adapter as ks_adapter
from keystoneauth1 import exceptions as ks_exc
from keystoneauth1 import service_token
from oslo_utils import uuidutils

import nova.conf
from nova import exception, service_session, user_token

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)

GROUP = "cinder"
MICROVERSION = "3.44"
TIMEOUT_SECONDS = 60


def _catalog_entry() -> tuple[str, str | None, str]:
    """``[cinder] catalog_info`` as (service type, name or None, interface)."""
    service_type, service_name, interface = CONF.cinder.catalog_info.split(":")
    return service_type, service_name or None, interface.removesuffix("URL")


def _error_text(response) -> str:
    """Cinder's message out of its error body (``{"badRequest":
    {"message": ...}}``), else the start of the body."""
    try:
        body = response.json()
        (detail,) = body.values()
        return str(detail.get("message", detail))
    except (ValueError, AttributeError, TypeError):
        return response.text[:300]


class CinderVolumeAPI:
    """The volume API over Cinder's v3 REST API."""

    def _adapter(self, context) -> ks_adapter.Adapter:
        session, service_auth = service_session.session_and_auth(GROUP)
        token = getattr(context, "auth_token", None)
        if token:
            auth = user_token.UserTokenPlugin(
                token, getattr(context, "service_catalog", [])
            )
        else:
            auth = service_auth
        if auth is not None and service_auth is not None:
            # Cinder lets only nova (a service token of a user with the
            # service role) delete an attachment nova uses.
            auth = service_token.ServiceTokenAuthWrapper(
                user_auth=auth, service_auth=service_auth
            )
        service_type, service_name, interface = _catalog_entry()
        url = None
        if CONF.cinder.endpoint_template:
            url = CONF.cinder.endpoint_template % {
                "project_id": getattr(context, "project_id", None)
            }
        elif auth is not None:
            url = auth.get_endpoint(
                session,
                service_type=service_type,
                service_name=service_name,
                interface=interface,
                region_name=CONF.cinder.os_region_name,
            )
        if not url:
            raise exception.VolumeServiceUnavailable(
                reason=f"no {service_type} endpoint in the service catalog and "
                "no [cinder] endpoint_template"
            )
        return ks_adapter.Adapter(
            session,
            auth=auth,
            endpoint_override=url,
            service_type="volumev3",
            default_microversion=MICROVERSION,
            connect_retries=CONF.cinder.http_retries,
            global_request_id=getattr(context, "global_request_id", None),
            logger=LOG if CONF.cinder.debug else None,
        )

    def _call(
        self,
        context,
        method: str,
        path: str,
        *,
        not_found: exception.NovaException | None = None,
        microversion: str | None = None,
        **kwargs,
    ) -> Any:
        """One request; its JSON body (None if it has none).

        :raises: ``not_found`` on a 404, InvalidVolume on a 400/409 (and
            403: a volume another project's user may not touch),
            VolumeServiceUnavailable otherwise.
        """
        kwargs.setdefault("timeout", TIMEOUT_SECONDS)
        if microversion:
            kwargs["microversion"] = microversion
        try:
            response = self._adapter(context).request(
                path, method, raise_exc=False, **kwargs
            )
        except (ks_exc.EndpointNotFound, ks_exc.ConnectionError) as exc:
            raise exception.VolumeServiceUnavailable(reason=str(exc)) from exc
        status = response.status_code
        if status < 400:
            return response.json() if response.content else None
        if status == 404 and not_found is not None:
            raise not_found
        if status in (400, 403, 409, 413):
            raise exception.InvalidVolume(reason=_error_text(response))
        raise exception.VolumeServiceUnavailable(
            reason=f"{method} {path} returned {status}"
        )

    # -- volumes ---------------------------------------------------------------

    def get(
        self, context, volume_id: str, microversion: str | None = None
    ) -> dict[str, Any]:
        missing = exception.VolumeNotFound(volume_id=volume_id)
        if not uuidutils.is_uuid_like(volume_id):
            raise missing
        body = self._call(
            context,
            "GET",
            f"/volumes/{volume_id}",
            not_found=missing,
            microversion=microversion,
        )
        return body["volume"]

    def create(
        self,
        context,
        size: int,
        name: str | None,
        description: str | None,
        snapshot: dict[str, Any] | None = None,
        image_id: str | None = None,
        volume_type: str | None = None,
        metadata: dict[str, str] | None = None,
        availability_zone: str | None = None,
    ) -> dict[str, Any]:
        volume: dict[str, Any] = {
            "size": size,
            "name": name,
            "description": description,
        }
        optional = {
            "snapshot_id": snapshot["id"] if snapshot else None,
            "imageRef": image_id,
            "volume_type": volume_type,
            "metadata": metadata,
            "availability_zone": availability_zone,
        }
        volume.update({k: v for k, v in optional.items() if v is not None})
        return self._call(context, "POST", "/volumes", json={"volume": volume})[
            "volume"
        ]

    def delete(self, context, volume_id: str) -> None:
        self._call(
            context,
            "DELETE",
            f"/volumes/{volume_id}",
            not_found=exception.VolumeNotFound(volume_id=volume_id),
        )

    def _volume_action(self, context, volume_id: str, action: str) -> None:
        self._call(
            context,
            "POST",
            f"/volumes/{volume_id}/action",
            json={action: None},
            not_found=exception.VolumeNotFound(volume_id=volume_id),
        )

    def begin_detaching(self, context, volume_id: str) -> None:
        self._volume_action(context, volume_id, "os-begin_detaching")

    def roll_detaching(self, context, volume_id: str) -> None:
        self._volume_action(context, volume_id, "os-roll_detaching")

    # -- attachments -------------------------------------------------------------

    def attachment_create(
        self,
        context,
        volume_id: str,
        instance_id: str,
        connector: dict[str, Any] | None = None,
        mountpoint: str | None = None,
    ) -> dict[str, Any]:
        attachment: dict[str, Any] = {
            "volume_uuid": volume_id,
            "instance_uuid": instance_id,
        }
        if connector is not None:
            attachment["connector"] = _with_mountpoint(connector, mountpoint)
        body = self._call(
            context,
            "POST",
            "/attachments",
            json={"attachment": attachment},
            not_found=exception.VolumeNotFound(volume_id=volume_id),
        )
        return _attachment(body["attachment"])

    def attachment_get(self, context, attachment_id: str) -> dict[str, Any]:
        body = self._call(
            context,
            "GET",
            f"/attachments/{attachment_id}",
            not_found=exception.VolumeAttachmentNotFound(attachment_id=attachment_id),
        )
        return _attachment(body["attachment"])

    def attachment_update(
        self,
        context,
        attachment_id: str,
        connector: dict[str, Any],
        mountpoint: str | None = None,
    ) -> dict[str, Any]:
        body = self._call(
            context,
            "PUT",
            f"/attachments/{attachment_id}",
            json={"attachment": {"connector": _with_mountpoint(connector, mountpoint)}},
            not_found=exception.VolumeAttachmentNotFound(attachment_id=attachment_id),
        )
        return _attachment(body["attachment"])

    def attachment_complete(self, context, attachment_id: str) -> None:
        self._call(
            context,
            "POST",
            f"/attachments/{attachment_id}/action",
            json={"os-complete": None},
            not_found=exception.VolumeAttachmentNotFound(attachment_id=attachment_id),
        )

    def attachment_delete(self, context, attachment_id: str) -> None:
        """Drop the attachment; one already gone is no error (a retried
        detach or delete)."""
        try:
            self._call(
                context,
                "DELETE",
                f"/attachments/{attachment_id}",
                not_found=exception.VolumeAttachmentNotFound(
                    attachment_id=attachment_id
                ),
            )
        except exception.VolumeAttachmentNotFound:
            LOG.info("Attachment %s was already gone", attachment_id)

    # -- checks ------------------------------------------------------------------

    @staticmethod
    def check_availability_zone(volume: dict[str, Any], instance_az) -> None:
        """With ``[cinder] cross_az_attach = False`` the volume must be in
        the instance's zone.

        :raises VolumeAZMismatch: they differ.
        """
        if CONF.cinder.cross_az_attach or instance_az is None:
            return
        if volume.get("availability_zone") != instance_az:
            raise exception.VolumeAZMismatch(
                instance_az=instance_az,
                volume_id=volume["id"],
                volume_az=volume.get("availability_zone"),
            )


def _with_mountpoint(connector: dict[str, Any], mountpoint: str | None) -> dict:
    return {**connector, "mountpoint": mountpoint} if mountpoint else dict(connector)


def _attachment(body: dict[str, Any]) -> dict[str, Any]:
    """Cinder's attachment in the shape :mod:`nova.volume.api` documents."""
    return {
        "id": body["id"],
        "volume_id": body.get("volume_id"),
        "instance": body.get("instance"),
        "status": body.get("status"),
        "attach_mode": body.get("attach_mode"),
        "connection_info": body.get("connection_info") or {},
    }
