import pytest
from oslo_config import cfg

import nova.conf


@pytest.fixture
def conf() -> cfg.ConfigOpts:
    """A private ConfigOpts with every nova option registered, so tests do
    not share state through the global CONF."""
    conf = cfg.ConfigOpts()
    nova.conf.register_all(conf)
    return conf


@pytest.fixture
def load(conf, tmp_path):
    """Parse ``conf`` from the given nova.conf texts, later files winning."""

    def _load(*texts: str) -> cfg.ConfigOpts:
        args = []
        for i, text in enumerate(texts):
            path = tmp_path / f"nova-{i}.conf"
            path.write_text(text)
            args += ["--config-file", str(path)]
        conf(args, project="nova", default_config_files=[])
        return conf

    return _load
