"""Request body of the ``trigger_crash_dump`` server action (2.17+)."""

trigger_crash_dump = {
    "type": "object",
    "properties": {"trigger_crash_dump": {"type": "null"}},
    "required": ["trigger_crash_dump"],
    "additionalProperties": False,
}
