"""A fitted variable model or partition as text: the intervals of a discretization, the groups of
values of a grouping, else the model's name; what ``summary()`` of an estimator shows per variable
and what a variable model's ``repr`` prints (``variables_[k]`` of a fitted naive Bayes)."""

from __future__ import annotations

import numpy as np

#: significant digits of the interval bounds shown by :func:`describe_partition`
DIGITS = 6
#: the names of partitions by cut points
INTERVAL_KINDS = {
    "EqualFrequencyPartition": "equal-frequency intervals",
    "MDLPartition": "MDL histogram intervals",
}
#: the longest parts text a ``repr`` shows (longer: cut, with the number of parts)
REPR_CHARS = 240


def _bound(value: float) -> str:
    return f"{value:.{DIGITS}g}"


def _intervals(bounds) -> list[str]:
    edges = ["-inf", *bounds, "+inf"]
    parts = [f"]{a}, {b}]" for a, b in zip(edges[:-2], edges[1:-1])]
    parts.append(f"]{edges[-2]}, +inf[")
    return parts


def describe_partition(variable, unit: float = 1.0) -> tuple[str, str, int]:
    """(kind of model, its parts as text, number of parts) of a fitted variable model (or of a
    partition itself): the intervals of a discretization (its bounds times ``unit``: the
    input's units where the encoder divided a column of extreme magnitude), the groups of
    values of a grouping, else the model's name (parts "" and 0 when it has none)."""
    partition = getattr(variable, "partition", None)
    if partition is None and any(hasattr(variable, a) for a in ("modl_", "cuts_", "n_parts_")):
        partition = variable
    modl = getattr(partition, "modl_", None)
    if modl is not None and hasattr(modl, "bounds_"):
        parts = _intervals([_bound(b * unit) for b in np.asarray(modl.bounds_, float)])
        return "MODL intervals", "; ".join(parts), len(parts)
    if modl is not None and hasattr(modl, "groups_"):
        groups = ["{" + ", ".join(map(str, g)) + "}" for g in modl.groups_]
        return "MODL groups", "; ".join(groups), len(groups)
    if partition is not None and hasattr(partition, "cuts_"):
        parts = _intervals([_bound(c * unit) for c in np.asarray(partition.cuts_, float)])
        kind = INTERVAL_KINDS.get(type(partition).__name__, "intervals")
        return kind, "; ".join(parts), len(parts)
    if partition is not None and hasattr(partition, "n_parts_"):
        n_parts = int(partition.n_parts_)
        return type(partition).__name__, f"{n_parts} parts", n_parts
    return type(variable).__name__, "", 0


def readable_repr(thing) -> str:
    """``Name(kind: parts)`` of a fitted variable model or partition (in the units the model was
    fitted in), ``Name()`` before it is fitted or when it has no parts to show; a long parts
    text is cut after :data:`REPR_CHARS` characters, with the number of parts."""
    name = type(thing).__name__
    kind, parts, n_parts = describe_partition(thing)
    if not parts:
        return f"{name}()"
    if len(parts) > REPR_CHARS:
        parts = f"{parts[:REPR_CHARS]}… ({n_parts} parts)"
    return f"{name}({kind}: {parts})"


__all__ = ["DIGITS", "describe_partition", "readable_repr"]
