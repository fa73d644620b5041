"""Hostile requests at every route of the routing table (hypothesis).

For each route group (the first path segment under ``/v2.1``), requests
are drawn for the group's (template, method) pairs: path parameters that
name real objects or are garbage, query strings of arbitrary bytes,
microversion and content-type headers that are right or wrong, and bodies
that are JSON built from the words of our request schemas, arbitrary JSON,
or arbitrary bytes. Every answer must be below 500, a 4xx must be Nova's
fault body and at most 1 MiB, and no log line may repeat the admin
password the drawn requests carry.

The budget is ``NOVA_FUZZ_EXAMPLES`` requests per (template, method)
(default 6: the whole table in about a minute). Runs are
derandomized (the same requests every time) unless ``NOVA_FUZZ_RANDOM=1``,
so CI does not flake on a new find; a larger random run is e.g.
``NOVA_FUZZ_EXAMPLES=200 NOVA_FUZZ_RANDOM=1 pytest tests/functional/api/test_fuzz.py``.
``NOVA_FUZZ_STATS=FILE`` appends each request's method, template
and status to FILE, to see how deep the draws get.
"""

from __future__ import annotations

import importlib
import json
import logging
import os
import pkgutil
import re
import uuid
from urllib.parse import quote, quote_from_bytes

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nova import context as nova_context
from nova import objects
from nova.api.openstack.compute import (
    aggregates,
    flavor_access,
    routes,
    schemas,
    server_actions,
)
from nova.compute import rpcapi as compute_rpcapi
from nova.compute.api import base as compute_base
from tests.fixtures.secrets import secret
from tests.functional.api.conftest import ADMIN, DEMO, _create_image
from tests.functional.api.test_servers import _in_cell

# What a column or a query refuses differs by backend (NUL in PostgreSQL,
# integer ranges): NOVA_FUZZ_BACKENDS=sqlite,mysql,postgresql fires at each.
BACKENDS = os.environ.get("NOVA_FUZZ_BACKENDS", "sqlite").split(",")
pytestmark = pytest.mark.parametrize("cloud_databases", BACKENDS, indirect=True)

EXAMPLES_PER_ROUTE = int(os.environ.get("NOVA_FUZZ_EXAMPLES", "6"))
RANDOM = os.environ.get("NOVA_FUZZ_RANDOM") == "1"
MAX_ERROR_BODY = 1024 * 1024
# The admin password of the requests drawn: no log line may repeat it.
ADMIN_PASS = secret(f"fuzz-pass-{uuid.uuid4().hex[:12]}")
_PARAM = re.compile(r"\{(\w+)\}")


# -- the routing table, grouped ----------------------------------------------


def _group(template: str) -> str:
    rest = template.removeprefix(routes.V21).strip("/")
    return rest.split("/", 1)[0] or "versions"


ROUTE_GROUPS: dict[str, list[tuple[str, str]]] = {}
for _template, _methods in routes.ROUTES.items():
    for _method in _methods:
        ROUTE_GROUPS.setdefault(_group(_template), []).append((_template, _method))


# -- the words of our schemas ---------------------------------------------------


def _property_names(schema, depth: int = 0) -> set[str]:
    names: set[str] = set()
    if depth > 4 or not isinstance(schema, dict):
        return names
    for key in ("properties", "patternProperties"):
        for name, sub in (schema.get(key) or {}).items():
            if key == "properties":
                names.add(name)
            names |= _property_names(sub, depth + 1)
    for key in ("items", "additionalProperties"):
        names |= _property_names(schema.get(key), depth + 1)
    for key in ("oneOf", "anyOf", "allOf"):
        for sub in schema.get(key) or []:
            names |= _property_names(sub, depth + 1)
    return names


def _schema_words() -> list[str]:
    words = set(server_actions.ACTIONS) | set(aggregates._ACTIONS)
    words |= set(flavor_access._ACTIONS)
    for module_info in pkgutil.iter_modules(schemas.__path__):
        module = importlib.import_module(f"{schemas.__name__}.{module_info.name}")
        for value in vars(module).values():
            words |= _property_names(value)
    return sorted(words)


