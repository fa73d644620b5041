"""``[api]``: behaviour of the compute and metadata APIs."""

from oslo_config import cfg

api_group = cfg.OptGroup(
    "api", title="API options", help="Options of the compute and metadata APIs."
)

auth_opts = [
    cfg.StrOpt(
        "auth_strategy",
        default="keystone",
        choices=[
            ("keystone", "Validate tokens with Keystone (keystonemiddleware)."),
            (
                "noauth2",
                "Trust the user and project named in the request. For "
                "development and tests only: every caller is believed.",
            ),
        ],
        deprecated_group="DEFAULT",
        help="How API requests are authenticated.",
    ),
    cfg.BoolOpt(
        "use_forwarded_for",
        default=False,
        deprecated_group="DEFAULT",
        help="Take the client address from the X-Forwarded-For header. Only "
        "enable behind a proxy that sets that header.",
    ),
]

metadata_opts = [
    cfg.StrOpt(
        "config_drive_skip_versions",
        default=(
            "1.0 2007-01-19 2007-03-01 2007-08-29 2007-10-10 "
            "2007-12-15 2008-02-01 2008-09-01"
        ),
        deprecated_group="DEFAULT",
        help="Space-separated EC2 metadata versions left out of config drives.",
    ),
    cfg.ListOpt(
        "vendordata_providers",
        item_type=cfg.types.String(choices=["StaticJSON", "DynamicJSON"]),
        default=["StaticJSON"],
        help="Sources of the vendor data offered to instances: a static "
        "JSON file and/or dynamic REST services.",
    ),
    cfg.StrOpt(
        "vendordata_jsonfile_path",
        deprecated_group="DEFAULT",
        help="JSON file served as static vendor data.",
    ),
    cfg.ListOpt(
        "vendordata_dynamic_targets",
        default=[],
        help="REST services queried for dynamic vendor data, as ``name@url`` entries.",
    ),
    cfg.StrOpt(
        "vendordata_dynamic_ssl_certfile",
        default="",
        help="CA bundle used to verify the dynamic vendor data services.",
    ),
    cfg.IntOpt(
        "vendordata_dynamic_connect_timeout",
        default=5,
        min=3,
        help="Seconds to wait for a connection to a dynamic vendor data service.",
    ),
    cfg.IntOpt(
        "vendordata_dynamic_read_timeout",
        default=5,
        min=0,
        help="Seconds to wait for a dynamic vendor data service to answer.",
    ),
    cfg.BoolOpt(
        "vendordata_dynamic_failure_fatal",
        default=False,
        help="Fail the metadata request when a dynamic vendor data service "
        "fails, instead of serving the rest.",
    ),
    cfg.IntOpt(
        "metadata_cache_expiration",
        default=15,
        min=0,
        deprecated_group="DEFAULT",
        help="Seconds the metadata API caches an instance's metadata. 0 "
        "disables the cache.",
    ),
    cfg.BoolOpt(
        "local_metadata_per_cell",
        default=False,
        help="The metadata API runs inside each cell and reads only that "
        "cell's database.",
    ),
    cfg.StrOpt(
        "dhcp_domain",
        default="novalocal",
        deprecated_group="DEFAULT",
        help="Domain appended to an instance's hostname in its metadata. "
        "Empty gives the bare hostname.",
    ),
]

compute_api_opts = [
    cfg.IntOpt(
        "max_limit",
        default=1000,
        min=0,
        deprecated_name="osapi_max_limit",
        deprecated_group="DEFAULT",
        help="Most items one page of a collection returns.",
    ),
    cfg.StrOpt(
        "compute_link_prefix",
        deprecated_name="osapi_compute_link_prefix",
        deprecated_group="DEFAULT",
        help="Scheme, host and port put into compute links in responses "
        "instead of the request's, for an API behind a proxy.",
    ),
    cfg.StrOpt(
        "glance_link_prefix",
        deprecated_name="osapi_glance_link_prefix",
        deprecated_group="DEFAULT",
        help="Scheme, host and port put into image links in responses "
        "instead of the request's.",
    ),
    cfg.ListOpt(
        "hide_server_address_states",
        default=["building"],
        help="Server states in which addresses are left out of server responses.",
    ),
    cfg.BoolOpt(
        "allow_instance_snapshots",
        default=True,
        help="Allow the createImage server action.",
    ),
    cfg.BoolOpt(
        "enable_instance_password",
        default=True,
        help="Return the admin password in create, rebuild, rescue and "
        "evacuate responses.",
    ),
    cfg.BoolOpt(
        "instance_list_per_project_cells",
        default=False,
        help="Query only the cells that hold instances of the project when "
        "a non-admin lists servers.",
    ),
    cfg.StrOpt(
        "instance_list_cells_batch_strategy",
        default="distributed",
        choices=[
            ("distributed", "Split the page limit evenly across the cells."),
            ("fixed", "Ask every cell for instance_list_cells_batch_fixed_size."),
        ],
        help="How many instances to ask each cell for when listing servers "
        "across cells.",
    ),
    cfg.IntOpt(
        "instance_list_cells_batch_fixed_size",
        default=100,
        min=10,
        help="Batch size per cell for the ``fixed`` strategy.",
    ),
    cfg.BoolOpt(
        "list_records_by_skipping_down_cells",
        default=True,
        help="Leave out the records of unreachable cells from list results "
        "instead of failing the request.",
    ),
    cfg.StrOpt(
        "response_validation",
        default="warn",
        choices=[
            ("error", "Fail the request with a server error."),
            ("warn", "Log a warning and return the response."),
            ("ignore", "Do not validate responses."),
        ],
        help="What to do when an API response does not match its schema.",
    ),
]

ALL_OPTS = auth_opts + metadata_opts + compute_api_opts


def register_opts(conf: cfg.ConfigOpts) -> None:
    conf.register_group(api_group)
    conf.register_opts(ALL_OPTS, group=api_group)


def list_opts() -> dict:
    return {api_group: ALL_OPTS}
