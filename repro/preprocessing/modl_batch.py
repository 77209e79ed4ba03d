"""MODL preparation of a block of numeric variables as one compiled call on threads (SPEC §3.1).

A variable of the MODL naive Bayes family (``nb``, ``snb_*``: the paper variant, boulle2007 §2.1,
with the optimised greedy of Boullé 2006) is, step by step, a sort of its column, the class
counts of its distinct values, the greedy merge and post-optimisation of
:mod:`repro.preprocessing.modl`, its bounds, and the contingency table of its training values.
:func:`~repro.preprocessing.modl_kernels.discretize_2006_column` does all of it with no Python in
between, and :func:`~repro.preprocessing.modl_kernels.discretize_2006_block` runs it over a block
of variables on numba's threads (no GIL). :func:`fit_models` finishes each
:class:`~repro.preprocessing.variables.PartitionModel` from that output with the same numpy
expressions as its ``fit`` (costs, level, m-estimate), so that the models are bit-identical to
those fitted one by one (tested), and fits any other model one by one.
"""

from __future__ import annotations

import numpy as np

from repro.compilation import numba_threads
from repro.preprocessing import modl, modl_kernels
from repro.preprocessing.discretizers import MODLDiscretizer, MODLIntervalPartition
from repro.preprocessing.variables import PartitionModel

#: intervals per variable the block kernel keeps room for; a variable with more (rare: the
#: greedy keeps few intervals) is fitted again by ``fit``, which gives the same model
CAPACITY = 128


def batch_fittable(model, n_classes: int) -> bool:
    """Whether :func:`fit_models` fits ``model`` by the compiled block kernel: a discrete model
    over the paper variant's MODL discretization (optimised greedy, no bound on the number of
    intervals) that ignores missing values, with at most ``MAX_CLASSES`` classes."""
    partition = getattr(model, "partition", None)
    return (
        isinstance(model, PartitionModel)
        and type(partition) is MODLIntervalPartition
        and partition.variant == "paper"
        and partition.algorithm == "optimized_greedy"
        and model.missing == "ignore"
        and 1 <= n_classes <= modl_kernels.MAX_CLASSES
    )


def fit_models(models, columns: np.ndarray, y: np.ndarray, n_classes: int, n_threads: int = 1):
    """``models[i]`` fitted on ``columns[i]`` (float64, variables × N), class indices ``y``.

    The models of :func:`batch_fittable` are fitted together by the compiled kernel on
    ``n_threads`` threads; the others, and a variable with more than :data:`CAPACITY`
    intervals, by their own ``fit``. Returns the list of fitted models.
    """
    y = np.ascontiguousarray(y, dtype=np.int64)
    batch = [i for i, model in enumerate(models) if batch_fittable(model, n_classes)]
    in_batch = np.zeros(len(models), dtype=bool)
    in_batch[batch] = True
    if batch:
        n = y.size
        block = columns if len(batch) == len(models) else columns[batch]
        args = (
            np.ascontiguousarray(block, dtype=np.float64),
            y,
            n_classes,
            modl.discretization_partition_cost_2006(max(n, 1), n),
            modl_kernels.lf_tables(n + n_classes + 2),
            CAPACITY,
        )
        if n_threads > 1:
            with numba_threads(n_threads):
                n_parts, bounds, counts, tables = modl_kernels.discretize_2006_block(*args)
        else:
            n_parts, bounds, counts, tables = modl_kernels.discretize_2006_block_serial(*args)
        class_counts = np.bincount(y, minlength=n_classes)
        for b, i in enumerate(batch):
            k = int(n_parts[b])
            if k < 0:
                in_batch[i] = False
                continue
            partition = models[i].partition
            discretizer = MODLDiscretizer("paper", partition.algorithm, None, partition.n_variables)
            discretizer.set_intervals_2006(
                counts[b, :k].astype(np.float64),
                bounds[b, : k - 1].copy(),
                class_counts.astype(np.float64),
            )
            partition.set_discretizer(discretizer)
            # training codes per class: the kernel's table, or all in the one part when the
            # discretization is uninformative (its bounds are then dropped)
            table = tables[b, :k] if discretizer.informative_ else class_counts[None, :]
            models[i].fit_partitioned(table.copy(), n, has_missing=False)  # (missing "ignore")
    return [
        model if in_batch[i] else model.fit(columns[i], y, n_classes)
        for i, model in enumerate(models)
    ]
