"""wu2015 (BMA-NB, averaging over feature models in linear time): figures, claim rules."""
