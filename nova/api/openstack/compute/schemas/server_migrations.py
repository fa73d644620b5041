"""Request schema of a server migration's action (2.22)."""

force_complete = {
    "type": "object",
    "properties": {"force_complete": {"type": "null"}},
    "required": ["force_complete"],
    "additionalProperties": False,
}
