"""Wu et al. (2015), the Bayesian model averaging naive Bayes: :mod:`.bma_nb` (``bma_nb``),
:mod:`.linear` (the logistic-regression and linear-SVM baselines), :mod:`.tuning` (the ``*_tuned``
wrappers: hyper-parameters chosen by inner cross-validation)."""
