"""Quotas: limits stored per quota class, project and user."""

from nova import objects

Quotas = objects.Quotas


def test_class_limits_are_per_class(ctxt):
    Quotas.set_class_limits(ctxt, "default", {"instances": 10, "cores": 20})
    Quotas.set_class_limits(ctxt, "gold", {"instances": 50})

    assert Quotas.get_all_class_by_name(ctxt, "default") == {
        "instances": 10,
        "cores": 20,
    }
    assert Quotas.get_all_class_by_name(ctxt, "gold") == {"instances": 50}
    assert Quotas.get_all_class_by_name(ctxt, "silver") == {}


def test_setting_limits_again_updates_the_stored_rows(ctxt):
    Quotas.set_limits(ctxt, "p1", {"instances": 5, "ram": 512})
    Quotas.set_limits(ctxt, "p1", {"instances": 7, "cores": -1})
    Quotas.set_class_limits(ctxt, "default", {"instances": 1})
    Quotas.set_class_limits(ctxt, "default", {"instances": 2})

    assert Quotas.get_all_by_project(ctxt, "p1") == {
        "instances": 7,
        "ram": 512,
        "cores": -1,
    }
    assert Quotas.get_all_class_by_name(ctxt, "default") == {"instances": 2}


def test_user_limits_are_apart_from_the_projects(ctxt):
    Quotas.set_limits(ctxt, "p1", {"instances": 5})
    Quotas.set_limits(ctxt, "p1", {"instances": 2}, user_id="u1")
    Quotas.set_limits(ctxt, "p2", {"instances": 3}, user_id="u1")

    assert Quotas.get_all_by_project(ctxt, "p1") == {"instances": 5}
    assert Quotas.get_all_by_project_and_user(ctxt, "p1", "u1") == {"instances": 2}
    assert Quotas.get_all_by_project_and_user(ctxt, "p1", "u2") == {}
    assert Quotas.get_all_by_project_and_user(ctxt, "p2", "u1") == {"instances": 3}


def test_destroy_a_users_limits_or_all_of_a_projects(ctxt):
    Quotas.set_limits(ctxt, "p1", {"instances": 5})
    for user_id in ("u1", "u2"):
        Quotas.set_limits(ctxt, "p1", {"instances": 2}, user_id=user_id)
    Quotas.set_limits(ctxt, "p2", {"instances": 3})
    Quotas.set_limits(ctxt, "p2", {"instances": 1}, user_id="u1")

    Quotas.destroy_all_by_project_and_user(ctxt, "p1", "u1")
    assert Quotas.get_all_by_project_and_user(ctxt, "p1", "u1") == {}
    assert Quotas.get_all_by_project_and_user(ctxt, "p1", "u2") == {"instances": 2}
    assert Quotas.get_all_by_project(ctxt, "p1") == {"instances": 5}

    Quotas.destroy_all_by_project(ctxt, "p1")
    assert Quotas.get_all_by_project(ctxt, "p1") == {}
    assert Quotas.get_all_by_project_and_user(ctxt, "p1", "u2") == {}
    assert Quotas.get_all_by_project(ctxt, "p2") == {"instances": 3}
    assert Quotas.get_all_by_project_and_user(ctxt, "p2", "u1") == {"instances": 1}
