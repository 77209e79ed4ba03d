"""The keys of an experiment's ``report:`` section (repro.report.schema): a misspelt key is an
error that names it, the closest valid key and all of them, never a silent no-op."""

from pathlib import Path

import pytest

from repro.config import experiment_config, experiment_names
from repro.report import generate
from repro.report.schema import REPORT_KEYS, check_report_section


def test_every_shipped_experiment_uses_known_report_keys():
    used = set()
    for name in experiment_names():
        report = experiment_config(name).get("report") or {}
        check_report_section(name, report)
        used |= set(report)
    # no stale key: each one of the schema is used by a shipped config or read by the code
    package = Path(generate.__file__).parents[1]
    code = "\n".join(p.read_text() for p in package.rglob("*.py") if p.name != "schema.py")
    stale = [k for k in REPORT_KEYS if k not in used and f'"{k}"' not in code]
    assert not stale


def test_a_misspelt_key_is_named_with_the_closest_valid_one():
    check_report_section("x", None)
    check_report_section("x", {"title": "T", "reported_tables": ["Table 1"]})
    with pytest.raises(ValueError) as err:
        check_report_section("mine", {"title": "T", "reported_table": ["Table 1"]})
    message = str(err.value)
    assert message.startswith(
        "experiment 'mine': unknown report key 'reported_table' (did you mean "
        "'reported_tables'?); valid keys: "
    )
    assert all(key in message for key in REPORT_KEYS)
    with pytest.raises(ValueError, match=r"unknown report key 'zzz'; valid keys: baseline, "):
        check_report_section("mine", {"zzz": 1})  # nothing close: no guess


def test_generate_report_refuses_before_writing_anything(tmp_path, monkeypatch):
    cfg = {"experiment_name": "mine", "report": {"titel": "T"}}
    monkeypatch.setattr(generate, "experiment_config", lambda name, overrides=(): cfg)
    out = tmp_path / "out"
    with pytest.raises(ValueError, match=r"unknown report key 'titel' \(did you mean 'title'\?\)"):
        generate.generate_report("mine", results_dir=tmp_path, out_dir=out)
    assert not out.exists()
