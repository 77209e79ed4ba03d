"""Tasks shared by this process and one helper process: each takes the next task not yet taken
until none is left, so that two cores finish a list of unequal tasks in about half the time.

``with TaskSharing(preload) as sharing: results = sharing.run(function, tasks, common)`` gives
``[function(task, common, kept) for task in tasks]``, in that order, whichever process ran a
task; ``kept`` is a dict of each process's own, fresh for each run, that its tasks share (what
one task read, the next may reuse).

The helper is spawned on entering the block, where :func:`~repro.runtime.cores.allowed_cores`
gives two cores or more (one core: every task here), and imports the modules ``preload``
meanwhile, so that a caller who still has work to do before :meth:`TaskSharing.run` (composing
configurations) loses no time to the helper's start; ``setup(*setup_args)`` then gives the
helper the state of this process that a spawned one lacks (the user's config folders). Tasks
are taken in list order: put the longest first. ``function`` must be a module-level function
and ``tasks``/``common`` picklable (they travel to the helper); an exception in the helper is
raised here, and leaving the block stops the helper.
"""

from __future__ import annotations

import importlib
import multiprocessing
import queue
import traceback

from repro.runtime.cores import allowed_cores

#: seconds between two checks that the helper still lives while its results are awaited
POLL = 0.5


class HelperFailed(RuntimeError):
    """The helper process ended without returning its tasks' results."""


def _next(counter) -> int:
    with counter.get_lock():
        index = counter.value
        counter.value += 1
    return index


def _finished(done, say, task, total: int) -> None:
    if say is not None:
        say(task, _next(done) + 1, total)


def _serve(counter, done, inbox, outbox, preload, setup, setup_args) -> None:
    """The helper: import ``preload``, call ``setup(*setup_args)``; then, per job from
    ``inbox``, take tasks until none is left, each result (or error) onto ``outbox``, and "done"
    last."""
    for name in preload:
        importlib.import_module(name)
    if setup is not None:
        setup(*setup_args)
    while (job := inbox.get()) is not None:
        function, tasks, common, say = job
        kept: dict = {}
        while (index := _next(counter)) < len(tasks):
            try:
                outbox.put(("result", index, function(tasks[index], common, kept)))
                _finished(done, say, tasks[index], len(tasks))
            except BaseException as exc:  # noqa: BLE001 (handed to the caller, who raises it)
                outbox.put(("error", index, _portable(exc)))
                break
        outbox.put(("done", None, None))


def _portable(exc: BaseException) -> BaseException:
    """``exc`` when it survives pickling, else a HelperFailed carrying its traceback."""
    import pickle

    try:
        pickle.loads(pickle.dumps(exc))
        return exc
    except Exception:  # noqa: BLE001 (an exception of any kind may not pickle)
        text = "".join(traceback.format_exception(exc))
        return HelperFailed(f"the helper process failed:\n{text}")


class TaskSharing:
    """The helper process of a ``with`` block (module docstring)."""

    def __init__(self, preload: tuple[str, ...] = (), setup=None, setup_args: tuple = ()):
        self.preload = tuple(preload)
        self.setup, self.setup_args = setup, tuple(setup_args)
        self._process = None

    def __enter__(self) -> TaskSharing:
        if allowed_cores() >= 2:
            context = multiprocessing.get_context("spawn")
            self._counter, self._done = context.Value("q", 0), context.Value("q", 0)
            self._inbox, self._outbox = context.Queue(), context.Queue()
            self._process = context.Process(
                target=_serve,
                args=(
                    self._counter,
                    self._done,
                    self._inbox,
                    self._outbox,
                    self.preload,
                    self.setup,
                    self.setup_args,
                ),  # fmt: skip
                daemon=True,
            )
            self._process.start()
        return self

    @property
    def helped(self) -> bool:
        """True when a helper process shares the tasks."""
        return self._process is not None

    def run(self, function, tasks: list, common=None, say=None) -> list:
        """``[function(task, common, kept) for task in tasks]`` (module docstring); ``say``: a
        module-level ``say(task, finished, total)`` that either process calls after each task
        (progress: ``finished`` counts the tasks of both)."""
        tasks, kept = list(tasks), {}
        if self._process is None or len(tasks) < 2:
            results = []
            for finished, task in enumerate(tasks, 1):
                results.append(function(task, common, kept))
                if say is not None:
                    say(task, finished, len(tasks))
            return results
        for value in (self._counter, self._done):
            with value.get_lock():
                value.value = 0
        self._inbox.put((function, tasks, common, say))
        results: dict[int, object] = {}
        while (index := _next(self._counter)) < len(tasks):
            results[index] = function(tasks[index], common, kept)
            _finished(self._done, say, tasks[index], len(tasks))
        while True:
            try:
                kind, index, value = self._outbox.get(timeout=POLL)
            except queue.Empty:
                if not self._process.is_alive():
                    raise HelperFailed(
                        f"the helper process ended (exit code {self._process.exitcode}) "
                        "before returning its results"
                    ) from None
                continue
            if kind == "done":
                break
            if kind == "error":
                raise value
            results[index] = value
        return [results[i] for i in range(len(tasks))]

    def __exit__(self, *exc) -> None:
        if self._process is not None:
            if self._process.is_alive():
                self._process.terminate()
            self._process.join()
            for channel in (self._inbox, self._outbox):  # a dead helper never reads: no flush
                channel.cancel_join_thread()
                channel.close()
            self._process = None
