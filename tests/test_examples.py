"""The examples gallery (``examples/``, executed by sphinx-gallery when the site is built): each
script runs here in a subprocess from an empty temporary working directory (a hang is stopped
after 300 s; their speed is no test's business: 8 to 25 s alone, over 90 s on a loaded machine),
writes nothing into the checkout nor into its working directory, and the numbers it prints are
checked against an independent computation (the committed records and report, a cell
recomputed with ``repro.evaluate``, scikit-learn's mutual information, a refit)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import ROOT
from scipy.stats import entropy
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.metrics import mutual_info_score
from sklearn.model_selection import train_test_split
from sklearn.pipeline import Pipeline

import repro
from repro.evaluation.records import read_records
from repro.registry import display_name
from repro.stats import average_ranks, friedman, metric_table, signed_rank

EXAMPLES = ROOT / "examples"
TABLE3 = ROOT / "results" / "boulle2007_table3"
#: where an example could write by mistake: beside itself, into the records it reads, or where
#: ``python -m repro`` and ``repro.evaluate(..., results_dir=...)`` would put its cells when run
#: from the checkout (the rest of results/ is left out: other runs may write there meanwhile)
WATCHED = [
    EXAMPLES,
    TABLE3,
    ROOT / "results" / "your_method",
    ROOT / "results" / "default" / "iris",
    ROOT / "results" / "default" / "wine",
]


def checkout_files() -> dict[str, float]:
    """Modification time of every file in the :data:`WATCHED` folders."""
    return {
        str(p.relative_to(ROOT)): p.stat().st_mtime
        for folder in WATCHED
        for p in folder.rglob("*")
        if p.is_file()
    }


def run_example(name: str, tmp_path: Path) -> tuple[str, dict | None]:
    """Runs ``examples/<name>.py`` with ``python`` from an empty folder (matplotlib's Agg
    backend); returns its stdout and the summary it writes when asked for one."""
    work, summary = tmp_path / "work", tmp_path / "summary.json"
    work.mkdir()
    env = {
        **os.environ,
        "MPLBACKEND": "Agg",
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
        "REPRO_EXAMPLE_SUMMARY": str(summary),
    }
    before = checkout_files()
    proc = subprocess.run(
        [sys.executable, str(EXAMPLES / f"{name}.py")],
        cwd=work, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert list(work.iterdir()) == [], "the example wrote into its working directory"
    assert checkout_files() == before, "the example wrote into the checkout"
    return proc.stdout, json.loads(summary.read_text()) if summary.exists() else None


def test_every_example_is_tested_and_in_gallery_format():
    scripts = sorted(p.stem for p in EXAMPLES.glob("*.py"))
    tested = sorted(re.findall(r'run_example\("(\w+)"', Path(__file__).read_text(encoding="utf-8")))
    assert scripts == tested
    assert (EXAMPLES / "GALLERY_HEADER.rst").is_file()
    for name in scripts:
        text = (EXAMPLES / f"{name}.py").read_text(encoding="utf-8")
        title = re.match(r'"""\n(.+)\n(=+)\n', text)  # a docstring opening with a title
        assert title and len(title[2]) >= len(title[1]), name
        assert "SPEC §" not in text


@pytest.fixture(scope="module")
def table3():
    return read_records(TABLE3)


def cv5_accuracy(method: str, dataset: str) -> float:
    records = repro.evaluate(method, dataset, protocol="cv5", seed=0)
    test = records[(records["split"] == "test") & (records["metric"] == "accuracy")]
    return float(test["value"].mean())


# One test per example (each run once, whatever pytest-xdist's distribution of the tests).


@pytest.mark.slow  # executed at every docs build of .ci/run (sphinx-gallery, -W)
def test_quickstart(tmp_path, table3):
    _, out = run_example("plot_1_quickstart", tmp_path)
    check_quickstart_statistics(out)
    check_quickstart_committed_table3(out, table3)


