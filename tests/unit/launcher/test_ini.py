import configparser

import pytest

from nova.launcher.ini import render_ini


def test_sections_and_values_render_in_order():
    text = render_ini(
        {
            "DEFAULT": {"debug": False, "workers": 2, "empty": None},
            "glance_store": {"stores": ["file", "http"]},
        },
        header="first line\nsecond line",
    )
    assert text.splitlines()[:2] == ["# first line", "# second line"]
    parser = configparser.ConfigParser(interpolation=None)
    parser.read_string(text)
    assert parser["DEFAULT"]["debug"] == "False"
    assert parser["DEFAULT"]["workers"] == "2"
    assert parser["DEFAULT"]["empty"] == ""
    assert parser["glance_store"]["stores"] == "file,http"
    assert text.index("[DEFAULT]") < text.index("[glance_store]")


def test_empty_value_has_no_trailing_space():
    assert "memcached_servers =\n" in render_ini({"x": {"memcached_servers": None}})


def test_multi_line_values_are_refused():
    with pytest.raises(ValueError):
        render_ini({"x": {"y": "a\nb"}})
