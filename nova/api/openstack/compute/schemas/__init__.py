"""JSON Schemas of request bodies and query strings, one module per
resource, one schema per microversion range that changed it."""
