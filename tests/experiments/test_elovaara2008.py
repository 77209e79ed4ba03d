"""elovaara2008 experiments: the data set rule, the per-run aggregates, the figure order, the
claims table, and (slow) the sweep + report end to end on a tiny configuration."""

import numpy as np
import pandas as pd
import pytest

from repro.config import experiment_config
from repro.datasets import list_datasets
from repro.report.papers.elovaara2008 import figures as e

METHODS = ["nb_mdlh", "nb_mdlg", "nb_shimazaki", "nb_ewb10", "nb_gaussian"]


def test_fig1_config_lists_every_bundled_set_with_a_numeric_attribute():
    cfg = experiment_config("elovaara2008_fig1")
    assert cfg["sweep"]["method"] == METHODS
    assert cfg["protocol"]["name"] == "cv10x30" and cfg["protocol"]["n_repeats"] == 30
    assert cfg["sweep"]["++method.nominal"] == ["numeric"]
    cat = list_datasets()
    rule = cat[
        cat["source"].isin(["local", "generator"])
        & cat["offline"]
        & (cat["n_numeric"].fillna(0) >= 1)
        & (cat["n"] < 60_000)
    ]
    assert sorted(cfg["sweep"]["dataset"]) == sorted(rule["name"])
    fig2 = experiment_config("elovaara2008_fig2")
    assert fig2["report"]["sources"] == ["elovaara2008_fig1"]


def test_fig1_bound_leaves_out_mdl_on_three_sets_and_the_readme_override_lifts_it():
    """The bound of the config (MDLh, MDLg on twonorm_gen, waveform_noise, madelon_like: six
    cells), and ``hydra.sweeper.exclude=[]`` as experiments/elovaara2008/README.md runs it."""
    from repro.report.figure_common import sweep_plan

    datasets, cells = sweep_plan({}, METHODS, "elovaara2008_fig1")
    assert len(datasets) == 45
    assert cells == {
        (m, d)
        for m in ("nb_mdlh", "nb_mdlg")
        for d in ("twonorm_gen", "waveform_noise", "madelon_like")
    }
    lifted = experiment_config("elovaara2008_fig1", ["hydra.sweeper.exclude=[]"])
    assert lifted["sweep_exclude"] == []


def _records():
    """5 methods × 3 data sets × 2 runs × 2 folds; MDLg best everywhere, EWB-10 increasing
    a < b < c, log-sum = 10 × (accuracy − 1) per fold."""
    base = {"a": 0.5, "b": 0.7, "c": 0.9}
    shift = {"nb_mdlg": 0.08, "nb_mdlh": 0.03, "nb_shimazaki": 0.02, "nb_ewb10": 0.0,
             "nb_gaussian": -0.05}  # fmt: skip
    rows = []
    for m, s in shift.items():
        for d, b in base.items():
            for rep in range(2):
                for fold in range(2):
                    acc = b + s + 0.01 * fold
                    common = dict(method=m, dataset=d, repetition=rep, fold=fold, split="test")
                    rows.append({**common, "metric": "accuracy", "value": acc})
                    rows.append({**common, "metric": "log_sum", "value": 10 * (acc - 1)})
    return pd.DataFrame(rows)


def test_per_run_mean_accuracy_and_summed_log_sum():
    runs = e.per_run(_records(), "log_sum").set_index(["method", "dataset", "repetition"])
    # folds 0 and 1 of run 0: 10(0.58 − 1) + 10(0.59 − 1)
    assert runs.at[("nb_mdlg", "a", 0), "log_sum"] == pytest.approx(-8.3)
    acc = e.run_means(_records(), "accuracy")
    assert acc.at["a", "nb_mdlg"] == pytest.approx(0.585)
    assert list(e.ordered(acc, "accuracy").index) == ["a", "b", "c"]
    assert list(e.ordered(e.run_means(_records(), "log_sum"), "log_sum").index) == ["c", "b", "a"]


def _wide_records(n_sets=8):
    """5 methods × ``n_sets`` data sets × 2 runs × 5 folds, with fold noise; MDLg best on every
    set by 0.1, the others 0.05 apart."""
    rng = np.random.default_rng(0)
    shift = {"nb_mdlg": 0.2, "nb_mdlh": 0.1, "nb_shimazaki": 0.05, "nb_ewb10": 0.0,
             "nb_gaussian": -0.05}  # fmt: skip
    rows = []
    for d in range(n_sets):
        for m, s in shift.items():
            for rep in range(2):
                for fold in range(5):
                    acc = 0.6 + 0.02 * d + s + 0.01 * rng.normal()
                    common = dict(method=m, dataset=f"d{d}", repetition=rep, fold=fold)
                    rows.append({**common, "split": "test", "metric": "accuracy", "value": acc})
                    rows.append({**common, "split": "test", "metric": "log_sum",
                                 "value": 10 * (acc - 1)})  # fmt: skip
                    rows.append({**common, "split": "model", "metric": "fit_time", "value": 0.1})
    return pd.DataFrame(rows)


