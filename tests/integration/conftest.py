"""Integration tests: several real processes (OpenStack services, ours).

The ``openstack_services`` fixture is imported here so these tests get it
without the root conftest naming the plugin.
"""

from tests.fixtures.openstack_services import openstack_services  # noqa: F401
