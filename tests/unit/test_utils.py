"""nova.utils.mask_url_password: no password survives, the rest is kept."""

import pytest

from nova.utils import mask_url_password


@pytest.mark.parametrize(
    "url, masked",
    [
        (
            "rabbit://nova:secret@mq:5672/vhost",
            "rabbit://nova:****@mq:5672/vhost",
        ),
        (
            "rabbit://u1:p1@h1:5672,u2:p2@h2:5672/cell1",
            "rabbit://u1:****@h1:5672,u2:****@h2:5672/cell1",
        ),
        # A host without credentials borrows them; it shows as it is.
        (
            "rabbit://u1:p1@h1:5672,h2:5672/",
            "rabbit://u1:****@h1:5672,h2:5672/",
        ),
        (
            "mysql+pymysql://nova:secret@db.example/nova?charset=utf8",
            "mysql+pymysql://nova:****@db.example/nova?charset=utf8",
        ),
        ("postgresql://nova@db/nova", "postgresql://nova@db/nova"),
        # Passwords holding URL delimiters.
        ("mysql://nova:p@ss/w,rd@db/nova", "mysql://nova:****@db/nova"),
        ("rabbit://nova:pa,ss@mq/", "rabbit://nova:****@mq/"),
        ("rabbit://nova:pa:ss@[::1]:5672/", "rabbit://nova:****@[::1]:5672/"),
        (
            "postgresql://nova@db/nova?password=secret&sslmode=require",
            "postgresql://nova@db/nova?password=****&sslmode=require",
        ),
        ("sqlite:////var/lib/nova/nova.sqlite", "sqlite:////var/lib/nova/nova.sqlite"),
        ("none:///", "none:///"),
        ("fake://", "fake://"),
        ("", ""),
        (None, None),
        ("not a url", "not a url"),
    ],
)
def test_mask_url_password(url, masked):
    assert mask_url_password(url) == masked


@pytest.mark.parametrize(
    "url",
    [
        "rabbit://u:s3cr3t@h1,u:s3cr3t@h2,u:s3cr3t@h3/",
        "mysql://u:s3cr3t@db/x?a=b@c",
        "rabbit://u:s3c,r3t@h1:1,u2:s3c,r3t@h2:2/",
    ],
)
def test_no_password_fragment_survives(url):
    masked = mask_url_password(url)
    assert "s3c" not in masked and "r3t" not in masked
