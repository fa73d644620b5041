"""``[cinder]``: how nova reaches the Block Storage service.

Upstream Nova selects the Cinder endpoint with ``catalog_info`` rather than
keystoneauth1's adapter options, so only session and auth options are
registered here.
"""

from oslo_config import cfg

from nova.conf import utils

cinder_group = cfg.OptGroup(
    "cinder",
    title="Block Storage service options",
    help="How nova reaches Cinder (keystoneauth1 session and auth options) "
    "and attaches volumes.",
)

cinder_opts = [
    cfg.StrOpt(
        "catalog_info",
        default="volumev3::publicURL",
        regex=r"^[^:]+:[^:]*:[^:]+$",
        help="Catalog entry of the Cinder endpoint, as "
        "``<service_type>:<service_name>:<interface>``.",
    ),
    cfg.StrOpt(
        "endpoint_template",
        help="Cinder endpoint to use instead of the catalog's, with "
        "``%(project_id)s`` for the project, e.g. "
        "``http://cinder:8776/v3/%(project_id)s``.",
    ),
    cfg.StrOpt(
        "os_region_name",
        help="Region of the Cinder endpoint in the catalog.",
    ),
    cfg.IntOpt(
        "http_retries",
        default=3,
        min=0,
        help="Times an idempotent request to Cinder is retried after a "
        "connection error.",
    ),
    cfg.BoolOpt(
        "cross_az_attach",
        default=True,
        help="Allow attaching a volume to an instance in another "
        "availability zone. When false the zones must match, and a server "
        "booted from a new volume gets its instance's zone.",
    ),
    cfg.BoolOpt(
        "debug",
        default=False,
        help="Log the requests made to Cinder and their answers.",
    ),
]


def register_opts(conf: cfg.ConfigOpts) -> None:
    utils.register_ksa_opts(conf, cinder_group)
    conf.register_opts(cinder_opts, group=cinder_group)


def list_opts() -> dict:
    return {cinder_group: cinder_opts + utils.list_ksa_opts()}
