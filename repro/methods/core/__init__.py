"""The shared core of the weighted naive Bayes: read these first.

- :mod:`.base`: :class:`~repro.methods.core.base.WeightedNaiveBayes`, the fit template every
  weighted naive Bayes of the registry follows (per-variable models, then weights ≥ 0);
- :mod:`.checks`: input and parameter checks (clear ``ValueError`` messages);
- :mod:`.encoding`: the tabular encoder (numeric and nominal columns to codes);
- :mod:`.engine`: encoded data and the N×J score engine, with its numba kernels;
- :mod:`.criteria`: criteria shared by several families (training NLL, multi-class AUC);
- :mod:`.optimisers`: weight optimisers on an objective.

Nothing here imports a paper family.
"""
