"""boulle2007 (compression-based averaging of selective NB): figures, tables, claim rules."""
