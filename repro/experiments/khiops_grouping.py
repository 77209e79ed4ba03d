"""Agreement of the Khiops-variant MODL grouping with Khiops 11 on every nominal variable
(issue 11 §1; KHIOPS_NOTES §3, §8): the grouping alone, without the SNB, for diagnosis.

On the data of :mod:`repro.experiments.khiops_agreement` (every bundled data set with a nominal
variable, sets over 6000 rows on a seeded 6000-row sample, the stratified 70/30 split of
KHIOPS_NOTES §8), Khiops is fit on all the columns and each nominal column is grouped by
:class:`repro.preprocessing.modl.estimators.MODLGrouper` (``variant="khiops"``, the same number of
variables, hence the same attribute cost). A variable disagrees when the class counts of the parts
differ (as multisets) or the Levels differ by more than :data:`LEVEL_TOL`.

``python -m repro.experiments.khiops_grouping [data set ...]`` prints the disagreements.
"""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd

from repro.experiments.khiops_agreement import (
    LEVEL_TOL,
    NOMINAL_DATASETS,
    khiops_part_counts,
    nominal_columns,
    part_counts,
    split,
)
from repro.preprocessing.modl.estimators import MODLGrouper


def khiops_fit(X: pd.DataFrame, y: pd.Series):
    """Khiops 11 fit as in KHIOPS_NOTES §8 (``n_trees=0, n_pairs=0``)."""
    from khiops.sklearn import KhiopsClassifier

    return KhiopsClassifier(n_trees=0, n_pairs=0).fit(X, y)


def khiops_groupings(X: pd.DataFrame, y: pd.Series, classes, clf=None) -> dict:
    """Khiops' grouping of every nominal column: (sorted class-count rows of the parts, Level);
    ``clf``: a :func:`khiops_fit` of ``(X, y)`` already made."""
    clf = khiops_fit(X, y) if clf is None else clf
    prep = clf.model_report_.preparation_report
    out = {}
    for c in nominal_columns(X):
        vs = prep.get_variable_statistics(c)
        out[c] = (khiops_part_counts(vs, y, classes), float(vs.level))
    return out


def our_groupings(X: pd.DataFrame, y: pd.Series, classes) -> dict:
    """Our grouping of every column, as :func:`khiops_groupings`."""
    codes = pd.Categorical(y, classes).codes
    out = {}
    for c in nominal_columns(X):
        x = X[c].astype(object).where(X[c].notna(), np.nan).to_numpy()
        g = MODLGrouper(variant="khiops", n_variables=X.shape[1]).fit(x, codes, len(classes))
        out[c] = (part_counts(g), float(g.level_))
    return out


def disagreements(name: str) -> list[dict]:
    """Variables of ``name`` whose grouping differs from Khiops' (counts or Level)."""
    X, y = split(name)[::2]
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
    names = list(argv) if argv else NOMINAL_DATASETS
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