WORDS = _schema_words()

# -- strategies -------------------------------------------------------------------

_text = st.text(st.characters(exclude_categories=("Cs",)), max_size=40)
_numbers = st.sampled_from(
    ["0", "-1", "1", "2147483648", "1e41", "1e400", "-0.0", "9" * 400, "9" * 5000]
)
_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    _text,
    _numbers,
    st.sampled_from(["", " ", "abc", "auto", "none", "HARD", "AUTO", "x" * 300]),
)


def _json_values(ids: list[str]):
    leaves = st.one_of(_scalars, st.sampled_from(ids))
    return st.recursive(
        leaves,
        lambda children: st.one_of(
            st.lists(children, max_size=4),
            st.dictionaries(
                st.one_of(st.sampled_from(WORDS), _text), children, max_size=4
            ),
        ),
        max_leaves=12,
    )


def _structured_bodies(ids: list[str]):
    """``{word: {word: value, ...}}``: shaped like our requests, so the
    draws get past the first schema check and into the handlers."""
    values = _json_values(ids)
    inner = st.one_of(
        st.dictionaries(st.sampled_from(WORDS), values, max_size=5),
        values,
    )
    return st.dictionaries(st.sampled_from(WORDS), inner, min_size=1, max_size=2).map(
        lambda body: json.dumps(body).encode()
    )


_raw_bodies = st.one_of(
    st.binary(max_size=200),
    st.integers(min_value=1, max_value=3000).map(lambda n: b"[" * n + b"]" * n),
    st.integers(min_value=1, max_value=3000).map(
        lambda n: b'{"adminPass": ' * n + b"1" + b"}" * n
    ),
    st.sampled_from(
        [
            b"{",
            b'{"a": NaN}',
            b'{"server": {"name": "\\ud800"}}',
            b'{"metadata": {"k": "a\\u0000"}}',
            b"null",
            b"[]",
            b'"x"',
            b"\xff\xfe",
        ]
    ),
)


