"""Secrets never reach the logs."""

import logging
import pathlib
import re

from oslo_config import cfg

from nova.conf import opts

UPSTREAM_CONF = (pathlib.Path(__file__).parent / "upstream_nova.conf").read_text()
SECRETS = ["rabbitpass", "apidbpass", "celldbpass", "proxysecret"]


def test_log_opt_values_masks_secrets(load, caplog):
    conf = load(UPSTREAM_CONF)
    logger = logging.getLogger("nova.tests.conf")

    with caplog.at_level(logging.DEBUG, logger="nova.tests.conf"):
        conf.log_opt_values(logger, logging.DEBUG)

    assert "compute-01.example.org" in caplog.text  # the dump did happen
    for secret in SECRETS:
        assert secret not in caplog.text
    assert re.search(r"database\.connection\s+= \*\*\*\*", caplog.text)
    assert re.search(r"transport_url\s+= \*\*\*\*", caplog.text)


def test_every_password_secret_or_connection_option_is_secret():
    sensitive = re.compile(r"(password|secret|connection)$")
    leaky = [
        f"[{getattr(group, 'name', group)}] {opt.dest}"
        for group, group_opts in opts.list_opts()
        for opt in group_opts
        if sensitive.search(opt.dest) and isinstance(opt, cfg.StrOpt) and not opt.secret
    ]

    assert leaky == []
