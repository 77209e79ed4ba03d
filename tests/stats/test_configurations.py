"""Distinct configurations in records are labelled apart and never pooled into one mean."""

import json

import pandas as pd
import pytest

from repro.stats.configurations import configuration_labels, pooled_configurations
from repro.stats.tests import metric_table


def _records(rows):
    """rows: (method, params dict, seed, protocol, dataset, accuracy) → tidy test records."""
    out = []
    for method, params, seed, protocol, dataset, value in rows:
        out.append(
            dict(
                method=method, params=json.dumps(params), seed=seed, protocol=protocol,
                dataset=dataset, repetition=0, fold=0, split="test", metric="accuracy",
                value=value,
            )
        )  # fmt: skip
    return pd.DataFrame(out)


def test_a_parameter_sweep_is_labelled_by_the_swept_parameter_only():
    records = _records(
        [
            ("nb_ef", {"n_bins": 3, "alpha": 1}, 0, "cv10", "iris", 0.90),
            ("nb_ef", {"n_bins": 5, "alpha": 1}, 0, "cv10", "iris", 0.93),
            ("nb_ef", {"n_bins": 10, "alpha": 1}, 0, "cv10", "iris", 0.96),
            ("nb", {}, 0, "cv10", "iris", 0.94),
        ]
    )
    assert configuration_labels(records).tolist() == [
        "nb_ef__n_bins=3",
        "nb_ef__n_bins=5",
        "nb_ef__n_bins=10",
        "nb",
    ]
    assert pooled_configurations(records) == {
        "nb_ef": ["nb_ef__n_bins=10", "nb_ef__n_bins=3", "nb_ef__n_bins=5"]
    }


def test_seeds_and_protocols_are_labelled_after_the_parameters():
    records = _records(
        [
            ("snb_cma", {}, 0, "cv10", "wine", 0.95),
            ("snb_cma", {}, 1, "cv10", "wine", 0.97),
            ("nb", {}, 0, "cv5", "wine", 0.96),
            ("nb", {}, 0, "cv10", "wine", 0.98),
        ]
    )
    assert configuration_labels(records).tolist() == [
        "snb_cma__seed=0",
        "snb_cma__seed=1",
        "nb__protocol=cv5",
        "nb__protocol=cv10",
    ]


def test_other_parameters_on_other_data_sets_are_not_a_sweep():
    records = _records(
        [
            ("svm", {"C": 1.0}, 0, "cv10", "iris", 0.9),
            ("svm", {"C": 10.0}, 0, "cv10", "wine", 0.8),
        ]
    )
    assert configuration_labels(records).tolist() == ["svm", "svm"]
    assert pooled_configurations(records) == {}


def test_metric_table_refuses_to_pool_and_names_the_configurations():
    records = _records(
        [
            ("nb_ef", {"n_bins": 3}, 0, "cv10", "iris", 0.90),
            ("nb_ef", {"n_bins": 5}, 0, "cv10", "iris", 0.96),
        ]
    )
    with pytest.raises(ValueError, match=r"nb_ef: nb_ef__n_bins=3, nb_ef__n_bins=5"):
        metric_table(records, "accuracy")
    labelled = records.assign(method=configuration_labels(records))
    table = metric_table(labelled, "accuracy")
    assert table.loc["iris"].to_dict() == {"nb_ef__n_bins=3": 0.90, "nb_ef__n_bins=5": 0.96}
