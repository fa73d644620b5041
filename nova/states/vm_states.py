"""Stable states of an instance (``vm_state``), named as upstream names them.

A vm_state says where an instance rests; the transient work on it is its
``task_state``.
"""

ACTIVE = "active"
BUILDING = "building"
PAUSED = "paused"
SUSPENDED = "suspended"
STOPPED = "stopped"
RESCUED = "rescued"
RESIZED = "resized"
SOFT_DELETED = "soft-delete"
DELETED = "deleted"
ERROR = "error"
SHELVED = "shelved"
SHELVED_OFFLOADED = "shelved_offloaded"
