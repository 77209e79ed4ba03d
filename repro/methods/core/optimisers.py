"""Optimisers of the variable weights of a weighted naive Bayes, on an objective object.

An optimiser knows no estimator: it moves weights w ∈ [0, upper]^K of an objective that gives its
current ``value`` and, for coordinate moves, the value of a trial change of one weight
(``trial(k, w_k)``, not applied) and ``accept()`` to apply the last trial. Each optimiser returns
an :class:`OptimisationResult` with the final weights, value and a trace of the iterations.

- :func:`halving_coordinate_descent`: fast forward / fast backward passes over increments
  δ = 1, 1/2, …, 2^−(T−1) (the weight optimisation of the Khiops fractional naive Bayes,
  KHIOPS_NOTES §6; hue2024 §4 describes it as its "FFWBW" baseline).
- :func:`fractional_forward_backward`: Algorithm 2 of hue2024 (§4.4), the paper's fractional naive
  Bayes: increments 1/2^i while 1/2^i > 1/N, :func:`fnb_repetitions` shuffled fast forward / fast
  backward rounds per increment (:func:`fnb_increments`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np


class CoordinateObjective(Protocol):
    """What a coordinate optimiser needs of an objective (to be minimised)."""

    value: float

    def weight(self, k) -> float: ...

    def trial(self, k, new_weight: float) -> float: ...

    def accept(self) -> None: ...


@dataclass
class OptimisationResult:
    """Final weights (by variable key), objective value, and one trace row per sweep."""

    weights: dict
    value: float
    trace: list[dict] = field(default_factory=list)


def halving_coordinate_descent(
    objective: CoordinateObjective,
    variables: Sequence,
    n_steps: int,
    tolerance: float,
    shuffle: Callable[[Sequence], list],
    upper: float = 1.0,
) -> OptimisationResult:
    """Coordinate descent with increments δ = 1, 1/2, …, 2^−(n_steps−1) (Khiops' FNB optimiser).

    For each δ, up to two sweeps (a second one only when the first improved the value by more
    than ``tolerance``), each sweep being

    - a fast forward pass over the variables in the current order: w_k ← min(upper, w_k + δ) is
      kept when the value drops by more than ``tolerance``;
    - the order is reshuffled (``shuffle(variables)``); when some weight is positive, a fast
      backward pass over the reversed order: w_k ← max(0, w_k − δ) is kept when the value does not
      rise by more than ``tolerance`` (removals are favoured), then the order is reshuffled again.

    Starts from the objective's current weights, in the order of ``variables``.
    """
    best = objective.value
    last = best
    delta = 1.0
    order = list(variables)
    trace = []
    for _ in range(n_steps):
        run = 0
        while True:
            accepted = 0
            for k in order:  # fast forward
                old = objective.weight(k)
                new_w = min(upper, old + delta)
                if new_w - old <= 0:
                    continue
                value = objective.trial(k, new_w)
                if value < best - tolerance:
                    objective.accept()
                    best = value
                    accepted += 1
            order = shuffle(variables)
            if any(objective.weight(k) > 0 for k in variables):
                for k in reversed(order):  # fast backward
                    old = objective.weight(k)
                    if old <= 0:
                        continue
                    value = objective.trial(k, max(0.0, old - delta))
                    if value < best + tolerance:
                        objective.accept()
                        best = value
                        accepted += 1
                order = shuffle(variables)
            trace.append({"delta": delta, "value": best, "n_accepted": accepted})
            run = run + 1 if best < last - tolerance else 2
            last = best
            if run == 2:
                break
        delta /= 2
    weights = {k: objective.weight(k) for k in variables}
    return OptimisationResult(weights, float(best), trace)


def fnb_increments(n_instances: int) -> list[float]:
    """The increments of hue2024 Algorithm 2: 1/2^i for i = 1, 2, … while 1/2^i > 1/N.

    1/2^i > 1/N ⇔ 2^i < N, tested on integers: N = 8 gives [1/2, 1/4], N = 9 gives
    [1/2, 1/4, 1/8], N ≤ 2 gives none (ceil(log2 N) − 1 increments).
    """
    out = []
    i = 1
    while 2**i < n_instances:
        out.append(0.5**i)
        i += 1
    return out


def fnb_repetitions(n_instances: int, n_variables: int) -> int:
    """Fast forward / backward rounds per increment: ⌈1 + log K / log N⌉ (hue2024 Algorithm 2).

    The paper's count log(KN)/log N is rounded up so that no increment gets fewer rounds than it
    says; ⌈x⌉ < x + 1 ≤ 2x keeps the O(KN log(KN)) complexity. Computed exactly on integers:
    the smallest r with N^(r−1) ≥ K (K ≤ 1 gives 1; 2 ≤ K ≤ N gives 2; N < K ≤ N² gives 3).
    N ≤ 1 (no increment at all) gives 1.
    """
    if n_instances <= 1 or n_variables <= 1:
        return 1
    r, power = 1, 1
    while power < n_variables:
        power *= n_instances
        r += 1
    return r


def fractional_forward_backward(
    objective: CoordinateObjective,
    variables: Sequence,
    n_instances: int,
    n_variables: int,
    rng: np.random.Generator,
    upper: float = 1.0,
) -> OptimisationResult:
    """Algorithm 2 of hue2024 (§4.4): the fractional naive Bayes' fast forward-backward search.

    For each increment δ of :func:`fnb_increments` (1/2, 1/4, … while δ > 1/N), repeat
    :func:`fnb_repetitions` (⌈1 + log K / log N⌉) times:

    - randomly reorder the variables (``rng.permutation``); fast forward:
      w_k ← min(upper, w_k + δ) for each k with w_k < upper, kept iff the objective drops
      (strictly: value < current value; ties are rejected);
    - randomly reorder again; fast backward: w_k ← max(0, w_k − δ) for each k with w_k > 0, kept
      iff the objective drops (strictly).

    Starts from the objective's current weights (the estimator starts from the empty model).
    Moves are kept only when they lower the value, so the current weights are at every step the
    best visited: "update the best subset if improved" of the paper is the current state, returned
    at the end. One trace row per pass (increment, repetition, direction, value, trials,
    accepted moves, non-zero weights).
    """
    order = list(variables)
    best = objective.value
    trace = []
    n_nonzero = sum(1 for k in order if objective.weight(k) > 0)
    repetitions = fnb_repetitions(n_instances, n_variables)
    for delta in fnb_increments(n_instances):
        for repetition in range(repetitions):
            for direction in ("forward", "backward"):
                accepted = trials = 0
                for t in rng.permutation(len(order)):
                    k = order[t]
                    old = objective.weight(k)
                    if direction == "forward":
                        if old >= upper:
                            continue
                        new_w = min(upper, old + delta)
                    else:
                        if old <= 0:
                            continue
                        new_w = max(0.0, old - delta)
                    trials += 1
                    if objective.trial(k, new_w) < best:
                        objective.accept()
                        best = objective.value
                        accepted += 1
                        n_nonzero += (new_w > 0) - (old > 0)
                trace.append(
                    {
                        "increment": delta,
                        "repetition": repetition,
                        "direction": direction,
                        "value": best,
                        "n_trials": trials,
                        "n_accepted": accepted,
                        "n_nonzero": n_nonzero,
                    }
                )
    weights = {k: objective.weight(k) for k in order}
    return OptimisationResult(weights, float(best), trace)
