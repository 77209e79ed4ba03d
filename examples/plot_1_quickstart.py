"""
Quickstart: a data set, three methods, cross-validation, statistics, a paper result
====================================================================================

This example walks through the public API of ``repro`` in five steps:

1. load a data set from the catalog;
2. fit three registered methods (scikit-learn classifiers);
3. cross-validate them on a few small data sets with :func:`repro.evaluate`;
4. compare them over data sets: Friedman test, Bergmann–Hommel post-hoc, critical-difference
   diagram;
5. read the committed records of a paper experiment (Boullé 2007, Table 3) and plot them.

Nothing is written to the repository: the records of step 3 stay in memory.
"""

# %%
import json
import os
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

import repro
from repro.evaluation.records import read_records
from repro.registry import display_name
from repro.stats import average_ranks, cd_diagram, friedman, metric_table, posthoc


def repo_root() -> Path:
    """The checkout: the first folder holding pyproject.toml and results/, looking up from the
    working directory, then from the installed package (an editable install lives in it)."""
    here = Path.cwd().resolve()
    package = Path(repro.__file__).resolve().parent
    for folder in (here, *here.parents, *package.parents):
        if (folder / "pyproject.toml").is_file() and (folder / "results").is_dir():
            return folder
    raise FileNotFoundError(f"no repro checkout above {here} or {package}")


ROOT = repo_root()

# %%
# 1. A data set
# -------------
#
# ``repro.load_dataset(name)`` returns a :class:`~repro.datasets.Dataset`: the inputs ``X`` (a
# DataFrame, nominal columns as categories), the class ``y`` and a ``categorical`` mask.
# ``repro.list_datasets()`` is the catalog (the ``offline`` column says which data sets are
# bundled).

ds = repro.load_dataset("pima")
print(ds.name, ds.X.shape, "nominal columns:", int(np.sum(ds.categorical)))
print("class counts:", pd.Series(ds.y).value_counts().to_dict())
ds.X.head()

# %%
# 2. Three methods
# ----------------
#
# ``repro.make_method(id, **params)`` builds an unfitted classifier from its config
# (``conf/method/<id>.yaml``). We take the Gaussian naive Bayes (``nb_gaussian``), the naive
# Bayes over MODL discretization (``nb``) and Boullé's compression-based averaged selective
# naive Bayes SNB(CMA) (``snb_cma``), and fit them on a stratified 70/30 split. Every weighted
# naive Bayes exposes its variable weights ``weights_``.

METHODS = ["nb_gaussian", "nb", "snb_cma"]
X_train, X_test, y_train, y_test = train_test_split(
    ds.X, ds.y, test_size=0.3, stratify=ds.y, random_state=0
)
fitted = {}
for name in METHODS:
    fitted[name] = repro.make_method(name).fit(X_train, y_train)
    print(f"{display_name(name):10s} test accuracy {fitted[name].score(X_test, y_test):.3f}")
weights = {display_name(m): est.weights_ for m, est in fitted.items()}
pd.DataFrame(weights, index=ds.X.columns).round(3)

# %%
# 3. Cross-validation with ``repro.evaluate``
# -------------------------------------------
#
# ``repro.evaluate(method, dataset, protocol=..., seed=...)`` runs one cell — a method on a
# data set under a protocol — and returns tidy long records: one row per repetition, fold,
# split (``train``/``test``/``model``) and metric. Folds depend only on the seed and the data
# set, so every method sees the same folds. Here: stratified 5-fold CV on eight small data
# sets. Without ``results_dir=`` nothing is stored; with it, the cell is written as Parquet and
# resumed on the next call.

DATASETS = ["iris", "wine", "glass", "sonar", "heart_statlog", "ionosphere", "breast_w", "pima"]
records = pd.concat(
    [repro.evaluate(m, d, protocol="cv5", seed=0) for m in METHODS for d in DATASETS],
    ignore_index=True,
)
print(len(records), "records;", "metrics:", ", ".join(records["metric"].unique()))
accuracy = metric_table(records, "accuracy")  # data sets x methods, mean over the folds
accuracy.round(3)

