"""Names, constants and small helpers shared by boulle2007's claim rules
(:mod:`repro.report.papers.boulle2007.claims`,
:mod:`repro.report.papers.boulle2007.claims_waveform`)."""

from __future__ import annotations

import itertools

from scipy import stats

from repro.report.claims import evidence

ORDER = ("holds", "partly", "does not hold")
MIRROR = {"holds": "does not hold", "partly": "partly", "does not hold": "holds"}
#: criteria where lower is better
LOWER = {"ilf", "error", "balanced_error_rate", "balanced_error_rate_threshold", "fit_time"}
NAMES = {
    "snb_cma": "SNB(CMA)", "snb_bma": "SNB(BMA)", "snb_map": "SNB(MAP)", "snb_auc": "SNB(AUC)",
    "snb_acc": "SNB(ACC)", "nb": "NB", "nb_ef": "NB(EF)",
}  # fmt: skip
SHORT = {"accuracy": "ACC", "auc": "AUC", "compression_rate": "CR", "ilf": "ILF"}
WAVEFORM = "boulle2007_waveform"
NOISE = ("boulle2007_table3", "waveform")  # the folds that give the one-split noise
Z = float(stats.norm.ppf(1 - evidence.ALPHA / 2))
#: said of every verdict on a time: it is our implementation's (Python), not the paper's Khiops
OUR_TIMES = "times of our implementation (Python/numba), not the paper's Khiops"


def name(method: str) -> str:
    return NAMES.get(method, method)


def grade(holds: bool, partly: bool) -> str:
    """ "holds" when ``holds``, else "partly" when ``partly``, else "does not hold"."""
    return "holds" if holds else "partly" if partly else "does not hold"


def as_list(x) -> list:
    return list(x) if isinstance(x, (list, tuple)) else [x]


def expand(parts) -> list[tuple]:
    """``[kind, a, b, metric]`` rows, each of a, b, metric a name or a list (all combinations)."""
    out = []
    for kind, a, b, metric in parts:
        for x, y, m in itertools.product(as_list(a), as_list(b), as_list(metric)):
            out.append((kind, x, y, m))
    return out
