pytest_plugins = [
    "tests.fixtures.databases",
    "tests.fixtures.placement",
]
