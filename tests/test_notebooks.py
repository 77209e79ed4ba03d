"""The notebooks of ``notebooks/``: committed without outputs, and executed headless (nbclient) on
small data in under a minute each, with their printed numbers checked against an independent
computation (the committed records and report, a cell recomputed with ``repro.evaluate``,
scikit-learn's mutual information)."""

from __future__ import annotations

import json
import os
import re
import sys
import time
from pathlib import Path

import nbformat
import numpy as np
import pandas as pd
import pytest
from conftest import ROOT
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager
from nbclient import NotebookClient
from scipy.stats import entropy
from sklearn.metrics import mutual_info_score

import repro
from repro.evaluation.records import read_records
from repro.registry import display_name
from repro.stats import average_ranks, friedman, metric_table

NOTEBOOKS = ROOT / "notebooks"
#: the budget of one notebook on one core (they take about 15 s)
MAX_SECONDS = 60


def test_notebooks_are_committed_valid_and_without_outputs():
    paths = sorted(NOTEBOOKS.glob("*.ipynb"))
    assert {"quickstart.ipynb", "your_method.ipynb"} <= {p.name for p in paths}
    for path in paths:
        nb = nbformat.read(path, as_version=4)
        nbformat.validate(nb)
        code = [cell for cell in nb.cells if cell.cell_type == "code"]
        assert code, path
        for cell in code:
            assert cell.outputs == [], f"{path.name}: a cell has outputs (strip them)"
            assert cell.execution_count is None, f"{path.name}: a cell has an execution count"
        assert nb.metadata["kernelspec"]["name"] == "python3"


def kernel_manager() -> KernelManager:
    """The "python3" kernel of ipykernel itself, run by this interpreter (``sys.executable``).

    ``KernelSpecManager(kernel_dirs=[])`` looks in no folder, so that a user's or a system's
    kernel spec named python3 (another interpreter) is not picked; jupyter_client then falls back
    on ipykernel's native spec, ``[sys.executable, -m, ipykernel_launcher, ...]``: the kernel
    runs in the environment of the tests, wherever ``pip install -e ".[dev]"`` put it."""
    specs = KernelSpecManager(kernel_dirs=[])
    assert specs.get_kernel_spec("python3").argv[0] == sys.executable
    return KernelManager(kernel_name="python3", kernel_spec_manager=specs)


def execute(name: str):
    """Executes ``notebooks/<name>.ipynb`` (working directory ``notebooks/``, matplotlib's Agg
    backend); returns the executed notebook and its wall time in seconds."""
    nb = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
    before = sorted(p.relative_to(ROOT) for p in NOTEBOOKS.rglob("*"))
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    with pytest.MonkeyPatch.context() as mp:  # the kernel inherits this environment
        mp.setenv("MPLBACKEND", "Agg")
        mp.setenv("PYTHONPATH", path)
        client = NotebookClient(
            nb,
            km=kernel_manager(),
            timeout=120,
            kernel_name="python3",
            resources={"metadata": {"path": str(NOTEBOOKS)}},
        )
        start = time.perf_counter()
        client.execute()
        seconds = time.perf_counter() - start
    after = sorted(p.relative_to(ROOT) for p in NOTEBOOKS.rglob("*"))
    assert after == before, "the notebook wrote into notebooks/"
    assert not (NOTEBOOKS / "results").exists()
    return nb, seconds


def summary(nb) -> dict:
    """The JSON line printed by the cell tagged "summary"."""
    cells = [c for c in nb.cells if "summary" in c.metadata.get("tags", [])]
    assert len(cells) == 1
    text = "".join(o.get("text", "") for o in cells[0].outputs if o.output_type == "stream")
    return json.loads(text.strip().splitlines()[-1])


def errors(nb) -> list:
    return [
        o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"
    ]


def cv5_accuracy(method: str, dataset: str) -> float:
    records = repro.evaluate(method, dataset, protocol="cv5", seed=0)
    test = records[(records["split"] == "test") & (records["metric"] == "accuracy")]
    return float(test["value"].mean())


