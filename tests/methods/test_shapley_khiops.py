"""Khiops 11 as the oracle of ``shapley_values`` (repro.methods.core.summary): per-row Shapley
values of ``fnb_khiops`` against those of Khiops' interpretation model.

Protocol of :mod:`repro.experiments.khiops_agreement` (KHIOPS_NOTES §8: stratified 70/30 split,
seed 0, Khiops with ``n_trees=0, n_pairs=0``) on pima, breast_cancer and vote (two classes; vote
has nominal variables with missing values) and wine (three classes). Khiops' predictor is
interpreted with ``khiops.core.interpret_predictor`` (global ranking, every selected variable) and
that dictionary deployed with ``khiops.core.deploy_model`` on the training rows followed by the test
rows; the values ``Shapley_<class>_<variable>`` are read back. Temporary Khiops files live under
pytest's temporary directory.

What Khiops computes (``KIShapleyTable::InitializeFromDataGridStats``, src/Learning/KIInterpretation
of KhiopsML/khiops): for a variable k of SNB weight w_k, a part i of its partition and a class j,
one class against the rest,

    φ_kj(i) = w_k [L_kj(i) − Σ_i' (n_i'/N) L_kj(i')],   L_kj(i) = log P(i | j) / P(i | ¬j),
    P(i | j) = (n_ij + ε)/(N_j + J·ε),  P(i | ¬j) = (n_i − n_ij + (J−1)ε)/(N − N_j + J·ε),

ε = 1/(N+1), counts of the training rows: the training mean is the baseline, as ours. Its global
``Importance`` (dictionary meta-data, the order of the "Global" ranking) is Σ_j P(j) E_train|φ_kj|,
normalised to sum 1 over the selected variables.

Two classes: P(i | ¬j) is P(i | the other class), and the denominators N_j + J·ε (instead of the
predictor's N_j + I·ε) are constants that the centring removes, so φ_k,classes_[1] is exactly our
log-odds Shapley value ``shapley_values(X)[:, k]`` (and φ_k,classes_[0] its opposite). Compared:
the weights, every value, the ranking by mean |φ| and Khiops' ``Importance`` against our
``importances_`` normalised to sum 1.

More classes: Khiops explains a one-class-against-the-rest log-ratio that pools the other classes'
counts, not the softmax score of its predictor; our class-centred values cannot be mapped onto it
(the pooling is not a function of the per-class terms, nor is the centring invertible). What is
checked there: the weights, Khiops' values recomputed by its formula from our fitted partitions
(``modl_.counts_``), weights and part codes, its ranking from those, and the shared baseline (zero
training mean). On wine the two definitions rank alcohol and color_intensity in opposite orders
(3rd/4th), so no ranking of our class-centred values is asserted.

Tolerance of the values: rtol 1e-9, atol 1e-12. Khiops writes deployed values with 10 significant
digits (a relative rounding of at most 5e-10); the SNB weights agree exactly (dyadic, printed in
full; ``khiops_agreement.WEIGHT_TOL`` is 1e-9); the rest is float64 rounding (≈1e-15). Measured:
at most 3.7e-10 (pima), 4.6e-10 (breast_cancer), 3.0e-10 (vote), 4.9e-10 (wine, recomputed); max
weight difference 0 on all four. Khiops prints ``Importance`` with 6 significant digits: rtol 1e-5.
"""

import re

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("khiops.sklearn")

from repro.experiments import khiops_agreement as ka  # noqa: E402
from repro.methods.core.checks import check_predict_input  # noqa: E402
from repro.methods.khiops.peer import khiops_snb_weights  # noqa: E402

pytestmark = pytest.mark.oracle("khiops")  # skipped with the reason without Khiops

#: deployed values: 10 significant digits (relative rounding ≤ 5e-10), float64 rounding below
RTOL, ATOL = 1e-9, 1e-12
#: Khiops prints the Importance meta-data with 6 significant digits
IMPORTANCE_RTOL = 1e-5
#: vote: nominal variables with missing values (Khiops' missing value, its own part)
TWO_CLASS = ("pima", "breast_cancer", "vote")
MULTI_CLASS = ("wine",)


def khiops_importances(dictionary_text: str) -> dict[str, float]:
    """``{variable: Importance}`` of the native variables of an interpretation dictionary."""
    out = {}
    for line in dictionary_text.splitlines():
        m = re.search(r"\t`?([^`\t]+)`?\t\t;[^\n]*<Importance=([^>]+)>", line)
        if m:
            out[m.group(1)] = float(m.group(2))
    return out


