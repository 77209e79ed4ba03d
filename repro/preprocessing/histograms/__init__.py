"""Histogram density estimators of elovaara2008 and the per-variable models built on
them, one module a job:

- :mod:`.complexity`: log R(K, n), the parametric complexity of a K-valued multinomial;
- :mod:`.mdl`: the MDL-optimal histogram of Kontkanen & Myllymäki (2007), exactly
  (:func:`~repro.preprocessing.histograms.mdl.mdl_histogram`), and its stochastic complexity;
- :mod:`.mdl_kernels`: the compiled dynamic programmes the MDL search runs;
- :mod:`.shimazaki`: the Shimazaki–Shinomoto (2007) choice of the number of equal bins;
- :mod:`.variable_models`: the per-class histogram densities (MDLh, Shimazaki), the MDL bins as a
  discretization (MDLg) and nominal columns read as numbers.

The names below are those the estimators import (``repro.methods.plain``).
"""

from repro.preprocessing.histograms.complexity import log_parametric_complexity, log_r2
from repro.preprocessing.histograms.mdl import (
    AUTO_EXACT_LIMIT,
    MAX_CANDIDATES,
    MAX_WORK,
    MDLHistogram,
    bounded_candidates,
    candidate_cuts,
    check_bound,
    grid_cells,
    grid_size,
    mdl_histogram,
    prediscretisation_epsilon,
    quantile_gaps,
    resolve_bound,
    stochastic_complexity,
)
from repro.preprocessing.histograms.shimazaki import shimazaki_bins, shimazaki_cost
from repro.preprocessing.histograms.variable_models import (
    HISTOGRAMS,
    NOMINALS,
    HistogramDensityModel,
    MDLPartition,
    NumericCodes,
    candidate_summary,
    histogram_edges,
)

__all__ = [
    "AUTO_EXACT_LIMIT",
    "HISTOGRAMS",
    "MAX_CANDIDATES",
    "MAX_WORK",
    "NOMINALS",
    "HistogramDensityModel",
    "MDLHistogram",
    "MDLPartition",
    "NumericCodes",
    "bounded_candidates",
    "candidate_cuts",
    "candidate_summary",
    "check_bound",
    "grid_cells",
    "grid_size",
    "histogram_edges",
    "log_parametric_complexity",
    "log_r2",
    "mdl_histogram",
    "prediscretisation_epsilon",
    "quantile_gaps",
    "resolve_bound",
    "shimazaki_bins",
    "shimazaki_cost",
    "stochastic_complexity",
]
