"""Weka's Gaussian (``gaussian="weka"`` of nb_laplace / bma_nb): hand-computed values and Weka 3.6
itself as the oracle.

The estimator follows ``weka.classifiers.bayes.NaiveBayes`` and ``weka.estimators.NormalEstimator``
(Weka 3.6.14, checked on its byte code): precision p = mean gap between sorted distinct training
values (0.01 below two), values rounded to multiples of p (Math.rint), mean and N-denominator sd of
the rounded values, sd ≥ p/6, P(x | j) = Φ((r − μ + p/2)/σ) − Φ((r − μ − p/2)/σ) floored at 1e-75;
nominal attributes and the class Laplace (counts from 1); missing values skipped.

The oracle tests write ARFF files of a deterministic split of bundled data sets, run
``java -cp weka.jar weka.classifiers.bayes.NaiveBayes -t train.arff -T test.arff -p 0
-distribution`` (3 printed decimals: |diff| ≤ 0.5e-3) and, when ``javac`` is there, a 20-line
Java driver that prints ``distributionForInstance`` with all digits. They are skipped when
``java`` or the jar (``$WEKA_JAR``, default ``/usr/share/java/weka.jar``: Debian package ``weka``)
is absent.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy.stats import norm

from repro import make_method
from repro.datasets import load_dataset
from repro.methods.plain.nb import LaplaceNaiveBayes
from repro.methods.wu2015.bma_nb import BMANaiveBayes
from repro.preprocessing.variables import (
    MarginalWekaGaussian,
    WekaGaussianModel,
    marginal_model,
    weka_log_prob,
    weka_normal_fit,
    weka_precision,
    weka_round,
)

WEKA_JAR = Path(os.environ.get("WEKA_JAR", "/usr/share/java/weka.jar"))
JAVA, JAVAC = shutil.which("java"), shutil.which("javac")
NO_WEKA = not (JAVA and WEKA_JAR.is_file())
needs_weka = pytest.mark.skipif(
    NO_WEKA,
    reason=f"Weka oracle: needs `java` and {WEKA_JAR} (Debian: apt-get install weka; "
    "or set WEKA_JAR)",
)
#: numeric and nominal attributes; labor and autos have missing values in both kinds
ORACLE_DATASETS = ["zoo", "iris", "crx", "heart_statlog", "labor", "autos", "glass", "vowel"]


# --- (a) hand-computed values, no Weka ------------------------------------------------------
# x = 1, 2, 3.5, 4, NaN with classes 0, 0, 1, 1, 1: p = (1 + 1.5 + 0.5)/3 = 1; class 0 rounds to
# 1, 2 (μ = 1.5, σ = 0.5); class 1 rounds 3.5 → 4 (half to even) and 4 → 4: σ_N = 0 → σ = 1/6.
X_TOY = np.array([1.0, 2.0, 3.5, 4.0, np.nan])
Y_TOY = np.array([0, 0, 1, 1, 1])


def test_precision_is_the_mean_gap_between_distinct_values():
    assert weka_precision(X_TOY) == 1.0
    assert weka_precision(np.array([0.0, 2, 2, 4, 5, 6, 8, np.nan])) == pytest.approx(8 / 5)
    assert weka_precision(np.array([3.0, 3.0, np.nan])) == 0.01  # DEFAULT_NUM_PRECISION
    assert weka_precision(np.array([np.nan])) == 0.01


def test_rounding_is_to_multiples_of_the_precision_halves_to_even():
    np.testing.assert_array_equal(weka_round(np.array([2.5, 3.5, 2.6, -0.5]), 1.0), [2, 4, 3, -0])
    np.testing.assert_allclose(weka_round(np.array([0.26, 0.24]), 0.1), [0.3, 0.2])


def test_mean_and_sd_with_the_n_denominator_and_the_p_over_6_floor():
    assert weka_normal_fit(np.array([1.0, 2.0]), 1.0) == (1.5, 0.5)  # N denominator: 0.5, not 0.707
    assert weka_normal_fit(np.array([3.5, 4.0]), 1.0) == (4.0, 1 / 6)  # constant after rounding
    mean, sd = weka_normal_fit(np.array([1.0, 1.2]), 1.0)  # both round to 1
    assert (mean, sd) == (1.0, 1 / 6)
    mean, sd = weka_normal_fit(np.array([0.0, 1.0]), 6.0)  # sd_N 0 after rounding → p/6 = 1
    assert sd == 1.0
    assert weka_normal_fit(np.array([]), 0.3) == (0.0, 0.3 / 6)  # no values: μ = 0, σ = p/6


def test_model_gives_the_bucket_mass_by_hand():
    model = WekaGaussianModel().fit(X_TOY, Y_TOY, 2)
    assert model.precision_ == 1.0
    np.testing.assert_allclose(model.mean_, [1.5, 4.0])
    np.testing.assert_allclose(model.sd_, [0.5, 1 / 6])
    ll = model.log_likelihood(np.array([1.0, 2.6, np.nan, -2.0, 2.5]))
    # x = 1, class 0: Φ(0) − Φ(−2); class 1: Φ(−15) − Φ(−21) (rounded 1, σ = 1/6)
    assert np.exp(ll[0, 0]) == pytest.approx(0.5 - 0.022750131948179195, rel=1e-14)
    assert np.exp(ll[0, 1]) == pytest.approx(norm.cdf(-15) - norm.cdf(-21), rel=1e-10)
    # x = 2.6 rounds to 3: class 1 Φ(−3) − Φ(−9)
    assert np.exp(ll[1, 1]) == pytest.approx(0.0013498980316301 - 1.1285884059538e-19, rel=1e-12)
    assert ll[2].tolist() == [0.0, 0.0]  # missing: no information
    assert ll[3, 1] == pytest.approx(np.log(1e-75))  # Φ(−33) − Φ(−39) ≈ 1e-239 → the 1e-75 floor
    # x = 2.5 rounds to 2 (half to even, not 3): class 0 Φ(2) − Φ(0)
    assert np.exp(ll[4, 0]) == pytest.approx(norm.cdf(2) - 0.5, rel=1e-14)


def test_upper_tail_mass_is_the_difference_weka_takes():
    # Φ(zU) − Φ(zL) with both near 1 is 0 in double precision (Weka's subtraction), then 1e-75
    assert weka_log_prob(np.array([40.0]), 0.0, 1.0, 1.0)[0] == pytest.approx(np.log(1e-75))


def test_class_without_values_gets_mean_zero_and_the_floor():
    model = WekaGaussianModel().fit(np.array([1.0, 3.0, np.nan]), np.array([0, 0, 1]), 2)
    assert model.precision_ == 2.0
    np.testing.assert_allclose(model.mean_, [2.0, 0.0])  # rounded 0 and 4 → μ 2, σ 2
    np.testing.assert_allclose(model.sd_, [2.0, 1 / 3])


def test_nb_weka_by_hand():
    X = pd.DataFrame(
        {"a": X_TOY, "b": pd.Categorical(["x", "y", None, "y", "x"], categories=["x", "y"])}
    )
    model = LaplaceNaiveBayes(gaussian="weka").fit(X, Y_TOY)
    test = pd.DataFrame(
        {"a": [np.nan, 3.0], "b": pd.Categorical(["x", "y"], categories=["x", "y"])}
    )
    proba = model.predict_proba(test)
    # row 0: a missing; prior (2+1)/7, (3+1)/7 × P(x | 0) = 2/4, P(x | 1) = 2/4 (one b missing)
    np.testing.assert_allclose(proba[0], [3 / 7, 4 / 7], rtol=1e-14)
    # row 1: a = 3: class 0 Φ(4) − Φ(2), class 1 Φ(−3) − Φ(−9); b = y: 2/4 and 2/4
    s0 = 3 / 7 * (norm.cdf(4) - norm.cdf(2)) * 0.5
    s1 = 4 / 7 * (norm.cdf(-3) - norm.cdf(-9)) * 0.5
    np.testing.assert_allclose(proba[1], [s0 / (s0 + s1), s1 / (s0 + s1)], rtol=1e-12)


def test_bma_weka_marginals_and_evidence():
    model = WekaGaussianModel().fit(X_TOY, Y_TOY, 2)
    pooled = marginal_model(model, X_TOY, "pooled", np.log([0.5, 0.5]))
    assert isinstance(pooled, MarginalWekaGaussian)
    # all values rounded: 1, 2, 4, 4 → μ = 2.75, σ_N = sqrt(1.6875)
    assert pooled.mean_ == 2.75 and pooled.sd_ == pytest.approx(np.sqrt(1.6875))
    expected = weka_log_prob(X_TOY[:4], 2.75, np.sqrt(1.6875), 1.0).sum()
    assert pooled.evidence_ == pytest.approx(expected, rel=1e-14)
    X = X_TOY[:, None]
    bma = BMANaiveBayes(gaussian="weka", gamma=1.0).fit(X, Y_TOY)
    s1 = model.log_likelihood(X_TOY)[np.arange(5), Y_TOY].sum()
    np.testing.assert_allclose(bma.evidence_[0], [expected, s1], rtol=1e-13)
    mixture = BMANaiveBayes(gaussian="weka", marginal="mixture").fit(X, Y_TOY)
    assert np.all(np.isfinite(mixture.predict_proba(X)))


def test_bma_weka_tends_to_nb_weka_as_gamma_goes_to_zero():
    ds = load_dataset("zoo")
    bma = BMANaiveBayes(gaussian="weka", gamma=1e-12).fit(ds.X, ds.y)
    nb = LaplaceNaiveBayes(gaussian="weka").fit(ds.X, ds.y)
    np.testing.assert_allclose(bma.predict_proba(ds.X), nb.predict_proba(ds.X), atol=1e-9)


def test_registry_default_gaussian_is_weka_and_density_a_named_variant():
    """The registry's NB and BMA of wu2015 use Weka's Gaussian (the authors' code is Weka-based);
    the density is an explicit override, which names the cell (its file stem) and its hash."""
    from repro.registry import method_spec

    for method in ("nb_laplace", "bma_nb", "bma_nb_tuned"):
        assert method_spec(method).params["gaussian"] == "weka"
        assert method_spec(method).defaults["gaussian"] == "weka"
        assert method_spec(method, gaussian="density").params["gaussian"] == "density"
    assert make_method("nb_laplace").gaussian == "weka"
    assert make_method("bma_nb").gaussian == "weka"
    assert make_method("bma_nb_tuned").params == {"gaussian": "weka"}
    assert make_method("bma_nb_tuned", gaussian="density").params == {"gaussian": "density"}
    # the estimators themselves keep the density as their default
    ds = load_dataset("iris")
    a = LaplaceNaiveBayes().fit(ds.X, ds.y).predict_proba(ds.X)
    b = LaplaceNaiveBayes(gaussian="density").fit(ds.X, ds.y).predict_proba(ds.X)
    np.testing.assert_array_equal(a, b)
    with pytest.raises(ValueError, match="gaussian must be one of"):
        LaplaceNaiveBayes(gaussian="kernel").fit(ds.X, ds.y)


def test_density_variant_cell_is_named_and_hashed_apart_from_the_default():
    """A cell of the density reading never passes for the default one (nor the reverse): its
    stem carries ``gaussian=density`` and its configuration hash differs."""
    from repro.datasets import load_dataset as load
    from repro.evaluation.cells import Cell
    from repro.evaluation.protocols import get_protocol
    from repro.registry import method_spec

    # conf/protocol/resample.yaml, the outer splits of wu2015_table2
    resample = {"name": "resample", "kind": "holdout", "n_repeats": 20, "test_size": 0.1}
    ds, protocol = load("iris"), get_protocol(resample)
    cells = {}
    for gaussian in ("weka", "density"):
        spec = method_spec("bma_nb_tuned", gaussian=gaussian)
        cells[gaussian] = Cell(
            spec.id, spec.estimator, spec.params, ds, protocol, default_params=spec.defaults
        )
    assert cells["weka"].stem == "bma_nb_tuned"
    assert cells["density"].stem == "bma_nb_tuned__gaussian=density"
    assert cells["weka"].hash != cells["density"].hash


def test_tuned_bma_passes_gaussian_to_its_inner_method():
    from repro.registry import method_spec

    spec = method_spec("bma_nb_tuned", gaussian="weka")
    assert spec.params["gaussian"] == "weka"
    assert spec.estimator.params == {"gaussian": "weka"}
    ds = load_dataset("zoo")
    tuned = spec.estimator.set_params(grid={"gamma": [0.5, 1.0]}, inner_cv=2).fit(ds.X, ds.y)
    assert tuned.best_estimator_.gaussian == "weka"
    with pytest.raises(ValueError, match=r"Unknown parameter\(s\) \['gaussian'\]"):
        method_spec("lr_tuned", gaussian="weka")


def test_weka_gaussian_fixes_zoo():
    """zoo's legs is constant within some classes: the default density gives those classes a
    near-zero variance (train error ~15%); Weka's p/6 floor keeps them reasonable."""
    ds = load_dataset("zoo")
    weka = LaplaceNaiveBayes(gaussian="weka").fit(ds.X, ds.y)
    density = LaplaceNaiveBayes().fit(ds.X, ds.y)
    # 99 of 101 right: the two errors are mammals with fins and no legs taken for fish, as
    # Weka's own NaiveBayes predicts them (test_weka_training_predictions_on_zoo); 86 of 101
    pred = weka.predict(ds.X)
    assert np.flatnonzero(pred != ds.y).tolist() == [19, 66]
    assert ds.y[[19, 66]].tolist() == ["mammal"] * 2 and pred[[19, 66]].tolist() == ["fish"] * 2
    assert int(np.sum(density.predict(ds.X) == ds.y)) == 86


# --- (b) Weka as the oracle --------------------------------------------------------------------
def _quote(value) -> str:
    text = str(value).replace("\\", "\\\\").replace("'", "\\'")
    return f"'{text}'"


def write_arff(path: Path, X: pd.DataFrame, y, classes) -> None:
    """A minimal ARFF writer: numeric columns ``numeric`` (shortest round-trip decimal), nominal
    columns with their declared categories, the class last with ``classes`` in that order,
    ``?`` for missing values."""
    lines = ["@relation repro"]
    kinds = []
    for name in X.columns:
        col = X[name]
        if isinstance(col.dtype, pd.CategoricalDtype):
            values = ",".join(_quote(c) for c in col.cat.categories)
            lines.append(f"@attribute {_quote(name)} {{{values}}}")
            kinds.append(True)
        else:
            lines.append(f"@attribute {_quote(name)} numeric")
            kinds.append(False)
    lines.append(f"@attribute 'repro_class' {{{','.join(_quote(c) for c in classes)}}}")
    lines.append("@data")
    for row, label in zip(X.itertuples(index=False), y):
        cells = []
        for value, nominal in zip(row, kinds):
            if pd.isna(value):
                cells.append("?")
            else:
                cells.append(_quote(value) if nominal else repr(float(value)))
        cells.append(_quote(label))
        lines.append(",".join(cells))
    path.write_text("\n".join(lines) + "\n")


def split(name: str):
    """Deterministic split: every third instance is a test instance; the classes of the test
    part are those of the training part. Returns (Xtr, ytr, Xte, yte, classes)."""
    ds = load_dataset(name)
    y = np.asarray(ds.y).astype(str)
    test = np.arange(y.size) % 3 == 0
    classes = np.unique(y[~test])
    test &= np.isin(y, classes)
    train = ~(np.arange(y.size) % 3 == 0)
    return ds.X[train], y[train], ds.X[test], y[test], classes


def weka_cli_distribution(train: Path, test: Path) -> np.ndarray:
    """Weka's printed class distributions (``-p 0 -distribution``: 3 decimals), one row per
    test instance, columns in the declared class order."""
    cmd = [JAVA, "-cp", str(WEKA_JAR), "weka.classifiers.bayes.NaiveBayes"]
    cmd += ["-t", str(train), "-T", str(test), "-p", "0", "-distribution"]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=True).stdout
    rows = []
    for line in out.splitlines():
        if re.match(r"^\s*\d+\s", line):
            rows.append([float(v.lstrip("*")) for v in line.split()[-1].split(",")])
    return np.array(rows)


