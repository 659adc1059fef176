"""Layer 3, indexing: units → passages → dense (FAISS) and lexical (BM25) indexes in one index directory."""
