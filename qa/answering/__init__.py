"""Layer 5, answering: the sentences that answer, cited; sequence and compare answers; the one ask pipeline (qa.Retriever)."""
