"""Experiment procedures that need more than a grid of standard cells.

An experiment config names one with ``task: repro.experiments.<paper>.<function>``; ``python -m
repro experiment=NAME`` then calls ``function(cfg)`` with the composed configuration. Each task
writes tidy records (the schema of :mod:`repro.evaluation.records`) under
``<results_dir>/<experiment_name>/`` so that ``python -m repro.report experiment=NAME`` can build
the tables and figures without refitting.

- :mod:`repro.experiments.boulle2007`: the waveform study (§5–6, Figs 3–8), the challenge data
  sets offline (Table 4 with constructed-feature stand-ins), the performance prediction
  challenge (§8, Table 5, Fig. 12).
"""
