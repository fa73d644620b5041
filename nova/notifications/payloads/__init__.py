"""Payloads of versioned notifications, one module per subject."""
