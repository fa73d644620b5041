"""Weighers: rank the hosts that passed the filters.

Each weigher scores every host; the scores are normalized to 0..1 across
the hosts of the request, multiplied by the weigher's multiplier and
summed. The highest total wins.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import random
from collections.abc import Iterable

from oslo_log import log as logging

import nova.conf

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)

ALL_WEIGHERS = "nova.scheduler.weights.all_weighers"


class BaseHostWeigher:
    """Base class of host weighers: ``weigh`` gives the raw score.

    Subclasses name their ``[filter_scheduler]`` multiplier option in
    ``MULTIPLIER``; an aggregate's metadata key of the same name overrides
    it for the aggregate's hosts.
    """

    MULTIPLIER = ""

    def weight_multiplier(self, host_state) -> float:
        if not self.MULTIPLIER:
            return 1.0
        return aggregate_multiplier(
            host_state,
            self.MULTIPLIER,
            getattr(CONF.filter_scheduler, self.MULTIPLIER),
        )

    def weigh(self, host_state, spec_obj) -> float:
        raise NotImplementedError()


def all_weighers() -> list[type[BaseHostWeigher]]:
    classes = []
    for module_info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{module_info.name}")
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if (
                issubclass(cls, BaseHostWeigher)
                and cls is not BaseHostWeigher
                and cls.__module__ == module.__name__
            ):
                classes.append(cls)
    return classes


def load_weighers(names: Iterable[str]) -> list[BaseHostWeigher]:
    """Instances of the ``[filter_scheduler] weight_classes``; names that do
    not load are logged and skipped."""
    weighers: list[BaseHostWeigher] = []
    for name in names:
        if name == ALL_WEIGHERS:
            weighers += [cls() for cls in all_weighers()]
            continue
        module_name, _, class_name = name.rpartition(".")
        try:
            cls = getattr(importlib.import_module(module_name), class_name)
        except (ImportError, AttributeError, ValueError) as exc:
            LOG.warning("Weigher %s cannot be loaded, skipping it: %s", name, exc)
            continue
        weighers.append(cls())
    return weighers


def aggregate_multiplier(host_state, key: str, default: float) -> float:
    """The smallest ``key`` in the metadata of the host's aggregates, else
    ``default``; an unreadable value is logged and ignored."""
    values = []
    for aggregate in getattr(host_state, "aggregates", []):
        value = (aggregate.metadata or {}).get(key)
        if value is None:
            continue
        try:
            values.append(float(value))
        except ValueError:
            LOG.warning(
                "Aggregate %s has %s=%r, not a number; using %s",
                aggregate.name,
                key,
                value,
                default,
            )
    return min(values) if values else default


def _normalize(values: list[float]) -> list[float]:
    low, high = min(values), max(values)
    if high == low:
        return [0.0 for _ in values]
    return [(v - low) / (high - low) for v in values]


def weigh_hosts(weighers: list[BaseHostWeigher], hosts: list, spec_obj) -> list:
    """``hosts`` as (weight, host) pairs, best first.

    With ``shuffle_best_same_weighed_hosts`` the hosts sharing the best
    weight come in random order, so that identical hosts share the load.
    """
    totals = [0.0] * len(hosts)
    for weigher in weighers:
        raw = [weigher.weigh(host, spec_obj) for host in hosts]
        for i, score in enumerate(_normalize(raw)):
            if score:
                totals[i] += weigher.weight_multiplier(hosts[i]) * score
    weighed = sorted(zip(totals, hosts, strict=True), key=lambda pair: -pair[0])
    if CONF.filter_scheduler.shuffle_best_same_weighed_hosts and weighed:
        best = weighed[0][0]
        tied = sum(1 for weight, _ in weighed if weight == best)
        head = weighed[:tied]
        random.shuffle(head)
        weighed[:tied] = head
    return weighed
