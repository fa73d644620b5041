pytest_plugins = [
    "tests.fixtures.databases",
]
