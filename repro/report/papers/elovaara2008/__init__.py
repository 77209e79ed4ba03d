"""elovaara2008 (MDL-based attribute models in naive Bayes): figures and claim rules."""
