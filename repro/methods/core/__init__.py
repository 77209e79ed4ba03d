"""The shared core of the weighted naive Bayes: read these first.

- :mod:`.base`: :class:`~repro.methods.core.base.WeightedNaiveBayes`, the fit template every
  weighted naive Bayes of the registry follows (per-variable models, then weights ≥ 0), and the
  parallel fit of the variable models (:func:`~repro.methods.core.base.fit_variable_models`);
- :mod:`.checks`: input and parameter checks (clear ``ValueError`` messages);
- :mod:`.encoding`: the tabular encoder (numeric and nominal columns to one float matrix,
  nominal values as category codes);
- :mod:`.engine`: encoded data and the N×J score engine, with its numba kernels;
- :mod:`.selection`: forward greedy selection on a training criterion (the SNBs of boulle2007
  and vidaurre2012);
- :mod:`.criteria`: criteria shared by several families (training NLL, multi-class AUC);
- :mod:`.optimisers`: coordinate optimisers of the weights on an objective (the halving descent
  of Khiops' FNB, Algorithm 2 of hue2024).

Nothing here imports a paper family.
"""