# %%
# 4. Friedman, Bergmann–Hommel and the critical-difference diagram
# ----------------------------------------------------------------
#
# Over N data sets, the Friedman test asks whether the k methods' average ranks differ (χ²_F
# and the Iman–Davenport F_F, Demšar 2006). The post-hoc compares every pair with a z-test on
# the average ranks and adjusts the p-values for the k(k−1)/2 comparisons; Bergmann–Hommel's
# procedure (the most powerful of García & Herrera 2008) is ``correction="bergmann"``. The CD
# diagram joins the methods that are not significantly different at 5 %. With eight data sets
# and three close methods the tests have little power; the committed Table 3 below has 25 data
# sets (``python -m repro.report compare results=results/boulle2007_table3 metric=auc
# correction=bergmann`` runs the same comparison on it).

table = accuracy.rename(columns=display_name)
fr = friedman(table)
ranks = average_ranks(table)
p_bergmann = posthoc(table, correction="bergmann")
print(
    f"Friedman chi2 = {fr['chi2']:.3f} (p = {fr['chi2_pvalue']:.3f}), "
    f"Iman-Davenport F = {fr['ff']:.3f} (p = {fr['ff_pvalue']:.3f})"
)
print("average ranks:", ranks.round(3).to_dict())
p_bergmann.round(3)

# %%

fig = cd_diagram(ranks, p_bergmann, title="cv5 accuracy, 8 data sets, Bergmann–Hommel at 5 %")

# %%
# 5. A committed paper result
# ---------------------------
#
# The records of every paper experiment are committed under ``results/<experiment>/``;
# ``read_records(folder)`` reads them all (the same columns as above). Boullé (2007) Table 3
# ran seven methods on 25 UCI data sets under 10-fold CV. We plot, per data set, the gain in
# test AUC of SNB(CMA) over the plain MODL naive Bayes (NB): bars to the right are data sets
# where averaging over selective models helps. The mean AUC of each method is the "AUC Mean"
# column of ``results/boulle2007_table3/table3.md``.

table3 = read_records(ROOT / "results" / "boulle2007_table3")
auc = metric_table(table3, "auc")  # 25 data sets x 7 methods, mean over the 10 folds
gain = (auc["snb_cma"] - auc["nb"]).sort_values()
better = gain > 0
print(
    f"{auc.shape[0]} data sets, {auc.shape[1]} methods; SNB(CMA) has the higher AUC on "
    f"{int(better.sum())} of them"
)

fig, ax = plt.subplots(figsize=(6, 6))
ax.barh(gain.index, gain.to_numpy(), color=np.where(gain > 0, "tab:blue", "tab:red"))
ax.axvline(0, color="black", lw=0.8)
ax.set(xlabel="test AUC of SNB(CMA) − test AUC of NB", title="Boullé (2007) Table 3, 10-fold CV")
ax.tick_params(axis="y", labelsize=8)
fig.tight_layout()
auc.mean().rename(display_name).sort_values(ascending=False).round(4).to_frame("mean AUC")

# sphinx_gallery_start_ignore
# The numbers above, for tests/test_examples.py (written only when it asks for them).
summary = {
    "accuracy": accuracy.to_dict(),
    "friedman_chi2": float(fr["chi2"]),
    "ff": float(fr["ff"]),
    "average_ranks": ranks.to_dict(),
    "table3_n_datasets": int(auc.shape[0]),
    "table3_mean_auc": auc.mean().to_dict(),
    "table3_snb_cma_better": int(better.sum()),
}
if os.environ.get("REPRO_EXAMPLE_SUMMARY"):
    Path(os.environ["REPRO_EXAMPLE_SUMMARY"]).write_text(json.dumps(summary))
# sphinx_gallery_end_ignore