def check_quickstart_statistics(out: dict) -> None:
    """The cross-validated table, the Friedman statistics and the average ranks."""
    accuracy = pd.DataFrame(out["accuracy"])  # data sets x methods, as the example's table
    assert list(accuracy.columns) == ["nb_gaussian", "nb", "snb_cma"]
    assert len(accuracy) == 8
    # one cell of the table recomputed here: the folds depend only on (seed, data set)
    assert accuracy.loc["iris", "nb_gaussian"] == pytest.approx(
        cv5_accuracy("nb_gaussian", "iris"), abs=1e-12
    )
    table = accuracy.rename(columns=display_name)
    fr = friedman(table)
    assert out["friedman_chi2"] == pytest.approx(fr["chi2"], rel=1e-12)
    assert out["ff"] == pytest.approx(fr["ff"], rel=1e-12)
    ranks = average_ranks(table)
    assert out["average_ranks"] == pytest.approx(ranks.to_dict(), rel=1e-12)
    assert sum(out["average_ranks"].values()) == pytest.approx(6.0)  # 1 + 2 + 3


def check_quickstart_committed_table3(out: dict, table3: pd.DataFrame) -> None:
    """What the example read from results/boulle2007_table3."""
    auc = metric_table(table3, "auc")
    assert out["table3_n_datasets"] == len(auc) == 25
    assert out["table3_mean_auc"] == pytest.approx(auc.mean().to_dict(), rel=1e-12)
    assert out["table3_snb_cma_better"] == int((auc["snb_cma"] > auc["nb"]).sum())
    # the committed report (results/boulle2007_table3/table3.md) prints the same mean AUC
    report = (TABLE3 / "table3.md").read_text()
    row = re.search(r"^\| SNB\(CMA\) \| (.*) \|$", report, re.MULTILINE).group(1).split(" | ")
    assert f"{out['table3_mean_auc']['snb_cma']:.4f}" == row[3]  # ACC Mean, W/L, Rank, AUC Mean


#: the six smallest data sets of boulle2007 Table 3 (conf/experiment/boulle2007_table3.yaml)
SMALLEST_TABLE3 = ["iris", "wine", "sonar", "glass", "heart_statlog", "ionosphere"]


@pytest.mark.slow  # executed at every docs build of .ci/run (sphinx-gallery, -W)
def test_your_method(tmp_path):
    _, out = run_example("plot_2_your_method", tmp_path)
    check_your_method_table(out)
    check_your_method_weights(out)
    assert not Path(out["workdir"]).exists()  # its temporary folder removed


def check_your_method_table(out: dict) -> None:
    """The paper-layout table of the new method against SNB(CMA) and FNB."""
    assert out["datasets"] == SMALLEST_TABLE3
    assert out["table_index"] == ["NB(MI)", "SNB(CMA)", "FNB"]
    accuracy = pd.DataFrame(out["accuracy"])
    assert sorted(accuracy.index) == sorted(SMALLEST_TABLE3)
    for method in ("snb_cma", "fnb"):  # the competitors' cells recomputed here
        assert accuracy.loc["iris", method] == pytest.approx(
            cv5_accuracy(method, "iris"), abs=1e-12
        )
    # Mean = mean over the data sets of the fold means; ranks of three methods sum to 6
    for method, label in zip(["nb_mi", "snb_cma", "fnb"], out["table_index"], strict=True):
        assert out["mean_accuracy"][label] == pytest.approx(accuracy[method].mean(), rel=1e-12)
    table = accuracy[["nb_mi", "snb_cma", "fnb"]].set_axis(out["table_index"], axis=1)
    assert out["ranks"]["accuracy"] == pytest.approx(average_ranks(table).to_dict(), rel=1e-12)
    for ranks in out["ranks"].values():
        assert sum(ranks.values()) == pytest.approx(6.0)
    assert out["wl_accuracy"]["NB(MI)"] == ""  # the reference
    for label in ("SNB(CMA)", "FNB"):
        wins, losses = map(int, out["wl_accuracy"][label].split("/"))
        assert 0 <= wins + losses <= len(SMALLEST_TABLE3)


