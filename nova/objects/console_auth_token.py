"""Console access tokens: what a console URL carries and the proxy checks.

The API creates one when a user asks for a console URL, in the cell
database of the instance; only the token's SHA-256 is stored, with where
the console is (host, port) and when the token expires
(``[consoleauth] token_ttl``). The console proxy of that cell turns a token
back into the console's address, until it expires or the instance's tokens
are cleaned on delete.
"""

from __future__ import annotations

import hashlib
import time
import urllib.parse
import uuid

import sqlalchemy as sa
from oslo_versionedobjects import fields

from nova import exception
from nova.db import engines
from nova.db.main import models
from nova.objects import base


def token_hash(token: str) -> str:
    """The stored form of ``token``."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@base.NovaObjectRegistry.register
class ConsoleAuthToken(base.NovaTimestampObject, base.NovaObject):
    """One console token of one instance."""

    # Version 1.0: Initial version
    VERSION = "1.0"

    fields = {
        "id": fields.IntegerField(),
        "console_type": fields.StringField(nullable=False),
        "host": fields.StringField(nullable=False),
        "port": fields.IntegerField(nullable=False),
        "tls_port": fields.IntegerField(nullable=True),
        "internal_access_path": fields.StringField(nullable=True),
        "instance_uuid": fields.UUIDField(nullable=False),
        "access_url_base": fields.StringField(nullable=True),
        # Seconds since the epoch.
        "expires": fields.IntegerField(nullable=False),
        # The secret itself: set on the object that created it, never stored.
        "token": fields.StringField(nullable=False),
    }

    @property
    def access_url(self) -> str | None:
        """The URL the user opens: for noVNC the proxy's page with the
        token in the WebSocket path noVNC connects to (noVNC 1.1 reads no
        other), for the other consoles the token as a query parameter."""
        if "id" not in self or "token" not in self or not self.access_url_base:
            return None
        if self.console_type == "novnc":
            query = urllib.parse.urlencode({"path": f"?token={self.token}"})
        else:
            query = urllib.parse.urlencode({"token": self.token})
        return f"{self.access_url_base}?{query}"

    @base.remotable
    def authorize(self, ttl: int) -> str:
        """Store the token for ``ttl`` seconds and return it (the only time
        it is known)."""
        if "id" in self:
            raise exception.ObjectActionError(
                action="authorize", reason="already authorized"
            )
        token = str(uuid.uuid4())
        expires = int(time.time()) + ttl
        values = {
            name: getattr(self, name)
            for name in (
                "console_type",
                "host",
                "port",
                "tls_port",
                "internal_access_path",
                "instance_uuid",
                "access_url_base",
            )
            if name in self
        }
        with engines.transaction(self._context.db_connection) as session:
            row = models.ConsoleAuthToken(
                token_hash=token_hash(token), expires=expires, **values
            )
            session.add(row)
            session.flush()
            self.id = row.id
            self.created_at = row.created_at
        self.expires = expires
        self.token = token
        self.obj_reset_changes()
        return token

    @classmethod
    @base.remotable
    def validate(cls, context, token: str) -> ConsoleAuthToken:
        """The unexpired token ``token``.

        :raises InvalidToken: no such token in this cell, or it expired.
        """
        with engines.transaction(context.db_connection) as session:
            row = session.scalars(
                sa.select(models.ConsoleAuthToken).where(
                    models.ConsoleAuthToken.token_hash == token_hash(token),
                    models.ConsoleAuthToken.expires > int(time.time()),
                )
            ).first()
            if row is None:
                raise exception.InvalidToken()
            obj = cls._from_db_object(context, cls(), row, skip={"token"})
        obj.token = token
        obj.obj_reset_changes()
        return obj

    @base.remotable
    def destroy(self) -> None:
        """Revoke the token."""
        with engines.transaction(self._context.db_connection) as session:
            session.execute(
                sa.delete(models.ConsoleAuthToken).where(
                    models.ConsoleAuthToken.id == self.id
                )
            )

    @classmethod
    @base.remotable
    def clean_console_auths_for_instance(cls, context, instance_uuid: str) -> None:
        """Revoke every token of the instance (it is deleted or moved)."""
        with engines.transaction(context.db_connection) as session:
            session.execute(
                sa.delete(models.ConsoleAuthToken).where(
                    models.ConsoleAuthToken.instance_uuid == instance_uuid
                )
            )

    @classmethod
    @base.remotable
    def clean_expired_console_auths(cls, context) -> int:
        """Delete the expired tokens of this cell; how many there were."""
        with engines.transaction(context.db_connection) as session:
            return session.execute(
                sa.delete(models.ConsoleAuthToken).where(
                    models.ConsoleAuthToken.expires <= int(time.time())
                )
            ).rowcount
