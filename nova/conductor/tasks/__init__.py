"""The conductor's task flows, one class each (see :mod:`.base`)."""