def fit_and_interpret(name: str, tmp) -> dict:
    """Khiops and ``fnb_khiops`` on the training part of ``name``; Khiops' Shapley values of the
    training rows then the test rows, ``{class: N × (selected variables)}`` frames."""
    import khiops.core as kh
    from khiops.sklearn import KhiopsClassifier

    from repro.methods.khiops.fnb_khiops import KhiopsFractionalNaiveBayes

    runner = kh.get_runner()
    previous = runner.root_temp_dir
    runner.root_temp_dir = str(tmp / "khiops_tmp")
    try:
        Xtr, Xte, ytr, yte = ka.split(name)
        clf = KhiopsClassifier(n_trees=0, n_pairs=0).fit(Xtr, ytr)
        domain = clf.model_
        snb = next(d for d in domain.dictionaries if d.name.startswith("SNB_"))
        target = next(v.name for v in snb.variables if "TargetVariable" in v.meta_data.keys)
        snb = snb.name
        interpretor = tmp / "interpretation.kdic"
        kh.interpret_predictor(domain, snb, str(interpretor), max_variable_importances=100)
        rows = pd.concat([Xtr, Xte], ignore_index=True)
        table = rows.assign(**{target: np.r_[ytr.to_numpy(), yte.to_numpy()]})
        table.to_csv(tmp / "rows.txt", sep="\t", index=False)
        kh.deploy_model(
            str(interpretor), f"Interpretation_{snb}", str(tmp / "rows.txt"), str(tmp / "out.txt")
        )
    finally:
        runner.root_temp_dir = previous
    deployed = pd.read_csv(tmp / "out.txt", sep="\t")
    text = interpretor.read_text()
    ours = KhiopsFractionalNaiveBayes().fit(Xtr, ytr)
    classes = [str(c) for c in ours.classes_]
    # the Shapley variables in Khiops' "Global" order (the same for every class)
    order = [
        c[len(f"Shapley_{classes[0]}_") :]
        for c in deployed.columns
        if c.startswith(f"Shapley_{classes[0]}_")
    ]
    values = {j: deployed[[f"Shapley_{j}_{v}" for v in order]] for j in classes}
    return dict(
        Xtr=Xtr,
        ytr=ytr,
        rows=rows,
        n_train=len(Xtr),
        ours=ours,
        classes=classes,
        order=order,
        values=values,
        importance=khiops_importances(text),
        weights=khiops_snb_weights(clf, Xtr.columns),
    )


@pytest.fixture(scope="module", params=TWO_CLASS)
def two_class(request, tmp_path_factory):
    return fit_and_interpret(request.param, tmp_path_factory.mktemp(request.param))


@pytest.fixture(scope="module", params=MULTI_CLASS)
def multi_class(request, tmp_path_factory):
    return fit_and_interpret(request.param, tmp_path_factory.mktemp(request.param))


def check_weights(run) -> None:
    """Same selected variables as Khiops, weights within ``khiops_agreement.WEIGHT_TOL``."""
    ours, cols = run["ours"], list(run["Xtr"].columns)
    mine = {c: w for c, w in zip(cols, ours.weights_) if w > 0}
    assert mine.keys() == run["weights"].keys() == set(run["order"])
    diff = max(abs(mine[c] - run["weights"][c]) for c in mine)
    assert diff <= ka.WEIGHT_TOL


def ranking(names, importance) -> list[str]:
    """``names`` by decreasing importance; fails on a near tie (the order would be noise)."""
    importance = np.asarray(importance, float)
    gaps = np.diff(np.sort(importance))
    assert gaps.size == 0 or gaps.min() > 1e-6 * importance.max(), "near tie in the ranking"
    return [names[i] for i in np.argsort(-importance, kind="stable")]


def khiops_formula(model, k: int, Z: np.ndarray) -> np.ndarray:
    """Khiops' one-against-the-rest Shapley values (N × J) of variable k, from our fitted
    partition (its training class counts), weight and part codes of the rows ``Z``."""
    counts = np.asarray(model.variables_[k].partition.modl_.counts_, float)
    n, n_classes = counts.sum(), counts.shape[1]
    eps = 1.0 / (n + 1.0)
    n_j, n_i = counts.sum(axis=0), counts.sum(axis=1, keepdims=True)
    p_j = (counts + eps) / (n_j + n_classes * eps)
    p_rest = (n_i - counts + (n_classes - 1) * eps) / (n - n_j + n_classes * eps)
    ratio = np.log(p_j / p_rest)
    table = model.weights_[k] * (ratio - (n_i / n * ratio).sum(axis=0))
    return table[model.variables_[k].codes(Z[:, k])]


