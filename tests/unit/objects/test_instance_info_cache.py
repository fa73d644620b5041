"""The info cache holds its network info as the network model, stored and
sent as the same JSON list as before."""

import json

from nova import objects
from nova.network import model as network_model
from tests.unit.objects.test_instance import _create

NETWORK_INFO = [
    {
        "id": "port-1",
        "address": "fa:16:3e:00:00:01",
        "network": {
            "label": "private",
            "subnets": [{"cidr": "10.0.0.0/24", "ips": [{"address": "10.0.0.3"}]}],
        },
    }
]


def test_saved_and_loaded_as_the_model(ctxt):
    instance = _create(ctxt)
    cache = objects.InstanceInfoCache.get_by_instance_uuid(ctxt, instance.uuid)
    assert isinstance(cache.network_info, network_model.NetworkInfo)
    cache.network_info = NETWORK_INFO
    assert isinstance(cache.network_info, network_model.NetworkInfo)
    cache.save()

    loaded = objects.Instance.get_by_uuid(ctxt, instance.uuid).info_cache
    assert [ip["address"] for ip in loaded.network_info.fixed_ips()] == ["10.0.0.3"]
    assert loaded.network_info == cache.network_info


def test_sent_as_a_plain_json_list():
    cache = objects.InstanceInfoCache(instance_uuid="u", network_info=NETWORK_INFO)
    primitive = cache.obj_to_primitive()
    sent = primitive["nova_object.data"]["network_info"]
    assert type(sent) is list and type(sent[0]) is dict
    assert json.loads(json.dumps(sent)) == json.loads(cache.network_info.json())

    received = objects.InstanceInfoCache.obj_from_primitive(primitive)
    assert isinstance(received.network_info, network_model.NetworkInfo)
    assert received.network_info == cache.network_info