# Requests that pass validation, per (template, method): the fuzz mutates
# one place of them, so its draws reach the handlers and the flows below.
# IMAGE and SERVER stand for the real image and server.
_SERVER_ACTIONS = [
    {"os-start": None}, {"os-stop": None}, {"reboot": {"type": "HARD"}},
    {"pause": None}, {"unpause": None}, {"suspend": None}, {"resume": None},
    {"os-getConsoleOutput": {"length": 10}}, {"lock": {"locked_reason": "x"}},
    {"unlock": None}, {"os-resetState": {"state": "error"}},
    {"changePassword": {"adminPass": ADMIN_PASS}}, {"trigger_crash_dump": None},
    {"os-getVNCConsole": {"type": "novnc"}}, {"restore": None},
    {"forceDelete": None}, {"createImage": {"name": "snap", "metadata": {"a": "b"}}},
    {"createBackup": {"name": "b", "backup_type": "daily", "rotation": 1}},
    {"rescue": {"adminPass": ADMIN_PASS, "rescue_image_ref": "IMAGE"}},
    {"unrescue": None}, {"shelve": None}, {"shelveOffload": None},
    {"unshelve": None}, {"unshelve": {"availability_zone": "nova"}},
    {"rebuild": {"imageRef": "IMAGE", "name": "r", "adminPass": ADMIN_PASS,
                 "metadata": {"a": "b"},
                 "personality": [{"path": "/a", "contents": "YQ=="}]}},
    {"resize": {"flavorRef": "1", "OS-DCF:diskConfig": "AUTO"}},
    {"confirmResize": None}, {"revertResize": None},
    {"migrate": None}, {"migrate": {"host": "compute-1"}},
    {"os-migrateLive": {"block_migration": "auto", "host": None}},
]  # fmt: skip
_SEEDS = {
    ("/servers", "POST"): [
        {"server": {"name": "s", "imageRef": "IMAGE", "flavorRef": "1",
                    "networks": "none", "min_count": 1, "max_count": 2,
                    "metadata": {"a": "b"}, "security_groups": [{"name": "x"}],
                    "availability_zone": "nova", "user_data": "YQ==",
                    "block_device_mapping_v2": [
                        {"boot_index": 0, "uuid": "IMAGE", "source_type": "image",
                         "destination_type": "local"}],
                    "tags": ["t"], "description": "d", "key_name": "k"},
         "os:scheduler_hints": {"group": "SERVER", "same_host": ["SERVER"]}},
    ],
    ("/servers/{server_id}", "PUT"): [
        {"server": {"name": "n", "description": "d", "hostname": "h",
                    "accessIPv4": "1.2.3.4"}},
    ],
    ("/servers/{server_id}/action", "POST"): _SERVER_ACTIONS,
    ("/servers/{server_id}/metadata", "POST"): [{"metadata": {"a": "b"}}],
    ("/servers/{server_id}/metadata", "PUT"): [{"metadata": {"a": "b"}}],
    ("/servers/{server_id}/metadata/{key}", "PUT"): [{"meta": {"a": "b"}}],
    ("/servers/{server_id}/tags", "PUT"): [{"tags": ["a", "b"]}],
    ("/servers/{server_id}/remote-consoles", "POST"): [
        {"remote_console": {"protocol": "vnc", "type": "novnc"}}
    ],
    ("/flavors", "POST"): [
        {"flavor": {"name": "f", "ram": 64, "vcpus": 1, "disk": 1, "id": "f1",
                    "swap": 0, "rxtx_factor": 1.0, "OS-FLV-EXT-DATA:ephemeral": 0,
                    "os-flavor-access:is_public": False}},
    ],
    ("/flavors/{flavor_id}", "PUT"): [{"flavor": {"description": "d"}}],
    ("/flavors/{flavor_id}/action", "POST"): [
        {"addTenantAccess": {"tenant": "demo"}},
        {"removeTenantAccess": {"tenant": "demo"}},
    ],
    ("/flavors/{flavor_id}/os-extra_specs", "POST"): [
        {"extra_specs": {"hw:cpu_policy": "dedicated", "resources:VCPU": "2"}}
    ],
    ("/flavors/{flavor_id}/os-extra_specs/{key}", "PUT"): [{"a": "b"}],
    ("/os-aggregates", "POST"): [
        {"aggregate": {"name": "a", "availability_zone": "z"}}
    ],
    ("/os-aggregates/{aggregate_id}", "PUT"): [
        {"aggregate": {"name": "a2", "availability_zone": "z2"}}
    ],
    ("/os-aggregates/{aggregate_id}/action", "POST"): [
        {"add_host": {"host": "compute-1"}},
        {"remove_host": {"host": "compute-1"}},
        {"set_metadata": {"metadata": {"a": "b", "availability_zone": "z"}}},
    ],
    ("/os-keypairs", "POST"): [
        {"keypair": {"name": "k", "type": "ssh", "user_id": "demo"}},
    ],
    ("/os-server-groups", "POST"): [
        {"server_group": {"name": "g", "policy": "anti-affinity",
                          "rules": {"max_server_per_host": 2}}},
        {"server_group": {"name": "g", "policies": ["affinity"]}},
    ],
    ("/os-quota-sets/{tenant_id}", "PUT"): [
        {"quota_set": {"cores": 10, "instances": 5, "ram": 1024, "force": True}}
    ],
    ("/os-quota-class-sets/{id}", "PUT"): [{"quota_class_set": {"cores": 10}}],
    ("/os-services/{service_id}", "PUT"): [
        {"status": "disabled", "disabled_reason": "r", "forced_down": True}
    ],
    ("/os-server-external-events", "POST"): [
        {"events": [{"name": "network-changed", "server_uuid": "SERVER",
                     "tag": "t", "status": "completed"}]}
    ],
    ("/images/{image_id}/metadata", "POST"): [{"metadata": {"a": "b"}}],
    ("/images/{image_id}/metadata", "PUT"): [{"metadata": {"a": "b"}}],
    ("/images/{image_id}/metadata/{key}", "PUT"): [{"meta": {"a": "b"}}],
}  # fmt: skip


