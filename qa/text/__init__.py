"""Layer 1, text: matching normalization, tokens and the tables of qa/data (imports only errors and settings)."""
