"""Microversion parsing and negotiation."""

import pytest

from nova import exception
from nova.api.openstack import api_version_request as avr
from nova.api.openstack.api_version_request import APIVersionRequest


def test_versions_order_numerically_not_lexically():
    assert APIVersionRequest("2.10") > APIVersionRequest("2.9")
    assert APIVersionRequest("2.100") > APIVersionRequest("2.99")
    assert APIVersionRequest("2.1") == APIVersionRequest("2.1")
    assert str(APIVersionRequest("2.103")) == "2.103"


@pytest.mark.parametrize(
    "garbage", ["", "2", "2.", "2.01", "02.1", "a.b", "2.1.1", "v2.1"]
)
def test_malformed_versions_are_refused(garbage):
    with pytest.raises(exception.InvalidAPIVersionString):
        APIVersionRequest(garbage)


def test_matches_is_inclusive():
    version = APIVersionRequest("2.47")
    assert version.matches("2.47")
    assert version.matches("2.1", "2.47")
    assert not version.matches("2.48")
    assert not version.matches("2.1", "2.46")


def test_no_header_means_the_minimum():
    assert avr.from_headers({}) == APIVersionRequest("2.1")


def test_latest_means_the_maximum():
    assert avr.from_headers({avr.LEGACY_HEADER: "latest"}) == avr.MAX
    assert avr.from_headers({avr.HEADER: "compute latest"}) == avr.MAX
    assert str(avr.MAX) == "2.104"


def test_new_header_wins_over_legacy_one():
    headers = {avr.HEADER: "compute 2.60", avr.LEGACY_HEADER: "2.5"}
    assert avr.from_headers(headers) == APIVersionRequest("2.60")


def test_new_header_names_the_compute_service_among_others():
    headers = {avr.HEADER: "volume 3.50, compute 2.61"}
    assert avr.from_headers(headers) == APIVersionRequest("2.61")


def test_new_header_for_another_service_only_falls_back():
    headers = {avr.HEADER: "volume 3.50", avr.LEGACY_HEADER: "2.12"}
    assert avr.from_headers(headers) == APIVersionRequest("2.12")


@pytest.mark.parametrize("version", ["2.0", "2.105", "3.0", "1.1"])
def test_versions_outside_the_range_are_not_acceptable(version):
    with pytest.raises(exception.InvalidGlobalAPIVersion) as raised:
        avr.from_headers({avr.LEGACY_HEADER: version})
    assert raised.value.code == 406
    assert raised.value.format_message() == (
        f"Version {version} is not supported by the API. "
        "Minimum is 2.1 and maximum is 2.104."
    )


def test_garbage_is_a_bad_request():
    with pytest.raises(exception.InvalidAPIVersionString) as raised:
        avr.from_headers({avr.HEADER: "compute two"})
    assert raised.value.code == 400


def test_response_headers_echo_both_forms_and_vary():
    headers = dict(avr.response_headers(APIVersionRequest("2.61")))
    assert headers[avr.HEADER] == "compute 2.61"
    assert headers[avr.LEGACY_HEADER] == "2.61"
    assert headers["Vary"] == f"{avr.HEADER}, {avr.LEGACY_HEADER}"
