"""Handlers chosen by microversion range."""

import pytest

from nova import exception
from nova.api.openstack import microversion
from tests.unit.api.conftest import make_request


@microversion.version_handler("2.1", "2.18")
def handler(req):
    return "old"


@microversion.version_handler("2.19", "2.60")
def handler(req):  # noqa: F811
    return "middle"


@microversion.version_handler("2.70")
def handler(req):  # noqa: F811
    return "new"


@pytest.mark.parametrize(
    "version, expected",
    [("2.1", "old"), ("2.18", "old"), ("2.19", "middle"), ("2.60", "middle"),
     ("2.70", "new"), ("2.103", "new")],
)  # fmt: skip
def test_the_handler_of_the_range_answers(version, expected):
    assert handler(make_request(version=version)) == expected


def test_a_version_in_no_range_is_not_found():
    with pytest.raises(exception.VersionNotFoundForAPIMethod) as raised:
        handler(make_request(version="2.65"))
    assert raised.value.code == 404


def test_overlapping_ranges_are_refused_at_import():
    @microversion.version_handler("2.1", "2.10")
    def clash(req):
        return None

    with pytest.raises(ValueError, match="overlap"):

        @microversion.version_handler("2.10")
        def clash(req):  # noqa: F811
            return None
