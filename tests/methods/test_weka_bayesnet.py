"""``aode``, ``tan`` and ``hnb`` against Weka 3.6 itself, on the same discrete codes.

For each bundled data set, a deterministic split (every third instance is a test instance); the
nominal columns keep their categories (a test category unseen in training is missing), the
numeric ones are cut by the package's MODL discretization fitted on the training part. Both sides
get the SAME codes: ours as nominal columns with ``preprocessing="raw"``, Weka as an ARFF file
whose nominal attributes declare exactly the codes seen in training (Weka counts every declared
value). Weka's classifiers:

- ``weka.classifiers.bayes.AODE`` (defaults: ``-F 1``, Laplace estimates);
- ``weka.classifiers.bayes.BayesNet -D -Q weka.classifiers.bayes.net.search.local.TAN -- -S
  ENTROPY -E weka.classifiers.bayes.net.estimate.SimpleEstimator -- -A 0.5`` (the ENTROPY score:
  the Chow–Liu weights are the conditional mutual information);
- ``weka.classifiers.bayes.HNB``.

Weka's HNB refuses missing values and its BayesNet replaces them by the training mode (ours skip
them), so TAN and HNB are compared on the data sets without missing values; AODE skips them as
ours does and is compared on all. A 40-line Java driver prints ``distributionForInstance`` with
all digits (|diff| ≤ 1e-9); without ``javac``, Weka's ``-p 0 -distribution`` output (3 decimals:
|diff| ≤ 0.5e-3). Skipped when ``java`` or the jar (``$WEKA_JAR``, default
``/usr/share/java/weka.jar``) is absent.
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

from repro.datasets import load_dataset
from repro.methods.baselines.aode import AODE
from repro.methods.baselines.discrete import model_codes, no_table
from repro.methods.baselines.hnb import HNB
from repro.methods.baselines.tan import TAN
from repro.methods.core.encoding import TabularEncoder
from repro.preprocessing.modl.estimators import MODLIntervalPartition
from repro.preprocessing.variables import PartitionModel

WEKA_JAR = Path(os.environ.get("WEKA_JAR", "/usr/share/java/weka.jar"))
JAVA, JAVAC = shutil.which("java"), shutil.which("javac")
NO_WEKA = not (JAVA and WEKA_JAR.is_file())
needs_weka = pytest.mark.skipif(
    NO_WEKA,
    reason=f"Weka oracle: needs `java` and {WEKA_JAR} (Debian: apt-get install weka; "
    "or set WEKA_JAR)",
)
pytestmark = [pytest.mark.oracle, needs_weka]

#: Weka's classifier and options for each of our methods
WEKA = {
    "aode": ("weka.classifiers.bayes.AODE", ""),
    "tan": (
        "weka.classifiers.bayes.BayesNet",
        "-D -Q weka.classifiers.bayes.net.search.local.TAN -- -S ENTROPY "
        "-E weka.classifiers.bayes.net.estimate.SimpleEstimator -- -A 0.5",
    ),
    "hnb": ("weka.classifiers.bayes.HNB", ""),
}
OURS = {"aode": AODE, "tan": TAN, "hnb": HNB}
#: data set → methods compared on it (TAN and HNB: no missing values, see the docstring)
CASES = {
    "zoo": ("aode", "tan", "hnb"),  # 7 classes, one numeric column (legs)
    "iris": ("aode", "tan", "hnb"),  # all numeric: MODL intervals
    "tic_tac_toe": ("aode", "tan", "hnb"),  # 958 rows, 9 attributes of 3 values
    "zoo+copies": ("aode", "tan", "hnb"),  # zoo with 3 columns repeated: exact ties in the tree
    "vote": ("aode",),  # 392 missing values
    "breast_cancer_ljubljana": ("aode",),  # 9 missing values
}

DRIVER = """
import weka.classifiers.Classifier;
import weka.core.Instances;
import weka.core.Utils;
import java.io.BufferedReader;
import java.io.FileReader;

