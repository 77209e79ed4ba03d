"""Experiment procedures that need more than a grid of standard cells, each built on the runner.

An experiment config names one with ``task: repro.experiments.<paper>.<function>``; ``python -m
repro experiment=NAME`` then calls ``function(cfg)`` with the composed configuration. Each task
runs cells and units through :mod:`repro.evaluation.runner` (resumable, atomic writes) and so
writes tidy records (the schema of :mod:`repro.evaluation.records`) under
``<results_dir>/<experiment_name>/``; ``python -m repro.report experiment=NAME`` builds the tables
and figures from them without refitting.

- :mod:`repro.experiments.boulle2007`: the waveform study (§5–6, Figs 3–8), the challenge data
  sets offline (Table 4 with constructed-feature stand-ins), the performance prediction
  challenge (§8, Table 5, Fig. 12).
- :mod:`repro.experiments.wu2015`: Figure 2 (accuracy against K and N; the dna substitute
  offline).
- :mod:`repro.experiments.vidaurre2012`: the selected-variables artefact hook of Tables 1–2
  (their sweeps are plain method × data set grids); :mod:`repro.experiments.vidaurre2012`:
  the illustrative studies of Figs 1–6.
- :mod:`repro.experiments.khiops_agreement`: ``fnb_khiops`` against Khiops 11, one unit per data
  set (every bundled data set with a nominal variable); :mod:`repro.experiments.khiops_grouping`:
  the grouping alone, for diagnosis.
- :mod:`repro.experiments.common`: what every task reads from its configuration.
"""
