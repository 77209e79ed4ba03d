"""A report of several files switches from the old set to the new one at once (issue 46): a
kill or an error at any write of ``report all`` leaves the previous dashboard byte-identical,
and a full run leaves the new one whole."""

from pathlib import Path

import pytest

from repro.evaluation import guarded
from repro.report.dashboard import build

ROOT = Path(__file__).resolve().parents[2]


def test_the_writes_of_a_set_take_effect_together(tmp_path):
    a, b, c = tmp_path / "a.txt", tmp_path / "b.txt", tmp_path / "c.txt"
    for path in (a, b, c):
        path.write_text("old")
    with pytest.raises(RuntimeError):
        with guarded.one_set():
            guarded.write_text(a, "new")
            guarded.remove(c)
            assert a.read_text() == "old" and c.exists()  # nothing happens before the end
            raise RuntimeError("killed before the second file")
    assert [p.read_text() for p in (a, b, c)] == ["old"] * 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "b.txt", "c.txt"]
    with guarded.one_set():
        guarded.write_text(a, "new")
        with guarded.one_set():  # nested: part of the outer set
            guarded.write_text(b, "new")
        assert b.read_text() == "old"
        guarded.remove(c)
    assert [a.read_text(), b.read_text(), c.exists()] == ["new", "new", False]


def test_writes_held_back_in_another_process_join_the_set_they_belong_to(tmp_path):
    """``held_back``: a second process's share of a set (its writes as temporaries, nothing in
    place); ``adopt``: they take effect with the set they join, or at once outside any set."""
    a, b, c = tmp_path / "a.txt", tmp_path / "b.txt", tmp_path / "c.txt"
    for path in (a, b, c):
        path.write_text("old")
    with guarded.held_back() as pending:
        guarded.write_text(a, "new")
        guarded.remove(c)
    assert [a.read_text(), c.exists(), len(pending)] == ["old", True, 2]
    with pytest.raises(RuntimeError):
        with guarded.one_set():
            guarded.adopt(pending)
            guarded.write_text(b, "new")
            raise RuntimeError("the set fails: the adopted write is undone too")
    assert [p.read_text() for p in (a, b, c)] == ["old"] * 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "b.txt", "c.txt"]
    with guarded.held_back() as pending:
        guarded.write_text(a, "new")
    with guarded.one_set():
        guarded.adopt(pending)
        assert a.read_text() == "old"
    assert a.read_text() == "new"
    with guarded.held_back() as pending:
        guarded.remove(c)
    guarded.adopt(pending)  # no set open: now
    assert not c.exists()
    with pytest.raises(KeyboardInterrupt), guarded.held_back():
        guarded.write_text(b, "never")
        raise KeyboardInterrupt
    assert b.read_text() == "old" and sorted(p.name for p in tmp_path.iterdir()) == [
        "a.txt", "b.txt"]  # fmt: skip


def _results(tmp_path, name, experiments):
    folder = tmp_path / name
    folder.mkdir()
    for experiment in experiments:
        (folder / experiment).symlink_to(ROOT / "results" / experiment)
    return folder


def _snapshot(folder: Path) -> dict:
    return {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_report_all_killed_at_any_write_leaves_the_previous_dashboard(tmp_path, monkeypatch):
    from repro.runtime import shared_tasks

    monkeypatch.setattr(shared_tasks, "allowed_cores", lambda: 1)  # all here: cheaper to repeat
    configs = build.dashboard_configs()  # composed once (Hydra), not at each run
    monkeypatch.setattr(build, "shared_configs", lambda sharing: dict(configs))
    out = tmp_path / "out"
    old_results = _results(tmp_path, "old", ["vidaurre2012_table4"])
    new_results = _results(tmp_path, "new", ["vidaurre2012_table4", "khiops_agreement"])
    with pytest.warns(UserWarning, match="left out of its dashboard"):
        build.generate_dashboard(old_results, out)
    before = _snapshot(out)
    writes = []
    temporary = guarded.temporary_beside

    def counting(path):
        writes.append(path)
        return temporary(path)

    monkeypatch.setattr(guarded, "temporary_beside", counting)
    with pytest.warns(UserWarning, match="left out of its dashboard"):
        build.generate_dashboard(new_results, out)
    after = _snapshot(out)
    assert after != before and len(writes) >= 4, writes  # rows, figures, README, index, claims
    for k in range(len(writes)):
        for path, data in before.items():  # back to the old dashboard
            (out / path).write_bytes(data)
        for path in set(after) - set(before):
            (out / path).unlink()
        seen = []

        def killed(path, k=k, seen=seen):
            if len(seen) == k:
                raise KeyboardInterrupt(f"killed at write {k}: {path.name}")
            seen.append(path)
            return temporary(path)

        monkeypatch.setattr(guarded, "temporary_beside", killed)
        with pytest.raises(KeyboardInterrupt), pytest.warns(UserWarning):
            build.generate_dashboard(new_results, out)
        assert _snapshot(out) == before, f"killed at write {k} ({writes[k].name})"


def test_report_experiment_killed_at_any_write_leaves_the_previous_report(tmp_path, monkeypatch):
    from repro.report.generate import generate_report

    results = _results(tmp_path, "results", ["boulle2007_table4"])
    out = tmp_path / "out"
    written = generate_report("boulle2007_table4", results, out)
    assert len(written) >= 2
    previous = {p: b"previous report\n" for p in written}
    temporary = guarded.temporary_beside
    for k in range(len(written)):
        for path, data in previous.items():
            path.write_bytes(data)
        seen = []

        def killed(path, k=k, seen=seen):
            if len(seen) == k:
                raise KeyboardInterrupt(f"killed at write {k}: {path.name}")
            seen.append(path)
            return temporary(path)

        monkeypatch.setattr(guarded, "temporary_beside", killed)
        with pytest.raises(KeyboardInterrupt):
            generate_report("boulle2007_table4", results, out)
        assert {p: p.read_bytes() for p in written} == previous, f"killed at write {k}"
        assert not [p for p in out.rglob(".*.tmp")]
