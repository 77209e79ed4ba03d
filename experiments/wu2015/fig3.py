"""wu2015 Figure 3 from stored records: BMA-NB accuracy against Γ, one line per data set.

    python -m repro experiment=wu2015_fig3              # the records (results/wu2015_fig3/)
    python experiments/wu2015/fig3.py [--results results]

Two panels as in the paper: (left) data sets where some Γ > 1 beats every Γ ≤ 1 (a peak: an
Occam prior that leaves some variables out helps), (right) the others, where the best accuracy is
reached with Γ ≤ 1 (all variables kept, BMA = NB). Accuracy = mean test accuracy over the outer
repetitions of ``protocol=resample``. Writes ``fig3.png``, ``fig3.pdf`` and ``fig3.csv`` (the
plotted means, with the panel of each data set) into ``<results>/wu2015_fig3/``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from repro.evaluation.records import read_records  # noqa: E402


def curves(folder: Path) -> pd.DataFrame:
    try:
        rec = read_records(folder)
    except FileNotFoundError:
        raise SystemExit(
            f"no records under {folder}: run `python -m repro experiment=wu2015_fig3`"
        ) from None
    acc = rec.query("split == 'test' and metric == 'accuracy'")
    mean = acc.groupby(["dataset", "p_gamma"], as_index=False)["value"].mean()
    mean = mean.rename(columns={"p_gamma": "gamma", "value": "accuracy"})
    panel = {}
    for dataset, grp in mean.groupby("dataset"):
        above = grp.loc[grp["gamma"] > 1.0 + 1e-9, "accuracy"].max()
        below = grp.loc[grp["gamma"] <= 1.0 + 1e-9, "accuracy"].max()
        panel[dataset] = "peak at Γ > 1" if above > below else "best with Γ ≤ 1"
    mean["panel"] = mean["dataset"].map(panel)
    return mean.sort_values(["panel", "dataset", "gamma"])


def plot(mean: pd.DataFrame, out: Path) -> None:
    panels = ["peak at Γ > 1", "best with Γ ≤ 1"]
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=False)
    for ax, panel in zip(axes, panels):
        sub = mean[mean["panel"] == panel]
        for dataset, grp in sub.groupby("dataset"):
            ax.plot(grp["gamma"], grp["accuracy"], marker="o", ms=3, label=dataset)
        ax.set_title(f"{panel} ({sub['dataset'].nunique()} data sets)")
        ax.set_xlabel("Γ  (β = Γ^(N+1))")
        ax.set_ylabel("test accuracy")
        ax.grid(alpha=0.3)
        if len(sub):
            ax.legend(fontsize=7, ncol=2)
    fig.suptitle("BMA-NB: effect of Γ (wu2015 Fig. 3, reproduced)")
    fig.tight_layout()
    out.mkdir(parents=True, exist_ok=True)
    for ext in ("png", "pdf"):
        fig.savefig(out / f"fig3.{ext}", dpi=150)
    plt.close(fig)
    mean.to_csv(out / "fig3.csv", index=False)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=Path, default=Path("results"))
    args = parser.parse_args()
    folder = args.results / "wu2015_fig3"
    table = curves(folder)
    plot(table, folder)
    print(table.pivot_table(index="dataset", columns="gamma", values="accuracy").round(4))
    print(f"figure written to {folder / 'fig3.png'} and .pdf")
