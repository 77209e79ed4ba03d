"""Resampling protocols (SPEC §5.2): which instances train and test each fold.

Folds depend only on (seed, data set name, repetition): every method sees identical splits, so
paired tests over folds are valid. The random state of repetition r is drawn from
``SeedSequence([seed, crc32(dataset), r])``.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

import numpy as np
from sklearn.model_selection import StratifiedKFold, StratifiedShuffleSplit


@dataclass(frozen=True)
class Split:
    repetition: int
    fold: int
    train: np.ndarray
    test: np.ndarray


@dataclass(frozen=True)
class Protocol:
    """A stratified resampling scheme.

    kind "kfold": ``n_repeats`` × stratified ``n_splits``-fold CV; kind "holdout": ``n_repeats``
    stratified train/test splits with ``test_size`` of the data in the test part.

    ``small_classes``: what to do with a class that has fewer members than folds. "error" (the
    default) refuses with a clear message; "allow" stratifies anyway (scikit-learn's
    StratifiedKFold: some test folds then lack that class, as in Weka-style CV of the papers, e.g.
    boulle2007 on glass). The folds are the same under both settings whenever "error" accepts the
    data, so the setting is not part of a cell's identity (:meth:`identity`).
    """

    name: str = "cv10"
    kind: str = "kfold"
    n_splits: int = 10
    n_repeats: int = 1
    test_size: float = 0.3
    small_classes: str = "error"

    def __post_init__(self):
        if self.small_classes not in ("error", "allow"):
            raise ValueError(
                f"small_classes must be 'error' or 'allow', got {self.small_classes!r}"
            )
        if self.kind not in ("kfold", "holdout"):
            raise ValueError(f"protocol kind must be 'kfold' or 'holdout', got {self.kind!r}")
        if self.kind == "kfold" and (not isinstance(self.n_splits, int) or self.n_splits < 2):
            raise ValueError(f"n_splits must be an integer ≥ 2, got {self.n_splits!r}")
        if not isinstance(self.n_repeats, int) or self.n_repeats < 1:
            raise ValueError(f"n_repeats must be an integer ≥ 1, got {self.n_repeats!r}")
        if self.kind == "holdout" and not 0 < self.test_size < 1:
            raise ValueError(f"test_size must be in (0, 1), got {self.test_size!r}")

    def identity(self) -> dict:
        """The fields that determine the folds (what a result cell's hash depends on)."""
        return {k: v for k, v in self.__dict__.items() if k != "small_classes"}

    @property
    def n_folds_total(self) -> int:
        return self.n_repeats * (self.n_splits if self.kind == "kfold" else 1)


PROTOCOLS = {
    "cv10": Protocol("cv10", "kfold", 10, 1),
    "cv5": Protocol("cv5", "kfold", 5, 1),
    "cv10x30": Protocol("cv10x30", "kfold", 10, 30),
    "holdout70": Protocol("holdout70", "holdout", n_repeats=1, test_size=0.3),
}


def get_protocol(protocol) -> Protocol:
    """A :class:`Protocol` from a name of :data:`PROTOCOLS`, a dict of fields, or a Protocol."""
    if isinstance(protocol, Protocol):
        return protocol
    if isinstance(protocol, str):
        if protocol not in PROTOCOLS:
            raise ValueError(
                f"Unknown protocol {protocol!r}; valid protocols: {', '.join(PROTOCOLS)} "
                "(or a dict with kind, n_splits, n_repeats, test_size)"
            )
        return PROTOCOLS[protocol]
    fields = dict(protocol)
    allowed = set(Protocol.__dataclass_fields__)
    unknown = set(fields) - allowed
    if unknown:
        raise ValueError(f"Unknown protocol field(s) {sorted(unknown)}; allowed: {sorted(allowed)}")
    return Protocol(**fields)


def repetition_seed(seed: int, dataset: str, repetition: int) -> int:
    """The random state of one repetition, a function of (seed, data set, repetition) only."""
    entropy = [int(seed), zlib.crc32(str(dataset).encode()), int(repetition)]
    return int(np.random.SeedSequence(entropy).generate_state(1)[0])


def check_folds_possible(y: np.ndarray, n_splits: int, dataset: str = "the data set"):
    labels, counts = np.unique(y, return_counts=True)
    small = counts < n_splits
    if small.any():
        detail = ", ".join(
            f"class {lab}: {c}" for lab, c in zip(labels[small].tolist(), counts[small])
        )
        raise ValueError(
            f"{dataset}: stratified {n_splits}-fold cross-validation needs at least {n_splits} "
            f"instances of every class, but some classes have fewer ({detail}); use fewer folds "
            "(protocol=cv5 or protocol.n_splits=...) or drop those classes"
        )


def make_splits(protocol, y: np.ndarray, seed: int = 0, dataset: str = "data") -> list[Split]:
    """All (repetition, fold, train, test) splits of a protocol on labels ``y``."""
    protocol = get_protocol(protocol)
    y = np.asarray(y)
    splits = []
    for r in range(protocol.n_repeats):
        rs = repetition_seed(seed, dataset, r)
        if protocol.kind == "kfold":
            if protocol.small_classes == "error":
                check_folds_possible(y, protocol.n_splits, dataset)
            cv = StratifiedKFold(n_splits=protocol.n_splits, shuffle=True, random_state=rs)
        else:
            check_folds_possible(y, 2, dataset)
            cv = StratifiedShuffleSplit(n_splits=1, test_size=protocol.test_size, random_state=rs)
        for f, (train, test) in enumerate(cv.split(np.zeros((y.size, 1)), y)):
            splits.append(Split(r, f, train, test))
    return splits
