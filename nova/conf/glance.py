"""``[glance]``: how nova reaches the Image service."""

from oslo_config import cfg

from nova.conf import utils

SERVICE_TYPE = "image"

glance_group = cfg.OptGroup(
    "glance",
    title="Image service options",
    help="How nova reaches Glance: keystoneauth1 options plus image "
    "download and verification settings.",
)

glance_opts = [
    cfg.ListOpt(
        "api_servers",
        deprecated_for_removal=True,
        deprecated_since="21.0.0",
        deprecated_reason="Endpoints come from the service catalog; use "
        "``endpoint_override`` to pin one.",
        help="Glance endpoints (``http://host:port``) to use instead of the "
        "catalog's, tried in turn.",
    ),
    cfg.IntOpt(
        "num_retries",
        default=3,
        min=0,
        help="Times a failed image upload or download is retried.",
    ),
    cfg.BoolOpt(
        "verify_glance_signatures",
        default=False,
        help="Verify the signature of signed images before using them.",
    ),
    cfg.BoolOpt(
        "enable_certificate_validation",
        default=False,
        deprecated_for_removal=True,
        deprecated_reason="Superseded by trusted image certificates.",
        help="Also validate the certificate of the image signature.",
    ),
    cfg.ListOpt(
        "default_trusted_certificate_ids",
        default=[],
        help="Certificate ids trusted to sign images when a request names none.",
    ),
    cfg.BoolOpt(
        "debug",
        default=False,
        help="Log the requests made to Glance and their answers.",
    ),
    cfg.BoolOpt(
        "enable_rbd_download",
        default=False,
        help="Read RBD-backed images straight from Ceph instead of through "
        "the Glance API.",
    ),
    cfg.StrOpt("rbd_user", default="", help="Ceph user for RBD downloads."),
    cfg.IntOpt(
        "rbd_connect_timeout",
        default=5,
        help="Seconds to wait for the Ceph cluster on RBD downloads.",
    ),
    cfg.StrOpt(
        "rbd_pool",
        default="",
        help="Ceph pool holding the images, for RBD downloads.",
    ),
    cfg.StrOpt(
        "rbd_ceph_conf",
        default="",
        help="Ceph configuration file for RBD downloads.",
    ),
]


def register_opts(conf: cfg.ConfigOpts) -> None:
    utils.register_ksa_opts(conf, glance_group, SERVICE_TYPE)
    conf.register_opts(glance_opts, group=glance_group)


def list_opts() -> dict:
    return {glance_group: glance_opts + utils.list_ksa_opts(SERVICE_TYPE)}