def check_your_method_weights(out: dict) -> None:
    """w_k = I(X_k; Y)/H(Y) over the MODL parts, here by scikit-learn's plug-in estimate on the
    parts of the ``nb`` method (the example's estimate uses the m-estimates: close, not equal)."""
    wine = repro.load_dataset("wine")
    nb = repro.make_method("nb").fit(wine.X, wine.y)
    Z = nb.encoder_.transform(wine.X)
    y = np.searchsorted(nb.classes_, wine.y)
    expected = [
        mutual_info_score(y, model.codes(Z[:, k])) / entropy(np.bincount(y))
        for k, model in enumerate(nb.variables_)
    ]
    weights = np.array(out["wine_weights"])
    assert weights == pytest.approx(expected, abs=0.01)
    assert np.all((weights >= 0) & (weights <= 1))
    assert out["wine_levels"] == pytest.approx(nb.levels_.tolist(), rel=1e-9)
    assert int(np.argmax(weights)) == int(np.argmax(nb.levels_))


def test_sklearn_pipeline(tmp_path):
    """The best pipeline's held-out accuracy equals that of the same pipeline refitted here."""
    stdout, _ = run_example("plot_3_sklearn_pipeline", tmp_path)
    k, method = re.search(r"^best: (\w+) (\w+)$", stdout, re.MULTILINE).groups()
    printed = float(re.search(r"^held-out accuracy ([\d.]+)$", stdout, re.MULTILINE)[1])
    ds = repro.load_dataset("breast_cancer")
    X_train, X_test, y_train, y_test = train_test_split(
        ds.X, ds.y, test_size=0.3, stratify=ds.y, random_state=0
    )
    ids = {"MAPSelectiveNaiveBayes": "snb_map", "CMASelectiveNaiveBayes": "snb_cma"}
    refit = Pipeline(
        [
            ("filter", SelectKBest(f_classif, k=k if k == "all" else int(k))),
            ("snb", repro.make_method(ids[method])),
        ]
    ).fit(X_train, y_train)
    assert printed == pytest.approx(refit.score(X_test, y_test), abs=5e-4)  # printed with .3f


def test_bayesian_comparison(tmp_path, table3):
    """The three printed probabilities are baycomp's for the committed Table 3, same seed."""
    stdout, _ = run_example("plot_4_bayesian_comparison", tmp_path)
    found = re.search(
        r"P\(SNB\(CMA\) better\) = ([\d.]+), P\(equivalent\) = ([\d.]+), P\(NB better\) = ([\d.]+)",
        stdout,
    )
    printed = [float(p) for p in found.groups()]
    accuracy = metric_table(table3, "accuracy")
    expected = signed_rank(accuracy["snb_cma"], accuracy["nb"], 0.01, seed=0, nsamples=10_000)
    assert printed == pytest.approx(list(expected), abs=5e-4)
    assert sum(printed) == pytest.approx(1.0, abs=2e-3)


@pytest.mark.slow  # executed at every docs build of .ci/run (sphinx-gallery, -W)
def test_parameter_sweep(tmp_path):
    """Four configurations × two data sets: eight cells computed, each labelled apart."""
    stdout, _ = run_example("plot_5_parameter_sweep", tmp_path)
    assert re.search(r"^sweep: 8 cells: 8 computed, 0 read, 0 failed", stdout, re.MULTILINE)
    labels = ["nb_ef__n_bins=10", "nb_ef__n_bins=20", "nb_ef__n_bins=3", "nb_ef__n_bins=5"]
    assert str(labels) in stdout


def test_what_a_model_learned(tmp_path):
    """The printed top variable is the summary's, and the Shapley values of a row add up to its
    log-odds minus their training mean (both printed with six decimals)."""
    stdout, _ = run_example("plot_6_what_a_model_learned", tmp_path)
    ds = repro.load_dataset("breast_cancer")
    X_train, _, y_train, _ = train_test_split(
        ds.X, ds.y, test_size=0.3, stratify=ds.y, random_state=0
    )
    top = repro.make_method("snb_cma").fit(X_train, y_train).summary().iloc[0]
    assert f"most important: {top['variable']} ({top['n_parts']} intervals:" in stdout
    total = float(re.search(r"^sum of the Shapley values (\S+)$", stdout, re.MULTILINE)[1])
    log_odds = float(re.search(r"^log-odds minus their training mean (\S+)$", stdout, re.M)[1])
    assert total == pytest.approx(log_odds, abs=2e-6) and abs(total) > 0.1
