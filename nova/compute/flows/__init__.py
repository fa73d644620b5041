"""The compute manager's collaborators, one per flow.

:class:`nova.compute.manager.ComputeManager` is the RPC face of
nova-compute; each of its methods hands the work to one of these. What they
share (the host, its driver and resource tracker, per-instance locks, the
steps every action ends with) is :mod:`~nova.compute.flows.base`.
"""
