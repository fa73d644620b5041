"""Key pairs: a user's public keys, injected into the servers it boots.

They live in the API database and belong to a user (not a project): names
are unique per user.
"""

from __future__ import annotations

import sqlalchemy as sa
from oslo_db.sqlalchemy import utils as sqlalchemyutils
from oslo_versionedobjects import fields

from nova import exception
from nova.db import engines
from nova.db.api import models
from nova.objects import base

KEYPAIR_TYPE_SSH = "ssh"
KEYPAIR_TYPE_X509 = "x509"
KEYPAIR_TYPES = (KEYPAIR_TYPE_SSH, KEYPAIR_TYPE_X509)


@base.NovaObjectRegistry.register
class KeyPair(base.NovaTimestampObject, base.NovaObject):
    """One public key of one user."""

    # Version 1.0: Initial version
    VERSION = "1.0"

    fields = {
        "id": fields.IntegerField(),
        "name": fields.StringField(nullable=False),
        "user_id": fields.StringField(nullable=True),
        "fingerprint": fields.StringField(nullable=True),
        "public_key": fields.StringField(nullable=True),
        "type": fields.StringField(nullable=False, default=KEYPAIR_TYPE_SSH),
    }

    @classmethod
    def get_by_name(cls, context, user_id: str, name: str) -> KeyPair:
        """:raises KeypairNotFound: the user has no key pair of that name."""
        with engines.transaction(context.api_db_connection) as session:
            row = session.scalars(
                sa.select(models.KeyPair).where(
                    models.KeyPair.user_id == user_id, models.KeyPair.name == name
                )
            ).first()
        if row is None:
            raise exception.KeypairNotFound(user_id=user_id, name=name)
        return cls._from_db_object(context, cls(), row)

    def create(self) -> None:
        """:raises KeyPairExists: the user already has one of that name."""
        values = base.db_values(
            self, ("name", "user_id", "fingerprint", "public_key", "type")
        )
        try:
            with engines.transaction(self._context.api_db_connection) as session:
                row = models.KeyPair(**values)
                session.add(row)
                session.flush()
        except sa.exc.IntegrityError as exc:
            raise exception.KeyPairExists(key_name=self.name) from exc
        self._from_db_object(self._context, self, row)

    @classmethod
    def destroy_by_name(cls, context, user_id: str, name: str) -> None:
        """:raises KeypairNotFound: nothing to delete."""
        with engines.transaction(context.api_db_connection) as session:
            result = session.execute(
                sa.delete(models.KeyPair).where(
                    models.KeyPair.user_id == user_id, models.KeyPair.name == name
                )
            )
        if result.rowcount == 0:
            raise exception.KeypairNotFound(user_id=user_id, name=name)


@base.NovaObjectRegistry.register
class KeyPairList(base.ObjectListBase, base.NovaObject):
    # Version 1.0: Initial version
    VERSION = "1.0"

    fields = {"objects": fields.ListOfObjectsField("KeyPair")}

    @classmethod
    def get_by_user(
        cls,
        context,
        user_id: str,
        limit: int | None = None,
        marker: str | None = None,
    ) -> KeyPairList:
        """The user's key pairs by name, a page after ``marker`` (a name).

        :raises MarkerNotFound: the user has no key pair named ``marker``.
        """
        with engines.transaction(context.api_db_connection) as session:
            query = session.query(models.KeyPair).filter(
                models.KeyPair.user_id == user_id
            )
            marker_row = None
            if marker is not None:
                marker_row = query.filter(models.KeyPair.name == marker).first()
                if marker_row is None:
                    raise exception.MarkerNotFound(marker=marker)
            query = sqlalchemyutils.paginate_query(
                query,
                models.KeyPair,
                limit,
                ["name", "id"],
                marker=marker_row,
                sort_dirs=["asc", "asc"],
            )
            rows = query.all()
        return cls._from_db_rows(context, KeyPair, rows)

    @classmethod
    def get_count_by_user(cls, context, user_id: str) -> int:
        """How many key pairs the user has."""
        return base.count_rows(
            context.api_db_connection,
            models.KeyPair.id,
            models.KeyPair.user_id == user_id,
        )
