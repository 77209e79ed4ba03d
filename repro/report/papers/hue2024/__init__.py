"""hue2024 (fractional naive Bayes): figures, tables and claim rules."""
