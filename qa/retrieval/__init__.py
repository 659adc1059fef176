"""Layer 4, retrieval: query analysis, the lexical and dense retrievers, fusion, re-ranking and confidence."""
