"""Layer 2, corpus: seed files → typed lemma units (catalog, parsers, alignment); imports only qa.text below it."""
