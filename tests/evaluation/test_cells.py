"""A cell's identity (repro.evaluation.cells): the keys and the layout of its files."""

import json

import pytest
from omegaconf import OmegaConf

from repro.config import compose
from repro.evaluation.cells import (
    catalog_key,
    failure_path,
    param_key,
    part_path,
    write_failure,
)
from repro.evaluation.protocols import Split
from repro.evaluation.records import is_checkpoint
from repro.evaluation.runner import make_cell


def test_the_files_of_a_cell_lie_beside_each_other(tmp_path):
    cell = make_cell(("nb_ef", {"n_bins": 3}), {"name": "waveform", "n_samples": 300}, seed=2)
    folder = tmp_path / "default" / "waveform__n_samples=300"
    assert cell.stem == "nb_ef__n_bins=3__seed=2"
    assert cell.path(tmp_path) == folder / "nb_ef__n_bins=3__seed=2.parquet"
    assert cell.parts_path(tmp_path) == cell.path(tmp_path).with_suffix(".parts")
    assert cell.failure_path(tmp_path) == folder / "nb_ef__n_bins=3__seed=2.error.json"
    assert cell.failure_path(tmp_path, "nb_ef.abc") == folder / "nb_ef.abc.error.json"
    art = tmp_path / "default/artefacts/waveform__n_samples=300/nb_ef__n_bins=3__seed=2.parquet"
    assert cell.artefact_path(tmp_path) == art
    part = part_path(cell.parts_path(tmp_path), Split(1, 4, None, None), artefacts=True)
    assert part.name == "r001_f004.artefacts.parquet" and is_checkpoint(part)
    assert not is_checkpoint(cell.path(tmp_path))


@pytest.mark.parametrize(
    ("overrides", "key"),
    [
        (["dataset=iris"], "iris"),
        (["dataset=waveform", "dataset.n_samples=300", "dataset.noise=0.5"],
         "waveform__n_samples=300__noise=0.5"),
        (["dataset=DI", "dataset.n_noise=3", "protocol=synthetic", "protocol.n_repeats=2"],
         "DI__n_noise=3"),
    ],
)  # fmt: skip
def test_a_configuration_names_the_folder_of_its_cell(overrides, key):
    """``python -m repro`` names a failed cell's folder from its configuration's data set (the
    cell may not exist): the folder of the cell's results."""
    cfg = OmegaConf.to_container(compose(["method=nb", *overrides]), resolve=True)
    assert catalog_key(cfg["dataset"]) == key
    assert make_cell("nb", cfg["dataset"], cfg["protocol"]).dataset_key == key


def test_keys_and_failure_files(tmp_path):
    assert param_key("nb_ef", {"n_bins": 5}, {"n_bins": 5}) == "nb_ef"
    assert catalog_key({"name": "waveform", "n_samples": 300}) == "waveform__n_samples=300"
    path = failure_path(tmp_path, "e", "waveform__n_samples=300", "nb.1")
    assert path == tmp_path / "e" / "waveform__n_samples=300" / "nb.1.error.json"
    try:
        raise ValueError("n_bins must be ≥ 1")
    except ValueError as exc:
        write_failure(path, exc, method="nb")
    payload = json.loads(path.read_text())
    assert payload["method"] == "nb" and payload["error"] == "ValueError: n_bins must be ≥ 1"
    assert "Traceback" in payload["traceback"]


@pytest.mark.parametrize(
    ("protocol", "declared", "stem"),
    [
        ("cv10", "cv10", "nb_ef__seed=2"),  # the experiment's own protocol: the plain name
        ("cv10", None, "nb_ef__seed=2"),  # no declared protocol (the Python API): the plain name
        ("cv5", "cv10", "nb_ef__protocol=cv5__seed=2"),
        ("cv10x30", "cv10x30", "nb_ef__seed=2"),
        (
            {"name": "cv10", "kind": "kfold", "n_splits": 10, "n_repeats": 2},
            "cv10",
            "nb_ef__protocol=cv10,n_repeats=2__seed=2",
        ),
        ("cv10x30", "cv10", "nb_ef__protocol=cv10x30__seed=2"),
    ],
)
def test_a_protocol_other_than_the_declared_one_is_in_the_file_name(protocol, declared, stem):
    cell = make_cell("nb_ef", "iris", protocol, seed=2, default_protocol=declared)
    assert cell.stem == stem


def test_the_declared_protocol_of_an_experiment():
    from repro.config import declared_protocol

    assert declared_protocol(None)["name"] == "cv10"
    elovaara = declared_protocol("elovaara2008_fig1")
    assert (elovaara["name"], elovaara["n_repeats"], elovaara["small_classes"]) == (
        "cv10x30",
        30,
        "allow",
    )
    assert declared_protocol("vidaurre2012_table1")["kind"] == "synthetic"
