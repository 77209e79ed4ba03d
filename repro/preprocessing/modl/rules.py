"""Khiops' tolerances and post-optimisation choice rule, shared by the MODL optimisers.

Plain Python: :mod:`repro.preprocessing.modl.paper` runs :func:`choose_move` as is (reference
optimiser) and :mod:`repro.preprocessing.modl.kernels` compiles it (kernel), so that both take
the same decisions with the same floating-point operations.
"""

from __future__ import annotations

EPSILON = 1e-6
"""Khiops' tolerance for cost comparisons (``dEpsilon``)."""

INFINITE_COST = 1e20
"""Khiops' ``dInfiniteCost``: no candidate move."""


def choose_move(pc, n_parts: int, max_parts: int, d_split, d_ms, d_mms) -> int:
    """Move of Khiops' post-optimisation: 0 Split, 1 MergeSplit, 2 MergeMergeSplit (the number
    of intervals merged before the split), −1 to stop.

    ``d_*``: part-cost deltas of the best candidate of each kind (:data:`INFINITE_COST`: none);
    ``pc``: partition costs of ``n_parts`` (the current number of intervals) ± 1.
    """
    surplus = n_parts - max_parts if max_parts > 0 else -1
    if d_split < INFINITE_COST and n_parts + 1 < len(pc):
        d_split = (pc[n_parts + 1] - pc[n_parts]) + d_split
    else:
        d_split = INFINITE_COST
    if d_mms < INFINITE_COST:
        d_mms = (pc[n_parts - 1] - pc[n_parts]) + d_mms
        if surplus > 0:
            d_mms += -1e9
    if abs(d_split) < EPSILON:
        d_split = 0.0
    if abs(d_ms) < EPSILON:
        d_ms = 0.0
    if abs(d_mms) < EPSILON:
        d_mms = 0.0
    # Split, replaced by MergeSplit if < best + ε, then by MergeMergeSplit if < best + ε
    best = INFINITE_COST
    if surplus < 0:
        best = d_split
    if surplus <= 0 and d_ms < best + EPSILON:
        best = d_ms
    if d_mms < best + EPSILON:
        best = d_mms
    if best > 0:
        return -1
    if best == d_mms:
        return 2
    if best == 0:
        return -1
    if best == d_ms:
        return 1
    return 0
