"""A local, multi-process OpenStack deployment for development and tests.

``nova-local-cloud start`` brings up, on loopback, the unmodified Keystone,
Placement and Glance from PyPI under gunicorn, creates the databases and
RabbitMQ vhosts our services use, registers the service catalog and writes a
``clouds.yaml``; ``nova-local-cloud stop`` ends every process it started.

Layers, bottom up:

* :mod:`.process`, :mod:`.probes`, :mod:`.commands` — supervised child
  processes and one-shot setup commands;
* :mod:`.keystone`, :mod:`.placement`, :mod:`.glance` — one upstream service
  each (configuration, schema setup, gunicorn process);
* :mod:`.upstream` — those three plus the catalog (:mod:`.catalog`) and
  client configuration (:mod:`.clouds`): what the all-in-one and the test
  fixtures reuse;
* :mod:`.deployment` — the upstream services plus our databases
  (:mod:`.databases`), vhosts (:mod:`.rabbitmq`), ``nova.conf`` files
  (:mod:`.nova_config`) and our daemons (:mod:`.daemons`);
* :mod:`.cli` — the console entry point.
"""
