"""Host filters: checks Placement cannot make, run on its candidates.

A filter says whether one host may take the instance of a request. The
handler runs the enabled filters in order and remembers how many hosts each
removed, which is what a user reads when no host is left.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil
from collections.abc import Iterable

from oslo_log import log as logging

LOG = logging.getLogger(__name__)

# Stands for every filter nova ships, in [filter_scheduler] available_filters.
ALL_FILTERS = "nova.scheduler.filters.all_filters"


class BaseHostFilter:
    """Base class of host filters. Subclasses implement host_passes."""

    def host_passes(self, host_state, spec_obj) -> bool:
        raise NotImplementedError()

    def filter_all(self, hosts: list, spec_obj) -> list:
        """The hosts that pass; filters that need a look-up per request
        (not per host) override this."""
        return [host for host in hosts if self.host_passes(host, spec_obj)]

    @classmethod
    def name(cls) -> str:
        return cls.__name__


@dataclasses.dataclass
class FilterResult:
    """The hosts left, and what each filter removed (filter, before, after)."""

    hosts: list
    eliminations: list[tuple[str, int, int]]

    def describe(self) -> str:
        """How the hosts were whittled down, for the user's fault message."""
        removed = [
            f"{name} removed {before - after} of {before}"
            for name, before, after in self.eliminations
            if before != after
        ]
        return "; ".join(removed)


def aggregate_metadata(host_state, split: bool = True) -> dict[str, set[str]]:
    """Every value each metadata key has across the host's aggregates;
    ``split`` takes comma-separated values apart, as upstream does."""
    metadata: dict[str, set[str]] = {}
    for aggregate in host_state.aggregates:
        for key, value in (aggregate.metadata or {}).items():
            values = value.split(",") if split else [value]
            metadata.setdefault(key, set()).update(v.strip() for v in values)
    return metadata


def scheduler_hint(spec_obj, name: str) -> list[str]:
    """The values of scheduler hint ``name`` (none when not given)."""
    hints = spec_obj.scheduler_hints if "scheduler_hints" in spec_obj else None
    return list((hints or {}).get(name) or [])


def all_filters() -> list[type[BaseHostFilter]]:
    """Every filter class defined in this package."""
    classes = []
    for module_info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{module_info.name}")
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if (
                issubclass(cls, BaseHostFilter)
                and cls is not BaseHostFilter
                and cls.__module__ == module.__name__
                and not cls.__name__.startswith("_")
            ):
                classes.append(cls)
    return classes


def load_filter_classes(names: Iterable[str]) -> list[type[BaseHostFilter]]:
    """The classes ``[filter_scheduler] available_filters`` names."""
    classes: list[type[BaseHostFilter]] = []
    for name in names:
        if name == ALL_FILTERS:
            classes += all_filters()
            continue
        module_name, _, class_name = name.rpartition(".")
        try:
            classes.append(getattr(importlib.import_module(module_name), class_name))
        except (ImportError, AttributeError, ValueError) as exc:
            LOG.error("Cannot load filter %s: %s", name, exc)
    return classes


def enabled_filters(
    available: Iterable[str], enabled: Iterable[str]
) -> list[BaseHostFilter]:
    """Instances of the enabled filters, in configured order.

    Names that no available filter has are logged and skipped: an
    operator's nova.conf may name filters this nova does not have.
    """
    by_name = {cls.name(): cls for cls in load_filter_classes(available)}
    filters = []
    for name in enabled:
        if name in by_name:
            filters.append(by_name[name]())
        else:
            LOG.warning("Filter %s is enabled but not available; skipping it", name)
    return filters


def run_filters(filters: list[BaseHostFilter], hosts: list, spec_obj) -> FilterResult:
    """The hosts every filter lets through."""
    eliminations = []
    for host_filter in filters:
        before = len(hosts)
        hosts = host_filter.filter_all(hosts, spec_obj)
        eliminations.append((host_filter.name(), before, len(hosts)))
        LOG.debug("%s: %d of %d hosts passed", host_filter.name(), len(hosts), before)
        if not hosts:
            break
    return FilterResult(hosts, eliminations)
