pytest_plugins = [
    "tests.fixtures.databases",
    "tests.fixtures.placement",
    "tests.fixtures.openstack_services",
    "tests.fixtures.neutron_cloud",
    "tests.fixtures.neutron_servers",
    "tests.fixtures.cinder_cloud",
]
