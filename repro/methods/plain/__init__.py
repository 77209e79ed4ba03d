"""Naive Bayes with every weight 1: Gaussian, equal-frequency, equal-width and Laplace NB
(:mod:`.nb`), the histogram NB of elovaara2008 (:mod:`.histogram_nb`) and the MODL NB
(:mod:`.modl_nb`)."""
