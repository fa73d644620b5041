"""Request schemas of flavor extra specs and flavor access."""

_value = {
    # Numbers and booleans are stored as their string form.
    "type": ["string", "number", "boolean"],
    "minLength": 1,
    "maxLength": 255,
}

_specs = {
    "type": "object",
    "patternProperties": {"^[a-zA-Z0-9-_:. ]{1,255}$": _value},
    "additionalProperties": False,
}

create = {
    "type": "object",
    "properties": {"extra_specs": _specs},
    "required": ["extra_specs"],
    "additionalProperties": False,
}

update = dict(_specs, minProperties=1, maxProperties=1)

_tenant = {
    "type": "object",
    "properties": {
        "tenant": {
            "type": "string",
            "minLength": 1,
            "maxLength": 255,
            "pattern": "^[a-zA-Z0-9-_]*$",
        }
    },
    "required": ["tenant"],
    "additionalProperties": False,
}

add_tenant_access = {
    "type": "object",
    "properties": {"addTenantAccess": _tenant},
    "required": ["addTenantAccess"],
    "additionalProperties": False,
}

remove_tenant_access = {
    "type": "object",
    "properties": {"removeTenantAccess": _tenant},
    "required": ["removeTenantAccess"],
    "additionalProperties": False,
}
