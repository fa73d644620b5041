"""What the resize and migrate actions refuse before anything is read:
their bodies, the flavor asked for, the quota delta, a migration id."""

from __future__ import annotations

import pytest

from nova import exception, objects
from nova.api.openstack import validation
from nova.api.openstack.compute import server_migrations
from nova.api.openstack.compute.schemas import migrate_server, resize_server
from nova.compute.api import moves
from nova.objects import flavor as flavor_obj  # noqa: F401  (registers Flavor)
from nova.objects import instance as instance_obj  # noqa: F401


def _refused(schema, body) -> str:
    with pytest.raises(exception.ValidationError) as raised:
        validation._Validator(schema).validate(body)
    assert raised.value.code == 400
    return raised.value.format_message()


@pytest.mark.parametrize(
    "body",
    [
        {"resize": {"flavorRef": "2"}},
        {"resize": {"flavorRef": 2, "OS-DCF:diskConfig": "MANUAL"}},
    ],
)
def test_resize_bodies_accepted(body):
    validation._Validator(resize_server.resize).validate(body)


@pytest.mark.parametrize(
    "body, word",
    [
        ({"resize": {}}, "flavorRef"),
        ({"resize": None}, "resize"),
        ({"resize": {"flavorRef": ""}}, "flavorRef"),
        ({"resize": {"flavorRef": "2", "OS-DCF:diskConfig": "auto"}}, "diskConfig"),
        ({"resize": {"flavorRef": "2", "extra": 1}}, "extra"),
    ],
)
def test_resize_bodies_refused(body, word):
    assert word in _refused(resize_server.resize, body)


def test_migrate_body_names_at_most_a_host():
    validation._Validator(migrate_server.migrate_v256).validate({"migrate": None})
    validation._Validator(migrate_server.migrate_v256).validate(
        {"migrate": {"host": "compute-1"}}
    )
    assert "node" in _refused(
        migrate_server.migrate_v256, {"migrate": {"host": "c", "node": "n"}}
    )
    assert "host" in _refused(migrate_server.migrate_v256, {"migrate": {"host": ""}})


def _flavor(flavorid, vcpus=1, memory_mb=512, root_gb=1, disabled=False):
    return objects.Flavor(
        id=hash(flavorid) % 1000,
        flavorid=flavorid,
        vcpus=vcpus,
        memory_mb=memory_mb,
        root_gb=root_gb,
        disabled=disabled,
    )


@pytest.fixture
def flavors(monkeypatch):
    known = {
        f.flavorid: f
        for f in (
            _flavor("1"),
            _flavor("bigger", vcpus=4, memory_mb=256, root_gb=10),
            _flavor("zero-disk", root_gb=0),
            _flavor("off", vcpus=2, disabled=True),
        )
    }

    def get_by_flavor_id(context, flavorid):
        if flavorid not in known:
            raise exception.FlavorNotFound(flavor_id=flavorid)
        return known[flavorid]

    monkeypatch.setattr(objects.Flavor, "get_by_flavor_id", get_by_flavor_id)
    return known


def _server(flavors, image_ref="image"):
    return objects.Instance(flavor=flavors["1"], image_ref=image_ref)


@pytest.mark.parametrize(
    "flavor_ref, error, message",
    [
        ("1", exception.CannotResizeToSameFlavor, "Resize requires a flavor change."),
        ("nope", exception.ResizeFlavorNotFound, "Unable to locate requested flavor."),
        ("off", exception.ResizeFlavorNotFound, "Unable to locate requested flavor."),
        (
            "zero-disk",
            exception.CannotResizeDisk,
            "Resize to zero disk flavor is not allowed.",
        ),
    ],
)
def test_the_new_flavor_is_checked(flavors, flavor_ref, error, message):
    with pytest.raises(error) as raised:
        moves.MovesAPI._new_flavor(None, _server(flavors), flavor_ref)
    assert raised.value.code == 400
    assert message in raised.value.format_message()


def test_a_flavor_url_names_its_id(flavors):
    new = moves.MovesAPI._new_flavor(
        None, _server(flavors), "http://compute/v2.1/flavors/bigger"
    )
    assert new.flavorid == "bigger"


def test_a_volume_backed_server_may_lose_its_root_disk(flavors):
    server = _server(flavors, image_ref="")
    assert moves.MovesAPI._new_flavor(None, server, "zero-disk").root_gb == 0


def test_only_what_a_resize_adds_counts_against_quota():
    old = _flavor("old", vcpus=2, memory_mb=1024)
    assert moves._upsize_deltas(_flavor("new", vcpus=4, memory_mb=512), old) == {
        "cores": 2
    }
    assert moves._upsize_deltas(_flavor("down", vcpus=1, memory_mb=512), old) == {}


@pytest.mark.parametrize("migration_id", ["abc", "0", "-3", "1e3", "9" * 40])
def test_a_migration_id_no_row_can_have_is_not_found(migration_id):
    with pytest.raises(exception.MigrationNotFoundForInstance) as raised:
        server_migrations._migration_id(migration_id, "server")
    assert raised.value.code == 404


def test_a_migration_id_is_an_integer():
    assert server_migrations._migration_id("42", "server") == 42


def _live(**values):
    return {"os-migrateLive": values}


@pytest.mark.parametrize(
    "schema, body, word",
    [
        (migrate_server.migrate_live, _live(block_migration=True, host=None), "disk"),
        (
            migrate_server.migrate_live,
            _live(block_migration="auto", disk_over_commit=False, host=None),
            "auto",
        ),
        (migrate_server.migrate_live_v225, _live(block_migration="auto"), "host"),
        (
            migrate_server.migrate_live_v225,
            _live(block_migration="auto", host=None, force=True),
            "force",
        ),
        (
            migrate_server.migrate_live_v230,
            _live(block_migration="auto", host=None, force="sometimes"),
            "force",
        ),
    ],
)
def test_live_migration_bodies_refused(schema, body, word):
    assert word in _refused(schema, body)


@pytest.mark.parametrize(
    "schema, body",
    [
        (
            migrate_server.migrate_live,
            _live(block_migration=False, disk_over_commit=False, host="c-1"),
        ),
        (migrate_server.migrate_live_v225, _live(block_migration="auto", host=None)),
        (
            migrate_server.migrate_live_v230,
            _live(block_migration=True, host="c-1", force=False),
        ),
    ],
)
def test_live_migration_bodies_accepted(schema, body):
    validation._Validator(schema).validate(body)
