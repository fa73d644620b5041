"""Networking: the ports an instance has and the addresses on them.

:mod:`nova.network.model` is the network info nova keeps and hands to virt
drivers; :mod:`nova.network.api` is the interface the rest of nova calls.
"""
