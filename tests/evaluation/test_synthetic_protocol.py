"""The ``synthetic`` protocol (SPEC §5.2, vidaurre2012 §7.1): a fresh train/test sample of a
generator per repetition, seeded by (seed, repetition) only."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from omegaconf import OmegaConf

from repro import evaluate, load_dataset, make_method
from repro.config import compose
from repro.datasets.vidaurre2012 import scenario_di
from repro.evaluation.protocols import (
    PROTOCOLS,
    Protocol,
    get_protocol,
    make_splits,
    synthetic_dataset,
    synthetic_seed,
)
from repro.evaluation.runner import make_cell

SYN3 = {"name": "synthetic", "kind": "synthetic", "n_train": 300, "n_test": 3000, "n_repeats": 3}


def test_the_configured_protocol_is_the_papers():
    """conf/protocol/synthetic.yaml: N = 300, N_te = 3000, 100 repetitions (vidaurre2012 §7.1)."""
    cfg = compose(["protocol=synthetic", "dataset=DI", "method=nb"])
    p = get_protocol(OmegaConf.to_container(cfg.protocol))
    assert (p.kind, p.n_train, p.n_test, p.n_repeats) == ("synthetic", 300, 3000, 100)
    assert p.identity() == PROTOCOLS["synthetic"].identity()
    assert p.identity() == {
        "name": "synthetic",
        "kind": "synthetic",
        "n_repeats": 100,
        "n_train": 300,
        "n_test": 3000,
    }
    assert p.n_folds_total == 100 and p.block_size == 3300


def test_a_cell_from_the_composed_configuration():
    """What ``python -m repro dataset=DI protocol=synthetic`` builds: the dataset node carries the
    generator defaults (n_samples, seed), accepted at their defaults."""
    cfg = compose(["protocol=synthetic", "dataset=DI", "method=nb", "protocol.n_repeats=2"])
    node = OmegaConf.to_container(cfg.dataset)
    assert node["n_samples"] == 3300 and node["seed"] == 0
    cell = make_cell("nb", node, OmegaConf.to_container(cfg.protocol), seed=5)
    assert cell.dataset.X.shape == (6600, 20) and cell.dataset_key == "DI"
    assert [s.train.size for s in cell.fold_splits()] == [300, 300]
    again = make_cell("nb", "DI", {**OmegaConf.to_container(cfg.protocol)}, seed=5)
    assert again.hash == cell.hash
    assert make_cell("nb", "DI", {**OmegaConf.to_container(cfg.protocol)}, seed=6).hash != cell.hash


def test_existing_protocols_keep_their_identity():
    """The fields hashed for the resampling protocols are those they had before (their stored
    cells keep their configuration hashes)."""
    assert PROTOCOLS["cv10"].identity() == {
        "name": "cv10",
        "kind": "kfold",
        "n_splits": 10,
        "n_repeats": 1,
        "test_size": 0.3,
    }
    assert set(PROTOCOLS["holdout70"].identity()) == {
        "name",
        "kind",
        "n_splits",
        "n_repeats",
        "test_size",
    }


@pytest.mark.parametrize(
    ("fields", "match"),
    [
        ({"kind": "synthetic", "n_test": 10}, "n_train must be a positive integer, got None"),
        ({"kind": "synthetic", "n_train": 0, "n_test": 10}, "n_train must be a positive"),
        ({"kind": "synthetic", "n_train": 5, "n_test": 2.5}, "n_test must be a positive"),
        ({"kind": "kfold", "n_train": 5}, "n_train and n_test apply to kind 'synthetic' only"),
        ({"kind": "resample"}, "'kfold', 'holdout' or 'synthetic'"),
    ],
)
def test_bad_synthetic_protocols(fields, match):
    with pytest.raises(ValueError, match=match):
        get_protocol({"name": "p", **fields})


def test_seed_of_a_repetition_depends_on_seed_and_repetition_only():
    assert synthetic_seed(0, 1) == synthetic_seed(0, 1)
    assert int(np.random.SeedSequence([0, 1]).generate_state(1)[0]) == synthetic_seed(0, 1)
    assert len({synthetic_seed(s, r) for s in range(3) for r in range(5)}) == 15


def test_blocks_are_generator_samples_and_do_not_depend_on_n_repeats():
    p = Protocol("s", "synthetic", n_repeats=3, n_train=50, n_test=100)
    ds = synthetic_dataset("DI", p, seed=7)
    assert ds.X.shape == (450, 20) and ds.y.shape == (450,) and ds.name == "DI"
    assert ds.categorical.all()  # categorical columns survive the stacking
    for r in range(3):
        X, y = scenario_di(n_samples=150, seed=synthetic_seed(7, r))
        block = slice(150 * r, 150 * (r + 1))
        pd.testing.assert_frame_equal(ds.X.iloc[block].reset_index(drop=True), X)
        np.testing.assert_array_equal(ds.y[block], y)
    two = synthetic_dataset(
        "DI", Protocol("s", "synthetic", n_repeats=2, n_train=50, n_test=100), 7
    )
    pd.testing.assert_frame_equal(two.X, ds.X.iloc[:300])
    other = synthetic_dataset("DI", p, seed=8)
    assert not other.X.equals(ds.X)
    # the cell's identity: generator parameters without n_samples/seed (the protocol's)
    assert "n_samples" not in ds.meta["params"] and "seed" not in ds.meta["params"]
    assert ds.meta["params"]["dirichlet_peak"] == 3.5
    assert ds.meta["synthetic"]["seeds"] == [synthetic_seed(7, r) for r in range(3)]


def test_splits_are_the_blocks():
    p = Protocol("s", "synthetic", n_repeats=3, n_train=50, n_test=100)
    splits = make_splits(p, np.zeros(450), seed=123, dataset="DI")  # the seed does not matter
    assert [(s.repetition, s.fold) for s in splits] == [(0, 0), (1, 0), (2, 0)]
    for r, s in enumerate(splits):
        np.testing.assert_array_equal(s.train, np.arange(150 * r, 150 * r + 50))
        np.testing.assert_array_equal(s.test, np.arange(150 * r + 50, 150 * (r + 1)))
    with pytest.raises(ValueError, match=r"DI: protocol 's'.*3 blocks of 50 \+ 100.*got 449"):
        make_splits(p, np.zeros(449), dataset="DI")


def test_generator_parameters_pass_and_protocol_owned_ones_are_refused():
    p = Protocol("s", "synthetic", n_repeats=2, n_train=20, n_test=30)
    ds = synthetic_dataset({"name": "CI", "sd": 0.5, "n_samples": 3300, "seed": 0}, p, seed=1)
    assert ds.meta["params"]["sd"] == 0.5 and ds.X.shape == (100, 20)
    with pytest.raises(ValueError, match=r"'CI' under protocol 's': n_samples is set by"):
        synthetic_dataset({"name": "CI", "n_samples": 50}, p)
    with pytest.raises(ValueError, match=r"'CI' under protocol 's': seed is set by"):
        synthetic_dataset({"name": "CI", "seed": 4}, p)
    with pytest.raises(ValueError, match="CI.*no parameter 'sigma'"):
        synthetic_dataset({"name": "CI", "sigma": 1.0}, p)


def test_a_data_set_that_is_not_a_generator_is_refused():
    with pytest.raises(ValueError, match=r"'iris' is a local data set, but protocol 'synthetic'"):
        make_cell("nb", "iris", "synthetic")
    with pytest.raises(ValueError, match=r"protocol 'synthetic'.*'DI'.*not as a loaded Dataset"):
        make_cell("nb", load_dataset("DI"), "synthetic")


def _without_times(rec: pd.DataFrame) -> pd.DataFrame:
    rec = rec[~rec["metric"].str.endswith("_time")].drop(columns=["timestamp"])
    return rec.sort_values(["repetition", "fold", "split", "metric"]).reset_index(drop=True)


def test_evaluate_nb_on_di_end_to_end(tmp_path):
    """``evaluate("nb", "DI", synthetic × 3)``: three folds of 300 training and 3000 test rows,
    identical serial and with two workers, each the test error of nb fitted on its block."""
    serial = evaluate("nb", "DI", protocol=SYN3, seed=0)
    parallel = evaluate("nb", "DI", protocol=SYN3, seed=0, n_jobs=2, results_dir=tmp_path)
    pd.testing.assert_frame_equal(_without_times(serial), _without_times(parallel))
    assert (tmp_path / "default" / "DI" / "nb__protocol=synthetic,n_repeats=3.parquet").is_file()
    assert sorted(set(serial["repetition"])) == [0, 1, 2] and set(serial["fold"]) == {0}
    assert set(serial["n_train"]) == {300} and set(serial["n_test"]) == {3000}
    # the protocol is named with its fields that differ from the named one (100 repetitions)
    assert set(serial["protocol"]) == {"synthetic,n_repeats=3"} and set(serial["dataset_key"]) == {
        "DI"
    }
    assert set(serial["n_classes"]) == {3} and set(serial["n_features"]) == {20}
    errors = serial.query("split == 'test' and metric == 'error'").set_index("repetition")
    for r in range(3):
        X, y = scenario_di(n_samples=3300, seed=synthetic_seed(0, r))
        model = make_method("nb").fit(X.iloc[:300], y[:300])
        expected = np.mean(model.predict(X.iloc[300:]) != y[300:])
        assert errors.loc[r, "value"] == pytest.approx(expected, abs=1e-12)
