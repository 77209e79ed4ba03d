"""Agreement of the Khiops-variant MODL grouping with Khiops 11 on every nominal variable
(issue 11 §1; KHIOPS_NOTES §3, §8).

For each bundled data set with nominal variables (sets over 6000 rows: a seeded 6000-row sample),
the stratified 70/30 split of KHIOPS_NOTES §8 (``random_state=0``); Khiops is fit on all the columns
and each nominal column is grouped by :class:`repro.preprocessing.discretizers.MODLGrouper`
(``variant="khiops"``, the same number of variables, hence the same attribute cost). A variable
disagrees when the class counts of the parts differ (as multisets) or the Levels differ by more
than :data:`LEVEL_TOL`.

``python -m repro.experiments.khiops_grouping [data set ...]`` prints the disagreements.
"""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from repro.datasets.local import resolve_data_dir
from repro.preprocessing.discretizers import MODLGrouper

MAX_ROWS = 6000
LEVEL_TOL = 1e-6
SAMPLE_SEED = 0


def nominal_datasets() -> list[str]:
    """Bundled data sets with at least one nominal (non-numeric) input variable."""
    names = []
    for path in sorted(resolve_data_dir().glob("*.parquet")):
        df = pd.read_parquet(path)
        if any(not pd.api.types.is_numeric_dtype(df[c]) for c in df.columns if c != "class"):
            names.append(path.stem)
    return names


def nominal_split(name: str):
    """(X_train, y_train) of ``name``, nominal columns as string categories (KHIOPS_NOTES §8)."""
    df = pd.read_parquet(resolve_data_dir() / f"{name}.parquet")
    if len(df) > MAX_ROWS:
        df = df.sample(n=MAX_ROWS, random_state=SAMPLE_SEED)
    y = df.pop("class").astype(str)
    X = df.copy()
    for c in X.columns:
        if pd.api.types.is_numeric_dtype(X[c]):
            continue
        X[c] = X[c].astype(str).where(X[c].notna()).astype("category")
    stratify = y if y.value_counts().min() >= 2 else None
    Xtr, _, ytr, _ = train_test_split(X, y, test_size=0.3, stratify=stratify, random_state=0)
    return Xtr, ytr


def nominal_columns(X: pd.DataFrame) -> list[str]:
    return [c for c in X.columns if not pd.api.types.is_numeric_dtype(X[c])]


def khiops_groupings(X: pd.DataFrame, y: pd.Series, classes) -> dict:
    """Khiops' grouping of every column: (sorted class-count rows of the parts, Level)."""
    from khiops.sklearn import KhiopsClassifier

    clf = KhiopsClassifier(n_trees=0, n_pairs=0).fit(X, y)
    prep = clf.model_report_.preparation_report
    out = {}
    for c in nominal_columns(X):
        vs = prep.get_variable_statistics(c)
        if vs.data_grid is None:
            counts = [np.bincount(pd.Categorical(y, classes).codes, minlength=len(classes))]
        else:
            target = [str(p.value) for p in vs.data_grid.dimensions[1].partition]
            cols = [target.index(k) for k in classes]
            counts = [[row[j] for j in cols] for row in vs.data_grid.part_target_frequencies]
        out[c] = (sorted(tuple(int(v) for v in r) for r in counts), float(vs.level))
    return out


def our_groupings(X: pd.DataFrame, y: pd.Series, classes) -> dict:
    """Our grouping of every column, as :func:`khiops_groupings`."""
    codes = pd.Categorical(y, classes).codes
    out = {}
    for c in nominal_columns(X):
        x = X[c].astype(object).where(X[c].notna(), np.nan).to_numpy()
        g = MODLGrouper(variant="khiops", n_variables=X.shape[1]).fit(x, codes, len(classes))
        out[c] = (sorted(tuple(int(v) for v in r) for r in g.counts_), float(g.level_))
    return out


def disagreements(name: str) -> list[dict]:
    """Variables of ``name`` whose grouping differs from Khiops' (counts or Level)."""
    X, y = nominal_split(name)
    classes = sorted(y.unique())
    theirs, mine = khiops_groupings(X, y, classes), our_groupings(X, y, classes)
    rows = []
    for c in nominal_columns(X):
        (kc, kl), (oc, ol) = theirs[c], mine[c]
        if kc != oc or abs(kl - ol) > LEVEL_TOL:
            rows.append(
                dict(
                    dataset=name,
                    variable=c,
                    values=int(X[c].nunique(dropna=False)),
                    classes=len(classes),
                    khiops_level=kl,
                    our_level=ol,
                    khiops_parts=len(kc),
                    our_parts=len(oc),
                    same_counts=kc == oc,
                    khiops_counts=kc,
                    our_counts=oc,
                )
            )
    return rows


def main(argv=None) -> int:
    names = list(argv) if argv else nominal_datasets()
    total = 0
    for name in names:
        rows = disagreements(name)
        total += len(rows)
        print(f"{name}: {len(rows)} disagreement(s)", flush=True)
        for r in rows:
            print(
                f"  {r['variable']} V={r['values']} J={r['classes']}: Khiops {r['khiops_parts']}"
                f" parts Level {r['khiops_level']:.6g}, ours {r['our_parts']} parts Level"
                f" {r['our_level']:.6g}{'' if r['same_counts'] else ' (counts differ)'}"
            )
            if not r["same_counts"]:
                print(f"    khiops {r['khiops_counts']}\n    ours   {r['our_counts']}")
    print(f"total: {total}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
