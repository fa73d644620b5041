"""The routing table and the router that resolves paths through it."""

import inspect

import pytest

from nova.api.openstack import router
from nova.api.openstack.compute import routes, servers


def test_literal_templates_win_over_parameters():
    table = router.Router(routes.ROUTES, "/v2.1")
    route, params, project = table.match("/v2.1/servers/detail")
    assert route.methods["GET"] is servers.detail
    assert params == {} and project is None
    route, params, _ = table.match("/v2.1/servers/abc")
    assert route.methods["GET"] is servers.show
    assert params == {"server_id": "abc"}


def test_only_api_roots_take_a_trailing_slash():
    table = router.Router(routes.ROUTES, "/v2.1")
    assert table.match("/v2.1/")[0].template == "/v2.1"
    assert table.match("/v2/")[0].template == "/v2"
    assert table.match("/")[0].template == "/"
    # Elsewhere a trailing slash names another (missing) resource, as
    # upstream's router has it (tempest: usage of an empty tenant id).
    assert table.match("/v2.1/servers/") is None
    assert table.match("/v2.1/os-simple-tenant-usage/") is None
    assert table.match("/v2.1/6f70656e/servers/") is None


def test_project_id_in_the_url_is_accepted_and_returned():
    table = router.Router(routes.ROUTES, "/v2.1")
    route, params, project = table.match("/v2.1/6f70656e/servers/abc")
    assert route.methods["DELETE"] is servers.delete
    assert params == {"server_id": "abc"}
    assert project == "6f70656e"


def test_unknown_paths_do_not_match():
    table = router.Router(routes.ROUTES, "/v2.1")
    assert table.match("/v2.1/no-such-thing") is None
    assert table.match("/v2.1/project/no-such-thing") is None
    assert table.match("/v3/servers") is None


def test_template_parameters_do_not_cross_slashes():
    table = router.Router({"/v2.1/a/{x}": {"GET": print}}, "/v2.1")
    assert table.match("/v2.1/a/b/c") is None


def test_template_parameters_never_hold_nul():
    table = router.Router({"/v2.1/a/{x}": {"GET": print}}, "/v2.1")
    assert table.match("/v2.1/a/b\x00c") is None
    assert table.match("/v2.1/a/b\\x00c") is not None


@pytest.mark.parametrize("template", sorted(routes.ROUTES))
def test_every_handler_takes_the_request_and_the_template_parameters(template):
    params = set(router.Route(template, {}).params)
    for handler in routes.ROUTES[template].values():
        signature = inspect.signature(inspect.unwrap(handler))
        names = list(signature.parameters)
        assert names[0] == "req"
        if signature.parameters[names[-1]].kind is inspect.Parameter.VAR_KEYWORD:
            continue  # takes whatever the template names (removed APIs)
        assert set(names[1:]) == params


def test_only_version_documents_are_public():
    assert routes.PUBLIC_PATHS == {"/", "/v2", "/v2.1"}
