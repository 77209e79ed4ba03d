"""The names inside an experiment file are checked before Hydra runs (issue 44): a method, data
set or protocol misspelt in the file chosen with ``experiment=NAME`` (the package's, or your own
under ``--config-dir DIR``) is one line naming the file, the key, the name and a did-you-mean,
exit code 2, as the same name on the command line is; not Hydra's dump of the config search path
and of every option of the group (41 to 132 lines before)."""

from __future__ import annotations

import pytest
from conftest import run_module

from repro import config
from repro.cli.arguments import UsageError, check_experiment_files

GLOBAL = "# @package _global_\n"


def _experiment(folder, text: str, name: str = "mine"):
    path = folder / "experiment" / f"{name}.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(GLOBAL + text)
    return path


def _repro(tmp_path, *args):
    return run_module("repro", "--config-dir", str(tmp_path / "conf"), *args, cwd=tmp_path,
                      timeout=300)  # fmt: skip


SWEEP = "hydra:\n  sweeper:\n    params:\n"
#: (the file's text, the key named, what the line says)
CASES = [
    (SWEEP + "      method: nb_gaussian,nb_gausian\n      dataset: iris\n",
     "hydra.sweeper.params.method", "Unknown method 'nb_gausian'. Did you mean 'nb_gaussian'"),
    (SWEEP + "      method: nb\n      dataset: iris,wne\n",
     "hydra.sweeper.params.dataset", "Unknown data set(s) ['wne']. Did you mean 'wine'"),
    (SWEEP + "      method: nb\n      dataset: choice(iris,nosuchdata)\n",
     "hydra.sweeper.params.dataset", "Unknown data set(s) ['nosuchdata']."),
    ("defaults:\n  - override /method: nb_gausian\n",
     "defaults: override /method", "Unknown method 'nb_gausian'. Did you mean 'nb_gaussian'"),
    ("defaults:\n  - override /dataset: irs\n",
     "defaults: override /dataset", "Unknown data set(s) ['irs']. Did you mean 'iris'"),
    ("defaults:\n  - override /method: cma\n",  # an alias: the command line's, not Hydra's
     "defaults: override /method", "Did you mean 'snb_cma'"),
    (SWEEP + "      dataset: iris\n    runs:\n      - method: nb_gausian\n",
     "hydra.sweeper.runs[0].method", "Unknown method 'nb_gausian'. Did you mean 'nb_gaussian'"),
    (SWEEP + "      dataset: iris\n    exclude:\n      - {method: nb, dataset: [iris, wne]}\n",
     "hydra.sweeper.exclude[0].dataset", "Unknown data set(s) ['wne']. Did you mean 'wine'"),
    ("method: nb_gaussian,nb_gausian\n",
     "method", "Unknown method 'nb_gausian'. Did you mean 'nb_gaussian'"),
    ("dataset: iris,nosuchdata\n", "dataset", "Unknown data set(s) ['nosuchdata']."),
]  # fmt: skip


@pytest.mark.parametrize(("text", "key", "said"), CASES)
def test_a_bad_name_in_an_experiment_file_is_one_line_naming_file_and_key(
    tmp_path, monkeypatch, text, key, said
):
    path = _experiment(tmp_path, text)
    monkeypatch.setattr(config, "_USER_CONFIG_DIRS", [tmp_path])
    with pytest.raises(UsageError) as err:
        check_experiment_files(["experiment=mine"])
    message = str(err.value)
    assert "\n" not in message
    assert message.startswith(f"experiment file {path}, {key}: "), message
    assert said in message


def test_a_name_in_the_wrong_place_says_where_it_goes(tmp_path, monkeypatch):
    """``method: NAME`` at the top of a global experiment replaces the method's settings by a
    string (Hydra: "Input cfg is not an OmegaConf config object (str)"): the line says where a
    name goes."""
    path = _experiment(tmp_path, "method: nb_gaussian,nb\n")
    monkeypatch.setattr(config, "_USER_CONFIG_DIRS", [tmp_path])
    with pytest.raises(UsageError) as err:
        check_experiment_files(["experiment=mine"])
    message = str(err.value)
    assert "\n" not in message and message.startswith(f"experiment file {path}, method: ")
    assert "override /method: NAME" in message and "hydra.sweeper.params" in message


