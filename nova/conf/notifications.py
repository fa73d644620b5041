"""``[notifications]``: which notifications nova emits.

Where they go (driver, transport, topics) is oslo.messaging's
``[oslo_messaging_notifications]`` group.
"""

from oslo_config import cfg

notifications_group = cfg.OptGroup(
    "notifications",
    title="Notification options",
    help="Which notifications nova emits and in which format.",
)

notifications_opts = [
    cfg.StrOpt(
        "notify_on_state_change",
        choices=[
            (None, "No state change notifications."),
            ("vm_state", "Notify on vm_state changes."),
            ("vm_and_task_state", "Notify on vm_state and task_state changes."),
        ],
        deprecated_group="DEFAULT",
        help="Emit instance.update notifications on state changes.",
    ),
    cfg.StrOpt(
        "default_level",
        default="INFO",
        choices=("DEBUG", "INFO", "WARN", "ERROR", "CRITICAL"),
        deprecated_name="default_notification_level",
        deprecated_group="DEFAULT",
        help="Priority of notifications that do not set their own.",
    ),
    cfg.StrOpt(
        "notification_format",
        default="unversioned",
        choices=[
            ("both", "Emit both formats."),
            ("versioned", "Emit versioned notifications only."),
            ("unversioned", "Emit legacy unversioned notifications only."),
        ],
        deprecated_group="DEFAULT",
        help="Format of the notifications emitted.",
    ),
    cfg.ListOpt(
        "versioned_notifications_topics",
        default=["versioned_notifications"],
        help="Topics versioned notifications are sent to.",
    ),
    cfg.BoolOpt(
        "bdms_in_notifications",
        default=False,
        help="Include block device information in versioned instance notifications.",
    ),
    cfg.BoolOpt(
        "include_share_mapping",
        default=False,
        help="Include share mappings in versioned instance notifications.",
    ),
]


def register_opts(conf: cfg.ConfigOpts) -> None:
    conf.register_group(notifications_group)
    conf.register_opts(notifications_opts, group=notifications_group)


def list_opts() -> dict:
    return {notifications_group: notifications_opts}
