"""The arc posterior and the averaged tables of MANB (Dash & Cooper 2002), as pure functions.

Dash & Cooper (2002), "Exact model averaging with naive Bayesian classifiers", ICML, average
over the 2^K naive Bayes structures in which each arc y → x_k is present or absent. For one
variable with the contingency table n_ij (I values × J classes), n_j = Σ_i n_ij, n_i = Σ_j n_ij,
n = Σ_ij n_ij, and Dirichlet priors with every hyper-parameter equal to s (bnclassify's
``smooth``; a K2 prior when s = 1), the log marginal likelihoods of the variable's data are
(bnclassify's ``compute_manb_arc_posterior``, R/learn-params-manb.R):

    arc    log P(D_k | y → x_k) = J·lnΓ(I·s) − Σ_j lnΓ(I·s + n_j) + Σ_ij [lnΓ(s + n_ij) − lnΓ(s)]
    no arc log P(D_k | y ⋯ x_k) = lnΓ(I·s) − lnΓ(I·s + n)     + Σ_i  [lnΓ(s + n_i)  − lnΓ(s)]

and, with the prior probability ρ of an arc, the posterior probability of the arc is

    p_k = ρ P(D_k | arc) / (ρ P(D_k | arc) + (1 − ρ) P(D_k | no arc)).

The arcs are independent a posteriori (the structure prior and the marginal likelihood factorise
over the variables; the class node's term is the same in every structure). The predictive
tables are the posterior means θ(i | j) = (n_ij + s)/(n_j + I·s) and θ(i) = (n_i + s)/(n + I·s),
and averaging the joint P(y, x | S, D) = P(y) Π_k θ_S,k(x_k | y) over the structures S gives

    Σ_S P(S | D) P(y, x | S, D) = P(y) Π_k [p_k θ(x_k | y) + (1 − p_k) θ(x_k)]

(the sum of a product of independent factors), a naive Bayes with the mixed tables of
:func:`manb_table` (bnclassify's ``compute_manb_cpt``). What is averaged is the joint: the
class posterior of the average is the average joint normalised over y, not the average of the
structures' class posteriors.
"""

from __future__ import annotations

import numpy as np
from scipy.special import expit, gammaln


def arc_log_marginals(counts, smooth: float = 1.0) -> tuple[float, float]:
    """(log P(D_k | arc), log P(D_k | no arc)) of a contingency table ``counts`` (I × J)."""
    n = np.asarray(counts, dtype=np.float64)
    n_values, n_classes = n.shape
    s = float(smooth)
    a = n_values * s
    n_j, n_i = n.sum(axis=0), n.sum(axis=1)
    arc = n_classes * gammaln(a) - np.sum(gammaln(a + n_j)) + np.sum(gammaln(s + n) - gammaln(s))
    no_arc = gammaln(a) - gammaln(a + n.sum()) + np.sum(gammaln(s + n_i) - gammaln(s))
    return float(arc), float(no_arc)


def arc_posterior(counts, smooth: float = 1.0, prior: float = 0.5) -> float:
    """p_k: the posterior probability of the arc y → x_k (module docstring), ``prior`` = ρ ∈
    [0, 1] (ρ = 0 gives 0, ρ = 1 gives 1)."""
    arc, no_arc = arc_log_marginals(counts, smooth)
    with np.errstate(divide="ignore"):
        log_odds = arc - no_arc + np.log(prior) - np.log1p(-prior)
    return float(expit(log_odds))


def manb_table(counts, smooth: float = 1.0, prior: float = 0.5) -> np.ndarray:
    """The mixed table p_k θ(i | j) + (1 − p_k) θ(i) (I × J) of a contingency table (I × J)."""
    n = np.asarray(counts, dtype=np.float64)
    s = float(smooth)
    p = arc_posterior(n, s, prior)
    conditional = (n + s) / (n.sum(axis=0, keepdims=True) + s * n.shape[0])
    n_i = n.sum(axis=1, keepdims=True)
    marginal = (n_i + s) / (n_i.sum() + s * n.shape[0])
    return p * conditional + (1.0 - p) * marginal


def manb_log_table(counts, n_total=None, smooth: float = 1.0, prior: float = 0.5) -> np.ndarray:
    """log :func:`manb_table`, as the ``estimate`` (counts, n_total) of a
    :class:`~repro.preprocessing.variables.PartitionModel` (``n_total`` unused: the counts of
    the observed values are the data of the marginal likelihoods, missing values left out)."""
    return np.log(manb_table(counts, smooth, prior))
