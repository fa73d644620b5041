"""``[wsgi]``: the HTTP layer of the API services.

The server options besides ``api_paste_config`` and ``wsgi_log_format``
belonged to upstream's eventlet WSGI server; they are accepted so existing
files load, and our WSGI server reads the ones it has an equivalent for.
"""

from oslo_config import cfg

wsgi_group = cfg.OptGroup(
    "wsgi",
    title="WSGI options",
    help="Options of the HTTP layer of the compute and metadata APIs.",
)

wsgi_opts = [
    cfg.StrOpt(
        "api_paste_config",
        default="api-paste.ini",
        deprecated_group="DEFAULT",
        help="Paste deployment file of the API pipelines, if any; a relative "
        "path is looked up next to the configuration files.",
    ),
    cfg.StrOpt(
        "wsgi_log_format",
        default=(
            '%(client_ip)s "%(request_line)s" status: %(status_code)s '
            "len: %(body_length)s time: %(wall_seconds).7f"
        ),
        deprecated_group="DEFAULT",
        help="Format of the access log line of each request.",
    ),
    cfg.StrOpt(
        "secure_proxy_ssl_header",
        deprecated_group="DEFAULT",
        deprecated_for_removal=True,
        deprecated_reason="Use oslo.middleware's HTTPProxyToWSGI instead.",
        help="Header a TLS-terminating proxy sets to tell the original "
        "scheme, e.g. ``HTTP_X_FORWARDED_PROTO``.",
    ),
    cfg.StrOpt(
        "ssl_ca_file",
        deprecated_group="DEFAULT",
        help="CA bundle used to verify connecting clients.",
    ),
    cfg.StrOpt(
        "ssl_cert_file",
        deprecated_group="DEFAULT",
        help="Certificate of the API server for TLS.",
    ),
    cfg.StrOpt(
        "ssl_key_file",
        deprecated_group="DEFAULT",
        help="Private key of the API server for TLS.",
    ),
    cfg.IntOpt(
        "tcp_keepidle",
        default=600,
        deprecated_group="DEFAULT",
        help="Seconds of idleness before TCP keepalive probes start on client sockets.",
    ),
    cfg.IntOpt(
        "default_pool_size",
        default=1000,
        deprecated_name="wsgi_default_pool_size",
        deprecated_group="DEFAULT",
        help="Most requests one API worker serves at once.",
    ),
    cfg.IntOpt(
        "max_header_line",
        default=16384,
        deprecated_group="DEFAULT",
        help="Longest HTTP header line accepted, in bytes.",
    ),
    cfg.BoolOpt(
        "keep_alive",
        default=True,
        deprecated_name="wsgi_keep_alive",
        deprecated_group="DEFAULT",
        help="Keep client connections open between requests.",
    ),
    cfg.IntOpt(
        "client_socket_timeout",
        default=900,
        deprecated_group="DEFAULT",
        help="Seconds an idle client connection is kept open. 0 waits forever.",
    ),
]


def register_opts(conf: cfg.ConfigOpts) -> None:
    conf.register_group(wsgi_group)
    conf.register_opts(wsgi_opts, group=wsgi_group)


def list_opts() -> dict:
    return {wsgi_group: wsgi_opts}
