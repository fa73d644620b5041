"""How Keystone's answers about a project become the API's (upstream's
choices); the real Keystone's 404 and 200 are in the functional tests."""

import logging

import pytest
from keystoneauth1 import exceptions as ks_exceptions

from nova import context as nova_context
from nova import exception
from nova.api.openstack import identity


class _Response:
    def __init__(self, status_code):
        self.status_code = status_code
        self.ok = status_code < 400


class _Adapter:
    def __init__(self, answer):
        self.answer = answer
        self.paths = []

    def get(self, path, raise_exc=True):
        self.paths.append(path)
        if isinstance(self.answer, Exception):
            raise self.answer
        return _Response(self.answer)


@pytest.fixture
def keystone(monkeypatch):
    def answering(answer):
        adapter = _Adapter(answer)
        monkeypatch.setattr(identity, "_identity_adapter", lambda auth: adapter)
        return adapter

    return answering


def _context(with_token: bool = True):
    context = nova_context.RequestContext(user_id="u", project_id="p")
    context.user_auth_plugin = object() if with_token else None
    return context


def test_a_project_keystone_does_not_know_is_a_400(keystone):
    adapter = keystone(404)
    with pytest.raises(exception.ProjectNotFoundInKeystone) as raised:
        identity.verify_project_id(_context(), "a/b?c")
    assert raised.value.code == 400
    assert raised.value.format_message() == "Project ID a/b?c is not a valid project."
    # The id cannot reach another Keystone resource.
    assert adapter.paths == ["/projects/a%2Fb%3Fc"]


def test_no_identity_endpoint_is_upstreams_400(keystone):
    keystone(ks_exceptions.EndpointNotFound())
    with pytest.raises(exception.IdentityEndpointNotFound) as raised:
        identity.verify_project_id(_context(), "p1")
    assert raised.value.code == 400


@pytest.mark.parametrize(
    "answer", [200, 403, 500, ks_exceptions.ConnectFailure("down")]
)
def test_other_answers_let_the_request_go_on(keystone, caplog, answer):
    keystone(answer)
    with caplog.at_level(logging.INFO, logger=identity.__name__):
        identity.verify_project_id(_context(), "p1")
    if answer != 200:
        assert caplog.records


def test_without_a_user_token_nothing_is_asked(keystone):
    adapter = keystone(404)
    identity.verify_project_id(_context(with_token=False), "p1")
    assert adapter.paths == []
