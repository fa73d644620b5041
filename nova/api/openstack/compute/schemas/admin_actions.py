"""Request bodies of the administrators' server actions."""

reset_state = {
    "type": "object",
    "properties": {
        "os-resetState": {
            "type": "object",
            "properties": {"state": {"type": "string", "enum": ["active", "error"]}},
            "required": ["state"],
            "additionalProperties": False,
        }
    },
    "required": ["os-resetState"],
    "additionalProperties": False,
}
