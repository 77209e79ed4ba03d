"""The command line's own modules (``python -m repro`` is :mod:`repro.__main__`): the checks and
lists of its arguments (:mod:`.arguments`), a job's cell and the finished cells of a sweep read
before its launch (:mod:`.finished_cells`), the sweep's job configurations composed by parts
(:mod:`.sweep_configs`) and how the jobs of a sweep report back (:mod:`.sweep_status`)."""
