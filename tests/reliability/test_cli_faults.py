"""Issue 15, the command line's messages and a failing sweep: each case as an assertion.

``method.nosuch=1`` / ``dataset.nosuch=3`` list the valid keys; ``seed=-1`` names ``seed``; the
too-few-members message suggests only what helps; holdout70 calls itself a train/test split; a
sweep with failed cells exits 1 with a summary of them and their error files. Most messages are
checked in-process; one subprocess per exit code path.
"""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from repro.__main__ import CommandLineError, resolve_overrides
from repro.datasets.dataset import Dataset
from repro.evaluation import runner
from repro.evaluation.protocols import make_splits

ROOT = Path(__file__).resolve().parents[2]


def run(args, cwd):
    return subprocess.run(
        [sys.executable, "-m", "repro", *args, "progress=false"],
        cwd=cwd, capture_output=True, text=True, timeout=300,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip


# ---------------------------------------------------------------- unknown keys
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["method=nb_gaussian", "method.nosuch=1", "dataset=iris"],
            "Could not override method.nosuch: method 'nb_gaussian' has no key 'nosuch'. Valid "
            "keys: alpha, ddof, var_smoothing (method.KEY=VALUE); parameters to add with "
            "+method.NAME=VALUE: categorical_features",
        ),
        (
            ["method=nb_gaussian", "dataset=iris", "dataset.nosuch=3"],
            "Could not override dataset.nosuch: data set 'iris' has no key 'nosuch'. Valid keys: "
            "name (dataset.KEY=VALUE); parameters to add with +dataset.NAME=VALUE: target, "
            "data_dir, cache_dir",
        ),
        (
            ["dataset=waveform", "dataset.n_sample=100"],  # the default method, a typo
            "data set 'waveform' has no key 'n_sample'. Did you mean 'n_samples'? Valid keys: "
            "n_samples, name, noise, seed",
        ),
        (
            ["method=nb_ef,bma", "method.n_bins=3", "dataset=iris"],  # each method of a sweep
            "method 'snb_bma' has no key 'n_bins'",
        ),
        (["method.nosuch=1"], "method 'nb_gaussian' has no key 'nosuch'"),  # the default
    ],
)
def test_an_unknown_key_lists_the_valid_ones(args, message):
    with pytest.raises(CommandLineError) as err:
        resolve_overrides(args)
    assert message in str(err.value)


@pytest.mark.parametrize(
    "args",
    [
        ["method=nb_ef", "method.n_bins=3", "dataset=waveform", "dataset.n_samples=300"],
        ["method=bma_nb_tuned", "method.grid.gamma=[1.0]", "+method.gaussian=weka"],
        ["method=nb_gaussian", "+method.nosuch=1"],  # added keys: the registry checks them
        ["experiment=example_baselines", "method.nosuch=1"],  # the experiment chooses: Hydra's
    ],
)
def test_known_or_added_keys_pass(args):
    assert resolve_overrides(args)[1:] == args[1:]


# ------------------------------------------------------------------- the seed
@pytest.mark.parametrize("seed", [-1, "-1", "abc", 1.5, True])
def test_a_bad_seed_names_seed(seed):
    X = pd.DataFrame({"x": np.arange(20.0)})
    ds = Dataset("toy", X, np.repeat(["a", "b"], 10))
    with pytest.raises(ValueError, match=r"seed must be an integer from 0 to 2\*\*32 - 1 .*, got"):
        runner.make_cell("nb_gaussian", ds, "cv5", seed=seed)
    assert runner.make_cell("nb_gaussian", ds, "cv5", seed="3").seed == 3


# ----------------------------------------------------------- too few members
def test_too_few_members_suggests_what_helps():
    y = np.array(["a"] * 30 + ["b"] * 7 + ["c"] * 3)
    with pytest.raises(ValueError) as cv10:
        make_splits("cv10", y, dataset="d")
    assert "protocol.n_splits=3" in str(cv10.value) and "protocol=cv5" not in str(cv10.value)
    y7 = np.array(["a"] * 30 + ["b"] * 7)
    with pytest.raises(ValueError) as cv10_7:
        make_splits("cv10", y7, dataset="d")
    assert "protocol=cv5 or protocol.n_splits=7" in str(cv10_7.value)
    with pytest.raises(ValueError) as cv5:
        make_splits("cv5", y, dataset="d")
    text = str(cv5.value)
    assert "stratified 5-fold cross-validation needs at least 5" in text
    assert "protocol=cv5" not in text and "protocol.small_classes=allow" in text


def test_holdout_with_a_one_member_class_is_not_a_cross_validation():
    X = pd.DataFrame({"x": np.arange(21.0)})
    ds = Dataset("tiny", X, np.array(["a"] * 20 + ["b"]))
    with pytest.raises(ValueError) as err:
        runner.evaluate("nb_gaussian", ds, protocol="holdout70")
    text = str(err.value)
    assert "tiny: a stratified train/test split (protocol holdout70) needs at least 2" in text
    assert "class b: 1" in text and "cross-validation needs" not in text


# ------------------------------------------------------------- in a subprocess
def test_bad_keys_and_seed_exit_cleanly(tmp_path):
    proc = run(["method=nb_gaussian", "method.nosuch=1", "dataset=iris"], tmp_path)
    assert proc.returncode == 2 and "Valid keys: alpha, ddof, var_smoothing" in proc.stderr
    assert "not in struct" not in proc.stderr and "Traceback" not in proc.stderr
    proc = run(["method=nb_gaussian", "dataset=iris", "seed=-1"], tmp_path)
    assert proc.returncode == 2 and "seed must be an integer from 0 to 2**32 - 1" in proc.stderr
    assert not (tmp_path / "results").exists()


def test_a_sweep_with_failed_cells_exits_1_with_their_summary(tmp_path):
    """glass and zoo have classes under 10 members: 2 of the 3 cv10 cells fail."""
    proc = run(["-m", "method=nb_ef", "dataset=glass,iris,zoo"], tmp_path)
    assert proc.returncode == 1, proc.stderr
    summary = proc.stderr[proc.stderr.index("2 of 3 cells failed:") :]
    assert "method=nb_ef dataset=glass" in summary and "method=nb_ef dataset=zoo" in summary
    assert "method=nb_ef dataset=iris" not in summary and "Traceback" not in proc.stderr
    # zoo's smallest class has 4 members under cv10: cv5 would fail too, so it is not suggested
    assert "use protocol.n_splits=4" in summary and "zoo: stratified 10-fold" in summary
    files = [line.split("error file: ")[1] for line in summary.splitlines() if "error file" in line]
    assert len(files) == 2 and all((tmp_path / f).is_file() for f in files)
    assert (tmp_path / "results/default/iris/nb_ef.parquet").is_file()