def _substitute(value, real: dict[str, str]):
    if isinstance(value, dict):
        return {key: _substitute(item, real) for key, item in value.items()}
    if isinstance(value, list):
        return [_substitute(item, real) for item in value]
    if value == "IMAGE":
        return real["image_id"]
    if value == "SERVER":
        return real["server_id"]
    return value


def _places(value, path=()):
    """Every (path of keys, value) inside ``value``."""
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _places(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _places(item, (*path, index))


def _mutated(data, seed, ids: list[str]) -> bytes:
    """``seed`` as it is, or with one place replaced, dropped or given a
    new key or item."""
    body = json.loads(json.dumps(seed))
    path, _ = data.draw(st.sampled_from(list(_places(body))), label="place")
    change = data.draw(st.sampled_from(["none", "replace", "replace", "drop", "add"]))
    if change == "none":
        return json.dumps(body).encode()
    if not path:
        return json.dumps(data.draw(_json_values(ids), label="whole body")).encode()
    parent = body
    for key in path[:-1]:
        parent = parent[key]
    last = path[-1]
    if change == "replace":
        parent[last] = data.draw(_json_values(ids), label="new value")
    elif change == "drop":
        del parent[last]
    elif isinstance(parent, dict):
        new_key = data.draw(st.one_of(st.sampled_from(WORDS), _text), label="new key")
        parent[new_key] = data.draw(_json_values(ids), label="its value")
    else:
        parent.append(data.draw(_json_values(ids), label="new item"))
    return json.dumps(body).encode()


def _body(data, template: str, method: str, real: dict[str, str], ids: list[str]):
    seeds = _SEEDS.get((template.removeprefix(routes.V21), method))
    if seeds and data.draw(st.sampled_from([True, True, True, False]), label="seed?"):
        seed = _substitute(data.draw(st.sampled_from(seeds), label="seed"), real)
        return _mutated(data, seed, ids)
    return data.draw(_bodies(ids), label="body")


def _bodies(ids: list[str]):
    return st.one_of(
        st.none(),
        _structured_bodies(ids),
        _json_values(ids).map(lambda value: json.dumps(value).encode()),
        _raw_bodies,
    )


_versions = st.one_of(
    st.none(),
    st.integers(min_value=0, max_value=120).map(lambda minor: f"compute 2.{minor}"),
    st.sampled_from(
        ["compute latest", "compute 3.0", "compute 2", "compute", "2.1", "compute 2.1 "]
    ),
    st.just("compute 2." + "9" * 5000),
    st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=20).map(
        lambda text: f"compute {text}"
    ),
)
_JSON = "application/json"
_content_types = st.sampled_from(
    [_JSON, _JSON, _JSON, None, "text/plain", "application/xml", "multipart/x; a"]
)
_word_is_text = st.tuples(st.sampled_from(WORDS), _text).map(
    lambda pair: f"{pair[0]}={quote(pair[1], safe='')}"
)
_query_parts = st.one_of(
    _word_is_text,
    _word_is_text,
    st.tuples(st.sampled_from(WORDS), _numbers).map(lambda pair: "=".join(pair)),
    st.binary(max_size=20).map(lambda raw: quote_from_bytes(raw, safe="=&")),
)
_queries = st.one_of(st.just(""), st.lists(_query_parts, max_size=4).map("&".join))


def _path_values(real: dict[str, str], name: str):
    garbage = st.one_of(
        _text.filter(bool).map(lambda text: quote(text, safe="")),
        _numbers,
        st.sampled_from(
            [
                "a%00b",
                "%00",
                "..",
                "%2E%2E",
                "%2F",
                "%20",
                "a%3Fb",
                "-1",
                "%ff",
                "%ED%A0%80",
            ]
        ),
        st.just(str(uuid.uuid4())),
    )
    if name in real:
        return st.one_of(st.just(real[name]), garbage)
    return garbage


# -- the cloud under fire -------------------------------------------------------


