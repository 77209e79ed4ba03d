"""A run out of memory ends in one line naming the method and the data set, never in an abort or
pages of "Exception ignored" (issue 46): a ``MemoryError``, a library that does not load under
``ulimit -v``, and native code that aborts (LLVM's "out of memory", glibc's "libgcc_s.so.1 must
be installed for pthread_exit to work"), which the command line survives by running under a
limit in a child process (:mod:`repro.runtime.memory_limit`)."""

from __future__ import annotations

import errno
import os
import resource
import signal
import subprocess
import sys

import pytest
from conftest import ROOT

from repro.cli import console
from repro.cli.console import OUT_OF_MEMORY_ADVICE, failure_text, out_of_memory_cause
from repro.runtime.memory_limit import LEAN_ALLOCATORS, StderrRelay, signal_text

#: a limit no run of these tests comes near: only the supervision it switches on is tested
GENEROUS = 64 * 2**30


def own_method(tmp_path, body: str):
    """``--config-dir`` arguments and the environment of a user's method ``mine`` whose ``fit``
    runs ``body`` (a GaussianNB otherwise)."""
    conf = tmp_path / "myconf" / "method"
    conf.mkdir(parents=True)
    (tmp_path / "mine_module.py").write_text(
        "import os\nfrom sklearn.naive_bayes import GaussianNB\n\n\n"
        "class Mine(GaussianNB):\n    def fit(self, X, y, sample_weight=None):\n"
        f"        {body}\n"
    )
    (conf / "mine.yaml").write_text("_target_: mine_module.Mine\nvar_smoothing: 1.0e-9\n")
    env = {**os.environ, "MPLBACKEND": "Agg", "PYTHONPATH": f"{tmp_path}{os.pathsep}{ROOT}"}
    env["REPRO_CACHE_DIR"] = os.environ.get("REPRO_CACHE_DIR", "")  # the suite's warm cache
    if not env["REPRO_CACHE_DIR"]:
        del env["REPRO_CACHE_DIR"]
    args = [f"--config-dir={tmp_path / 'myconf'}", "method=mine", "dataset=iris"]
    args += ["progress=false", f"results_dir={tmp_path / 'results'}"]
    return args, env