DRIVER = """
import weka.classifiers.bayes.NaiveBayes;
import weka.core.Instances;
import java.io.BufferedReader;
import java.io.FileReader;

public class WekaNBProba {
  public static void main(String[] args) throws Exception {
    Instances train = new Instances(new BufferedReader(new FileReader(args[0])));
    Instances test = new Instances(new BufferedReader(new FileReader(args[1])));
    train.setClassIndex(train.numAttributes() - 1);
    test.setClassIndex(test.numAttributes() - 1);
    NaiveBayes nb = new NaiveBayes();
    nb.buildClassifier(train);
    for (int i = 0; i < test.numInstances(); i++) {
      double[] d = nb.distributionForInstance(test.instance(i));
      StringBuilder sb = new StringBuilder();
      for (int j = 0; j < d.length; j++) sb.append(j > 0 ? " " : "").append(Double.toString(d[j]));
      System.out.println(sb);
    }
  }
}
"""


@pytest.fixture(scope="module")
def driver(tmp_path_factory):
    """The compiled full-precision driver (skips without ``javac``)."""
    if NO_WEKA or not JAVAC:
        pytest.skip("full-precision Weka oracle: needs `javac` (a JDK) besides java and weka.jar")
    where = tmp_path_factory.mktemp("weka_driver")
    (where / "WekaNBProba.java").write_text(DRIVER)
    subprocess.run(
        [JAVAC, "-cp", str(WEKA_JAR), "-d", str(where), str(where / "WekaNBProba.java")],
        check=True,
        capture_output=True,
        timeout=120,
    )
    return where


