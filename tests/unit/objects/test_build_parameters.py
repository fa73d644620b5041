"""The build parameters: over the RPC serializer, without leaking the admin
password into logs, and made the same from the older keyword form."""

import json

import pytest
from oslo_utils import strutils, uuidutils

from nova import context, objects, rpc
from nova.objects import build_parameters

objects.register_all()

PASSWORD = "Tr0ub4dor-3"


def _parameters(**overrides):
    uuid = uuidutils.generate_uuid()
    root = objects.BlockDeviceMapping(
        uuid=uuidutils.generate_uuid(),
        instance_uuid=uuid,
        source_type="image",
        destination_type="local",
        image_id="img-1",
        boot_index=0,
        delete_on_termination=True,
    )
    values = {
        "image": {"id": "img-1", "name": "cirros", "properties": {"os_type": "linux"}},
        "admin_password": PASSWORD,
        "injected_files": [["/etc/motd", "aGVsbG8="]],
        "requested_networks": "auto",
        "security_groups": ["default"],
        "block_device_mapping": objects.BlockDeviceMappingList(objects=[root]),
        "tags": ["web"],
        "filter_properties": {
            "retry": {"num_attempts": 1, "hosts": [["h1", "h1"]], "exc_reasons": ["x"]}
        },
    }
    values.update(overrides)
    return objects.BuildParameters(**values)


def _data(obj):
    """The object's fields as plain JSON values, nested objects included
    (without the change lists, whose order is arbitrary)."""

    def strip(value):
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k != "nova_object.changes"}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    return strip(json.loads(json.dumps(obj.obj_to_primitive())))


def test_round_trips_through_the_rpc_serializer():
    ctxt = context.get_admin_context()
    serializer = rpc.RequestContextSerializer()
    sent = _parameters()
    # As oslo.messaging puts it on the wire: JSON.
    wire = json.loads(json.dumps(serializer.serialize_entity(ctxt, sent)))
    received = serializer.deserialize_entity(ctxt, wire)
    assert isinstance(received, objects.BuildParameters)
    assert _data(received) == _data(sent)
    # The compute needs the password itself.
    assert received.admin_password == PASSWORD
    assert received.injected_files == [["/etc/motd", "aGVsbG8="]]
    assert received.filter_properties["retry"]["hosts"] == [["h1", "h1"]]
    (root,) = received.block_device_mapping
    assert (root.source_type, root.boot_index) == ("image", 0)


def test_the_admin_password_stays_out_of_reprs_and_logs():
    parameters = _parameters()
    assert PASSWORD not in repr(parameters)
    assert PASSWORD not in str(parameters)
    assert "admin_password='***'" in repr(parameters)
    primitive = parameters.obj_to_primitive()
    # RPC carries it; the form a log line gets (oslo's masking of a
    # message's primitives) does not.
    assert primitive["nova_object.data"]["admin_password"] == PASSWORD
    assert PASSWORD not in json.dumps(strutils.mask_dict_password(primitive))
    # Nor does a log line of something holding the parameters.
    assert PASSWORD not in repr({"build_parameters": parameters})


def test_every_field_has_a_value_when_built():
    parameters = objects.BuildParameters(image={"id": "img-1"})
    assert parameters.injected_files == []
    assert parameters.filter_properties == {}
    assert parameters.admin_password is None
    assert parameters.block_device_mapping is None
    assert parameters.requested_networks is None


@pytest.mark.parametrize(
    "names",
    [build_parameters.LEGACY_BUILD_KWARGS, build_parameters.LEGACY_SCHEDULE_KWARGS],
)
def test_the_older_keyword_form_converts_to_the_same_parameters(names):
    parameters = _parameters()
    kwargs = parameters.message_kwargs(False, names)
    assert set(kwargs) == set(names)
    converted = objects.BuildParameters.from_legacy_kwargs(**kwargs)
    expected = _data(parameters)["nova_object.data"]
    defaults = _data(objects.BuildParameters(image={}))["nova_object.data"]
    for name in set(expected) - set(names):
        # Not in that form: the default.
        expected[name] = defaults[name]
    assert _data(converted)["nova_object.data"] == expected


def test_the_older_form_spelled_nothing_as_none():
    # As today's superconductor and computes sent a build without extras.
    converted = objects.BuildParameters.from_legacy_kwargs(
        image={"id": "img-1"},
        filter_properties=None,
        admin_password=None,
        injected_files=None,
        requested_networks=None,
        security_groups=None,
        block_device_mapping=None,
    )
    assert _data(converted) == _data(objects.BuildParameters(image={"id": "img-1"}))


def test_a_message_carries_either_form():
    parameters = _parameters()
    assert objects.BuildParameters.received(parameters, {}) is parameters
    assert parameters.message_kwargs(True, build_parameters.LEGACY_BUILD_KWARGS) == {
        "build_parameters": parameters
    }
    old = objects.BuildParameters.received(
        None, parameters.message_kwargs(False, build_parameters.LEGACY_BUILD_KWARGS)
    )
    assert old.admin_password == PASSWORD and old.requested_networks == "auto"
    with pytest.raises(TypeError, match="host"):
        objects.BuildParameters.from_legacy_kwargs(image={}, host="h1")
