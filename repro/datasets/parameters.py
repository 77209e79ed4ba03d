"""Parameter checks of the data set generators: the message names the data set, the
parameter and the valid range or choices."""

from __future__ import annotations

import numbers

import numpy as np


def check_int(value, param: str, dataset: str, *, minimum: int) -> int:
    """``value`` as an int ≥ ``minimum`` (booleans refused)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < minimum:
        what = "a positive integer" if minimum == 1 else f"an integer >= {minimum}"
        raise ValueError(f"data set {dataset!r}: parameter {param} must be {what}, got {value!r}")
    return int(value)


def check_float(value, param: str, dataset: str, *, low: float, high: float = np.inf) -> float:
    """``value`` as a float in [low, high] (booleans refused)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not low <= value <= high:
        raise ValueError(
            f"data set {dataset!r}: parameter {param} must be a number in [{low}, {high}], "
            f"got {value!r}"
        )
    return float(value)


def check_choice(value, param: str, dataset: str, choices):
    """``value`` if it is one of ``choices``."""
    if value not in choices:
        raise ValueError(
            f"data set {dataset!r}: parameter {param} must be one of {list(choices)}, got {value!r}"
        )
    return value
