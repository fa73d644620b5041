"""Block storage: the volumes an instance boots from or has attached.

:mod:`nova.volume.api` is the interface the rest of nova calls.
"""
