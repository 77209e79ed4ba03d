"""Parameter checks of the data set generators: the message names the data set, the
parameter and the valid range or choices.

The arguments come in the order of the estimators' checks (:mod:`repro.methods.core.checks`):
the parameter's name, its value, then its bounds or choices; the data set is a keyword. These
are distinct functions, not wrappers of those: they return the value (as an int or a float),
and their messages start with the data set (``data set 'DI': parameter n_noise must be ...``).
``repro.datasets`` sits below ``repro.methods`` (tests/test_layout.py), so it cannot import them.
"""

from __future__ import annotations

import numbers

import numpy as np


def check_dataset_int(param: str, value, minimum: int, *, dataset: str) -> int:
    """``value`` as an int ≥ ``minimum`` (booleans refused)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < minimum:
        what = "a positive integer" if minimum == 1 else f"an integer >= {minimum}"
        raise ValueError(f"data set {dataset!r}: parameter {param} must be {what}, got {value!r}")
    return int(value)


def check_dataset_float(
    param: str, value, low: float, high: float = np.inf, *, dataset: str
) -> float:
    """``value`` as a float in [low, high] (booleans refused)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not low <= value <= high:
        raise ValueError(
            f"data set {dataset!r}: parameter {param} must be a number in [{low}, {high}], "
            f"got {value!r}"
        )
    return float(value)


def check_dataset_choice(param: str, value, choices, *, dataset: str):
    """``value`` if it is one of ``choices``."""
    if value not in choices:
        raise ValueError(
            f"data set {dataset!r}: parameter {param} must be one of {list(choices)}, got {value!r}"
        )
    return value
