"""Query schemas of the os-migrations API."""

import copy

from nova.api.openstack.compute.schemas import parameter_types

_date_time = parameter_types.multi_params({"type": "string", "format": "date-time"})

list_query = {
    "type": "object",
    "properties": {
        "hidden": parameter_types.common_query_param,
        "host": parameter_types.common_query_param,
        "instance_uuid": parameter_types.common_query_param,
        "source_compute": parameter_types.common_query_param,
        "status": parameter_types.common_query_param,
        "migration_type": parameter_types.common_query_param,
    },
    # Unknown parameters were ignored until 2.59 refused them.
    "additionalProperties": True,
}

# 2.59: paging by uuid and changes-since.
list_query_v259 = copy.deepcopy(list_query)
list_query_v259["properties"].update(
    {
        "limit": parameter_types.multi_params(parameter_types.non_negative_integer),
        "marker": parameter_types.common_query_param,
        "changes-since": _date_time,
    }
)
list_query_v259["additionalProperties"] = False

# 2.66: changes-before.
list_query_v266 = copy.deepcopy(list_query_v259)
list_query_v266["properties"]["changes-before"] = _date_time

# 2.80: the user and project who started the migration.
list_query_v280 = copy.deepcopy(list_query_v266)
list_query_v280["properties"].update(
    {
        "user_id": parameter_types.common_query_param,
        "project_id": parameter_types.common_query_param,
    }
)
