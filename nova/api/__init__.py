"""The HTTP APIs of nova: the Compute API (``nova.api.openstack``)."""