#: autos declares nominal values that a training fold never holds: Weka's Laplace tables count
#: them (the ARFF header's values), the package's encoder drops a category unseen at fit (so that
#: unused pandas categories never change a prediction). Until the Weka reading gets an option
#: to keep declared values, the autos case is an expected failure (strict: it flags the fix).
DECLARED_VALUES_CONFLICT = pytest.mark.xfail(
    strict=True, reason="Weka counts declared but unseen nominal values; the encoder drops them"
)


@pytest.fixture(
    scope="module",
    params=[
        pytest.param(d, marks=DECLARED_VALUES_CONFLICT) if d == "autos" else d
        for d in ORACLE_DATASETS
    ],
)
def case(request, tmp_path_factory):
    name = request.param
    Xtr, ytr, Xte, yte, classes = split(name)
    where = tmp_path_factory.mktemp(f"weka_{name}")
    write_arff(where / "train.arff", Xtr, ytr, classes)
    write_arff(where / "test.arff", Xte, yte, classes)
    ours = LaplaceNaiveBayes(gaussian="weka").fit(Xtr, ytr)
    assert ours.classes_.tolist() == classes.tolist()  # Weka's column order
    return {"name": name, "dir": where, "proba": ours.predict_proba(Xte), "n_test": len(Xte)}


