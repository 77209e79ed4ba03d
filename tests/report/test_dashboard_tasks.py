"""The tasks of ``report all`` (repro.report.dashboard.tasks): experiments whose rows read a
common folder in one task, every claim in exactly one task, largest task first."""

from repro.report.claims.engine import Claim
from repro.report.dashboard.tasks import dashboard_tasks, reading_groups


def _claim(claim_id, experiment):
    return Claim("paper", claim_id, "§1", "a sentence", experiment, rule=None, note="why")


CONFIGS = {
    "a": {"report": {"sources": ["store"]}},
    "c": {},
    "b": {"report": {"sources": ["store", "t"]}},
    "d": {"experiment_name": "t"},
    "e": {"experiment_name": "e_folder"},
}


def test_experiments_reading_a_common_folder_are_one_group():
    # a and b share "store", b and d share "t": one group, chained; c and e alone
    assert reading_groups(CONFIGS) == [["a", "b", "d"], ["c"], ["e"]]
    assert reading_groups({}) == []


def test_every_claim_is_in_one_task_and_the_largest_task_goes_first(tmp_path):
    for folder, size in (("store", 10), ("t", 5), ("c", 100), ("e_folder", 0)):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "packed.parquet").write_bytes(b"x" * size)
    claims = [_claim("1", "b"), _claim("2", None), _claim("3", "c"), _claim("4", "gone"),
              _claim("5", "d")]  # fmt: skip
    tasks = dashboard_tasks(CONFIGS, claims, tmp_path)
    assert [list(t.configs) for t in tasks] == [["c"], ["a", "b", "d"], ["e"], []]
    assert [[i for i, _ in t.claims] for t in tasks] == [[2], [0, 4], [], [1, 3]]
    assert tasks[1].configs["d"] is CONFIGS["d"]
