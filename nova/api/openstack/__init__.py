"""The OpenStack Compute API v2.1 with microversions.

The framework pieces live here (microversion parsing and handler selection,
JSON Schema validation, faults, authentication middleware, the router);
``compute/`` holds the resources: the routing table, thin handlers, request
schemas per microversion and the views that build response bodies.
"""
