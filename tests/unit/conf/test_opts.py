"""The generator's view of nova's options matches what is registered."""

import subprocess
import sys

from keystoneauth1 import loading as ks_loading
from oslo_config import cfg
from oslo_messaging import opts as messaging_opts

import nova.conf
from nova.conf import opts, utils


def _group_name(group) -> str:
    return getattr(group, "name", group)


def test_list_opts_covers_every_registered_nova_group(conf):
    listed = {_group_name(group) for group, _ in opts.list_opts()}
    registered = {
        name for name in conf if isinstance(conf[name], cfg.ConfigOpts.GroupAttr)
    }

    assert registered == listed - {"DEFAULT"}


def test_list_opts_lists_exactly_the_registered_options(conf):
    # Registered but not listed: oslo.messaging's options, documented under
    # their own namespace, and oslo.config's own. Listed but not registered:
    # the auth plugin's options, which keystoneauth1 registers when it loads
    # the plugin.
    messaging = {
        opt.dest
        for group, group_opts in messaging_opts.list_opts()
        if group is None
        for opt in group_opts
    }
    not_listed = messaging | {"config_source", "shell_completion"}
    plugin = {
        opt.dest
        for opt in ks_loading.get_auth_plugin_conf_options(utils.SAMPLE_AUTH_PLUGIN)
    }
    # Whichever plugin another test in this process loaded (admin_token,
    # say) has registered its own options in that group too.
    loaded_plugins = {
        opt.dest
        for name in ks_loading.get_available_plugin_names()
        for opt in ks_loading.get_auth_plugin_conf_options(name)
    }
    for group, group_opts in opts.list_opts():
        name = _group_name(group)
        section = conf if name == "DEFAULT" else conf[name]
        registered = {
            opt
            for opt in section
            if not isinstance(section[opt], cfg.ConfigOpts.GroupAttr)
        }
        listed = {opt.dest for opt in group_opts}

        assert registered - not_listed - (loaded_plugins - listed) == (
            listed - plugin
        ), name


def test_list_opts_is_sorted_with_default_first():
    names = [_group_name(group) for group, _ in opts.list_opts()]

    assert names[0] == "DEFAULT"
    assert names[1:] == sorted(names[1:])
    assert len(names) == len(set(names))


def test_library_options_stay_in_their_own_namespaces():
    default_opts = dict(opts.list_opts())["DEFAULT"]
    names = {opt.dest for opt in default_opts}

    assert not names & {"transport_url", "rpc_response_timeout", "debug", "log_file"}


def test_every_group_module_is_registered_on_the_global_conf():
    for group, _ in opts.list_opts():
        if _group_name(group) != "DEFAULT":
            assert _group_name(group) in nova.conf.CONF


def test_importing_nova_conf_keeps_oslo_service_off_eventlet():
    # A fresh interpreter: in this one some other test may have imported
    # oslo.messaging first.
    code = (
        "import nova.conf\n"
        "from oslo_service import backend\n"
        "print(backend.get_backend().__class__.__name__)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )

    assert result.stdout.strip() == "ThreadingBackend"
