"""``[consoleauth]``: console access tokens."""

from oslo_config import cfg

consoleauth_group = cfg.OptGroup(
    "consoleauth",
    title="Console authorization options",
    help="Lifetime of the tokens in console URLs.",
)

consoleauth_opts = [
    cfg.IntOpt(
        "token_ttl",
        default=600,
        min=0,
        deprecated_name="console_token_ttl",
        deprecated_group="DEFAULT",
        help="Seconds a console token stays valid.",
    ),
    cfg.BoolOpt(
        "enforce_session_timeout",
        default=False,
        help="Close an open console session when its token expires, not "
        "only refuse new connections.",
    ),
]


def register_opts(conf: cfg.ConfigOpts) -> None:
    conf.register_group(consoleauth_group)
    conf.register_opts(consoleauth_opts, group=consoleauth_group)


def list_opts() -> dict:
    return {consoleauth_group: consoleauth_opts}
