"""Each paper's report code, one folder per paper: its figures, tables and claim rules."""
