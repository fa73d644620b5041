"""Body of the ``os-getConsoleOutput`` server action."""

get_console_output = {
    "type": "object",
    "properties": {
        "os-getConsoleOutput": {
            "type": "object",
            "properties": {
                # A number of lines, -1 (or none) for the whole log.
                "length": {
                    "type": ["integer", "string", "null"],
                    "pattern": "^-?[0-9]+$",
                    "minimum": -1,
                }
            },
            "additionalProperties": False,
        }
    },
    "required": ["os-getConsoleOutput"],
    "additionalProperties": False,
}
