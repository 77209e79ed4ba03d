"""Forward greedy selection of a naive Bayes on a training criterion, on the score engine.

Shared by the selective naive Bayes of boulle2007 (SNB(ACC), SNB(AUC) over MODL parts,
:mod:`repro.methods.boulle2007.selective`) and of vidaurre2012 (SNB over maximum-likelihood
estimates, :mod:`repro.methods.vidaurre2012.selective_nb`). Knows no estimator: it moves the 0/1
weights of a :class:`~repro.methods.core.engine.ScoreEngine`.
"""

from __future__ import annotations

import numpy as np

from repro.methods.core.criteria import training_auc
from repro.methods.core.engine import ScoreEngine, accuracy_counts, auc_candidates

#: stopping rules of :func:`forward_greedy`: "no_rise" adds while the criterion strictly rises,
#: "no_decrease" while it does not fall
STOPPING_RULES = ("no_rise", "no_decrease")
#: selection criteria of :func:`forward_greedy`
CRITERIA = ("accuracy", "auc")


def forward_greedy(
    engine: ScoreEngine, criterion: str = "accuracy", stopping: str = "no_rise", tol: float = 1e-12
) -> dict:
    """Forward greedy selection on a training criterion (boulle2007 §2.3, vidaurre2012 §3.1).

    From the empty set, each step evaluates every candidate not yet selected and adds the one
    with the highest criterion (ties: lowest index). ``stopping="no_decrease"`` continues as
    long as the best criterion does not decrease (Langley & Sage 1994); ``"no_rise"`` stops as
    soon as it no longer rises (Boullé 2006a). Criteria: "accuracy" (train ACC) or "auc"
    (train multi-class AUC, :func:`training_auc`). O(K²·N·J) for ACC, O(K²·N log N·J) for AUC.

    Returns a dict: ``selected`` (candidate indices, in order of addition) and ``trace`` (the
    criterion after each step, the null model first).
    """
    if criterion not in CRITERIA:
        raise ValueError(f"criterion must be one of {CRITERIA}, got {criterion!r}")
    if stopping not in STOPPING_RULES:
        raise ValueError(f"stopping must be one of {STOPPING_RULES}, got {stopping!r}")
    d = engine.data
    engine.reset()
    n = d.n_instances

    def evaluate(candidates):
        if criterion == "accuracy":
            return accuracy_counts(engine.S, d.codes, d.offsets, d.table, d.y, candidates) / n
        return auc_candidates(engine.S, d.codes, d.offsets, d.table, d.y, candidates)

    if criterion == "accuracy":
        current = float(np.mean(np.argmax(engine.S, axis=1) == d.y))
    else:
        current = training_auc(d.y, engine.S)
    selected: list[int] = []
    trace = [current]
    remaining = np.arange(d.n_candidates, dtype=np.int64)
    while remaining.size:
        values = evaluate(remaining)
        t = int(np.argmax(values))
        best = float(values[t])
        if stopping == "no_rise" and not best > current + tol:
            break
        if stopping == "no_decrease" and best < current - tol:
            break
        i = int(remaining[t])
        engine.apply(i, 1.0)
        selected.append(i)
        trace.append(best)
        current = best
        remaining = np.delete(remaining, t)
    return {"selected": selected, "trace": trace}
