"""Tasks shared by this process and a spawned helper (repro.runtime.shared_tasks): results in
task order whichever process ran a task, both processes taking tasks, errors and a dead helper
raised here, nothing left running after the block, one core: everything here."""

import multiprocessing
import os
import time
from pathlib import Path

import pytest

from repro.runtime import shared_tasks
from repro.runtime.shared_tasks import HelperFailed, TaskSharing


def _meet(folder: Path) -> None:
    """Wait until two processes have each begun a task (a task's process cannot take another
    before it returns: with two tasks or more, each process holds one)."""
    (folder / str(os.getpid())).touch()
    deadline = time.monotonic() + 60
    while len(list(folder.iterdir())) < 2:
        if time.monotonic() > deadline:
            raise TimeoutError("the other process never took a task")
        time.sleep(0.01)


def square_where(task, common, kept):
    """(task², pid, tasks this process ran before in this run): each process meets the other."""
    _meet(Path(common))
    kept["ran"] = kept.get("ran", 0) + 1
    return task * task, os.getpid(), kept["ran"] - 1


def fail_in_helper(task, common, kept):
    folder, parent, how = common
    _meet(Path(folder))
    if os.getpid() != parent:
        if how == "exit":
            os._exit(3)
        if how == "unpicklable":
            raise UnpicklableError(lambda: None)
        raise ValueError(f"task {task} failed in the helper")
    return task


class UnpicklableError(Exception):
    def __init__(self, thing):
        super().__init__("holds a lambda")
        self.thing = thing


def helpers() -> list:
    """Child processes of this one, less joblib's reusable worker pool: an earlier test in the
    same pytest worker may have left loky's idle workers alive, which TaskSharing never starts."""
    return [p for p in multiprocessing.active_children() if "Loky" not in type(p).__name__]


@pytest.fixture
def two_cores(monkeypatch):
    monkeypatch.setattr(shared_tasks, "allowed_cores", lambda: 2)


def test_both_processes_take_tasks_and_results_come_in_task_order(tmp_path, two_cores):
    with TaskSharing() as sharing:
        assert sharing.helped
        results = sharing.run(square_where, range(6), str(tmp_path / "first"))
        (tmp_path / "second").mkdir()
        again = sharing.run(square_where, [7, 8], str(tmp_path / "second"))
    assert [r[0] for r in results] == [0, 1, 4, 9, 16, 25]
    pids = {r[1] for r in results}
    assert len(pids) == 2 and os.getpid() in pids
    # ``kept``: per process, counting its own tasks of the run from 0, fresh for the next run
    for pid in {r[1] for r in results}:
        assert sorted(r[2] for r in results if r[1] == pid) == list(range(sum(
            r[1] == pid for r in results)))  # fmt: skip
    assert [r[0] for r in again] == [49, 64] and sorted(r[2] for r in again) == [0, 0]
    assert not helpers()


@pytest.fixture(autouse=True)
def meeting_folder(tmp_path):
    (tmp_path / "first").mkdir()


def test_an_error_in_the_helper_is_raised_here(tmp_path, two_cores):
    common = (str(tmp_path / "first"), os.getpid(), "raise")
    with pytest.raises(ValueError, match="failed in the helper"):
        with TaskSharing() as sharing:
            sharing.run(fail_in_helper, range(4), common)
    assert not helpers()


def test_an_exception_that_cannot_travel_comes_as_its_traceback(tmp_path, two_cores):
    common = (str(tmp_path / "first"), os.getpid(), "unpicklable")
    with pytest.raises(HelperFailed, match="UnpicklableError: holds a lambda"):
        with TaskSharing() as sharing:
            sharing.run(fail_in_helper, range(4), common)


def test_a_helper_that_dies_is_an_error_not_a_hang(tmp_path, two_cores):
    common = (str(tmp_path / "first"), os.getpid(), "exit")
    with pytest.raises(HelperFailed, match="exit code 3"):
        with TaskSharing() as sharing:
            sharing.run(fail_in_helper, range(4), common)
    assert not helpers()


def test_leaving_the_block_early_stops_the_helper(two_cores):
    with pytest.raises(KeyboardInterrupt):
        with TaskSharing(("repro.config",)):
            assert helpers()
            raise KeyboardInterrupt
    assert not helpers()


def test_on_one_core_every_task_runs_here(tmp_path, monkeypatch):
    monkeypatch.setattr(shared_tasks, "allowed_cores", lambda: 1)
    with TaskSharing() as sharing:
        assert not sharing.helped and not helpers()
        results = sharing.run(lambda task, common, kept: (task + common, os.getpid()), [1, 2], 10)
    assert results == [(11, os.getpid()), (12, os.getpid())]


#: set in the helper by its setup (a spawned process starts without this process's state)
STATE: dict = {}


def remember(value) -> None:
    STATE["value"] = value


def state_where(task, common, kept):
    _meet(Path(common))
    return STATE.get("value"), os.getpid()


def test_the_helper_is_given_this_processs_state_by_its_setup(tmp_path, two_cores):
    remember("here")
    with TaskSharing((), remember, ("given",)) as sharing:
        results = sharing.run(state_where, range(4), str(tmp_path / "first"))
    by_pid = {pid: value for value, pid in results}
    assert by_pid[os.getpid()] == "here" and len(by_pid) == 2
    assert set(by_pid.values()) == {"here", "given"}
