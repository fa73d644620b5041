"""Transient states of an instance (``task_state``), as upstream names them.

None means no task runs on the instance.
"""

# Building
SCHEDULING = "scheduling"
BLOCK_DEVICE_MAPPING = "block_device_mapping"
NETWORKING = "networking"
SPAWNING = "spawning"

# Power and lifecycle
POWERING_OFF = "powering-off"
POWERING_ON = "powering-on"
REBOOTING = "rebooting"
REBOOTING_HARD = "rebooting_hard"
PAUSING = "pausing"
UNPAUSING = "unpausing"
SUSPENDING = "suspending"
RESUMING = "resuming"
DELETING = "deleting"
SOFT_DELETING = "soft-deleting"
RESTORING = "restoring"
UPDATING_PASSWORD = "updating_password"

# Images
IMAGE_SNAPSHOT = "image_snapshot"
IMAGE_SNAPSHOT_PENDING = "image_snapshot_pending"
IMAGE_PENDING_UPLOAD = "image_pending_upload"
IMAGE_UPLOADING = "image_uploading"
IMAGE_BACKUP = "image_backup"

# Rebuild
REBUILDING = "rebuilding"
REBUILD_BLOCK_DEVICE_MAPPING = "rebuild_block_device_mapping"
REBUILD_SPAWNING = "rebuild_spawning"
# Rescue
RESCUING = "rescuing"
UNRESCUING = "unrescuing"

# Interfaces
INTERFACE_ATTACHING = "interface_attaching"
INTERFACE_DETACHING = "interface_detaching"

# Shelve
SHELVING = "shelving"
SHELVING_IMAGE_PENDING_UPLOAD = "shelving_image_pending_upload"
SHELVING_IMAGE_UPLOADING = "shelving_image_uploading"
SHELVING_OFFLOADING = "shelving_offloading"
UNSHELVING = "unshelving"

# Resize and cold migration
RESIZE_PREP = "resize_prep"
RESIZE_MIGRATING = "resize_migrating"
RESIZE_MIGRATED = "resize_migrated"
RESIZE_FINISH = "resize_finish"
RESIZE_REVERTING = "resize_reverting"

# Live migration
MIGRATING = "migrating"
