"""MODL supervised discretization and value grouping (Boullé 2005, 2006; Khiops ≥ 10).

:mod:`.paper` (the 2005/2006 criteria and reference optimisers), :mod:`.khiops` (Khiops' costs,
reading of numbers and discretization), :mod:`.rules` (tolerances and the post-optimisation
choice), :mod:`.grouping` (Khiops' value grouping), :mod:`.kernels` (the compiled optimisers),
:mod:`.batch` (a block of numeric variables in one compiled call), :mod:`.estimators`
(:class:`~repro.preprocessing.modl.estimators.MODLDiscretizer`, ``MODLGrouper``).
"""
