"""The host id a project sees."""

from nova.utils import generate_hostid


def test_same_host_same_project_same_id_and_none_without_host():
    assert generate_hostid("compute-1", "p1") == generate_hostid("compute-1", "p1")
    assert generate_hostid("compute-1", "p1") != generate_hostid("compute-1", "p2")
    assert generate_hostid("compute-1", "p1") != generate_hostid("compute-2", "p1")
    assert generate_hostid(None, "p1") == ""
    assert len(generate_hostid("h", "p")) == 56
