"""The sweeper of ``python -m repro`` (``conf/hydra/sweeper/repro.yaml``): Hydra's basic sweeper
that, before validating and launching the jobs of a sweep, reads and reports the cells already
finished (:func:`repro.cli.finished_cells.pending_jobs`) and launches only the others.
``hydra.sweeper.skip_finished=false`` (or ``hydra/sweeper=basic``) launches every job.
``hydra.sweeper.exclude`` (a list of ``{key: value or [values]}``) leaves the matching jobs out of
the sweep, named on the console: an experiment's bound
(:func:`repro.cli.finished_cells.excluded_jobs`; ``hydra.sweeper.exclude=[]`` runs them).
``hydra.sweeper.runs`` (a list of ``{method, params, sweep}``) runs each job of the grid once
per method configuration of the runs (:func:`repro.cli.sweep_configs.with_runs`): methods with
different parameters in one sweep, which a grid of overrides cannot give (SNB beside a sweep of
``method.lambda_``).

A Hydra plugin lives in the ``hydra_plugins`` namespace:
:func:`repro.cli.finished_cells.use_sweeper` puts this folder's parent on the module path and
registers the class.
"""

from __future__ import annotations

from hydra._internal.core_plugins.basic_sweeper import BasicSweeper


class FinishedCellsSweeper(BasicSweeper):
    """:class:`BasicSweeper` whose jobs are those of the sweep's cells that are not finished."""

    def __init__(
        self,
        max_batch_size=None,
        params=None,
        skip_finished: bool = True,
        exclude=None,
        runs=None,
    ) -> None:
        super().__init__(max_batch_size=max_batch_size, params=params)
        from repro.cli.sweep_configs import expand_runs
        from repro.config import exclude_entries

        exclude_entries(exclude)  # a malformed list fails here, before any job
        self.exclude = exclude
        expand_runs(runs or [])  # likewise
        self.runs = runs or []
        if not isinstance(skip_finished, bool):
            raise ValueError(
                f"hydra.sweeper.skip_finished must be true or false, got {skip_finished!r}"
            )
        self.skip_finished = skip_finished

    def split_arguments(self, overrides, max_batch_size):
        """The batches of the jobs to launch (the finished cells read and left out)."""
        from repro.cli.finished_cells import excluded_jobs, pending_jobs
        from repro.cli.sweep_configs import with_runs

        (jobs,) = BasicSweeper.split_arguments(overrides, None)
        jobs = with_runs(jobs, self.runs)
        jobs, dropped = excluded_jobs(jobs, self.exclude)
        if dropped:
            print(
                f"left out by the sweep's bound (hydra.sweeper.exclude): {len(dropped)} cell(s): "
                + "; ".join(" ".join(job) for job in dropped),
                flush=True,
            )
        if self.skip_finished:
            loader = self.hydra_context.config_loader
            jobs = pending_jobs(lambda job: loader.load_sweep_config(self.config, job), jobs)
        if not jobs:
            return []
        size = len(jobs) if max_batch_size in (None, -1) else max_batch_size
        return [jobs[i : i + size] for i in range(0, len(jobs), size)]
