"""vidaurre2012 (forward stagewise naive Bayes): figures, tables and claim rules."""
