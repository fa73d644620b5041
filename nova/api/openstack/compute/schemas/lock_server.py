"""Request bodies of the ``lock`` and ``unlock`` server actions."""

# Before 2.73 the action's value was not looked at.
lock = {
    "type": "object",
    "properties": {"lock": {}},
    "required": ["lock"],
    "additionalProperties": False,
}

# 2.73: ``{"lock": {"locked_reason": "..."}}`` or ``{"lock": null}``.
lock_v273 = {
    "type": "object",
    "properties": {
        "lock": {
            "type": ["object", "null"],
            "properties": {
                "locked_reason": {"type": "string", "minLength": 1, "maxLength": 255}
            },
            "additionalProperties": False,
        }
    },
    "required": ["lock"],
    "additionalProperties": False,
}

unlock = {
    "type": "object",
    "properties": {"unlock": {}},
    "required": ["unlock"],
    "additionalProperties": False,
}
