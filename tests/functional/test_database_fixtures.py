import sqlalchemy as sa

from nova.db import engines


def test_throwaway_databases_are_empty_and_distinct(make_db_url):
    first, second = make_db_url("a"), make_db_url("b")
    assert first != second
    with engines.transaction(first) as session:
        session.execute(sa.text("CREATE TABLE probe (id INTEGER PRIMARY KEY)"))
        session.execute(sa.text("INSERT INTO probe (id) VALUES (1)"))
    with engines.transaction(first) as session:
        assert session.execute(sa.text("SELECT count(*) FROM probe")).scalar() == 1
    assert sa.inspect(engines.get_engine(second)).get_table_names() == []


def test_transaction_rolls_back_on_error(make_db_url):
    url = make_db_url()
    with engines.transaction(url) as session:
        session.execute(sa.text("CREATE TABLE probe (id INTEGER PRIMARY KEY)"))
    try:
        with engines.transaction(url) as session:
            session.execute(sa.text("INSERT INTO probe (id) VALUES (1)"))
            raise RuntimeError("boom")
    except RuntimeError:
        pass
    with engines.transaction(url) as session:
        assert session.execute(sa.text("SELECT count(*) FROM probe")).scalar() == 0
