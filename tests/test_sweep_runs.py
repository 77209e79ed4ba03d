"""The runs of a sweep (``hydra.sweeper.runs``, repro.cli.sweep_configs): methods with their own
parameters in one sweep, each job of the grid once per method configuration; the jobs'
configurations, the store and the protocol of the large data sets (repro.cli.finished_cells)."""

import pytest
from hydra.core.override_parser.overrides_parser import OverridesParser
from omegaconf import OmegaConf

from repro.cli.finished_cells import cell_from_config, failure_file, sized_protocol, use_sweeper
from repro.cli.sweep_configs import expand_runs, job_configs, override_value, with_runs
from repro.config import compose

RUNS = [
    {"method": "nb_ef", "sweep": {"n_bins": [3, 5]}},
    {"method": "nb_gaussian", "params": {"ddof": 0}},
    {"method": "nb_ef", "params": {"n_bins": 3}},  # a repeat: dropped
]


@pytest.mark.parametrize(
    "value",
    [0.25, 1e-5, 1, 0, True, None, "sg_cf", "a b", "1", "true", "it's", [1, "x"], {"a": 1.5}],
)
def test_an_override_value_reads_back_as_itself(value):
    text = override_value(value)
    back = OverridesParser.create().parse_override(f"method.k={text}").value()
    assert back == value and type(back) is type(value)


def test_runs_expand_in_order_without_repeats():
    assert expand_runs(RUNS) == [
        ("nb_ef", {"n_bins": 3}),
        ("nb_ef", {"n_bins": 5}),
        ("nb_gaussian", {"ddof": 0}),
    ]
    # values as written, as a multirun's overrides: 1 and 1.0 are two configurations
    runs = [{"method": "wnb_opt", "sweep": {"lambda_": [1, 1.0, 1]}}]
    assert [p["lambda_"] for _, p in expand_runs(runs)] == [1, 1.0]


@pytest.mark.parametrize(
    "runs",
    [
        {"method": "nb"},
        [{"params": {"a": 1}}],
        [{"method": "nb", "sweep": {"a": 1}}],
        [{"method": "nb", "grid": {"a": [1]}}],
    ],
)
def test_a_malformed_run_is_refused_with_an_example(runs):
    with pytest.raises(ValueError, match=r"e\.g\. \[\{method: snb_cma\}"):
        expand_runs(runs)


def test_each_job_once_per_run_and_a_chosen_method_keeps_its_runs():
    jobs = [["dataset=iris"], ["dataset=wine"]]
    out = with_runs(jobs, RUNS)
    assert out[:3] == [
        ["dataset=iris", "method=nb_ef", "method.n_bins=3"],
        ["dataset=iris", "method=nb_ef", "method.n_bins=5"],
        ["dataset=iris", "method=nb_gaussian", "method.ddof=0"],
    ]
    assert [job[0] for job in out] == ["dataset=iris"] * 3 + ["dataset=wine"] * 3
    assert with_runs(jobs, []) == jobs
    chosen = with_runs([["method=nb_gaussian", "seed=1"]], RUNS)
    assert chosen == [["seed=1", "method=nb_gaussian", "method.ddof=0"]]
    with pytest.raises(ValueError, match="method=nb: no run .* nb_ef, nb_gaussian"):
        with_runs([["method=nb"]], RUNS)


def test_the_configurations_of_jobs_of_several_key_lists_are_hydras():
    jobs = with_runs([["dataset=iris"], ["dataset=wine"]], RUNS)
    configs = job_configs(lambda job: compose(job, return_hydra_config=True), jobs)
    for job, config in zip(jobs, configs, strict=True):
        whole = OmegaConf.to_container(compose(job, return_hydra_config=True), resolve=False)
        whole.pop("hydra")
        assert OmegaConf.to_container(config.config, resolve=False) == whole
        assert config.overrides == job


def test_the_sweeper_refuses_malformed_runs_before_any_job():
    use_sweeper()
    from hydra_plugins.repro_sweeper import FinishedCellsSweeper

    with pytest.raises(ValueError, match="each run of hydra.sweeper.runs"):
        FinishedCellsSweeper(runs=[{"method": "nb", "sweep": {"a": 1}}])


def test_the_store_holds_the_cells_and_their_failures():
    cfg = compose(["dataset=iris", "+store=shared/cells", "experiment_name=mine"])
    cell = cell_from_config(cfg, "nb_gaussian", None)
    assert cell.path("r").parent.as_posix() == "r/shared/cells/iris"
    assert failure_file(cfg, "nb_gaussian", []).parent.as_posix() == "results/shared/cells/iris"
    no_store = compose(["dataset=iris", "experiment_name=mine"])
    assert cell_from_config(no_store, "nb_gaussian", None).path("r").parts[1] == "mine"


def test_the_protocol_of_the_large_data_sets():
    rule = {"above": 100, "name": "cv5", "n_splits": 5}
    cv10 = {"name": "cv10", "n_splits": 10, "small_classes": "allow"}
    assert sized_protocol(cv10, rule, 100) == cv10
    assert sized_protocol(cv10, rule, 101) == {**cv10, "name": "cv5", "n_splits": 5}
    assert sized_protocol(cv10, None, 10**9) == cv10
    for bad in ({"name": "cv5"}, {"above": "many", "name": "cv5"}, {"above": 100}):
        with pytest.raises(ValueError, match="large_protocol must be"):
            sized_protocol(cv10, bad, 5)
    # through a job's configuration (iris: 150 rows); a sampled data set has no size to test
    cfg = compose(["dataset=iris", "+large_protocol={above:100,name:cv5,n_splits:5}"])
    cell = cell_from_config(cfg, "nb_gaussian", None)
    assert (cell.protocol.name, cell.protocol.n_splits, cell.protocol_key) == ("cv5", 5, "")
    known = {}
    assert cell_from_config(cfg, "nb_gaussian", None, known).hash == cell.hash
