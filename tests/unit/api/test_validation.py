"""Request validation and Nova's 400 messages."""

import pytest

from nova import exception
from nova.api.openstack import validation
from nova.api.openstack.compute.schemas import servers as schemas
from tests.unit.api.conftest import make_request


def _validate(schema, body):
    validation._Validator(schema).validate(body)


def _message(schema, body) -> str:
    with pytest.raises(exception.ValidationError) as raised:
        _validate(schema, body)
    assert raised.value.code == 400
    return raised.value.format_message()


def _server(**values):
    server = {"name": "s1", "flavorRef": "1", "networks": "none"}
    server.update(values)
    return {"server": server}


def test_a_field_error_names_the_field_and_value():
    message = _message(schemas.create_v237, _server(min_count=0))
    assert message.startswith("Invalid input for field/attribute min_count. Value: 0.")


def test_unknown_body_keys_are_refused():
    message = _message(schemas.create_v237, _server(bogus=1))
    assert message.startswith("Invalid input for field/attribute server.")
    assert message.endswith(
        "Additional properties are not allowed ('bogus' was unexpected)"
    )


def test_unknown_top_level_keys_are_refused():
    assert _message(schemas.create_v237, {**_server(), "extra": 1}) == (
        "Additional properties are not allowed ('extra' was unexpected)"
    )


def test_required_fields():
    message = _message(schemas.create_v237, {"server": {"name": "a", "flavorRef": "1"}})
    assert message.endswith("'networks' is a required property")


def test_names_may_not_have_surrounding_whitespace():
    message = _message(schemas.create_v237, _server(name=" s1"))
    assert message == (
        "An invalid 'name' value was provided. The name must be: printable "
        "characters. Can not start or end with whitespace."
    )


def test_user_data_must_be_base64():
    assert "user_data" in _message(
        schemas.create_v237, _server(user_data="not base64!")
    )
    _validate(schemas.create_v237, _server(user_data="aGVsbG8="))


def test_networks_is_a_list_or_none_or_auto_from_2_37():
    _validate(schemas.create_v237, _server(networks="auto"))
    _message(schemas.create_v237, _server(networks="some"))
    _validate(schemas.create, _server(networks=[{"uuid": "not-a-uuid"}]))
    _message(schemas.create_v237, _server(networks=[{"uuid": "not-a-uuid"}]))


def test_tags_appear_at_2_52():
    _message(schemas.create_v242, _server(tags=["a"]))
    _validate(schemas.create_v252, _server(tags=["a"]))
    assert "'a/b' does not match" in _message(
        schemas.create_v252, _server(tags=["a/b"])
    )


def test_body_decorator_applies_its_range_only():
    @validation.body(schemas.update_v219, "2.19")
    @validation.body(schemas.update, "2.1", "2.18")
    def handler(req):
        return "ok"

    body = b'{"server": {"description": "d"}}'
    old = make_request(version="2.18", method="PUT", body=body)
    with pytest.raises(exception.ValidationError):
        handler(old)
    assert handler(make_request(version="2.19", method="PUT", body=body)) == "ok"


def test_unknown_query_parameters_are_dropped_before_2_75_and_refused_after():
    @validation.query(schemas.index_query_v273, "2.73", "2.74")
    @validation.query(schemas.index_query_v275, "2.75")
    def handler(req):
        return dict(req.GET)

    path = "/v2.1/servers?name=a&bogus=1"
    assert handler(make_request(path, version="2.74")) == {"name": "a"}
    with pytest.raises(exception.ValidationError, match="bogus"):
        handler(make_request(path, version="2.75"))


def test_ignored_sort_keys_are_valid_until_2_75():
    @validation.query(schemas.index_query, "2.1", "2.74")
    @validation.query(schemas.index_query_v275, "2.75")
    def handler(req):
        return "ok"

    path = "/v2.1/servers?sort_key=vcpus"
    assert handler(make_request(path, version="2.74")) == "ok"
    with pytest.raises(exception.ValidationError):
        handler(make_request(path, version="2.75"))


def test_malformed_json_is_a_bad_request():
    req = make_request(
        method="POST", body=b"{not json", content_type="application/json"
    )
    with pytest.raises(exception.MalformedRequestBody) as raised:
        req.json_body()
    assert (
        raised.value.format_message()
        == "Malformed message body: cannot understand JSON"
    )