def test_settings_and_interpolations_are_not_names(tmp_path, monkeypatch):
    _experiment(tmp_path, SWEEP + "      method: nb,nb_ef\n      method.alpha: 1,2\n"
                "      dataset: glob(ir*)\n      protocol: ${oc.env:PROTOCOL,cv5}\n"
                "method:\n  alpha: 2\ndataset:\n  n_samples: 100\n")  # fmt: skip
    (tmp_path / "other.yaml").write_text("method: nosuch\n")  # not an experiment file
    monkeypatch.setattr(config, "_USER_CONFIG_DIRS", [tmp_path])
    check_experiment_files(["experiment=mine"])  # nothing to say


def test_a_file_of_the_experiment_package_is_not_global(tmp_path, monkeypatch):
    """Without ``# @package _global_`` the file's keys are ``experiment.*``: ``method: x`` there
    chooses nothing (its defaults list still does)."""
    path = tmp_path / "experiment" / "mine.yaml"
    path.parent.mkdir(parents=True)
    path.write_text("method: nosuch\nhydra:\n  sweeper:\n    params:\n      method: nosuch\n")
    monkeypatch.setattr(config, "_USER_CONFIG_DIRS", [tmp_path])
    check_experiment_files(["experiment=mine"])
    path.write_text("defaults:\n  - override /method: nb_gausian\n" + path.read_text())
    with pytest.raises(UsageError, match="Did you mean 'nb_gaussian'"):
        check_experiment_files(["experiment=mine"])


def test_every_committed_experiment_passes():
    for name in config.experiment_names():
        check_experiment_files([f"experiment={name}"])
    check_experiment_files(["-m", "experiment=wu2015_table2,boulle2007_table3"])


@pytest.mark.parametrize("multirun", [False, True])
def test_the_command_line_says_it_in_one_line_single_and_sweep(tmp_path, multirun):
    path = _experiment(tmp_path / "conf", SWEEP + "      method: nb_gaussian,nb_gausian\n"
                       "      dataset: iris\n")  # fmt: skip
    proc = _repro(tmp_path, *(["-m"] if multirun else []), "experiment=mine")
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.count("\n") == 1, proc.stderr
    assert proc.stderr.startswith(f"error: experiment file {path}, hydra.sweeper.params.method: ")
    assert "Unknown method 'nb_gausian'. Did you mean 'nb_gaussian'?" in proc.stderr
    assert "search path" not in proc.stderr and "Available options" not in proc.stderr
    assert not (tmp_path / "results").exists()


@pytest.mark.parametrize("multirun", [False, True])
def test_a_data_set_misspelt_in_the_defaults_is_one_line(tmp_path, multirun):
    path = _experiment(tmp_path / "conf", "defaults:\n  - override /dataset: irs\n")
    proc = _repro(tmp_path, *(["-m"] if multirun else []), "experiment=mine", "method=nb")
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.count("\n") == 1, proc.stderr
    assert proc.stderr.startswith(f"error: experiment file {path}, defaults: override /dataset: ")
    assert "Unknown data set(s) ['irs']. Did you mean 'iris'" in proc.stderr


def test_a_correct_experiment_file_still_runs(tmp_path):
    _experiment(tmp_path / "conf", "defaults:\n  - override /protocol: cv5\n"
                "experiment_name: mine\n" + SWEEP + "      method: nb_gaussian,nb\n"
                "      dataset: iris\n")  # fmt: skip
    proc = _repro(tmp_path, "-m", "experiment=mine", "progress=false")
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "results" / "mine" / "iris").is_dir()
    assert len(list((tmp_path / "results" / "mine" / "iris").glob("*.parquet"))) == 2
