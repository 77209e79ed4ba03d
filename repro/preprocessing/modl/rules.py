"""Khiops' tolerances and post-optimisation choice rule, shared by the MODL optimisers.

Plain Python: :mod:`repro.preprocessing.modl.paper` runs :func:`choose_move` as is (reference
optimiser) and :mod:`repro.preprocessing.modl.kernels` compiles it (kernel), so that both take
the same decisions with the same floating-point operations; the two-class grouping
(:mod:`repro.preprocessing.modl.grouping_two_class`), whose deltas include their partition cost
(with or without a garbage interval), takes its decision with :func:`pick_move`, the second half
of :func:`choose_move` (``register_jitable``: plain Python from Python, compiled from a kernel).
"""

from __future__ import annotations

from numba.extending import register_jitable

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
    return pick_move(d_split, d_ms, d_mms, surplus)


@register_jitable
def pick_move(d_split, d_ms, d_mms, surplus=-1) -> int:
    """The move of :func:`choose_move` among total deltas (part and partition costs): 0 Split,
    1 MergeSplit, 2 MergeMergeSplit, −1 to stop; ``surplus`` > 0: intervals over ``max_parts``
    (only MergeMergeSplit), 0: at ``max_parts`` (no Split), < 0: no limit.

    |Δ| < 1e-6 counts as 0; the Split is replaced by the MergeSplit if Δ < best + 1e-6, then by
    the MergeMergeSplit if Δ < best + 1e-6; a best Δ of 0 stops unless it is the MergeMergeSplit's.
    """
    if abs(d_split) < EPSILON:
        d_split = 0.0
    if abs(d_ms) < EPSILON:
        d_ms = 0.0
    if abs(d_mms) < EPSILON:
        d_mms = 0.0
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