def run_limited(args, env, cwd, limit: int | None):
    """``python -m repro args`` with RLIMIT_AS at ``limit`` bytes (None: none)."""

    def set_limit():
        if limit is not None:
            resource.setrlimit(resource.RLIMIT_AS, (limit, resource.RLIM_INFINITY))

    return subprocess.run(
        [sys.executable, "-m", "repro", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
        preexec_fn=set_limit,
    )


def test_native_code_that_aborts_under_a_limit_is_one_line(tmp_path):
    """A fit that dies by SIGABRT (as LLVM does on "out of memory"): without a limit the
    interpreter dies with it (the case the supervision is there for); under a limit the command
    says, in one line, which signal under which limit and what helps, and exits 1."""
    args, env = own_method(tmp_path, "os.abort()")
    bare = run_limited(args, env, tmp_path, None)
    assert bare.returncode == -signal.SIGABRT  # nothing in the process can catch it
    limited = run_limited(args, env, tmp_path, GENEROUS)
    assert limited.returncode == 1, limited.stderr
    last = limited.stderr.strip().splitlines()[-1]
    assert last == f"error: {signal_text(-signal.SIGABRT, GENEROUS)}"
    assert "SIGABRT" in last and "ulimit -v 64.00 GiB" in last
    assert "Traceback" not in limited.stderr


def test_what_native_code_prints_as_it_dies_is_held_back(tmp_path):
    """LLVM's lines before an abort: under a limit, only the command's one line; a child that
    ends on its own (exit 0) still shows such a line, at the end."""
    write = 'import sys; sys.stderr.write("LLVM ERROR: out of memory\\nAllocation failed\\n")'
    args, env = own_method(tmp_path, f"{write}; sys.stderr.flush(); os.abort()")
    proc = run_limited(args, env, tmp_path, GENEROUS)
    assert proc.returncode == 1
    assert proc.stderr.strip().splitlines() == [f"error: {signal_text(-signal.SIGABRT, GENEROUS)}"]
    body = 'import sys; return sys.stderr.write("LLVM ERROR: only a word\\n") and super().fit(X, y)'
    args, env = own_method(tmp_path / "ok", body)
    proc = run_limited(args, env, tmp_path / "ok", GENEROUS)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.strip().splitlines()[-1] == "LLVM ERROR: only a word"


def test_the_relay_passes_on_all_but_the_native_abort_lines():
    """Known answer: a warning and a progress bar's ``\\r`` updates go out as they come (a
    marker split across two reads is still seen); LLVM's lines, CPython's fatal error and the
    stacks after it are held back; an unfinished last line goes out at the end."""
    import io

    out = io.BytesIO()
    relay = StderrRelay(out)
    chunks = [b"warning: x\n", b"\rbar 1", b"\rbar 2\n", b"LLV", b"M ERROR: out of memory\n",
              b"Allocation failed\nnext\n", b"Fatal Python error: boom\n",
              b"Thread 0x1\n"]  # fmt: skip
    for chunk in chunks:
        relay.feed(chunk)
    assert out.getvalue() == b"warning: x\n\rbar 1\rbar 2\nnext\n"
    assert bytes(relay.held) == (
        b"LLVM ERROR: out of memory\nAllocation failed\nFatal Python error: boom\nThread 0x1\n"
    )
    relay = StderrRelay(out := io.BytesIO())
    relay.feed(b"ok\nLL")
    relay.close()
    assert out.getvalue() == b"ok\nLL" and not relay.held


def test_a_memory_error_is_one_line_naming_the_method_and_the_data_set(tmp_path):
    """A ``MemoryError`` (what Python raises out of address space): one line, with the method
    and the data set, and the process ends without the shutdown's "Exception ignored" lines."""
    args, env = own_method(tmp_path, "raise MemoryError()")
    for limit in (None, GENEROUS):  # in this process, and in the supervised child
        proc = run_limited(args, env, tmp_path, limit)
        assert proc.returncode == 1, proc.stderr
        lines = proc.stderr.strip().splitlines()
        detail = "" if limit is None else " (ulimit -v 64.00 GiB)"
        assert lines == [f"error: mine on iris: out of memory{detail}{OUT_OF_MEMORY_ADVICE}"]


def test_an_interrupted_child_exits_as_the_command_would(tmp_path):
    """SIGTERM to the supervising process reaches the child, which keeps its finished folds
    and exits 143, as an unsupervised run does."""
    args, env = own_method(tmp_path, "import time; time.sleep(60)")

    def set_limit():
        resource.setrlimit(resource.RLIMIT_AS, (GENEROUS, resource.RLIM_INFINITY))

    proc = subprocess.Popen(
        [sys.executable, "-m", "repro", *args],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=set_limit,
    )
    import time

    deadline = time.monotonic() + 60
    results = tmp_path / "results"
    while time.monotonic() < deadline and not any(results.rglob("*.lock")):
        time.sleep(0.2)  # the child holds the cell's lock: it is fitting
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 143, err
    assert "error: the run was ended by" not in err


@pytest.mark.skipif(sys.platform != "linux", reason="prctl(PR_SET_PDEATHSIG) is Linux's")
def test_the_child_ends_when_the_supervisor_is_killed(tmp_path):
    """SIGKILL to the supervising process (a batch system's time limit): its child, which would
    otherwise fit on for nobody, gets SIGTERM and ends within seconds."""
    marker = tmp_path / "child.pid"
    args, env = own_method(tmp_path, f"open({str(marker)!r}, 'w').write(str(os.getpid())); "
                                     "import time; time.sleep(120)")  # fmt: skip

    def set_limit():
        resource.setrlimit(resource.RLIMIT_AS, (GENEROUS, resource.RLIM_INFINITY))

    proc = subprocess.Popen([sys.executable, "-m", "repro", *args], cwd=tmp_path, env=env,
                            stderr=subprocess.DEVNULL, preexec_fn=set_limit)  # fmt: skip
    import time

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (marker.exists() and marker.read_text()):
        time.sleep(0.1)
    child = int(marker.read_text())
    proc.kill()
    proc.wait()
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and os.path.exists(f"/proc/{child}"):
        status = open(f"/proc/{child}/status").read() if os.path.exists(f"/proc/{child}") else ""
        if "State:\tZ" in status:
            break
        time.sleep(0.1)
    status = open(f"/proc/{child}/status").read() if os.path.exists(f"/proc/{child}") else ""
    assert not status or "State:\tZ" in status, status[:200]


@pytest.mark.parametrize(
    "exc, limited, expected",
    [
        (MemoryError(), False, ""),
        (OSError(errno.ENOMEM, "Cannot allocate memory"), False, "Cannot allocate memory"),
        (
            OSError("Could not find/load shared object file 'libllvmlite.so' from …"),
            True,
            "libllvmlite.so did not load",
        ),  # fmt: skip
        (OSError("Could not find/load shared object file 'libllvmlite.so' from …"), False, None),
        (OSError(errno.ENOENT, "No such file"), True, None),
        (
            RuntimeError(
                "Unknown error: Failed to launch worker thread: Resource temporarily unavailable"
            ),
            True,
            "a thread could not be started",
        ),  # fmt: skip
        (RuntimeError("Failed to launch worker thread"), False, None),
        (ValueError("Unknown method"), True, None),
    ],
)
def test_what_counts_as_out_of_memory(monkeypatch, exc, limited, expected):
    """A library that does not load is memory only under a limit (at 1.7 GB numba's
    ``libllvmlite.so`` fails so, with a message about permissions); the cause is found through
    the chain of exceptions (Hydra re-raises the import error in one of its own)."""
    monkeypatch.setattr(console, "address_space_limit", lambda: 2**30 if limited else None)
    assert out_of_memory_cause(exc) == expected
    wrapped = RuntimeError("Error loading 'repro.methods…'")
    wrapped.__cause__ = exc
    assert out_of_memory_cause(wrapped) == expected
    text = failure_text(wrapped, "snb_cma on iris")
    if expected is None:
        assert text == "Error loading 'repro.methods…'"
    else:
        details = [d for d in (expected, "ulimit -v 1.00 GiB" if limited else "") if d]
        limit = f" ({'; '.join(details)})" if details else ""
        assert text == f"snb_cma on iris: out of memory{limit}{OUT_OF_MEMORY_ADVICE}"


@pytest.mark.parametrize(
    "limit_kib",
    [800_000, pytest.param(1_200_000, marks=pytest.mark.slow),
     pytest.param(1_900_000, marks=pytest.mark.slow),
     pytest.param(2_200_000, marks=pytest.mark.slow)],
)  # fmt: skip
def test_a_cold_compile_under_a_tight_limit_fits_or_ends_in_one_line(tmp_path, limit_kib):
    """The issue's case: the main job's method with an empty compile cache under ``ulimit -v``.
    Before: at 1.2-2.2 GB the compile aborted ("libgcc_s.so.1 must be installed for
    pthread_exit to work", "std::bad_alloc", LLVM's "out of memory"), printed 200-700 lines,
    or crawled for minutes; the child's lean allocators (:data:`LEAN_ALLOCATORS`) leave it the
    address space to compile, and it fits (15-17 s here at 1.0-2.2 GB). At 0.8 GB nothing can
    work: one line, out of memory (a thread or a library that could not be had)."""
    env = {**os.environ, "MPLBACKEND": "Agg", "PYTHONPATH": str(ROOT)}
    env["REPRO_CACHE_DIR"] = str(tmp_path / "cold")
    args = ["method=cma", "dataset=iris", "progress=false", f"results_dir={tmp_path / 'out'}"]
    proc = run_limited(args, env, tmp_path, limit_kib * 1024)
    if limit_kib < 1_000_000:
        lines = proc.stderr.strip().splitlines()
        assert proc.returncode == 1 and len(lines) == 1, proc.stderr[-2000:]
        assert lines[0].startswith("error: snb_cma on iris: out of memory (")
    else:
        assert proc.returncode == 0, proc.stderr[-2000:]
        assert "error" not in proc.stderr and "accuracy" in proc.stdout


def test_the_child_gets_lean_allocators_unless_the_user_chose(tmp_path):
    """Under a limit the child runs with :data:`LEAN_ALLOCATORS`; a user's own setting wins."""
    seen = tmp_path / "seen.txt"
    body = (
        f"open({str(seen)!r}, 'w').write(os.environ.get('ARROW_DEFAULT_MEMORY_POOL', '-') + ' '"
        " + os.environ.get('MALLOC_ARENA_MAX', '-')); return super().fit(X, y)"
    )
    args, env = own_method(tmp_path, body)
    assert run_limited(args, env, tmp_path, GENEROUS).returncode == 0
    assert seen.read_text() == " ".join(LEAN_ALLOCATORS[k] for k in sorted(LEAN_ALLOCATORS))
    env["MALLOC_ARENA_MAX"] = "8"
    args = [
        a if not a.startswith("results_dir=") else f"results_dir={tmp_path / 'r2'}" for a in args
    ]
    assert run_limited(args, env, tmp_path, GENEROUS).returncode == 0
    assert seen.read_text() == "system 8"
    env.pop("MALLOC_ARENA_MAX")
    args = [
        a if not a.startswith("results_dir=") else f"results_dir={tmp_path / 'r3'}" for a in args
    ]
    assert run_limited(args, env, tmp_path, None).returncode == 0  # no limit: the user's own
    assert seen.read_text() == "- -"
