"""The words of an instance's life: where it rests (``vm_states``), what
runs on it (``task_states``), what its guest is doing (``power_state``),
and the one table of which action may start from which state
(:mod:`nova.states.machine`).

They live below ``nova/compute`` so that objects, virt drivers, the
scheduler and the API can all use them without importing a layer above
their own.
"""
