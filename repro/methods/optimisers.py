"""Optimisers of the variable weights of a weighted naive Bayes, on an objective object.

An optimiser knows no estimator: it moves weights w ∈ [0, upper]^K of an objective that gives its
current ``value`` and, for coordinate moves, the value of a trial change of one weight
(``trial(k, w_k)``, not applied) and ``accept()`` to apply the last trial. Each optimiser returns
an :class:`OptimisationResult` with the final weights, value and a trace of the iterations.

- :func:`halving_coordinate_descent`: fast forward / fast backward passes over increments
  δ = 1, 1/2, …, 2^−(T−1) (the weight optimisation of the Khiops fractional naive Bayes,
  KHIOPS_NOTES §6; hue2024 §4 describes it as its "FFWBW" baseline).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol


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
