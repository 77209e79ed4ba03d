"""Naive Bayes with every weight 1: Gaussian, binned and m-estimate NB (:mod:`.nb`), the
histogram NB of elovaara2008 (:mod:`.histogram_nb`) and the MODL NB (:mod:`.modl_nb`)."""