@pytest.mark.oracle
@needs_weka
def test_weka_training_predictions_on_zoo(tmp_path):
    """Weka's NaiveBayes trained and tested on the whole of zoo predicts what ours predicts
    (99 of 101 right)."""
    ds = load_dataset("zoo")
    y = np.asarray(ds.y).astype(str)
    classes = np.unique(y)
    write_arff(tmp_path / "zoo.arff", ds.X, y, classes)
    weka = weka_cli_distribution(tmp_path / "zoo.arff", tmp_path / "zoo.arff")
    assert weka.shape == (101, classes.size)
    ours = LaplaceNaiveBayes(gaussian="weka").fit(ds.X, y).predict(ds.X)
    assert classes[weka.argmax(axis=1)].tolist() == ours.tolist()
    assert np.flatnonzero(classes[weka.argmax(axis=1)] != y).tolist() == [19, 66]


@pytest.mark.oracle
@needs_weka
def test_nb_weka_matches_weka_printed_distribution(case):
    weka = weka_cli_distribution(case["dir"] / "train.arff", case["dir"] / "test.arff")
    assert weka.shape == case["proba"].shape == (case["n_test"], weka.shape[1])
    diff = np.abs(case["proba"] - weka).max()
    assert diff <= 0.5e-3 + 1e-12, (case["name"], diff)


@pytest.mark.oracle
@needs_weka
def test_nb_weka_matches_weka_to_full_precision(case, driver):
    out = subprocess.run(
        [JAVA, "-cp", f"{WEKA_JAR}{os.pathsep}{driver}", "WekaNBProba"]
        + [str(case["dir"] / "train.arff"), str(case["dir"] / "test.arff")],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    weka = np.array([[float(v) for v in line.split()] for line in out.splitlines() if line])
    assert weka.shape == case["proba"].shape
    np.testing.assert_allclose(case["proba"], weka, rtol=0, atol=1e-9, err_msg=case["name"])
