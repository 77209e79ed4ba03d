"""The sweep status folder (repro.cli.sweep_status): where the jobs of ``python -m repro -m``
report.

The end-to-end summaries of failed cells under each launcher are in tests/test_cluster.py; here
the folder's place (the sweep's directory, which SLURM jobs share) and its cleanup.
"""

import json
import os
from pathlib import Path

from hydra import compose, initialize_config_dir
from hydra.core.global_hydra import GlobalHydra

from repro.cli.sweep_status import SWEEP_STATUS, SweepStatusFolder, status_folder, sweep_summary
from repro.config import CONF_DIR, register_dataset_configs


def _composed(overrides):
    register_dataset_configs()
    GlobalHydra.instance().clear()
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        cfg = compose("config", overrides=overrides, return_hydra_config=True)
    GlobalHydra.instance().clear()
    return cfg


def test_callback_moves_the_folder_into_the_sweep_directory(tmp_path, monkeypatch):
    """At the start of a multirun the folder becomes <results>/<experiment>/.multirun/.status-*
    (absolute: the path SLURM jobs inherit), and ``status_folder`` removes both folders."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(SWEEP_STATUS, raising=False)
    cfg = _composed(["results_dir=res", "experiment_name=sweep1"])
    assert cfg.hydra.callbacks.sweep_status._target_ == "repro.cli.sweep_status.SweepStatusFolder"
    with status_folder() as current:
        first = Path(current())
        assert first.is_dir() and os.environ[SWEEP_STATUS] == str(first)
        SweepStatusFolder().on_multirun_start(cfg)
        moved = Path(current())
        assert moved.parent == tmp_path / "res" / "sweep1" / ".multirun"
        assert moved.name.startswith(".status-") and moved.is_dir() and moved.is_absolute()
        (moved / "0.json").write_text(json.dumps({"job": 0, "overrides": ["a=1"]}))
        (moved / "1.json").write_text(json.dumps({"job": 1, "overrides": ["a=2"], "error": "E"}))
        assert sweep_summary(current()) == (2, [{"job": 1, "overrides": ["a=2"], "error": "E"}])
    assert not first.exists() and not moved.exists()
    assert SWEEP_STATUS not in os.environ  # restored


def test_callback_does_nothing_outside_python_m_repro(tmp_path, monkeypatch):
    """A multirun started by Hydra directly (no summary reader): no folder is made."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(SWEEP_STATUS, raising=False)
    SweepStatusFolder().on_multirun_start(_composed(["results_dir=res"]))
    assert SWEEP_STATUS not in os.environ and not (tmp_path / "res").exists()


def test_unwritable_sweep_directory_keeps_the_temporary_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "res").write_text("a file where the results folder would be")
    with status_folder() as current:
        first = current()
        SweepStatusFolder().on_multirun_start(_composed(["results_dir=res"]))
        assert current() == first
