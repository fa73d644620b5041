"""Block storage without a block storage service, and the API choosing it."""

import pytest

from nova import exception
from nova.volume import api, local

CALLS = {
    "get": ("vol-1",),
    "create": (1, "data", None),
    "delete": ("vol-1",),
    "attachment_create": ("vol-1", "instance-1"),
    "attachment_get": ("attachment-1",),
    "attachment_update": ("attachment-1", {"host": "compute-1"}),
    "attachment_complete": ("attachment-1",),
    "attachment_delete": ("attachment-1",),
    "begin_detaching": ("vol-1",),
    "roll_detaching": ("vol-1",),
}


def test_every_call_of_the_volume_api_is_covered():
    members = {name for name in dir(api.VolumeAPI) if not name.startswith("_")}
    assert members == set(CALLS)


@pytest.mark.parametrize("method", sorted(CALLS))
def test_every_call_is_refused_with_400(method):
    volumes = local.LocalVolumeAPI()
    with pytest.raises(exception.VolumeServiceNotConfigured) as raised:
        getattr(volumes, method)(None, *CALLS[method])
    assert raised.value.code == 400
    assert "Block storage is not configured" in raised.value.format_message()


def test_get_volume_api_chooses_the_local_one():
    volumes = api.get_volume_api()
    assert isinstance(volumes, local.LocalVolumeAPI)
    assert isinstance(volumes, api.VolumeAPI)
