"""A nova-conductor one release ahead of this code: it knows a Service
object version (1.2, with one more field) that the rest of the code does not.

Run as ``python -m tests.functional.rpc.newer_conductor --config-file ...``.
"""

from __future__ import annotations

import sys

from oslo_utils import versionutils
from oslo_versionedobjects import fields

from nova import objects
from nova.cmd import conductor
from nova.objects import base
from nova.objects import service as service_obj

NEWER_VERSION = "1.2"


def register_newer_service() -> None:
    @base.NovaObjectRegistry.register
    class Service(service_obj.Service):
        # Version 1.2: next_release_field
        VERSION = NEWER_VERSION

        fields = {
            **service_obj.Service.fields,
            "next_release_field": fields.StringField(nullable=True),
        }

        @classmethod
        def _from_db_object(cls, context, obj, db_row, skip=()):
            # Not a column: a value some new code path computes.
            return super()._from_db_object(
                context, obj, db_row, skip={"next_release_field", *skip}
            )

        def obj_make_compatible(self, primitive, target_version):
            super().obj_make_compatible(primitive, target_version)
            if versionutils.convert_version_to_tuple(target_version) < (1, 2):
                primitive.pop("next_release_field", None)


def main() -> int:
    objects.register_all()
    register_newer_service()
    return conductor.main()


if __name__ == "__main__":
    sys.exit(main())
