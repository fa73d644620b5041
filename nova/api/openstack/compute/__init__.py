"""The Compute API's resources: routes, handlers, schemas and views."""