public class WekaBayesNetProba {
  // args: train.arff test.arff, then pairs (classifier class, options string)
  public static void main(String[] args) throws Exception {
    Instances train = new Instances(new BufferedReader(new FileReader(args[0])));
    Instances test = new Instances(new BufferedReader(new FileReader(args[1])));
    train.setClassIndex(train.numAttributes() - 1);
    test.setClassIndex(test.numAttributes() - 1);
    for (int m = 2; m + 1 < args.length; m += 2) {
      Classifier model = Classifier.forName(args[m], Utils.splitOptions(args[m + 1]));
      model.buildClassifier(train);
      System.out.println("== " + args[m]);
      for (String line : model.toString().split("\\n")) System.out.println("# " + line);
      for (int i = 0; i < test.numInstances(); i++) {
        double[] d = model.distributionForInstance(test.instance(i));
        StringBuilder sb = new StringBuilder();
        for (int j = 0; j < d.length; j++) sb.append(j > 0 ? " " : "").append(d[j]);
        System.out.println(sb);
      }
    }
  }
}
"""


def discrete_split(name: str):
    """(train codes, test codes, y train, y test, classes, number of codes per column): codes
    −1 for missing; nominal columns as the encoder's category codes (unseen → −1), numeric
    ones as MODL intervals of the training part. "<name>+copies": columns 0, 1 and 12 appended
    again (equal conditional mutual information with every other column: ties)."""
    if name.endswith("+copies"):
        train, test, ytr, yte, classes, n_codes = discrete_split(name.removesuffix("+copies"))
        copies = [0, 1, 12]
        n_codes = list(n_codes) + [n_codes[k] for k in copies]
        return (
            np.hstack([train, train[:, copies]]),
            np.hstack([test, test[:, copies]]),
            ytr,
            yte,
            classes,
            n_codes,
        )
    ds = load_dataset(name)
    y = np.asarray(ds.y).astype(str)
    test = np.arange(y.size) % 3 == 0
    classes = np.unique(y[~test])
    Xtr, ytr = ds.X[~test], y[~test]
    keep = np.isin(y[test], classes)
    Xte, yte = ds.X[test][keep], y[test][keep]
    encoder = TabularEncoder()
    Ztr, Zte = encoder.fit_transform(Xtr), encoder.transform(Xte)
    y_idx = np.searchsorted(classes, ytr)
    train_codes, test_codes, n_codes = [], [], []
    for k in range(Ztr.shape[1]):
        if encoder.categorical_[k]:
            n = len(encoder.categories_[k])
            tr, te = (np.where(np.isnan(z) | (z < 0), -1, z).astype(int) for z in (Ztr, Zte))
            train_codes.append(tr[:, k])
            test_codes.append(te[:, k])
        else:
            model = PartitionModel(
                MODLIntervalPartition("paper", "optimized_greedy", Ztr.shape[1]), no_table
            )
            model.fit(Ztr[:, k], y_idx, classes.size)
            n = model.n_parts_
            train_codes.append(model_codes(model, Ztr[:, k]))
            test_codes.append(model_codes(model, Zte[:, k]))
        n_codes.append(n)
    return (np.stack(train_codes, 1), np.stack(test_codes, 1), ytr, yte, classes, n_codes)


def as_frame(codes: np.ndarray, n_codes) -> pd.DataFrame:
    """Nominal columns "a0", "a1", … with categories "0".."n−1" (NaN for −1)."""
    columns = {}
    for k, n in enumerate(n_codes):
        labels = np.array([str(v) for v in range(n)] + [None], dtype=object)
        columns[f"a{k}"] = pd.Categorical(labels[codes[:, k]], categories=labels[:-1].tolist())
    return pd.DataFrame(columns)


def write_arff(path: Path, codes: np.ndarray, y, classes, n_codes) -> None:
    lines = ["@relation repro"]
    for k, n in enumerate(n_codes):
        lines.append(f"@attribute a{k} {{{','.join(str(v) for v in range(n))}}}")
    lines.append(f"@attribute class {{{','.join(repr(str(c)) for c in classes)}}}")
    lines.append("@data")
    for row, label in zip(codes, y):
        cells = ["?" if v < 0 else str(v) for v in row]
        lines.append(",".join(cells + [repr(str(label))]))
    path.write_text("\n".join(lines) + "\n")


@pytest.fixture(scope="module")
def driver(tmp_path_factory):
    """The compiled full-precision driver, or None without ``javac`` (then the CLI output)."""
    if NO_WEKA or not JAVAC:
        return None
    where = tmp_path_factory.mktemp("weka_bayesnet_driver")
    (where / "WekaBayesNetProba.java").write_text(DRIVER)
    subprocess.run(
        [JAVAC, "-cp", str(WEKA_JAR), "-d", str(where), str(where / "WekaBayesNetProba.java")],
        check=True,
        capture_output=True,
        timeout=120,
    )
    return where


def weka_cli(train: Path, test: Path, classifier: str, options: str) -> np.ndarray:
    """Weka's printed class distributions (``-p 0 -distribution``: 3 decimals)."""
    cmd = [JAVA, "-cp", str(WEKA_JAR), classifier, "-t", str(train), "-T", str(test)]
    cmd += ["-p", "0", "-distribution"] + options.split()
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=True).stdout
    rows = [
        [float(v.lstrip("*")) for v in line.split()[-1].split(",")]
        for line in out.splitlines()
        if re.match(r"^\s*\d+\s", line)
    ]
    return np.array(rows)


