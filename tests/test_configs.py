"""Every Hydra config composes and instantiates (STYLE: lightning-hydra-template tests)."""

from pathlib import Path

import numpy as np
import pytest
from conftest import run_module
from hydra import compose, initialize_config_dir
from hydra.core.global_hydra import GlobalHydra
from omegaconf import OmegaConf

from repro.config import register_dataset_configs
from repro.datasets import list_datasets
from repro.evaluation.protocols import PROTOCOLS as PROTOCOLS_BY_NAME
from repro.evaluation.protocols import get_protocol, make_splits
from repro.registry import CONF_DIR, build_method, implemented_methods, method_params

EXPERIMENTS = sorted(p.stem for p in (CONF_DIR / "experiment").glob("*.yaml"))
PROTOCOLS = sorted(p.stem for p in (CONF_DIR / "protocol").glob("*.yaml"))


@pytest.fixture(scope="module")
def cfg_for():
    register_dataset_configs()
    GlobalHydra.instance().clear()
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        yield lambda overrides: compose("config", overrides=overrides, return_hydra_config=True)
    GlobalHydra.instance().clear()


@pytest.mark.parametrize("method", implemented_methods())
def test_method_config_instantiates_with_its_defaults(cfg_for, method):
    cfg = cfg_for([f"method={method}"])
    node = OmegaConf.to_container(cfg.method, resolve=True)
    if method == "khiops":
        pytest.importorskip("khiops")
    estimator = build_method(node, method)
    params = estimator.get_params(deep=False)
    inner = params.get("params") or {}  # a wrapper passes its inner method's keys (bma_nb_tuned)
    for key, value in method_params(node).items():
        assert (params[key] if key in params else inner[key]) == value, (method, key)


#: what each protocol config must mean, written from the papers' protocols (SPEC §5): kind,
#: folds per repetition, repetitions, test fraction of one split
PROTOCOL_MEANING = {
    "cv10": ("kfold", 10, 1, 0.1),
    "cv10x30": ("kfold", 10, 30, 0.1),
    "cv5": ("kfold", 5, 1, 0.2),
    "holdout70": ("holdout", 1, 1, 0.3),
    "repeated_kfold": ("kfold", 10, 3, 0.1),
    "resample": ("holdout", 1, 20, 0.1),
    "synthetic": ("synthetic", 1, 100, None),  # vidaurre2012 §7.1: fresh 300 + 3000 per repetition
}


def test_every_protocol_config_has_a_known_meaning():
    assert sorted(PROTOCOL_MEANING) == PROTOCOLS


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_protocol_configs(cfg_for, protocol):
    """The config yields the published protocol: its splits, on 100 balanced labels, are
    folds × repetitions stratified train/test splits with the expected test size (k-fold: each
    instance tested once per repetition); a name of the registry gives the same protocol."""
    kind, folds, repeats, test_fraction = PROTOCOL_MEANING[protocol]
    cfg = cfg_for([f"protocol={protocol}"])
    p = get_protocol(OmegaConf.to_container(cfg.protocol))
    assert (p.name, p.kind, p.n_repeats, p.n_folds_total) == (
        protocol,
        kind,
        repeats,
        folds * repeats,
    )
    if kind == "synthetic":
        assert (p.n_train, p.n_test) == (300, 3000)
        assert PROTOCOLS_BY_NAME[protocol].identity() == p.identity()
        return
    y = np.repeat([0, 1], 50)
    splits = make_splits(p, y, seed=0)
    assert [(s.repetition, s.fold) for s in splits] == [
        (r, f) for r in range(repeats) for f in range(folds)
    ]
    for s in splits:
        assert s.test.size == round(test_fraction * y.size) and s.train.size + s.test.size == 100
        assert np.intersect1d(s.train, s.test).size == 0
        assert np.bincount(y[s.test]).tolist() == [s.test.size // 2] * 2  # stratified
    if kind == "kfold":
        for r in range(repeats):
            tested = np.concatenate([s.test for s in splits if s.repetition == r])
            assert np.sort(tested).tolist() == list(range(100))
    # every protocol file has its entry (the reference of the records' protocol labels)
    assert PROTOCOLS_BY_NAME[protocol].identity() == p.identity()


@pytest.mark.parametrize("experiment", EXPERIMENTS)
def test_experiment_configs_name_valid_methods_and_datasets(cfg_for, experiment):
    cfg = cfg_for([f"experiment={experiment}"])
    assert cfg.experiment_name == experiment  # results go under the experiment's own name
    params = cfg.hydra.sweeper.params or {}
    valid_datasets = set(list_datasets()["name"])
    for name in str(params.get("method", cfg.hydra.runtime.choices.method)).split(","):
        assert name.strip() in implemented_methods(), name
    for name in str(params.get("dataset", cfg.dataset.name)).split(","):
        assert name.strip() in valid_datasets, name


def test_dataset_group_offers_every_catalog_entry(cfg_for):
    cfg = cfg_for(["dataset=led"])
    assert cfg.dataset.name == "led" and "n_samples" in cfg.dataset


def test_example_experiment_runs(tmp_path):
    args = ["experiment=example_baselines", "hydra.sweeper.params.dataset='iris,wine'"]
    proc = run_module("repro", *args, "progress=false", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    files = sorted(Path(tmp_path, "results", "example_baselines").rglob("*.parquet"))
    assert len(files) == 8  # 4 methods x 2 data sets


def test_method_spec_resolves_once_and_keeps_defaults_apart():
    from repro.registry import method_config, method_spec

    spec = method_spec("cma", max_iter=7)  # an alias, one override
    assert spec.id == "snb_cma"
    assert spec.defaults == method_params(method_config("snb_cma"))
    assert spec.params == {**spec.defaults, "max_iter": 7} and spec.defaults["max_iter"] != 7
    assert spec.estimator.get_params()["max_iter"] == 7
    with pytest.raises(ValueError, match=r"Unknown parameter\(s\) \['gamma'\].*valid parameters"):
        method_spec("nb_gaussian", gamma=1)


@pytest.mark.parametrize("experiment", EXPERIMENTS)
def test_experiment_tasks_and_report_functions_exist(cfg_for, experiment):
    """``task:`` names a function f(cfg); every ``report.figures`` entry a function of records."""
    import importlib

    cfg = cfg_for([f"experiment={experiment}"])
    if cfg.task:
        module, _, name = cfg.task.rpartition(".")
        assert callable(getattr(importlib.import_module(module), name)), cfg.task
    for spec in (cfg.get("report") or {}).get("figures", []):
        module, _, name = spec.partition(":")
        assert callable(getattr(importlib.import_module(module), name)), spec