@pytest.mark.oracle("khiops")
def test_two_class_weights(two_class):
    check_weights(two_class)


@pytest.mark.oracle("khiops")
def test_two_class_values(two_class):
    """Khiops' φ of classes_[1] is our log-odds Shapley value, its φ of classes_[0] the opposite,
    on the training and the test rows."""
    run = two_class
    cols = list(run["Xtr"].columns)
    idx = [cols.index(v) for v in run["order"]]
    phi = run["ours"].shapley_values(run["rows"])[:, idx]
    negative, positive = (run["values"][j].to_numpy() for j in run["classes"])
    np.testing.assert_allclose(phi, positive, rtol=RTOL, atol=ATOL)
    np.testing.assert_allclose(-phi, negative, rtol=RTOL, atol=ATOL)
    # the unselected variables explain nothing
    others = [k for k in range(len(cols)) if k not in idx]
    assert np.all(run["ours"].shapley_values(run["Xtr"])[:, others] == 0)


@pytest.mark.oracle("khiops")
def test_two_class_ranking(two_class):
    """Same ranking by mean |φ| on the training rows (Khiops' values and ours), the same as
    Khiops' "Global" order and as ``summary()``; ``importances_`` normalised to sum 1 = Khiops'
    Importance."""
    run = two_class
    ours, order, n_train = run["ours"], run["order"], run["n_train"]
    theirs = run["values"][run["classes"][1]].to_numpy()[:n_train]
    cols = list(run["Xtr"].columns)
    idx = [cols.index(v) for v in order]
    mine = ours.importances_[idx]
    assert ranking(order, np.abs(theirs).mean(axis=0)) == ranking(order, mine) == order
    assert list(ours.summary()["variable"][: len(order)]) == order
    importance = np.array([run["importance"][v] for v in order])
    np.testing.assert_allclose(mine / mine.sum(), importance, rtol=IMPORTANCE_RTOL)


@pytest.mark.oracle("khiops")
def test_multi_class_weights(multi_class):
    check_weights(multi_class)


@pytest.mark.oracle("khiops")
def test_multi_class_khiops_definition(multi_class):
    """Khiops' one-against-the-rest values, recomputed by its formula from our fitted partitions,
    weights and part codes, on the training and the test rows; Khiops' Importance is
    Σ_j P(j) E_train|φ_kj| normalised, and the ranking from our fit is Khiops' "Global" order."""
    run = multi_class
    ours, order, classes, n_train = run["ours"], run["order"], run["classes"], run["n_train"]
    cols = list(run["Xtr"].columns)
    Z = check_predict_input(ours, run["rows"])
    prior = run["ytr"].value_counts(normalize=True)
    recomputed = np.zeros(len(order))
    for v_i, v in enumerate(order):
        mine = khiops_formula(ours, cols.index(v), Z)
        theirs = np.column_stack([run["values"][j][f"Shapley_{j}_{v}"] for j in classes])
        np.testing.assert_allclose(mine, theirs, rtol=RTOL, atol=ATOL, err_msg=v)
        recomputed[v_i] = sum(
            prior[j] * np.abs(mine[:n_train, i]).mean() for i, j in enumerate(classes)
        )
    importance = np.array([run["importance"][v] for v in order])
    np.testing.assert_allclose(recomputed / recomputed.sum(), importance, rtol=IMPORTANCE_RTOL)
    assert ranking(order, recomputed) == order


@pytest.mark.oracle("khiops")
def test_multi_class_baseline(multi_class):
    """Both definitions are centred on the training mean: every variable's values average to 0
    over the training rows (Khiops' to its print precision, ours to rounding), and ours are
    centred over the classes."""
    run = multi_class
    ours, n_train = run["ours"], run["n_train"]
    phi = ours.shapley_values(run["Xtr"])
    assert phi.shape == (n_train, len(run["Xtr"].columns), len(run["classes"]))
    np.testing.assert_allclose(phi.mean(axis=0), 0.0, atol=1e-12)
    np.testing.assert_allclose(phi.sum(axis=2), 0.0, atol=1e-12)
    for j in run["classes"]:
        theirs = run["values"][j].to_numpy()[:n_train]
        np.testing.assert_allclose(theirs.mean(axis=0), 0.0, atol=1e-8)