def run_notebook(name: str) -> dict:
    """Executes ``notebooks/<name>.ipynb``, checks that every code cell ran, none failed, within
    the budget, and returns its summary."""
    nb, seconds = execute(name)
    assert not errors(nb)
    assert all(c.execution_count for c in nb.cells if c.cell_type == "code")
    assert seconds < MAX_SECONDS
    return summary(nb)


# One test per notebook (executed once, whatever pytest-xdist's distribution of the tests).


def test_quickstart():
    out = run_notebook("quickstart")
    check_quickstart_statistics(out)
    check_quickstart_committed_table3(out)


def check_quickstart_statistics(out: dict) -> None:
    """The cross-validated table, the Friedman statistics and the average ranks."""
    accuracy = pd.DataFrame(out["accuracy"])  # data sets x methods, as the notebook's table
    assert list(accuracy.columns) == ["nb_gaussian", "nb", "snb_cma"]
    assert len(accuracy) == 8
    # one cell of the table recomputed here: the folds depend only on (seed, data set)
    assert accuracy.loc["iris", "nb_gaussian"] == pytest.approx(
        cv5_accuracy("nb_gaussian", "iris"), abs=1e-12
    )
    assert accuracy.loc["iris", "nb_gaussian"] == pytest.approx(0.95, abs=0.03)
    table = accuracy.rename(columns=display_name)
    fr = friedman(table)
    assert out["friedman_chi2"] == pytest.approx(fr["chi2"], rel=1e-12)
    assert out["ff"] == pytest.approx(fr["ff"], rel=1e-12)
    ranks = average_ranks(table)
    assert out["average_ranks"] == pytest.approx(ranks.to_dict(), rel=1e-12)
    assert sum(out["average_ranks"].values()) == pytest.approx(6.0)  # 1 + 2 + 3


def check_quickstart_committed_table3(out: dict) -> None:
    """What the notebook read from results/boulle2007_table3."""
    auc = metric_table(read_records(ROOT / "results" / "boulle2007_table3"), "auc")
    assert out["table3_n_datasets"] == len(auc) == 25
    assert out["table3_mean_auc"] == pytest.approx(auc.mean().to_dict(), rel=1e-12)
    assert out["table3_snb_cma_better"] == int((auc["snb_cma"] > auc["nb"]).sum())
    # the committed report (results/boulle2007_table3/table3.md) prints the same mean AUC
    report = (ROOT / "results" / "boulle2007_table3" / "table3.md").read_text()
    row = re.search(r"^\| SNB\(CMA\) \| (.*) \|$", report, re.MULTILINE).group(1).split(" | ")
    assert f"{out['table3_mean_auc']['snb_cma']:.4f}" == row[3]  # ACC Mean, W/L, Rank, AUC Mean


#: the six smallest data sets of boulle2007 Table 3 (conf/experiment/boulle2007_table3.yaml)
SMALLEST_TABLE3 = ["iris", "wine", "sonar", "glass", "heart_statlog", "ionosphere"]


def test_your_method():
    out = run_notebook("your_method")
    check_your_method_table(out)
    check_your_method_weights(out)
    assert not Path(out["workdir"]).exists()  # its temporary folder removed


def check_your_method_table(out: dict) -> None:
    """The paper-layout table of the new method against SNB(CMA) and FNB."""
    assert out["datasets"] == SMALLEST_TABLE3
    assert out["table_index"] == ["NB(MI)", "SNB(CMA)", "FNB"]
    accuracy = pd.DataFrame(out["accuracy"])
    assert sorted(accuracy.index) == sorted(SMALLEST_TABLE3)
    # the competitors' cells recomputed here
    for method in ("snb_cma", "fnb"):
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
    parts of the ``nb`` method (the notebook's estimate uses the m-estimates: close, not equal)."""
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