def test_claims_come_from_the_claims_file_verbatim_with_rule_verdicts():
    import yaml

    from repro.config import paths

    lines = e.claims_lines(_wide_records())
    text = "\n".join(lines)
    spec = yaml.safe_load((paths().published / "elovaara2008" / "claims.yaml").read_text())
    for claim in spec["claims"]:
        assert f"{claim['section']}: “{' '.join(claim['quote'].split())}”" in text
    numbered = [line for line in lines if line[:1].isdigit()]
    assert len(numbered) == len(spec["claims"])
    by_quote = {line.split("”")[0]: line for line in numbered}
    best = next(v for k, v in by_quote.items() if "performs clearly the best" in k)
    # MDLg ahead by 0.1 on all 8 sets, every paired t-test significant: Wilcoxon p = 2/256
    assert "— **holds** (best_of)" in best
    no_rule = next(v for k, v in by_quote.items() if "quite good results" in k)
    assert "**not testable**" in no_rule


def _variant_folder(tmp_path, variant):
    """The paths of a report whose results folder holds ``variant`` as experiment "other"."""
    from types import SimpleNamespace

    from repro.config import paths

    folder = tmp_path / "res" / "other"
    folder.mkdir(parents=True)
    variant.to_parquet(folder / "x.parquet")
    return SimpleNamespace(results=tmp_path / "res", published=paths().published)


def test_variant_columns_beside_the_default(tmp_path):
    rec = _records()
    variant = rec[rec["method"].isin(["nb_mdlh", "nb_mdlg"])].copy()
    variant["value"] -= 0.5
    where = _variant_folder(tmp_path, variant)
    cfg = {"title": "t", "methods": METHODS, "variants": {"old": "other"}, "paths": where}
    e.fig1(rec, tmp_path, cfg)
    csv = pd.read_csv(tmp_path / "fig1.csv").set_index("dataset")
    assert csv.at["a", "nb_mdlg (old)"] == pytest.approx(0.585 - 0.5)
    assert "rank_nb_mdlg (old)" not in csv.columns
    text = (tmp_path / "REPRODUCTION.md").read_text()
    assert "| MDLg | old | 3 |" in text


def test_a_prefix_of_the_repetitions_is_named_and_readings_compare_the_same_runs(tmp_path):
    # MDLh (default reading) on repetition 0 only; its variant on both, 0.2 lower in run 0 and
    # 0.6 lower in run 1: the readings' table compares run 0 with run 0 (−0.2), not with both
    rec = _records()
    rec = rec[(rec["method"] != "nb_mdlh") | (rec["repetition"] == 0)]
    variant = _records()
    variant = variant[variant["method"] == "nb_mdlh"].copy()
    variant["value"] -= np.where(variant["repetition"] == 0, 0.2, 0.6)
    where = _variant_folder(tmp_path, variant)
    assert e.prefix_note(rec, ["a", "b", "c"], METHODS) == (
        "MDLh: 1 runs (repetitions 0–0) on 3 sets"
    )
    assert e.method_runs(rec, "accuracy").loc["a"].to_dict() == {
        "nb_mdlh": 1, "nb_mdlg": 2, "nb_shimazaki": 2, "nb_ewb10": 2, "nb_gaussian": 2
    }  # fmt: skip
    cfg = {"title": "t", "methods": METHODS, "variants": {"old": "other"}, "paths": where}
    e.fig1(rec, tmp_path, cfg)
    csv = pd.read_csv(tmp_path / "fig1.csv").set_index("dataset")
    assert csv.at["a", "runs"] == 2 and csv.at["a", "runs_nb_mdlh"] == 1
    assert "runs_nb_mdlg" not in csv.columns
    assert "Fewer runs" in (tmp_path / "fig1.md").read_text()
    text = (tmp_path / "REPRODUCTION.md").read_text()
    assert "Fewer runs (a prefix of the repetitions" in text
    d = (0.5 + 0.7 + 0.9) / 3 + 0.03 + 0.005
    assert f"| MDLh | old | 3 | 1 | {d:.4f} | {d - 0.2:.4f} | -0.2000 |" in text


#: the accuracy shift of each method in _records
SHIFT = dict(nb_mdlh=0.03, nb_mdlg=0.08, nb_shimazaki=0.02, nb_ewb10=0.0, nb_gaussian=-0.05)


