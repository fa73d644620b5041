"""Schema fragments shared by the request schemas."""

from __future__ import annotations

import copy

# Largest value of a signed 32-bit integer column.
MAX_INT = 2147483647
# Largest value of a single-precision float column.
SQL_SP_FLOAT_MAX = 3.40282e38

_TRUE_STRINGS = [
    "True",
    "TRUE",
    "true",
    "1",
    "ON",
    "On",
    "on",
    "YES",
    "Yes",
    "yes",
    "y",
    "t",
]
_FALSE_STRINGS = [
    "False",
    "FALSE",
    "false",
    "0",
    "OFF",
    "Off",
    "off",
    "NO",
    "No",
    "no",
    "n",
    "f",
]

boolean = {
    "type": ["boolean", "string"],
    "enum": [True, *_TRUE_STRINGS, False, *_FALSE_STRINGS],
}

positive_integer = {
    "type": ["integer", "string"],
    "pattern": "^[0-9]*$",
    "minimum": 1,
    "minLength": 1,
}

non_negative_integer = {
    "type": ["integer", "string"],
    "pattern": "^[0-9]*$",
    "minimum": 0,
    "minLength": 1,
}

name = {"type": "string", "minLength": 1, "maxLength": 255, "format": "name"}

# The legacy v2.0 compatible name: surrounding whitespace is allowed.
name_with_leading_trailing_spaces = {
    "type": "string",
    "minLength": 1,
    "maxLength": 255,
    "format": "name_with_leading_trailing_spaces",
}

name_or_none = {"oneOf": [name, {"type": "null"}]}

description = {
    "type": ["string", "null"],
    "minLength": 0,
    "maxLength": 255,
    "format": "printable",
}

tag = {"type": "string", "minLength": 1, "maxLength": 60, "pattern": "^[^,/]*$"}

uuid = {"type": "string", "format": "uuid"}

image_id = uuid

image_id_or_empty_string = {"oneOf": [uuid, {"type": "string", "maxLength": 0}]}

flavor_ref = {"type": ["string", "integer"], "minLength": 1}

admin_password = {"type": "string"}

metadata = {
    "type": "object",
    "patternProperties": {
        "^[a-zA-Z0-9-_:. ]{1,255}$": {"type": "string", "maxLength": 255},
    },
    "additionalProperties": False,
}

ip_address = {"type": "string", "oneOf": [{"format": "ipv4"}, {"format": "ipv6"}]}
accessIPv4 = {"type": "string", "format": "ipv4"}
accessIPv6 = {"type": "string", "format": "ipv6"}

disk_config = {"type": "string", "enum": ["AUTO", "MANUAL"]}

hostname = {
    "type": "string",
    "minLength": 2,
    "maxLength": 63,
    "pattern": "^[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]$",
}

fqdn = {
    "type": "string",
    "minLength": 1,
    "maxLength": 255,
    "pattern": "^[a-zA-Z0-9-._]*$",
}

volume_id = uuid
volume_size = {
    "type": ["integer", "string"],
    "pattern": "^[0-9]+$",
    "minimum": 1,
    "maximum": MAX_INT,
}
volume_type = {"type": ["string", "null"], "minLength": 0, "maxLength": 255}

personality = {
    "type": "array",
    "items": {
        "type": "object",
        "properties": {
            "path": {"type": "string"},
            "contents": {"type": "string", "format": "base64"},
        },
        "additionalProperties": False,
    },
}

trusted_certs = {
    "type": ["array", "null"],
    "minItems": 1,
    "maxItems": 50,
    "uniqueItems": True,
    "items": {"type": "string", "minLength": 1},
}


def multi_params(schema: dict) -> dict:
    """A query parameter: a list of values, each matching ``schema``."""
    return {"type": "array", "items": copy.deepcopy(schema)}


common_query_param = multi_params({"type": "string"})
# Matched as a regular expression by the filter, so any string goes.
common_query_regex_param = multi_params({"type": "string"})

pagination_parameters = {
    "limit": multi_params(non_negative_integer),
    "marker": multi_params({"type": "string"}),
}
