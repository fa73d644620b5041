"""Nova's default per-library log levels.

oslo.log's own list already quiets amqp, sqlalchemy, keystoneauth,
stevedore, urllib3 and keeps oslo.messaging at INFO even under ``--debug``;
nova adds kombu, the AMQP client under oslo.messaging's rabbit driver,
whose debug output would otherwise drown nova's.
"""

from oslo_log import log

EXTRA_DEFAULT_LOG_LEVELS = ["kombu=WARN"]


def default_log_levels() -> list[str]:
    """oslo.log's default levels followed by nova's additions."""
    return log.get_default_log_levels() + EXTRA_DEFAULT_LOG_LEVELS