def test_figures_and_reproduction_from_records(tmp_path, monkeypatch):
    """The figures plot, per method, the hand values of _records: Fig. 1 the mean accuracy
    b + s + 0.005 (folds 0 and 1: +0, +0.01) on a, b, c (EWB-10 increasing); Fig. 2 the per-run
    log-sum 10(b + s − 1) + 10(b + s + 0.01 − 1) on c, b, a (EWB-10 decreasing)."""
    rec = _records()
    cfg = {"title": "t", "methods": METHODS}
    drawn, save = {}, e.save

    def keep(fig, out_dir, name):
        drawn[name] = fig
        return save(fig, out_dir, name)

    monkeypatch.setattr(e, "save", keep)
    paths = e.fig1(rec, tmp_path, cfg) + e.fig2(rec, tmp_path, cfg)
    assert all(p.exists() for p in paths)
    base = {"a": 0.5, "b": 0.7, "c": 0.9}
    for name, sets, value in (
        ("fig1", "abc", lambda b, s: b + s + 0.005),
        ("fig2", "cba", lambda b, s: 10 * (b + s - 1) + 10 * (b + s + 0.01 - 1)),
    ):
        ax = drawn[name].axes[0]
        assert [t.get_text() for t in ax.get_xticklabels()] == list(sets)
        lines = ax.get_lines()
        assert [line.get_label() for line in lines] == e.method_labels(METHODS)
        for line, method in zip(lines, METHODS):
            expected = [value(base[d], SHIFT[method]) for d in sets]
            np.testing.assert_allclose(line.get_ydata(), expected, rtol=1e-12)
            np.testing.assert_array_equal(line.get_xdata(), [0, 1, 2])
        csv = pd.read_csv(tmp_path / f"{name}.csv").set_index("dataset")
        assert list(csv.index) == list(sets)
        for method in METHODS:
            expected = [value(base[d], SHIFT[method]) for d in sets]
            np.testing.assert_allclose(csv[method], expected, rtol=1e-12)
    csv = pd.read_csv(tmp_path / "fig1.csv")
    assert list(csv["dataset"]) == ["a", "b", "c"] and (csv["runs"] == 2).all()
    assert (csv["rank_nb_mdlg"] == 1).all() and (csv["rank_nb_gaussian"] == 5).all()
    text = (tmp_path / "REPRODUCTION.md").read_text()
    assert "## Claims" in text and "prints no number" in text
    assert "“The *MDLg* classifier performs clearly the best.”" in text


def test_reproduction_lists_the_sets_left_out_and_the_methods_they_lack(tmp_path):
    """d lacks a complete run of MDLg (not finished), e lacks MDLh and MDLg by the sweep's
    bound: neither is in the figures; a, b, c are."""
    rec = _records()
    lacking = {"d": ["nb_mdlg"], "e": ["nb_mdlh", "nb_mdlg"]}
    more = [
        rec[(rec["dataset"] == "a") & ~rec["method"].isin(lack)].assign(dataset=d)
        for d, lack in lacking.items()
    ]
    # d's MDLg: one fold of a 2-fold run, no complete run, so still to run
    partial = rec[(rec["dataset"] == "a") & (rec["method"] == "nb_mdlg") & (rec["fold"] == 0)]
    rec = pd.concat([rec, *more, partial.assign(dataset="d")], ignore_index=True)
    cfg = {"title": "t", "methods": METHODS, "datasets": ["a", "b", "c", "d", "e"],
           "exclude": [{"method": ["nb_mdlh", "nb_mdlg"], "dataset": "e"}]}  # fmt: skip
    e.fig1(rec, tmp_path, cfg)
    text = (tmp_path / "REPRODUCTION.md").read_text()
    assert "3 data sets with every method" in text
    assert (
        "Left out by the sweep's bound (hydra.sweeper.exclude), 1 data set(s): e (MDLh, MDLg)."
        in text
    )
    assert (
        "Not finished, 1 data set(s), with the methods still to run (the sweep resumes them): "
        "d (MDLg)." in text
    )
    assert list(pd.read_csv(tmp_path / "fig1.csv")["dataset"]) == ["a", "b", "c"]
    e.fig1(_records(), tmp_path, {**cfg, "datasets": ["a", "b", "c"]})  # complete: no such lines
    text = (tmp_path / "REPRODUCTION.md").read_text()
    assert "Not finished" not in text and "Left out" not in text


@pytest.mark.slow
def test_sweep_and_report_end_to_end(tmp_path, python_m):
    res = tmp_path / "res"
    run = python_m(
        "repro", "experiment=elovaara2008_fig1", "dataset=iris,wine", "protocol.n_repeats=1",
        f"results_dir={res}", "progress=false", timeout=600,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    for name in ("elovaara2008_fig1", "elovaara2008_fig2"):
        rep = python_m("repro.report", f"experiment={name}", f"results={res}")
        assert rep.returncode == 0, rep.stderr
    out = res / "elovaara2008_fig1"
    assert (out / "fig1.png").exists() and (out / "compare_accuracy_bergmann.md").exists()
    assert (res / "elovaara2008_fig2" / "fig2.png").exists()
    assert np.isfinite(pd.read_csv(out / "fig1.csv")["nb_mdlh"]).all()
