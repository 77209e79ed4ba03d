"""Warnings on the command line as one line (repro.cli.console)."""

from conftest import ROOT, run_module

from repro.cli.console import one_line


def test_a_warning_is_one_line_with_its_category_and_no_source():
    text = one_line("first part\n  second part\n", UserWarning, "/lib/x.py", 12, line="warn()")
    assert text == "warning: first part second part (UserWarning)\n"


def test_report_all_prints_its_warning_as_one_line(tmp_path):
    results = tmp_path / "results"
    results.mkdir()
    (results / "wu2015_fig2").symlink_to(ROOT / "results" / "wu2015_fig2")
    proc = run_module("repro.report", "all", f"results={results}", f"out={tmp_path / 'out'}",
                      cwd=tmp_path, timeout=300)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    (line,) = [x for x in proc.stderr.splitlines() if "left out of its dashboard" in x]
    assert line.startswith(f"warning: experiments without results in {results}, left out")
    assert line.endswith("(UserWarning)")
    assert "warnings.warn(" not in proc.stderr and ".py:" not in proc.stderr


def test_a_failure_says_what_it_is_even_without_a_message():
    from repro.cli.console import failure_text

    assert failure_text(ValueError("bad n_bins")) == "bad n_bins"
    assert failure_text(RuntimeError()) == "RuntimeError"
    text = failure_text(MemoryError())  # numba's, compiling under ulimit -v: no message
    assert text.startswith("out of memory: the run needs more memory than this process may use")
    assert failure_text(MemoryError("Unable to allocate 183. MiB")).startswith(
        "out of memory (Unable to allocate 183. MiB): "
    )


def test_a_path_given_as_a_data_set_says_how_to_use_a_file(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "mine.csv").write_text(
        "a,b,class\n" + "".join(f"{i},{i % 3},{i % 2}\n" for i in range(40))
    )
    done = run_module("repro", "method=nb", f"dataset={data / 'mine.csv'}", cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    (line,) = [x for x in done.stderr.splitlines() if x.startswith("error:")]
    assert f"REPRO_DATA_PATH={data} python -m repro dataset=mine" in line
    env = {"REPRO_DATA_PATH": str(data)}
    done = run_module("repro", "method=nb", "dataset=mine", f"results_dir={tmp_path / 'r'}",
                      "progress=false", cwd=tmp_path, env=env)  # fmt: skip
    assert done.returncode == 0, done.stderr  # the command it suggests runs
