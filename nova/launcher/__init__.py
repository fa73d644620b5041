"""A local, multi-process OpenStack deployment for development and tests.

``nova-local-cloud start`` brings up, on loopback, the unmodified Keystone,
Placement and Glance from PyPI under gunicorn, creates the databases and
RabbitMQ vhosts our services use, writes their ``nova.conf`` files, registers
the service catalog and writes a ``clouds.yaml``; ``nova-local-cloud stop``
ends every process it started.

Layers, bottom up:

* :mod:`.process` (with :mod:`.proc`, :mod:`.probes`) — supervised child
  processes: own session, log, pidfile, readiness, stop;
  :mod:`.commands` and :mod:`.forkrun` — one-shot set-up commands;
* :mod:`.gunicorn`, :mod:`.keystone`, :mod:`.placement`, :mod:`.glance` —
  one upstream service each (configuration, schema set-up, process);
* :mod:`.upstream` — those three plus the catalog (:mod:`.catalog`) and
  client configuration (:mod:`.clouds`): what the all-in-one and the test
  fixtures reuse;
* :mod:`.nova_services` — our databases (:mod:`.databases`), vhosts
  (:mod:`.rabbitmq`), ``nova.conf`` files (:mod:`.nova_config`) and the
  daemons declared in :mod:`.daemons`;
* :mod:`.deployment` — all of it in one state directory (:mod:`.state`,
  :mod:`.settings`); :mod:`.cli` — the console entry point.

``nova-aio`` (:mod:`.aio_cli`, :mod:`.all_in_one`) is the same deployment
run in the foreground, with our services as threads of the launcher itself
(:mod:`.in_process`, :mod:`.threaded_wsgi`) on SQLite and in-memory
messaging, plus DevStack's flavors and an image (:mod:`.cloud_content`).
"""