def test_a_repeated_unknown_query_parameter_is_dropped_once():
    @validation.query(schemas.index_query_v273, "2.73", "2.74")
    def handler(req):
        return req.GET.dict_of_lists()

    req = make_request("/v2.1/servers?x=1&x=2&name=a", version="2.74")
    assert handler(req) == {"name": ["a"]}


@pytest.mark.parametrize("query", ["name=%ff", "%fe=1", "name=%ED%A0%80"])
def test_a_query_string_that_is_not_utf8_is_a_bad_request(query):
    req = make_request(f"/v2.1/servers?{query}")
    with pytest.raises(exception.ValidationError, match="not valid UTF-8"):
        req.GET  # noqa: B018 - the property is what is tested


def test_a_nul_in_the_query_string_is_a_bad_request():
    with pytest.raises(exception.ValidationError, match="NUL"):
        make_request("/v2.1/servers?name=a%00b").GET  # noqa: B018


def test_minimum_and_maximum_hold_for_integer_like_strings():
    # As upstream's validator: "0" is below a minimum of 1 like 0 is.
    message = _message(schemas.create_v237, _server(min_count="0"))
    assert message.endswith("0 is less than the minimum of 1")
    flavor = {
        "type": ["integer", "string"],
        "pattern": "^[0-9]*$",
        "maximum": 2147483647,
    }
    _validate(flavor, "2147483647")
    with pytest.raises(exception.ValidationError, match="greater than the maximum"):
        _validate(flavor, "2147483648")
    # Past int()'s 4300 digits the string still fails the maximum.
    with pytest.raises(exception.ValidationError, match="greater than the maximum"):
        _validate(flavor, "9" * 5000)


@pytest.mark.parametrize(
    "value, bounds, message",
    [
        ("abc", {}, "limit must be an integer"),
        ("9" * 5000, {}, "limit must be an integer"),
        ("1.5", {}, "limit must be an integer"),
        (-1, {"min_value": 0}, "limit must be >= 0"),
        ("11", {"max_value": 10}, "limit must be <= 10"),
    ],
)
def test_validate_integer_refuses_with_upstream_messages(value, bounds, message):
    with pytest.raises(exception.InvalidInput) as raised:
        validation.validate_integer(value, "limit", **bounds)
    assert raised.value.code == 400
    assert raised.value.format_message() == f"Invalid input received: {message}"


def test_validate_integer_converts_strings():
    assert validation.validate_integer("0012", "limit", 0, 20) == 12


@pytest.mark.parametrize(
    "body, reason",
    [
        (b"[" * 50_000 + b"]" * 50_000, "cannot understand JSON"),
        (b'{"rxtx_factor": NaN}', "cannot understand JSON"),
        (b'{"a": [-Infinity]}', "cannot understand JSON"),
        (b'{"rxtx_factor": 1e400}', "cannot understand JSON"),
        (b"[" * 33 + b"]" * 33, "it nests deeper than 32 levels"),
        (b'{"a": ' * 33 + b"1" + b"}" * 33, "it nests deeper than 32 levels"),
        (b'{"metadata": {"a": "\\ud800"}}', "a string holds a lone UTF-16 surrogate"),
        (b'{"metadata": {"\\udfff": "a"}}', "a string holds a lone UTF-16 surrogate"),
        (b'{"tags": ["a\\u0000"]}', "a string holds a NUL character"),
        (b'{"a": "\xff"}', "cannot understand JSON"),
    ],
)
def test_bodies_no_database_could_store_are_malformed(body, reason):
    req = make_request(method="POST", body=body, content_type="application/json")
    with pytest.raises(exception.MalformedRequestBody) as raised:
        req.json_body()
    assert raised.value.format_message() == f"Malformed message body: {reason}"
    # pecan reads the same checked parse to fill its arguments.
    with pytest.raises(exception.MalformedRequestBody):
        req.json  # noqa: B018


def test_32_levels_of_nesting_are_welcome():
    body = b"[" * 32 + b"]" * 32
    req = make_request(method="POST", body=body, content_type="application/json")
    assert req.json_body() is not None


def test_a_surrogate_pair_is_one_character_and_welcome():
    req = make_request(
        method="POST",
        body=b'{"name": "\\ud83d\\ude00"}',
        content_type="application/json",
    )
    assert req.json_body() == {"name": "\U0001f600"}
