"""The WSGI application gunicorn serves for Horizon: Horizon's Django site,
and its collected static files under ``/static/``.

Django serves static files only in debug mode; a deployment puts a web
server in front for them. Here WebOb's directory server answers for the
directory ``NOVA_DASHBOARD_STATIC_ROOT`` names (it refuses paths outside
it), and everything else goes to Django.
"""

from __future__ import annotations

import os

from django.core.wsgi import get_wsgi_application
from webob.static import DirectoryApp

from nova.launcher.horizon import STATIC_URL

_site = get_wsgi_application()
_static = DirectoryApp(os.environ["NOVA_DASHBOARD_STATIC_ROOT"])


def application(environ, start_response):
    path = environ.get("PATH_INFO", "")
    if path.startswith(STATIC_URL):
        environ = dict(environ)
        environ["SCRIPT_NAME"] = environ.get("SCRIPT_NAME", "") + STATIC_URL[:-1]
        environ["PATH_INFO"] = path[len(STATIC_URL) - 1 :]
        return _static(environ, start_response)
    return _site(environ, start_response)
