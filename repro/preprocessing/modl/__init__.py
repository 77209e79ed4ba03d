"""MODL supervised discretization and value grouping (Boullé 2005, 2006; Khiops ≥ 10).

- :mod:`.criteria`: the 2005/2006 criteria and Khiops' costs (universal codes, Bell numbers,
  partition costs, null cost, Level; ``GroupingCosts``, the cost object of Khiops' grouping);
- :mod:`.rules`: Khiops' tolerances and the post-optimisation choice rule;
- :mod:`.sorted_list`: Khiops' sorted list, whose tie rule decides every greedy step;
- discretization: :mod:`.paper` (the optimisers of ordered rows: greedy merge, post-optimisation,
  exact programme; the 2005 grouping heuristic), :mod:`.khiops` (Khiops' reading of numbers and
  discretization over granularities);
- Khiops' value grouping: :mod:`.grouping` (entry point ``group_values``, granularities, small
  tables, several classes), :mod:`.grouping_two_class` (the two-class optimiser) over
  :mod:`.grouping_intervals` (its interval lists), :mod:`.grouping_multi_class` (groups, reliable
  sub-groups, greedy merges), :mod:`.grouping_post_optimisation` (value moves, forced and
  exhaustive merges);
- :mod:`.kernels` (the compiled optimisers), :mod:`.batch` (a block of numeric variables in one
  compiled call);
- :mod:`.estimators` (:class:`~repro.preprocessing.modl.estimators.MODLDiscretizer`,
  ``MODLGrouper``).
"""