@pytest.fixture(scope="module", params=list(CASES))
def case(request, tmp_path_factory, driver):
    """Ours and Weka's test-set probabilities for every method compared on the data set."""
    name = request.param
    train, test, ytr, yte, classes, n_codes = discrete_split(name)
    where = tmp_path_factory.mktemp(f"weka_bn_{name}")
    write_arff(where / "train.arff", train, ytr, classes, n_codes)
    write_arff(where / "test.arff", test, yte, classes, n_codes)
    methods = CASES[name]
    weka, tolerance = {}, 1e-9
    if driver is not None:
        args = [str(where / "train.arff"), str(where / "test.arff")]
        for method in methods:
            args += list(WEKA[method])
        out = subprocess.run(
            [JAVA, "-cp", f"{WEKA_JAR}{os.pathsep}{driver}", "WekaBayesNetProba", *args],
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        ).stdout
        blocks = out.split("== ")[1:]
        for method, block in zip(methods, blocks):
            lines = [line for line in block.splitlines()[1:] if line]
            weka[method] = np.array(
                [[float(v) for v in ln.split()] for ln in lines if ln[0] != "#"]
            )
            if method == "tan":  # "# a3(2): class a0": attribute 3 has the parent 0
                found = (re.match(r"# a(\d+)\(\d+\): class(?: a(\d+))?", ln) for ln in lines)
                tree = {int(m[1]): int(m[2]) if m[2] else -1 for m in found if m}
                weka["tan_parents"] = [tree[k] for k in range(len(n_codes))]
    else:
        tolerance = 0.5e-3 + 1e-12
        for method in methods:
            weka[method] = weka_cli(where / "train.arff", where / "test.arff", *WEKA[method])
    ours, tree = {}, None
    Xtr, Xte = as_frame(train, n_codes), as_frame(test, n_codes)
    for method in methods:
        model = OURS[method](preprocessing="raw").fit(Xtr, ytr)
        assert model.classes_.tolist() == classes.tolist()  # Weka's column order
        assert model.n_values_.tolist() == list(n_codes)  # every declared code seen in training
        ours[method] = model.predict_proba(Xte)
        if method == "tan":
            tree = model.parents_.tolist()
    return {"name": name, "weka": weka, "ours": ours, "tolerance": tolerance, "tree": tree}


@pytest.mark.parametrize("method", list(OURS))
def test_probabilities_agree_with_weka(case, method):
    if method not in case["weka"]:
        pytest.skip(f"{method} is not compared on {case['name']} (missing values)")
    weka, ours = case["weka"][method], case["ours"][method]
    assert weka.shape == ours.shape
    diff = float(np.abs(weka - ours).max())
    assert diff <= case["tolerance"], (case["name"], method, diff)


def test_tan_tree_is_wekas(case):
    """The spanning tree and its directions are Weka's (printed by the driver), ties included
    (tic_tac_toe's symmetric squares have equal conditional mutual information)."""
    if "tan_parents" not in case["weka"]:
        pytest.skip("TAN not compared here, or no javac (the CLI output prints no tree)")
    assert case["tree"] == case["weka"]["tan_parents"]
