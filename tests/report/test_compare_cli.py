"""``python -m repro.report compare results=DIR metric=... correction=...`` end to end on a tiny
synthetic record set written as one Parquet file per cell, as the runner does."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import read_stored, run_module

from repro.report.compare import compare_records, run_compare
from repro.report.compare_command import parse_overrides

ROOT = Path(__file__).resolve().parents[2]
METHODS = ["nb", "snb_map", "snb_cma", "weak"]
SKILL = {"nb": 0.78, "snb_map": 0.79, "snb_cma": 0.82, "weak": 0.72}


def _write_records(results: Path, n_datasets: int = 8, missing: tuple = ()) -> pd.DataFrame:
    rng = np.random.default_rng(0)
    frames = []
    for d in range(n_datasets):
        dataset = f"ds{d}"
        offset = rng.normal(0, 0.05)
        for method in METHODS:
            if (dataset, method) in missing:
                continue
            rows = []
            for fold in range(5):
                acc = float(np.clip(SKILL[method] + offset + rng.normal(0, 0.02), 0, 1))
                for split in ("test", "train"):
                    rows.append(
                        dict(
                            experiment="toy", method=method, dataset=dataset, repetition=0,
                            fold=fold, split=split, metric="accuracy", value=acc,
                        )
                    )  # fmt: skip
                    rows.append(
                        dict(
                            experiment="toy", method=method, dataset=dataset, repetition=0,
                            fold=fold, split=split, metric="error", value=1 - acc,
                        )
                    )  # fmt: skip
            frame = pd.DataFrame(rows)
            cell = results / "toy" / method
            cell.mkdir(parents=True, exist_ok=True)
            frame.to_parquet(cell / f"{dataset}.parquet", index=False)
            frames.append(frame)
    return pd.concat(frames, ignore_index=True)


def test_compare_cli_bergmann(tmp_path, python_m):  # python_m: tests/conftest.py
    results = tmp_path / "results"
    _write_records(results, missing=(("ds7", "weak"),))
    proc = python_m(
        "repro.report", "compare", f"results={results}", "metric=accuracy", "correction=bergmann",
        cwd=tmp_path,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "Average ranks" in out and "Friedman chi2_F" in out and "Iman-Davenport" in out
    assert "left out: ds7" in out
    # without out=: into compare/<results folder name> of the working directory, never beside
    # the records
    assert not list(results.glob("compare_*"))
    stem = tmp_path / "compare" / "results" / "compare_accuracy_bergmann"
    for suffix in (".md", ".csv", "_pairs.csv", "_cd.png", "_cd.pdf"):
        path = Path(f"{stem}{suffix}")
        assert path.exists() and path.stat().st_size > 0, path
    md = Path(f"{stem}.md").read_text()
    assert "## Friedman test" in md and "bergmann" in md and "ds7" in md
    matrix = pd.read_csv(f"{stem}.csv", index_col=0)
    # a symmetric p-value matrix of the 4 methods, sorted by rank (values: test below on the
    # published García & Herrera (2008) example)
    assert sorted(matrix.index) == sorted(METHODS) and list(matrix.columns) == list(matrix.index)
    np.testing.assert_array_equal(matrix.to_numpy(), matrix.to_numpy().T)
    assert matrix.index[0] == "snb_cma" and matrix.index[-1] == "weak"
    pairs = pd.read_csv(f"{stem}_pairs.csv")
    assert len(pairs) == 6
    assert {"p", "p_nemenyi", "p_holm", "p_shaffer", "p_bergmann"} <= set(pairs.columns)


#: García & Herrera (2008) / scmamp's data.gh.2008 (tests/data/gh2008_accuracies.csv) under
#: file-safe names, and their published results: Iman–Davenport F_F = 14.309 (df 4, 116), and the
#: Bergmann–Hommel adjusted p-values of García & Herrera (2008) as scmamp's documentation quotes
#: them (computed there from rounded raw p, hence rel 2%)
GH2008_NAMES = {"C4.5": "c45", "k-NN(k=1)": "knn", "NaiveBayes": "nb", "Kernel": "kernel",
                "CN2": "cn2"}  # fmt: skip
GH2008_BERGMANN = {
    ("c45", "kernel"): 4.487e-7,
    ("nb", "kernel"): 1.0416e-6,
    ("kernel", "cn2"): 0.0116,
    ("c45", "knn"): 0.0288,
    ("knn", "kernel"): 0.032,
    ("knn", "nb"): 0.0303,
    ("c45", "cn2"): 0.0384,
    ("nb", "cn2"): 0.0384,
    ("c45", "nb"): 1.0,
    ("knn", "cn2"): 1.0,
}


def test_compare_cli_on_the_published_garcia_herrera_example(tmp_path, python_m):
    """The CLI, from records on disk, gives the published Friedman/post-hoc numbers."""
    table = pd.read_csv(ROOT / "tests" / "data" / "gh2008_accuracies.csv", index_col=0)
    results = tmp_path / "results"
    for name, column in table.rename(columns=GH2008_NAMES).items():
        cell = results / "gh" / name
        cell.mkdir(parents=True)
        for i, value in enumerate(column):
            pd.DataFrame(
                [dict(experiment="gh", method=name, dataset=f"d{i:02d}", repetition=0, fold=0,
                      split="test", metric="accuracy", value=float(value))]
            ).to_parquet(cell / f"d{i:02d}.parquet", index=False)  # fmt: skip
    out = tmp_path / "report"
    proc = python_m(
        "repro.report", "compare", f"results={results}", "metric=accuracy",
        "correction=bergmann", f"out={out}",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    ff = float(re.search(r"Iman-Davenport F_F = ([0-9.]+)", proc.stdout).group(1))
    assert ff == pytest.approx(14.309, abs=1e-3)
    matrix = pd.read_csv(out / "compare_accuracy_bergmann.csv", index_col=0)
    for (a, b), p in GH2008_BERGMANN.items():
        assert matrix.loc[a, b] == pytest.approx(p, rel=0.02), (a, b)
        assert matrix.loc[b, a] == matrix.loc[a, b]
    # average ranks (García & Herrera 2008): Kernel worst (4.333), C4.5 best (2.100)
    assert matrix.index[0] == "c45" and matrix.index[-1] == "kernel"


def test_compare_cli_out_dir_lower_is_better_and_options(tmp_path, python_m):
    results = tmp_path / "results"
    _write_records(results)
    out = tmp_path / "report"
    proc = python_m(
        "repro.report",
        "compare", f"results={results}", "metric=error", "correction=holm", f"out={out}",
        "cap=false", "alpha=0.1",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "lower is better" in proc.stdout
    matrix = pd.read_csv(out / "compare_error_holm.csv", index_col=0)
    assert matrix.index[0] == "snb_cma"  # lowest error ranks first
    assert (out / "compare_error_holm_cd.png").exists()


def test_compare_cli_errors(tmp_path, capsys, python_m):
    from repro.report.__main__ import main

    results = tmp_path / "results"
    _write_records(results, n_datasets=3)
    proc = python_m("repro.report", "compare", f"results={results}", "metric=auc")
    assert proc.returncode == 2 and "metric 'auc' not found" in proc.stderr
    cases = [
        (["compare", f"results={results}", "metric=accuracy", "correction=tukey"],
         "correction must be one of"),
        (["compare", f"results={tmp_path / 'nothing'}", "metric=accuracy"], "does not exist"),
        (["compare", "metric=accuracy", "colour=red"], "unknown argument"),
        (["compare", "metric=accuracy"], "missing results="),
        (["frobnicate"], "usage"),
    ]  # fmt: skip
    for argv, message in cases:
        assert main(argv) == 2
        assert message in capsys.readouterr().err


def test_compare_in_process(tmp_path):
    records = _write_records(tmp_path / "r", n_datasets=6)
    res = run_compare(records, "accuracy", "shaffer", methods=["nb", "snb_cma", "weak"])
    assert list(res["adjusted"].columns) == ["nb", "snb_cma", "weak"]
    assert res["higher_is_better"] is True and res["left_out"] == []
    assert res["ranks"].index[0] == "snb_cma"
    paths = compare_records(records, "accuracy", "nemenyi", out=tmp_path / "o")
    assert all(p.exists() for p in paths)
    assert parse_overrides(["a=1", "+b=x=y"]) == {"a": "1", "b": "x=y"}
    with pytest.raises(ValueError, match="key=value"):
        parse_overrides(["novalue"])


def test_report_experiment_errors_are_clear(tmp_path, capsys):
    """No records yet, or an unknown experiment: a one-line error, no traceback."""
    from repro.report.__main__ import main

    assert main(["experiment=wu2015_fig3", f"results={tmp_path}"]) == 1
    err = capsys.readouterr().err
    assert "No result records" in err and "python -m repro experiment=wu2015_fig3" in err
    assert main(["experiment=nosuch", f"results={tmp_path}"]) == 2
    assert "valid experiments: boulle2007_challenge" in capsys.readouterr().err


def test_report_reads_published_numbers_from_paths_published(tmp_path, capsys):
    """``paths.published=DIR`` chooses the papers' numbers; a missing ``reported.csv`` is an
    error raised before anything is written, never a silently missing REPRODUCTION.md."""
    from repro.report.__main__ import main

    results = tmp_path / "results"
    shutil.copytree(
        ROOT / "results" / "boulle2007_table4",
        results / "boulle2007_table4",
        ignore=shutil.ignore_patterns("*.md", "*.tex", "*.png", "*.pdf"),
    )
    args = ["experiment=boulle2007_table4", f"results={results}"]
    assert main([*args, f"paths.published={tmp_path / 'nowhere'}"]) == 1
    err = capsys.readouterr().err
    assert f"no file {tmp_path / 'nowhere' / 'boulle2007' / 'reported.csv'}" in err
    assert not list((results / "boulle2007_table4").glob("*.md"))

    published = tmp_path / "published" / "boulle2007"
    published.mkdir(parents=True)
    (published / "reported.csv").write_text(
        "method,dataset,metric,value,table\nsnb_cma,waveform_noise+1000F2D,accuracy,0.85,Table 4\n"
    )
    assert main([*args, f"paths.published={tmp_path / 'published'}"]) == 0
    cell = results / "boulle2007_table4" / "waveform_noise+1000F2D" / "snb_cma.parquet"
    acc = read_stored(cell).query("split == 'test' and metric == 'accuracy'")["value"]
    assert len(acc) == 10  # 10 folds
    text = (results / "boulle2007_table4" / "REPRODUCTION.md").read_text()
    assert "1 of 1 published numbers have a reproduced value" in text
    row = f"| snb_cma | waveform_noise+1000F2D | accuracy | 0.8500 | {acc.mean():.4f} | "
    assert row + f"{acc.mean() - 0.85:.4f} |" in text


def _sweep(cwd: Path, *args: str):
    proc = run_module("repro", "-m", *args, "progress=false", cwd=cwd, timeout=300)
    assert proc.returncode == 0, proc.stderr


def _compared(cwd: Path, results: Path):
    """``compare results=... metric=accuracy`` as typed in ``cwd``: (its output, the sorted
    columns of the adjusted p matrix it wrote into compare/<results name>/)."""
    proc = run_module("repro.report", "compare", f"results={results}", "metric=accuracy", cwd=cwd)
    assert proc.returncode == 0, proc.stderr
    adjusted = pd.read_csv(
        cwd / "compare" / results.name / "compare_accuracy_bergmann.csv", index_col=0
    )
    return proc, sorted(adjusted.index)


def test_compare_keeps_a_parameter_sweep_and_a_seed_sweep_apart(tmp_path):
    """Issue 27: ``method.n_bins=3,10`` and ``seed=0,1`` give one column per configuration,
    each the mean of its own result files, never the mean of the variants."""
    _sweep(tmp_path, "method=nb_ef", "method.n_bins=3,10", "dataset=iris,wine")
    _sweep(tmp_path, "method=nb_gaussian", "seed=0,1", "dataset=iris,wine")
    results = tmp_path / "results" / "default"
    proc, columns = _compared(tmp_path, results)
    assert columns == [
        "nb_ef__n_bins=10",
        "nb_ef__n_bins=3",
        "nb_gaussian__seed=0",
        "nb_gaussian__seed=1",
    ]
    for label in ("nb_ef__n_bins=3", "nb_gaussian__seed=1"):  # = their files' names
        means = [
            pd.read_parquet(results / d / f"{label}.parquet")
            .query("split == 'test' and metric == 'accuracy'")["value"]
            .mean()
            for d in ("iris", "wine")
        ]
        row = next(line for line in proc.stdout.splitlines() if line.startswith(label + " "))
        assert row.split()[-1] == f"{np.mean(means):.4f}"

    one = run_module(
        "repro.report", "compare", f"results={results}", "metric=accuracy",
        "methods=nb_ef,nb_gaussian__seed=0", f"out={tmp_path / 'out'}", cwd=tmp_path,
    )  # fmt: skip
    assert one.returncode == 0, one.stderr
    picked = pd.read_csv(tmp_path / "out" / "compare_accuracy_bergmann.csv", index_col=0)
    assert sorted(picked.index) == ["nb_ef__n_bins=10", "nb_ef__n_bins=3", "nb_gaussian__seed=0"]
    bad = run_module(
        "repro.report", "compare", f"results={results}", "metric=accuracy", "methods=nb_eff",
        cwd=tmp_path,
    )  # fmt: skip
    assert bad.returncode == 2 and "methods ['nb_eff'] not in records" in bad.stderr
    assert "nb_ef__n_bins=3" in bad.stderr


def test_a_protocol_sweep_runs_and_compares_as_separate_configurations(tmp_path):
    """Issue 27: ``-m protocol=cv5,cv10`` (and a changed protocol field) are cells of their own,
    named by their protocol; the experiment's own protocol keeps the plain name."""
    _sweep(tmp_path, "method=nb_gaussian", "protocol=cv5,cv10", "dataset=iris,wine")
    _sweep(tmp_path, "method=nb_gaussian", "protocol.n_repeats=2", "dataset=iris,wine")
    results = tmp_path / "results" / "default"
    assert sorted(p.name for p in (results / "iris").glob("*.parquet")) == [
        "nb_gaussian.parquet",
        "nb_gaussian__protocol=cv10,n_repeats=2.parquet",
        "nb_gaussian__protocol=cv5.parquet",
    ]
    folds = pd.read_parquet(results / "iris" / "nb_gaussian__protocol=cv10,n_repeats=2.parquet")
    assert folds[["repetition", "fold"]].drop_duplicates().shape[0] == 20
    _, columns = _compared(tmp_path, results)
    assert columns == [
        "nb_gaussian__protocol=cv10",
        "nb_gaussian__protocol=cv10,n_repeats=2",
        "nb_gaussian__protocol=cv5",
    ]
