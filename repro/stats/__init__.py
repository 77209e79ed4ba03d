"""Statistical comparison of classifiers.

- :mod:`repro.stats.tests`: per-data-set paired t-test W/L, ranks, Friedman / Iman–Davenport,
  Wilcoxon signed ranks.
- :mod:`repro.stats.posthoc`: all-pairs z-test on average ranks adjusted by Nemenyi, Holm,
  Shaffer or Bergmann–Hommel (exhaustive sets).
- :mod:`repro.stats.bayesian`: Bayesian signed-rank and hierarchical tests with a region of
  practical equivalence (Benavoli et al. 2017, through baycomp), simplex plots.
- :mod:`repro.stats.plots`: critical-difference diagram and significance heatmap (matplotlib is
  imported only when a figure is drawn).
"""

from repro.stats.bayesian import (
    HIERARCHICAL_OPTIONS,
    BayesianComparison,
    compare_to_reference,
    hierarchical,
    signed_rank,
    signed_rank_posterior,
    simplex_figure,
)
from repro.stats.plots import cd_cliques, cd_diagram, significance_heatmap
from repro.stats.posthoc import (
    CORRECTIONS,
    adjust_pairwise,
    exhaustive_sets,
    nemenyi_critical_difference,
    pairwise_comparisons,
    posthoc,
    ztest_pvalues,
)
from repro.stats.tests import (
    RANK_RTOL,
    average_ranks,
    friedman,
    metric_table,
    paired_t_wins_losses,
    rank_table,
    tie_values,
    wilcoxon_pairs,
)

__all__ = [
    "CORRECTIONS",
    "HIERARCHICAL_OPTIONS",
    "BayesianComparison",
    "RANK_RTOL",
    "adjust_pairwise",
    "average_ranks",
    "cd_cliques",
    "cd_diagram",
    "compare_to_reference",
    "exhaustive_sets",
    "friedman",
    "hierarchical",
    "metric_table",
    "nemenyi_critical_difference",
    "paired_t_wins_losses",
    "pairwise_comparisons",
    "posthoc",
    "rank_table",
    "signed_rank",
    "signed_rank_posterior",
    "significance_heatmap",
    "simplex_figure",
    "tie_values",
    "wilcoxon_pairs",
    "ztest_pvalues",
]
