"""Rendering INI files (oslo.config and paste style) from plain mappings."""

from __future__ import annotations

from collections.abc import Mapping

Sections = Mapping[str, Mapping[str, object]]


def _value(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, list | tuple):
        return ",".join(_value(item) for item in value)
    text = str(value)
    if "\n" in text:
        raise ValueError(f"INI values cannot span lines: {text!r}")
    return text


def render_ini(sections: Sections, header: str | None = None) -> str:
    """``{"DEFAULT": {"debug": False}}`` → ``[DEFAULT]\\ndebug = False\\n``.

    Sections and keys keep their insertion order; ``None`` renders as an
    empty value (oslo.config reads it as the empty string).
    """
    lines: list[str] = []
    if header:
        lines.extend(f"# {line}".rstrip() for line in header.splitlines())
        lines.append("")
    for section, options in sections.items():
        lines.append(f"[{section}]")
        for key, value in options.items():
            lines.append(f"{key} = {_value(value)}".rstrip())
        lines.append("")
    return "\n".join(lines)
