"""Figures of the post-hoc comparison: critical-difference diagram and significance heatmap.

Both take ``ax=`` (a new figure is made when it is None) and return the matplotlib Figure.
The grouping shown by the bars of the CD diagram is computed by the pure function
:func:`cd_cliques`, tested on its own.

References
----------
- Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets. JMLR 7,
  §3.2.2 and Fig. 1–2 (critical-difference diagrams).
- García, S. & Herrera, F. (2008). JMLR 9 (the same diagram drawn from adjusted p-values).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

__all__ = ["cd_cliques", "cd_diagram", "significance_heatmap"]


def _nonsignificant(
    avg_ranks: pd.Series, p_adjusted_or_cd: pd.DataFrame | float, alpha: float
) -> np.ndarray:
    """k × k boolean matrix (order of ``avg_ranks``): True when the pair is NOT significant."""
    names = list(avg_ranks.index)
    r = avg_ranks.to_numpy(float)
    if isinstance(p_adjusted_or_cd, pd.DataFrame):
        missing = [m for m in names if m not in p_adjusted_or_cd.index]
        if missing:
            raise ValueError(f"methods {missing} are missing from the p-value matrix")
        p = p_adjusted_or_cd.loc[names, names].to_numpy(float)
        ns = p >= alpha
    else:
        cd = float(p_adjusted_or_cd)
        if not cd > 0:
            raise ValueError(f"critical difference must be > 0, got {cd}")
        ns = np.abs(r[:, None] - r[None, :]) < cd
    np.fill_diagonal(ns, True)
    return ns


def cd_cliques(
    avg_ranks: pd.Series, p_adjusted_or_cd: pd.DataFrame | float, alpha: float = 0.05
) -> list[tuple[str, ...]]:
    """Groups of methods joined by a bar in a critical-difference diagram.

    Methods are sorted by average rank (best first). A group is a maximal run of consecutive
    methods in that order of which *every* pair is not significantly different — adjusted
    p ≥ ``alpha`` when a p-value matrix is given, |R_i − R_j| < CD when a critical difference
    (a number, e.g. :func:`repro.stats.posthoc.nemenyi_critical_difference`) is given. Runs of
    a single method and runs contained in another run are dropped. Requiring all pairs (not
    only the two ends) keeps the bars truthful for corrections whose adjusted p-values are not
    monotone in the rank difference (Bergmann–Hommel).

    Returns
    -------
    list of tuples of method names, each sorted by rank, in order of their best member.
    """
    if len(avg_ranks) < 2:
        return []
    ranks = avg_ranks.sort_values(kind="stable")
    names = list(ranks.index)
    ns = _nonsignificant(ranks, p_adjusted_or_cd, alpha)
    k = len(names)
    groups: list[tuple[str, ...]] = []
    reach = -1  # furthest end of the groups kept so far
    for i in range(k):
        j = i
        while j + 1 < k and ns[i : j + 2, i : j + 2].all():
            j += 1
        if j > i and j > reach:
            groups.append(tuple(names[i : j + 1]))
        reach = max(reach, j)
    return groups


def cd_diagram(
    avg_ranks: pd.Series,
    p_adjusted_or_cd: pd.DataFrame | float,
    alpha: float = 0.05,
    ax=None,
    title: str | None = None,
    show_ranks: bool = True,
):
    """Demšar-style critical-difference diagram.

    A rank axis (1 = best, on the left); each method hangs from its average rank, the better
    half labelled on the left and the other half on the right; thick bars join the groups of
    :func:`cd_cliques` (methods not significantly different under the chosen correction).
    When ``p_adjusted_or_cd`` is a number (a critical difference), a "CD" segment of that
    length is drawn above the axis.

    Parameters
    ----------
    avg_ranks : Series
        Average rank per method (:func:`repro.stats.tests.average_ranks`).
    p_adjusted_or_cd : DataFrame or float
        Adjusted p-value matrix (:func:`repro.stats.posthoc.posthoc`) or a critical difference.
    alpha : float
        Significance level for the bars.
    ax : matplotlib Axes, optional
    title : str, optional
    show_ranks : bool
        Append the average rank to each label.

    Returns
    -------
    matplotlib.figure.Figure
        Save it with ``bbox_inches="tight"``: labels extend beyond the axes.
    """
    import matplotlib.pyplot as plt

    ranks = avg_ranks.sort_values(kind="stable").astype(float)
    names = list(ranks.index)
    k = len(names)
    if k < 2:
        raise ValueError("a CD diagram needs at least 2 methods")
    groups = cd_cliques(ranks, p_adjusted_or_cd, alpha)
    n_left = math.ceil(k / 2)

    if ax is None:
        height = 1.2 + 0.28 * (n_left + len(groups))
        fig, ax = plt.subplots(figsize=(max(6.0, 1.0 + 0.7 * k), height))
    else:
        fig = ax.figure

    lo, hi = 1.0, float(max(k, math.ceil(ranks.max())))
    span = hi - lo
    elbow = 0.08 * span + 0.15
    tick = 0.08
    bar_top = 0.22
    bar_step = 0.13
    label_top = bar_top + bar_step * len(groups) + 0.12
    label_step = 0.22

    # rank axis with integer ticks, labelled above
    ax.plot([lo, hi], [0, 0], color="black", lw=1.2)
    for t in range(int(lo), int(hi) + 1):
        ax.plot([t, t], [0, -tick], color="black", lw=1.0)
        ax.text(t, -tick - 0.04, str(t), ha="center", va="bottom", fontsize=9)
    for t in np.arange(lo + 0.5, hi, 1.0):
        ax.plot([t, t], [0, -tick / 2], color="black", lw=0.6)

    # optional CD segment
    top = -tick - 0.3
    if not isinstance(p_adjusted_or_cd, pd.DataFrame):
        cd = float(p_adjusted_or_cd)
        y = -tick - 0.45
        ax.plot([lo, lo + cd], [y, y], color="black", lw=1.2)
        ax.plot([lo, lo], [y - 0.04, y + 0.04], color="black", lw=1.2)
        ax.plot([lo + cd, lo + cd], [y - 0.04, y + 0.04], color="black", lw=1.2)
        ax.text(lo + cd / 2, y - 0.05, f"CD = {cd:.3g}", ha="center", va="bottom", fontsize=9)
        top = y - 0.25

    # methods: vertical drop from the axis, elbow to the side, label
    for idx, name in enumerate(names):
        r = float(ranks[name])
        if idx < n_left:
            y = label_top + label_step * idx
            x_end, ha = lo - elbow, "right"
        else:
            y = label_top + label_step * (k - 1 - idx)
            x_end, ha = hi + elbow, "left"
        ax.plot([r, r, x_end], [0, y, y], color="black", lw=0.9)
        label = f"{name} ({r:.2f})" if show_ranks else str(name)
        pad = -0.05 if ha == "right" else 0.05
        ax.text(x_end + pad, y, label, ha=ha, va="center", fontsize=10, clip_on=False)

    # bars joining non-significantly different groups
    for g, group in enumerate(groups):
        y = bar_top + bar_step * g
        x0 = float(ranks[group[0]]) - 0.04
        x1 = float(ranks[group[-1]]) + 0.04
        ax.plot([x0, x1], [y, y], color="black", lw=3.5, solid_capstyle="round")

    bottom = label_top + label_step * (n_left - 1) + 0.2
    ax.set_xlim(lo - elbow - 0.05, hi + elbow + 0.05)
    ax.set_ylim(bottom, top)
    ax.axis("off")
    if title:
        ax.set_title(title, fontsize=11)
    return fig


def significance_heatmap(
    pvalues: pd.DataFrame,
    alpha: float = 0.05,
    ax=None,
    annot: bool = True,
    title: str | None = None,
):
    """Heatmap of a methods × methods matrix of (adjusted) p-values.

    Cells are coloured by significance class — p < 0.001, p < 0.01, p < ``alpha`` (levels
    below ``alpha`` only), not significant — and annotated with the p-value when ``annot``;
    the diagonal is blank. Values above 1 (uncapped adjustments) fall in "NS".

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt
    from matplotlib.colors import BoundaryNorm, ListedColormap

    if not isinstance(pvalues, pd.DataFrame) or pvalues.shape[0] != pvalues.shape[1]:
        raise ValueError("pvalues must be a square methods × methods DataFrame")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha}")
    p = pvalues.to_numpy(float).copy()
    k = p.shape[0]
    levels = [lv for lv in (0.001, 0.01) if lv < alpha] + [alpha]
    palette = ["#1a7837", "#5aae61", "#a6dba0"][-(len(levels)) :] + ["#e7e7e7"]
    labels = [f"p < {lv:g}" for lv in levels] + ["NS"]
    upper = max(1.0, float(np.nanmax(p))) + 1.0
    cmap = ListedColormap(palette)
    norm = BoundaryNorm([0.0, *levels, upper], cmap.N)
    masked = np.ma.masked_array(p, mask=np.eye(k, dtype=bool))

    if ax is None:
        size = max(4.0, 0.75 * k + 2.0)
        fig, ax = plt.subplots(figsize=(size + 1.5, size))
    else:
        fig = ax.figure
    image = ax.imshow(masked, cmap=cmap, norm=norm)
    ax.set_xticks(range(k), [str(c) for c in pvalues.columns], rotation=45, ha="right")
    ax.set_yticks(range(k), [str(c) for c in pvalues.index])
    ax.set_xticks(np.arange(-0.5, k, 1), minor=True)
    ax.set_yticks(np.arange(-0.5, k, 1), minor=True)
    ax.grid(which="minor", color="white", lw=1.5)
    ax.tick_params(which="minor", length=0)
    if annot:
        for i in range(k):
            for j in range(k):
                if i != j and np.isfinite(p[i, j]):
                    v = p[i, j]
                    text = f"{v:.2e}" if v < 0.001 else f"{v:.3f}"
                    ax.text(j, i, text, ha="center", va="center", fontsize=7)
    bar = fig.colorbar(image, ax=ax, fraction=0.046, pad=0.04)
    centers = [(a + b) / 2 for a, b in zip([0.0, *levels], [*levels, upper])]
    bar.set_ticks(centers)
    bar.set_ticklabels(labels)
    if title:
        ax.set_title(title, fontsize=11)
    return fig
