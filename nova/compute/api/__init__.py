"""The compute API: what nova-api does with servers, below HTTP.

One class per flow, each authorizing its caller before it reads and
checking the state machine (:mod:`nova.states.machine`) before it acts:

- :mod:`~nova.compute.api.create`: accepting new servers (build requests
  handed to the superconductor);
- :mod:`~nova.compute.api.servers`: reads, updates, metadata, tags, lock;
- :mod:`~nova.compute.api.delete`: delete, soft delete, restore;
- :mod:`~nova.compute.api.power`: stop, start, reboot, pause, suspend;
- :mod:`~nova.compute.api.guest`: console output, diagnostics, password,
  crash dump;
- :mod:`~nova.compute.api.images`: createImage, createBackup, shelve;
- :mod:`~nova.compute.api.rescue` and :mod:`~nova.compute.api.rebuild`;
- :mod:`~nova.compute.api.moves`: resize and migrations, to come.

What they share (finding a server in its cell, the lock, starting an
action) is :mod:`~nova.compute.api.base`; checks of flavors, images and
key pairs are :mod:`~nova.compute.api.checks`, availability zones
:mod:`~nova.compute.api.zones`.
"""
