"""JSON Schema validation of request bodies and query strings.

Handlers declare the schema of each microversion range with a decorator::

    @validation.body(schemas.create, "2.1", "2.18")
    @validation.body(schemas.create_v219, "2.19")
    def create(req): ...

A request that does not validate gets a 400 with Nova's message, e.g.
``Invalid input for field/attribute name. Value: . '' is too short``,
before the handler runs, so nothing is written for bad input.
"""

from __future__ import annotations

import base64
import binascii
import functools
import unicodedata
from collections.abc import Callable

import jsonschema
from oslo_utils import strutils, timeutils, uuidutils

from nova import exception


class InvalidName(exception.Invalid):
    msg_fmt = "An invalid 'name' value was provided. The name must be: %(reason)s"


_NAME_REASON = "printable characters. Can not start or end with whitespace."
_NAME_WITH_SPACES_REASON = (
    "printable characters with optional leading and trailing whitespace."
)


def _printable(text: str) -> bool:
    # Control, surrogate, unassigned and private-use characters are out.
    return all(not unicodedata.category(char).startswith("C") for char in text)


_format_checker = jsonschema.FormatChecker()


@_format_checker.checks("uuid")
def _is_uuid(instance) -> bool:
    return not isinstance(instance, str) or uuidutils.is_uuid_like(instance)


@_format_checker.checks("base64", raises=(binascii.Error, ValueError))
def _is_base64(instance) -> bool:
    if isinstance(instance, str):
        base64.b64decode(instance.encode("ascii"), validate=True)
    return True


@_format_checker.checks("date-time", raises=ValueError)
def _is_date_time(instance) -> bool:
    if isinstance(instance, str):
        timeutils.parse_isotime(instance)
    return True


@_format_checker.checks("name", raises=InvalidName)
def _is_name(instance) -> bool:
    if isinstance(instance, str) and (
        instance.strip() != instance or not _printable(instance)
    ):
        raise InvalidName(reason=_NAME_REASON)
    return True


@_format_checker.checks("name_with_leading_trailing_spaces", raises=InvalidName)
def _is_name_with_spaces(instance) -> bool:
    if isinstance(instance, str) and (not instance.strip() or not _printable(instance)):
        raise InvalidName(reason=_NAME_WITH_SPACES_REASON)
    return True


@_format_checker.checks("printable")
def _is_printable(instance) -> bool:
    return not isinstance(instance, str) or _printable(instance)


def _number_from_string(instance):
    """The number an integer-like (or float-like) string stands for, so that
    ``minimum``/``maximum`` hold for ``"0"`` as for ``0``, as upstream's
    validator has it. Other strings give None (no bound to check); anything
    else is returned as it is, for the keyword's own type check."""
    if not isinstance(instance, str):
        return instance
    try:
        return int(instance)
    except ValueError:
        # Thousands of digits: past int()'s limit, float() makes it inf,
        # which still fails any maximum.
        try:
            return float(instance)
        except ValueError:
            return None


def _bound_keyword(keyword: str):
    check = jsonschema.Draft4Validator.VALIDATORS[keyword]

    def bound(validator, limit, instance, schema):
        number = _number_from_string(instance)
        if number is None:
            return
        yield from check(validator, limit, number, schema)

    return bound


_NovaDraft4Validator = jsonschema.validators.extend(
    jsonschema.Draft4Validator,
    {"minimum": _bound_keyword("minimum"), "maximum": _bound_keyword("maximum")},
)


class _Validator:
    def __init__(self, schema: dict) -> None:
        jsonschema.Draft4Validator.check_schema(schema)
        self.schema = schema
        self._validator = _NovaDraft4Validator(schema, format_checker=_format_checker)

    def validate(self, instance) -> None:
        error = next(iter(self._validator.iter_errors(instance)), None)
        if error is None:
            return
        if isinstance(error.cause, InvalidName):
            detail = error.cause.format_message()
        elif error.path:
            detail = (
                f"Invalid input for field/attribute {error.path[-1]}. "
                f"Value: {error.instance}. {error.message}"
            )
        else:
            detail = error.message
        raise exception.ValidationError(detail=detail)


def validate_integer(
    value, name: str, min_value: int | None = None, max_value: int | None = None
) -> int:
    """``value`` (an int or an integer-like string) as an int in range.

    Every handler converts user input to an integer through this, so a
    value with thousands of digits is a 400, not a ValueError.

    :raises InvalidInput: not an integer, or out of range.
    """
    try:
        return strutils.validate_integer(value, name, min_value, max_value)
    except ValueError as exc:
        raise exception.InvalidInput(reason=str(exc)) from exc


def check_string_length(value: str, name: str, max_length: int = 255) -> None:
    """Refuse a string longer than the column it goes to (upstream's
    message); for ids taken from the URL, which no schema sees.

    :raises ValidationError: ``value`` is longer than ``max_length``.
    """
    if len(value) > max_length:
        raise exception.ValidationError(
            detail=f"{name} has more than {max_length} characters."
        )


def _in_range(req, min_version: str, max_version: str | None) -> bool:
    return req.is_supported(min_version, max_version)


def body(schema: dict, min_version: str = "2.1", max_version: str | None = None):
    """Validate the JSON body against ``schema`` for versions in range."""
    validator = _Validator(schema)

    def decorator(func: Callable) -> Callable:
        @functools.wraps(func)
        def wrapper(req, *args, **kwargs):
            if _in_range(req, min_version, max_version):
                validator.validate(req.json_body())
            return func(req, *args, **kwargs)

        return wrapper

    return decorator


def _strip_unknown_parameters(schema: dict, req) -> None:
    """Drop query parameters the schema does not name (before 2.75 they
    were ignored rather than refused)."""
    known = set(schema.get("properties", {}))
    patterns = [
        jsonschema.Draft4Validator({"pattern": p})
        for p in schema.get("patternProperties", {})
    ]
    for name in set(req.GET):
        if name not in known and not any(p.is_valid(name) for p in patterns):
            del req.GET[name]


def query(schema: dict, min_version: str = "2.1", max_version: str | None = None):
    """Validate the query string against ``schema`` for versions in range.

    Every value is a list (a parameter may repeat), so schemas describe
    parameters as arrays. Parameters the schema does not know are dropped
    when it allows additional properties.
    """
    validator = _Validator(schema)

    def decorator(func: Callable) -> Callable:
        @functools.wraps(func)
        def wrapper(req, *args, **kwargs):
            if _in_range(req, min_version, max_version):
                validator.validate(req.GET.dict_of_lists())
                if schema.get("additionalProperties", True):
                    _strip_unknown_parameters(schema, req)
            return func(req, *args, **kwargs)

        return wrapper

    return decorator
