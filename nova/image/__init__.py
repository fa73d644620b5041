"""Images: what a server boots from.

:mod:`nova.image.api` is the interface the rest of nova uses;
:mod:`nova.image.glance` implements it against the Image service.
"""
