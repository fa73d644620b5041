"""nova-manage run in-process against real databases on every backend.

Migrating databases costs seconds on MariaDB and PostgreSQL, so one API
database and two cell databases (cell0, cell1) are migrated once per backend
and emptied of the rows these tests write before each test.
"""

from __future__ import annotations

import dataclasses
import datetime
import uuid

import pytest
import sqlalchemy as sa

from nova.cmd import manage
from nova.db import engines, migration
from nova.db.api import models as api_models
from nova.db.main import models as main_models
from tests.fixtures import databases

# Tables these tests write to, children before parents.
API_TABLES = (
    api_models.InstanceGroupMember,
    api_models.InstanceGroup,
    api_models.RequestSpec,
    api_models.InstanceMapping,
    api_models.HostMapping,
    api_models.CellMapping,
)
# Every table of a cell database, shadow tables included.
CELL_TABLES = tuple(reversed(main_models.BASE.metadata.sorted_tables))

TRANSPORT_URL = "rabbit://nova:mq-secret@mq1:5672,nova:mq-secret@mq2:5672/cell1"


@pytest.fixture(
    scope="session",
    params=[
        pytest.param("sqlite"),
        pytest.param("mysql", marks=pytest.mark.mysql),
        pytest.param("postgresql", marks=pytest.mark.postgresql),
    ],
)
def migrated(request, tmp_path_factory) -> dict[str, str]:
    """URLs of a migrated API database, cell0 and cell1 on one backend."""
    reason = databases.backend_unavailable_reason(request.param)
    if reason:
        databases.skip_or_fail(reason)
    throwaway = databases.ThrowawayDatabases(
        request.param, tmp_path_factory.mktemp(f"cmd-{request.param}")
    )
    try:
        urls = {
            "backend": request.param,
            "api": throwaway.create("api"),
            "cell0": throwaway.create("cell0"),
            "cell1": throwaway.create("cell1"),
        }
        migration.db_sync("api", urls["api"])
        migration.db_sync("main", urls["cell0"])
        migration.db_sync("main", urls["cell1"])
        yield urls
    finally:
        throwaway.drop_all()


# For checks that never reach a database's own behaviour (argument and URL
# validation): running them on one backend is enough.
sqlite_only = pytest.mark.parametrize("migrated", ["sqlite"], indirect=True)


@dataclasses.dataclass
class Result:
    code: int
    out: str
    err: str


class Manage:
    """Runs ``nova-manage --config-file <nova.conf> …`` and keeps its output."""

    def __init__(self, urls: dict[str, str], conf_path, capsys) -> None:
        self.backend = urls["backend"]
        self.api = urls["api"]
        self.cell0 = urls["cell0"]
        self.cell1 = urls["cell1"]
        self.conf_path = conf_path
        self._capsys = capsys
        self.write_conf()

    def write_conf(self, **sections: dict[str, str]) -> None:
        """nova.conf pointing at these databases, plus ``sections`` values."""
        values = {
            "DEFAULT": {"transport_url": TRANSPORT_URL},
            "api_database": {"connection": self.api},
            "database": {"connection": self.cell1},
        }
        for section, options in sections.items():
            values.setdefault(section, {}).update(options)
        text = ""
        for section, options in values.items():
            text += f"[{section}]\n"
            text += "".join(f"{k} = {v}\n" for k, v in options.items())
        self.conf_path.write_text(text)

    def __call__(self, *args: str) -> Result:
        self._capsys.readouterr()
        code = manage.main(["nova-manage", "--config-file", str(self.conf_path), *args])
        captured = self._capsys.readouterr()
        return Result(code, captured.out, captured.err)

    def setup_cells(self) -> str:
        """Map cell0 and cell1 as an operator would; cell1's uuid."""
        assert (
            self("cell_v2", "map_cell0", "--database_connection", self.cell0).code == 0
        )
        result = self(
            "cell_v2", "create_cell", "--name", "cell1", "--database_connection",
            self.cell1, "--transport-url", TRANSPORT_URL, "--verbose",
        )  # fmt: skip
        assert result.code == 0, result.err
        return result.out.strip().splitlines()[-1]

    def api_rows(self, model) -> list:
        with engines.transaction(self.api) as session:
            return list(session.scalars(sa.select(model).order_by(model.id)))


@pytest.fixture
def nova_manage(migrated, tmp_path, capsys) -> Manage:
    for url, tables in (
        (migrated["api"], API_TABLES),
        (migrated["cell0"], CELL_TABLES),
        (migrated["cell1"], CELL_TABLES),
    ):
        with engines.transaction(url) as session:
            for table in tables:
                session.execute(sa.delete(table))
    return Manage(migrated, tmp_path / "nova.conf", capsys)


def add_compute_node(url: str, host: str, node: str | None = None, mapped: int = 0):
    with engines.transaction(url) as session:
        session.add(
            main_models.ComputeNode(
                uuid=str(uuid.uuid4()), host=host, hypervisor_hostname=node or host,
                vcpus=4, memory_mb=4096, local_gb=40, vcpus_used=0,
                memory_mb_used=0, local_gb_used=0, hypervisor_type="fake",
                hypervisor_version=1, cpu_info="{}", mapped=mapped,
            )
        )  # fmt: skip


def add_service(url: str, host: str, binary: str = "nova-compute") -> None:
    with engines.transaction(url) as session:
        session.add(main_models.Service(host=host, binary=binary, topic="compute"))


def add_instance(
    url: str,
    host: str | None = None,
    deleted: bool = False,
    created_at: datetime.datetime | None = None,
) -> str:
    instance_uuid = str(uuid.uuid4())
    with engines.transaction(url) as session:
        row = main_models.Instance(
            uuid=instance_uuid, host=host, project_id="project", user_id="user",
            created_at=created_at or datetime.datetime(2024, 1, 1),
        )  # fmt: skip
        session.add(row)
        session.flush()
        if deleted:
            row.deleted = row.id
            row.deleted_at = datetime.datetime(2024, 2, 1)
    return instance_uuid


def node_mapped_flags(url: str) -> dict[str, int]:
    with engines.transaction(url) as session:
        nodes = session.scalars(sa.select(main_models.ComputeNode))
        return {node.hypervisor_hostname: node.mapped for node in nodes}
