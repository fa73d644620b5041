"""Mapping of Placement error responses to exception classes."""

import pytest

from placement_client import exception

CONFLICT = "There was a conflict when trying to complete your request.\n\n "


def _error(method, path, status, code=None, detail="", body=None):
    errors = [{"status": status, "detail": detail, "code": code}]
    return exception.from_response(
        method, path, status, body if body is not None else detail, errors
    )


@pytest.mark.parametrize(
    ("method", "path", "status", "code", "detail", "expected"),
    [
        (
            "PUT",
            "/resource_providers/rp/inventories",
            409,
            "placement.concurrent_update",
            CONFLICT + "resource provider generation conflict",
            exception.ResourceProviderGenerationConflict,
        ),
        (
            "PUT",
            "/allocations/c",
            409,
            "placement.concurrent_update",
            CONFLICT + "consumer generation conflict - expected null but got 3",
            exception.ConsumerGenerationConflict,
        ),
        (
            "PUT",
            "/allocations/c",
            409,
            "placement.undefined_code",
            CONFLICT + "Unable to allocate inventory: capacity exceeded",
            exception.ClaimConflict,
        ),
        (
            "POST",
            "/allocations",
            409,
            "placement.undefined_code",
            "Unable to allocate inventory",
            exception.ClaimConflict,
        ),
        (
            "PUT",
            "/resource_providers/rp/inventories",
            409,
            "placement.inventory.inuse",
            "Inventory for 'VCPU' on resource provider 'rp' in use.",
            exception.InventoryInUse,
        ),
        (
            "DELETE",
            "/resource_providers/rp",
            409,
            "placement.resource_provider.inuse",
            "in use",
            exception.ResourceProviderInUse,
        ),
        (
            "POST",
            "/resource_providers",
            409,
            "placement.duplicate_name",
            "Conflicting resource provider name: x already exists.",
            exception.ResourceProviderConflict,
        ),
        (
            "PUT",
            "/traits/CUSTOM_X",
            409,
            "placement.undefined_code",
            "?",
            exception.PlacementConflict,
        ),
        (
            "GET",
            "/resource_providers/rp/usages",
            404,
            None,
            "No resource provider with uuid rp found",
            exception.ResourceProviderNotFound,
        ),
        ("DELETE", "/allocations/c", 404, None, "gone", exception.PlacementAPIError),
        (
            "GET",
            "/allocation_candidates",
            400,
            None,
            "bad",
            exception.PlacementAPIError,
        ),
        ("GET", "/usages", 503, None, "down", exception.PlacementUnavailable),
    ],
)
def test_error_class(method, path, status, code, detail, expected):
    assert type(_error(method, path, status, code, detail)) is expected


def test_message_is_one_line_with_method_path_status_code():
    error = _error(
        "PUT",
        "/resource_providers/rp/traits",
        409,
        "placement.concurrent_update",
        CONFLICT + "generation   changed\n",
    )

    assert str(error) == (
        "PUT /resource_providers/rp/traits returned 409 placement.concurrent_update: "
        "There was a conflict when trying to complete your request. "
        "generation changed"
    )


def test_not_found_names_the_provider():
    error = _error("GET", "/resource_providers/abc-123/traits", 404, detail="x")

    assert error.uuid == "abc-123"


def test_body_without_errors_document():
    error = exception.from_response(
        "GET", "/usages", 502, "<html>Bad gateway</html>", None
    )

    assert isinstance(error, exception.PlacementUnavailable)
    assert error.status == 502
    assert "<html>Bad gateway</html>" in str(error)


def test_long_bodies_are_truncated():
    error = _error("GET", "/usages", 400, detail="x" * 10_000)

    assert len(error.detail) == 500
    assert len(error.body) == 2000
