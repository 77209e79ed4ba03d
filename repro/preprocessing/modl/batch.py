"""MODL preparation of a block of numeric variables as one compiled call on threads.

A numeric variable of the MODL family is, step by step, a sort of its column, the class counts of
its distinct values, the optimised greedy of :mod:`repro.preprocessing.modl.paper` (for the Khiops
variant, over the granularities of Khiops' partiles, :mod:`repro.preprocessing.modl.khiops`),
its bounds, and the contingency table of its training values. The kernels
:func:`~repro.preprocessing.modl.kernels.discretize_2006_column` (paper variant, boulle2007 §2.1,
Boullé 2006) and :func:`~repro.preprocessing.modl.kernels.discretize_khiops_column` (Khiops ≥ 10)
do all of it with no Python in between, over a block of variables on numba's threads (no GIL).
:func:`fit_models` finishes each :class:`~repro.preprocessing.variables.PartitionModel` from their
output with the same numpy expressions as its ``fit`` (costs, level, Khiops' human-readable
bounds, the probability estimate), so that the models are bit-identical to those fitted one by
one (tested), and fits any other model (nominal variables, other algorithms) one by one.
"""

from __future__ import annotations

import numpy as np

from repro.preprocessing.modl import criteria
from repro.preprocessing.modl import kernels as modl_kernels
from repro.preprocessing.modl.estimators import (
    MODLDiscretizer,
    MODLIntervalPartition,
    attribute_cost,
)
from repro.preprocessing.variables import PartitionModel
from repro.runtime.compilation import numba_threads
from repro.runtime.cores import kernel_threads

#: intervals per variable the block kernels keep room for; a variable with more (rare: the
#: greedy keeps few intervals) is fitted again by ``fit``, which gives the same model
CAPACITY = 128


def batch_fittable(model, n_classes: int) -> bool:
    """Whether :func:`fit_models` fits ``model`` by a compiled block kernel: a discrete model
    over a MODL discretization (Khiops variant, or paper variant with the optimised greedy; no
    bound on the number of intervals) that ignores missing values, with at most
    ``MAX_CLASSES`` classes."""
    partition = getattr(model, "partition", None)
    return (
        isinstance(model, PartitionModel)
        and type(partition) is MODLIntervalPartition
        and (
            partition.variant == "khiops"
            or (partition.variant == "paper" and partition.algorithm == "optimized_greedy")
        )
        and model.missing == "ignore"
        and 1 <= n_classes <= modl_kernels.MAX_CLASSES
    )


def fit_models(models, columns: np.ndarray, y: np.ndarray, n_classes: int, n_threads: int = 1):
    """``models[i]`` fitted on ``columns[i]`` (float64, variables × N), class indices ``y``.

    The models of :func:`batch_fittable` are fitted together by the compiled kernels on
    ``n_threads`` threads (one call per variant and number of variables K); the others, and a
    variable outside a kernel's scope (more than :data:`CAPACITY` intervals, a single value),
    by their own ``fit``. Returns the list of fitted models.
    """
    y = np.ascontiguousarray(y, dtype=np.int64)
    groups: dict[tuple, list[int]] = {}
    for i, model in enumerate(models):
        if batch_fittable(model, n_classes):
            key = (model.partition.variant, model.partition.n_variables)
            groups.setdefault(key, []).append(i)
    done = np.zeros(len(models), dtype=bool)
    for (variant, _), batch in groups.items():
        block = columns if len(batch) == len(models) else columns[batch]
        block = np.ascontiguousarray(block, dtype=np.float64)
        fit = _fit_paper if variant == "paper" else _fit_khiops
        for i, ok in zip(batch, fit([models[i] for i in batch], block, y, n_classes, n_threads)):
            done[i] = ok
    return [
        model if done[i] else model.fit(columns[i], y, n_classes) for i, model in enumerate(models)
    ]


def _run(parallel, serial, n_threads, *args):
    """A block kernel on up to ``n_threads`` threads (as many as other processes leave free,
    :func:`repro.runtime.cores.kernel_threads`), or its serial twin on this thread."""
    n_threads = kernel_threads(n_threads)
    if n_threads > 1:
        with numba_threads(n_threads):
            return parallel(*args)
    return serial(*args)


def _finish(models, n_parts, set_intervals, tables, y, n_classes) -> list[bool]:
    """Each model whose variable the kernel did (I = ``n_parts[b]`` > 0): a discretizer of its
    variant set by ``set_intervals(discretizer, b, I, class counts)``, then its partition and
    probability table, the training values per part and class being ``tables[b, :I]`` (all in
    the one part when uninformative). Returns which models are fitted."""
    n = y.size
    class_counts = np.bincount(y, minlength=n_classes)
    fitted = []
    for b, model in enumerate(models):
        k = int(n_parts[b])
        if k > 0:
            p = model.partition
            discretizer = MODLDiscretizer(p.variant, p.algorithm, None, p.n_variables)
            set_intervals(discretizer, b, k, class_counts.astype(np.float64))
            p.set_discretizer(discretizer)
            table = tables[b, :k] if discretizer.informative_ else class_counts[None, :]
            model.fit_partitioned(table.copy(), n, has_missing=False)  # (missing: "ignore")
        fitted.append(k > 0)
    return fitted


def _fit_paper(models, block, y, n_classes, n_threads) -> list[bool]:
    n = y.size
    n_parts, bounds, counts, tables = _run(
        modl_kernels.discretize_2006_block,
        modl_kernels.discretize_2006_block_serial,
        n_threads,
        block,
        y,
        n_classes,
        criteria.discretization_partition_cost_2006(max(n, 1), n),
        modl_kernels.lf_tables(n + n_classes + 2),
        CAPACITY,
    )

    def set_intervals(discretizer, b, k, class_counts):
        discretizer.set_intervals_2006(
            counts[b, :k].astype(np.float64), bounds[b, : k - 1].copy(), class_counts
        )

    return _finish(models, n_parts, set_intervals, tables, y, n_classes)


def _fit_khiops(models, block, y, n_classes, n_threads) -> list[bool]:
    """The Khiops variant: values read as Khiops does (10 significant digits, in the kernel),
    partition costs of every granularity (one table per (g, N, A)); the training values of an
    interval are its counts, since Khiops' bound lies in [last value below, first value
    above)."""
    n = y.size
    g_max = criteria.max_granularity(n)
    a = attribute_cost(models[0].partition.n_variables)  # (one K per call)
    pcs = np.vstack([criteria.discretization_partition_costs(n, g, n, a) for g in range(g_max + 1)])
    n_parts, granularity, lows, highs, counts = _run(
        modl_kernels.discretize_khiops_block,
        modl_kernels.discretize_khiops_block_serial,
        n_threads,
        block,
        y,
        n_classes,
        pcs,
        g_max,
        modl_kernels.lf_tables(n + n_classes + 2),
        CAPACITY,
    )

    def set_intervals(discretizer, b, k, class_counts):
        discretizer.set_intervals_khiops(
            counts[b, :k].astype(np.float64),
            lows[b, : k - 1],
            highs[b, : k - 1],
            class_counts,
            int(granularity[b]),
        )

    return _finish(models, n_parts, set_intervals, counts, y, n_classes)
