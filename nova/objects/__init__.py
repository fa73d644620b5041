"""Nova's versioned objects.

Registering a class publishes it here (``nova.objects.CellMapping``);
:func:`register_all` imports every object module so that happens.
"""


def register_all() -> None:
    """Import every object module, registering all object classes."""
    # Imported for their registration side effect.
    import nova.objects.cell_mapping  # noqa: F401
    import nova.objects.compute_node  # noqa: F401
    import nova.objects.host_mapping  # noqa: F401
    import nova.objects.instance  # noqa: F401
    import nova.objects.instance_mapping  # noqa: F401
    import nova.objects.service  # noqa: F401
