"""The Placement client and its construction from configuration."""

from __future__ import annotations

from keystoneauth1 import adapter as ks_adapter
from keystoneauth1 import loading as ks_loading
from oslo_config import cfg

from placement_client.allocation_candidates import AllocationCandidateMethods
from placement_client.allocations import AllocationMethods
from placement_client.provider_sets import ProviderSetMethods
from placement_client.resource_providers import ResourceProviderMethods
from placement_client.transport import (
    DEFAULT_MAX_ATTEMPTS,
    DEFAULT_RETRY_DELAY,
    Transport,
)

SERVICE_TYPE = "placement"
# Services talk to Placement on the internal network when the catalog has
# such an endpoint, as upstream's default does.
DEFAULT_INTERFACES = ("internal", "public")


class PlacementClient(
    ResourceProviderMethods,
    ProviderSetMethods,
    AllocationCandidateMethods,
    AllocationMethods,
):
    """Client of the Placement REST API.

    Safe to share between threads: it holds no state beyond the adapter.
    Every method takes an optional keyword-only ``context`` whose
    ``global_id`` is sent as the ``X-OpenStack-Request-ID`` header.

    :param adapter: keystoneauth1 Adapter for the ``placement`` service.
    :param timeout: seconds per HTTP request (default: the session's, else
        30).
    :param max_attempts: attempts for a write that keeps losing provider
        generation races.
    :param retry_delay: scale, in seconds, of the jittered pause between such
        attempts.
    """

    def __init__(
        self,
        adapter: ks_adapter.Adapter,
        *,
        timeout: float | None = None,
        max_attempts: int = DEFAULT_MAX_ATTEMPTS,
        retry_delay: float = DEFAULT_RETRY_DELAY,
    ) -> None:
        self._transport = Transport(adapter, timeout, max_attempts, retry_delay)


def register_keystoneauth_options(conf: cfg.ConfigOpts, group: str) -> None:
    """Register keystoneauth's session, auth and adapter options in ``group``.

    Options a service's own config module already registered (possibly with
    other deprecated names or defaults) are left as they are.
    """
    opts = (
        ks_loading.get_session_conf_options()
        + ks_loading.get_auth_common_conf_options()
        + ks_loading.get_adapter_conf_options(include_deprecated=False)
    )
    for opt in opts:
        try:
            conf.register_opt(opt, group=group)
        except cfg.DuplicateOptError:
            pass


def from_conf(
    conf: cfg.ConfigOpts,
    group: str = "placement",
    *,
    max_attempts: int = DEFAULT_MAX_ATTEMPTS,
    retry_delay: float = DEFAULT_RETRY_DELAY,
) -> PlacementClient:
    """Build a client from an operator's ``[placement]`` section.

    Everything keystoneauth offers works, for example::

        [placement]
        auth_type = password
        auth_url = http://keystone:5000/v3
        username = placement
        password = ...
        project_name = service
        user_domain_name = Default
        project_domain_name = Default
        valid_interfaces = internal
        timeout = 30

    or, against Placement running with ``auth_strategy = noauth2``::

        [placement]
        auth_type = admin_token
        token = admin:admin
        endpoint_override = http://127.0.0.1:8778

    (``auth_type = none`` sends the token ``notused``, which a noauth2
    Placement refuses with 403.) ``service_type`` defaults to ``placement``
    and ``valid_interfaces`` to internal then public. ``connect_retries``
    and ``status_code_retries`` apply before a failure is reported as
    ``PlacementUnavailable``.
    """
    register_keystoneauth_options(conf, group)
    auth = ks_loading.load_auth_from_conf_options(conf, group)
    session = ks_loading.load_session_from_conf_options(conf, group, auth=auth)
    options = conf[group]
    defaults: dict[str, object] = {"service_type": options.service_type or SERVICE_TYPE}
    if not options.valid_interfaces and not getattr(options, "interface", None):
        defaults["interface"] = list(DEFAULT_INTERFACES)
    adapter = ks_loading.load_adapter_from_conf_options(
        conf, group, session=session, auth=auth, **defaults
    )
    return PlacementClient(adapter, max_attempts=max_attempts, retry_delay=retry_delay)
