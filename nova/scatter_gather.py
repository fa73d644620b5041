"""Running one function in every cell at once, each cell in its own thread.

A caller that reads from all cells (a server list, quota usage, services)
asks them in parallel and gets one result per cell: what the function
returned, or the exception it raised, or :class:`~nova.exception.CellTimeout`
for a cell that did not answer in time. Deciding what a missing cell means
is the caller's business.

Upstream keeps these functions in ``nova.context``; here they sit one step
above it because listing the cells needs ``nova.objects``, which itself
uses ``nova.context`` to target them.
"""

from __future__ import annotations

import concurrent.futures
from collections.abc import Callable, Sequence
from typing import Any

from nova import context as nova_context
from nova import exception, objects

# How long a caller waits for a cell; its thread may run on (threads
# cannot be cancelled) but the caller does not wait for it.
CELL_TIMEOUT_SECONDS = 60


def scatter_gather_cells(
    context,
    cell_mappings: Sequence[Any],
    fn: Callable[[Any], Any],
    timeout: float = CELL_TIMEOUT_SECONDS,
) -> list[tuple[Any, Any]]:
    """``fn(targeted_context)`` in every cell at once.

    Returns (cell mapping, result) pairs in the cells' order; a result is
    the exception the call raised, or :class:`~nova.exception.CellTimeout`.
    """
    if not cell_mappings:
        return []

    def call(cell):
        with nova_context.target_cell(context, cell) as cctxt:
            return fn(cctxt)

    pool = concurrent.futures.ThreadPoolExecutor(
        max_workers=len(cell_mappings), thread_name_prefix="cell-scatter"
    )
    try:
        futures = [pool.submit(call, cell) for cell in cell_mappings]
        concurrent.futures.wait(futures, timeout=timeout)
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
    results = []
    for cell, future in zip(cell_mappings, futures, strict=True):
        if not future.done():
            results.append((cell, exception.CellTimeout(cell_uuid=cell.uuid)))
        elif future.exception() is not None:
            results.append((cell, future.exception()))
        else:
            results.append((cell, future.result()))
    return results


def scatter_gather_all_cells(
    context, fn: Callable[[Any], Any], timeout: float = CELL_TIMEOUT_SECONDS
) -> list[tuple[Any, Any]]:
    """:func:`scatter_gather_cells` over every cell, cell0 included."""
    return scatter_gather_cells(
        context, list(objects.CellMappingList.get_all(context)), fn, timeout
    )