class _AnyCallDouble:
    """Stands in for the superconductor and the computes: accepts any call
    (a request the fuzz gets right reaches them) and answers a dict, the
    shape of what the RPC calls return (diagnostics, console addresses)."""

    def __getattr__(self, name):
        return lambda *args, **kwargs: {"host": "127.0.0.1", "port": 5900}


@pytest.fixture
def fuzz_image(openstack_services, glance):
    """An image of the fuzz's own: a drawn DELETE may remove it."""
    session = openstack_services.session()
    url = openstack_services.glance_url
    image_id = _create_image(session, url, b"x", name="fuzz", visibility="public")
    yield image_id
    session.delete(f"{url}/v2/images/{image_id}", raise_exc=False)


@pytest.fixture
def targets(nova_conf, flavor, fuzz_image, monkeypatch) -> dict[str, str]:
    """Real objects for path parameters to name."""
    double = _AnyCallDouble()
    monkeypatch.setattr(
        compute_base.FlowAPI, "_compute_task_api", staticmethod(lambda: double)
    )
    # Every compute client of nova-api (the flows' and the consoles').
    monkeypatch.setattr(compute_rpcapi, "ComputeAPI", lambda: double)
    server = _in_cell(nova_conf, "cell1", metadata={"a": "1"})
    context = nova_context.get_admin_context()
    aggregate = objects.Aggregate(context, name="fuzz-agg")
    aggregate.create()
    return {
        "server_id": server.uuid,
        "flavor_id": "1",
        "aggregate_id": str(aggregate.id),
        "image_id": fuzz_image,
        "tenant_id": "demo",
        "id": "default",
        "key": "a",
        "tag": "a",
    }


def _assert_answer(response, method: str, path: str) -> None:
    where = f"{method} {path[:200]} -> {response.status_code}: {response.text[:500]}"
    assert response.status_code < 500, where
    if response.status_code >= 400:
        assert len(response.content) <= MAX_ERROR_BODY, where
        body = response.json()
        assert len(body) == 1, where
        (fault,) = body.values()
        assert fault["code"] == response.status_code, where
        assert isinstance(fault["message"], str), where


@pytest.mark.parametrize("group", sorted(ROUTE_GROUPS))
def test_no_route_answers_a_hostile_request_with_a_5xx(api, targets, caplog, group):
    caplog.set_level(logging.DEBUG)
    pairs = ROUTE_GROUPS[group]
    ids = sorted(set(targets.values()))

    @settings(
        max_examples=EXAMPLES_PER_ROUTE * len(pairs),
        deadline=None,
        derandomize=not RANDOM,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(data=st.data())
    def fire(data):
        template, method = data.draw(st.sampled_from(pairs), label="route")
        path = _PARAM.sub(
            lambda found: data.draw(
                _path_values(targets, found.group(1)), label=found.group(1)
            ),
            template,
        )
        query = data.draw(_queries, label="query")
        headers = {"X-Auth-Token": data.draw(st.sampled_from([ADMIN, DEMO]))}
        version = data.draw(_versions, label="version")
        if version is not None:
            headers["OpenStack-API-Version"] = version.strip()
        if data.draw(st.sampled_from([False, False, False, True]), label="legacy"):
            legacy = data.draw(_versions) or ""
            headers["X-OpenStack-Nova-API-Version"] = legacy.removeprefix(
                "compute "
            ).strip()
        content_type = data.draw(_content_types, label="content type")
        if content_type is not None:
            headers["Content-Type"] = content_type
        body = None
        if method in ("POST", "PUT"):
            body = _body(data, template, method, targets, ids)
        url = path + (f"?{query}" if query else "")
        response = api.session.request(
            method, api.base_url + url, headers=headers, data=body, timeout=60
        )
        _assert_answer(response, method, url)
        if os.environ.get("NOVA_FUZZ_STATS"):
            with open(os.environ["NOVA_FUZZ_STATS"], "a") as stats:
                stats.write(f"{method} {template} {response.status_code}\n")

    fire()
    assert ADMIN_PASS not in caplog.text
